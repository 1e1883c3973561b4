// The retry_conf of a one-off scheduled event and of a cron trigger is Hasura's STRetryConf
// (RQL/Types/ScheduledTrigger.hs): retry_interval_seconds, timeout_seconds and tolerance_seconds
// are NonNegativeDiffTime (`withScientific`: fractions kept, a negative value "negative value not
// allowed" at the key), num_retries an Int whose negative value fails, once all four are read, at
// the retry_conf object: "num_retries cannot be a negative value". Kiln wanted whole numbers, in
// two different wordings for the two operations.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('scheduled triggers: STRetryConf', () => {
  let server: ServedDatabase;
  const md = (type: string, args: unknown, more: Record<string, unknown> = {}) => server.metadata(type, args, more);
  const refusal = (path: string, error: string) => ({ status: 400, body: { path, error, code: 'parse-failed' } });
  const event = { webhook: 'http://127.0.0.1:1/hook', schedule_at: '2099-01-01T00:00:00Z' };
  const cron = { name: 'yearly', webhook: 'http://127.0.0.1:1/hook', schedule: '0 0 1 1 *', include_in_metadata: true };

  beforeAll(async () => { server = await serveDatabase('fidschedretry', ''); });
  afterAll(() => server?.close());

  it('refuses negative values in Hasura words, on both operations', async () => {
    for (const [type, base] of [['create_scheduled_event', event], ['create_cron_trigger', cron]] as const) {
      expect(await md(type, { ...base, retry_conf: { num_retries: -1 } })).toEqual(refusal('$.args.retry_conf', 'num_retries cannot be a negative value'));
      expect(await md(type, { ...base, retry_conf: { num_retries: -1, timeout_seconds: -3 } }))
        .toEqual(refusal('$.args.retry_conf.timeout_seconds', 'negative value not allowed'));
      expect(await md(type, { ...base, retry_conf: { num_retries: 1.5 } })).toMatchObject({ status: 400, body: { path: '$.args.retry_conf.num_retries' } });
    }
    expect((await md('get_cron_triggers', {})).body).toEqual({ cron_triggers: [] });
  });

  it('keeps fractions of a second', async () => {
    const retry = { num_retries: 1, retry_interval_seconds: 1.5, timeout_seconds: 0.5, tolerance_seconds: 30.25 };
    expect((await md('create_scheduled_event', { ...event, retry_conf: retry })).status).toBe(200);
    expect(await md('create_cron_trigger', { ...cron, retry_conf: retry })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await md('get_cron_triggers', {})).body.cron_triggers[0].retry_conf).toEqual(retry);
    const events = (await md('get_scheduled_events', { type: 'one_off' })).body.events;
    expect(events[0].retry_conf).toEqual(retry);
  });
});
