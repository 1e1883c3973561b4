import { describe, expect, it } from 'vitest';
import { apply, doc, failure, run } from './helpers.js';

const tables = [{ table: { schema: 'hge_tests', name: 'test_t1' } }, { table: { schema: 'public', name: 'users' } }];
const trigger = {
  name: 't1_1', table: { schema: 'hge_tests', name: 'test_t1' },
  insert: { columns: '*' }, update: { columns: '*' }, delete: { columns: '*' }, webhook: 'http://127.0.0.1:5592',
};

describe('event triggers', () => {
  it('stores a trigger in its table with retry defaults, and deletes it (corpus create_and_delete)', () => {
    const out = run(doc({}, tables), 'create_event_trigger', trigger, 'query');
    expect(out.effect).toEqual({ kind: 'create', object: { type: 'event_trigger', name: 'event_trigger t1_1 in table hge_tests.test_t1 in source default' } });
    const md = out.metadata!;
    expect(md.sources[0]?.tables[0]?.event_triggers).toEqual([{
      name: 't1_1', webhook: 'http://127.0.0.1:5592',
      definition: { insert: { columns: '*' }, update: { columns: '*' }, delete: { columns: '*' }, enable_manual: false },
      retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60 },
    }]);
    const gone = apply(md, 'delete_event_trigger', { name: 't1_1' }, 'query');
    expect(gone.sources[0]?.tables[0]).not.toHaveProperty('event_triggers');
    expect(failure(gone, 'pg_delete_event_trigger', { name: 't1_1', source: 'default' })).toEqual({
      path: '$.args', error: 'event trigger "t1_1" does not exist', code: 'not-exists' });
  });

  it('replaces only with replace true', () => {
    const md = apply(doc({}, tables), 'pg_create_event_trigger', { ...trigger, source: 'default' });
    expect(failure(md, 'pg_create_event_trigger', trigger)).toEqual({
      path: '$.args', error: 'Event trigger with name "t1_1" already exists', code: 'already-exists' });
    const next = apply(md, 'pg_create_event_trigger', { ...trigger, webhook: 'http://other', replace: true });
    expect(next.sources[0]?.tables[0]?.event_triggers).toHaveLength(1);
    expect(JSON.stringify(next.sources[0]?.tables[0]?.event_triggers)).toContain('http://other');
  });

  it('checks names, webhooks, specs and the table', () => {
    expect(failure(doc({}, tables), 'create_event_trigger', { ...trigger, name: '' }, 'query')).toEqual({
      path: '$.name', error: 'empty string not allowed', code: 'parse-failed' });
    expect(failure(doc({}, tables), 'create_event_trigger', { ...trigger, name: '1abc' }, 'query')).toEqual({
      path: '$', error: 'only alphanumeric and underscore and hyphens allowed for name', code: 'parse-failed' });
    expect(failure(doc({}, tables), 'pg_create_event_trigger', { ...trigger, name: 'a'.repeat(43) }).error).toBe('event trigger name can be at most 42 characters');
    expect(failure(doc({}, tables), 'pg_create_event_trigger', { ...trigger, webhook_from_env: 'W' }).error).toBe('only one of webhook or webhook_from_env should be given');
    expect(failure(doc({}, tables), 'pg_create_event_trigger', { ...trigger, webhook: undefined }).error).toBe('must provide webhook or webhook_from_env');
    expect(failure(doc({}, tables), 'pg_create_event_trigger', { name: 'x', table: 'users', webhook: 'http://w' }).error)
      .toBe('atleast one amongst insert/update/delete/enable_manual spec must be provided');
    expect(failure(doc({}, tables), 'pg_create_event_trigger', { ...trigger, update: { columns: [] } }).error).toBe('found empty column specification');
    expect(failure(doc({}, tables), 'pg_create_event_trigger', { ...trigger, table: 'nope' })).toEqual({
      path: '$.args.table', error: 'table "nope" does not exist in source: default', code: 'not-exists' });
    expect(failure(doc({}, tables), 'pg_create_event_trigger', { ...trigger, source: 'other' }).code).toBe('not-exists');
  });
});

describe('cron triggers', () => {
  const cron = { name: 'c1', webhook: 'http://w', schedule: '*/5 * * * *', include_in_metadata: true, payload: { a: 1 } };

  it('creates with defaults, replaces and deletes', () => {
    const out = run(doc(), 'create_cron_trigger', cron);
    expect(out.effect).toEqual({ kind: 'create', object: { type: 'cron_trigger', name: 'cron_trigger c1' } });
    expect(out.metadata?.cron_triggers).toEqual([{ ...cron,
      retry_conf: { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 } }]);
    expect(failure(out.metadata!, 'create_cron_trigger', cron)).toEqual({
      path: '$.args', error: 'cron trigger with name: c1 already exists', code: 'already-exists' });
    const replaced = apply(out.metadata!, 'create_cron_trigger', { ...cron, schedule: '0 0 * * 1-5', replace: true });
    expect(replaced.cron_triggers).toHaveLength(1);
    expect(apply(replaced, 'delete_cron_trigger', { name: 'c1' }).cron_triggers).toBeUndefined();
    expect(failure(doc(), 'delete_cron_trigger', { name: 'c1' })).toEqual({
      path: '$.args', error: 'cron trigger with name: c1 does not exist', code: 'not-exists' });
  });

  it('validates the schedule and include_in_metadata', () => {
    for (const bad of ['* * * *', '60 * * * *', '* 24 * * *', '* * 0 * *', '*/0 * * * *', 'a b c d e', '5-1 * * * *']) {
      expect(failure(doc(), 'create_cron_trigger', { ...cron, schedule: bad }).path).toBe('$.args.schedule');
    }
    for (const good of ['0 0 1 1 0', '1,2,3 */2 1-15 * 1-5/2', '59 23 31 12 7']) {
      expect(run(doc(), 'create_cron_trigger', { ...cron, schedule: good }).metadata).not.toBeNull();
    }
    expect(failure(doc(), 'create_cron_trigger', { ...cron, include_in_metadata: undefined }).error).toBe('key "include_in_metadata" not found');
  });
});
