// Every operation the compiler answers has a shape for its args, so none takes an unknown key in
// silence; the shapes accept the keys the conformance corpus sends (it replays in corpus.test.ts).
import { describe, expect, it } from 'vitest';
import { argKeyProblem, commandsWithArgShapes } from '../../compiler/ops/arg-keys.js';
import { extraOperations } from '../../compiler/ops/extra/index.js';
import { BACKENDS, coreOperations } from '../../compiler/ops/registry.js';
import { formatPath } from '../../runtime/errors/index.js';

const command = (type: string): string => {
  const cut = type.indexOf('_');
  return cut > 0 && Object.hasOwn(BACKENDS, type.slice(0, cut)) ? type.slice(cut + 1) : type;
};

describe('operation args', () => {
  it('every operation has an args shape', () => {
    const known = new Set(commandsWithArgShapes());
    const missing = [...Object.keys(coreOperations), ...Object.keys(extraOperations)].filter((t) => !known.has(t) && !known.has(command(t)));
    expect(missing).toEqual([]);
  });

  it('an unknown key is refused at its path with a hint, at the top and inside a part', () => {
    const top = argKeyProblem('pg_track_table', { table: 'a', sorce: 'default' });
    expect([top?.code, formatPath(top?.path ?? []), top?.message]).toEqual(['parse-failed', '$.args.sorce', expect.stringContaining('did you mean "source"?')]);
    const deep = argKeyProblem('create_cron_trigger', { name: 'c', webhook: 'w', schedule: '* * * * *', retry_conf: { num_retries: 1, timeout_second: 3 } });
    expect(formatPath(deep?.path ?? [])).toBe('$.args.retry_conf.timeout_second');
    expect(deep?.message).toContain('did you mean "timeout_seconds"?');
    expect(argKeyProblem('pg_create_event_trigger', { name: 'e', table: 't', webhook: 'w', insert: { columns: '*' }, cleanup_config: { schedule: '* * * * *' } })?.code).toBe('not-supported');
    expect(argKeyProblem('set_api_limits', { disabled: false, rate_limit: { per_role: { user: { max_reqs_per_min: 1, unique_params: 'IP' } } } })).toBeUndefined();
  });
});
