// How the database triggers follow the metadata: created with the event trigger, replaced with
// it, dropped (and the pending events archived) with it or with its table, never installed by a
// change that fails, recreated on reload_metadata, completed at start.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startEventServer, type EventServer } from './event-server.js';

const HOOK = 'http://127.0.0.1:9/hook';

describe('capture triggers follow the metadata', () => {
  let db: TestDatabase;
  let s: EventServer;
  const installed = async (): Promise<string[]> => (await db.query<{ n: string }>(`
    SELECT tgname || ' ON ' || tgrelid::regclass::text || ' ' || tgenabled::text AS n FROM pg_trigger WHERE tgname LIKE 'notify\\_svc\\_%'
    UNION ALL SELECT 'function ' || proname FROM pg_proc WHERE pronamespace = 'svc_catalog'::regnamespace AND proname LIKE 'notify\\_svc\\_%'
    ORDER BY 1`)).map((r) => r.n);
  const ops = async (): Promise<string[]> => (await db.query<{ o: string }>(
    `SELECT trigger_name || ':' || (payload->>'op') || ':' || archived AS o FROM svc_catalog.event_log ORDER BY 1`)).map((r) => r.o);
  const trigger = (name: string, more: Record<string, unknown> = {}) =>
    ({ type: 'pg_create_event_trigger', args: { name, table: 'author', webhook: HOOK, insert: { columns: '*' }, ...more } });
  const ok = { status: 200, body: { message: 'success' } };

  beforeAll(async () => {
    db = await createTestDatabase('evlife', `
      CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, bio text);
      CREATE TABLE article (id serial PRIMARY KEY, title text);`);
    s = await startEventServer(db.url);
    expect((await s.meta({ type: 'pg_track_table', args: { table: 'author' } })).status).toBe(200);
  });

  beforeEach(async () => {
    const md = (await s.meta({ type: 'export_metadata', args: {} })).body;
    for (const t of md.sources[0].tables.flatMap((x: any) => x.event_triggers ?? [])) {
      expect(await s.meta({ type: 'pg_delete_event_trigger', args: { name: t.name } })).toEqual(ok);
    }
    await db.exec(`DELETE FROM author; DO $$ BEGIN
      IF to_regclass('svc_catalog.event_log') IS NOT NULL THEN TRUNCATE svc_catalog.event_log; END IF; END $$`);
  });

  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });

  it('deleting the trigger drops the database trigger and its function and archives its events', async () => {
    expect(await s.meta(trigger('gone', { delete: { columns: '*' } }))).toEqual(ok);
    expect(await s.meta(trigger('kept'))).toEqual(ok);
    expect(await installed()).toEqual([
      'function notify_svc_gone_DELETE', 'function notify_svc_gone_INSERT', 'function notify_svc_kept_INSERT',
      'notify_svc_gone_DELETE ON author O', 'notify_svc_gone_INSERT ON author O', 'notify_svc_kept_INSERT ON author O']);
    await db.exec(`INSERT INTO author (name) VALUES ('ann')`);
    expect(await s.meta({ type: 'pg_delete_event_trigger', args: { name: 'gone' } })).toEqual(ok);
    expect(await installed()).toEqual(['function notify_svc_kept_INSERT', 'notify_svc_kept_INSERT ON author O']);
    expect(await ops()).toEqual(['gone:INSERT:true', 'kept:INSERT:false']);
    await db.exec('DELETE FROM author');
    expect(await ops()).toEqual(['gone:INSERT:true', 'kept:INSERT:false']);
  });

  it('replace installs the new definition: operations taken away are dropped, new ones created', async () => {
    expect(await s.meta(trigger('t'))).toEqual(ok);
    expect(await s.meta(trigger('t', { replace: true, insert: undefined, update: { columns: ['bio'] }, trigger_on_replication: true }))).toEqual(ok);
    expect(await installed()).toEqual(['function notify_svc_t_UPDATE', 'notify_svc_t_UPDATE ON author A']);
    await db.exec(`INSERT INTO author (name) VALUES ('ann')`);
    await db.exec(`UPDATE author SET name = 'bea'`);
    expect(await ops()).toEqual([]);
    await db.exec(`UPDATE author SET bio = 'x'`);
    expect(await ops()).toEqual(['t:UPDATE:false']);
  });

  it('untracking the table removes its triggers', async () => {
    expect(await s.meta({ type: 'pg_track_table', args: { table: 'article' } })).toEqual(ok);
    expect(await s.meta(trigger('on_article', { table: 'article' }))).toEqual(ok);
    expect(await installed()).toEqual(['function notify_svc_on_article_INSERT', 'notify_svc_on_article_INSERT ON article O']);
    expect(await s.meta({ type: 'pg_untrack_table', args: { table: 'article' } })).toEqual(ok);
    expect(await installed()).toEqual([]);
    await db.exec(`INSERT INTO article (title) VALUES ('a')`);
    expect(await ops()).toEqual([]);
  });

  it('a change that fails later in a bulk installs nothing', async () => {
    const r = await s.meta({ type: 'bulk', args: [trigger('never'), { type: 'pg_track_table', args: { table: 'no_such_table' } }] });
    expect(r.status).toBe(400);
    expect(await installed()).toEqual([]);
    await db.exec(`INSERT INTO author (name) VALUES ('ann')`);
    expect(await ops()).toEqual([]);
  });

  it('refuses a webhook_from_env or header value_from_env that is not set, and installs nothing', async () => {
    delete process.env.KILN_TEST_UNSET_HOOK;
    const r = await s.meta({ type: 'pg_create_event_trigger', args: { name: 'envy', table: 'author', webhook_from_env: 'KILN_TEST_UNSET_HOOK', insert: { columns: '*' } } });
    expect(r).toMatchObject({ status: 400, body: { code: 'invalid-configuration', path: '$.args', error: "Inconsistent object: in table \"author\": in event trigger \"envy\": environment variable 'KILN_TEST_UNSET_HOOK' not set" } });
    const h = await s.meta(trigger('envy', { headers: [{ name: 'x-k', value_from_env: 'KILN_TEST_UNSET_HEADER' }] }));
    expect(h).toMatchObject({ status: 400, body: { error: "Inconsistent object: in table \"author\": in event trigger \"envy\": environment variable 'KILN_TEST_UNSET_HEADER' not set" } });
    expect(await installed()).toEqual([]);
    process.env.KILN_TEST_SET_HOOK = 'http://127.0.0.1:9/from-env';
    expect(await s.meta({ type: 'pg_create_event_trigger', args: { name: 'envy', table: 'author', webhook_from_env: 'KILN_TEST_SET_HOOK', insert: { columns: '*' } } })).toEqual(ok);
    expect(await installed()).toEqual(['function notify_svc_envy_INSERT', 'notify_svc_envy_INSERT ON author O']);
  });

  it('refuses a trigger naming a column the table does not have', async () => {
    // A listened column is checked with the request (Hasura's resolveEventTriggerQuery); a payload
    // column when the trigger is built, as an inconsistent object.
    const r = await s.meta(trigger('bad', { update: { columns: ['nope'] } }));
    expect(r).toMatchObject({ status: 400, body: { code: 'not-exists', path: '$.args', error: 'column "nope" does not exist' } });
    const p = await s.meta(trigger('bad', { update: { columns: '*', payload: ['nope'] } }));
    expect(p).toMatchObject({ status: 400, body: { code: 'invalid-configuration', path: '$.args',
      error: 'Inconsistent object: in table "author": in event trigger "bad": column "nope" of the update specification does not exist' } });
    expect(await installed()).toEqual([]);
  });

  it('reload_metadata with recreate_event_triggers writes the triggers again; without it, nothing', async () => {
    expect(await s.meta(trigger('again'))).toEqual(ok);
    await db.exec('DROP TRIGGER "notify_svc_again_INSERT" ON author');
    expect(await s.meta({ type: 'reload_metadata', args: {} })).toMatchObject({ status: 200 });
    expect(await installed()).toEqual(['function notify_svc_again_INSERT']);
    expect(await s.meta({ type: 'reload_metadata', args: { recreate_event_triggers: true } })).toMatchObject({ status: 200 });
    expect(await installed()).toEqual(['function notify_svc_again_INSERT', 'notify_svc_again_INSERT ON author O']);
  });

  it('a restart creates the triggers the database lacks', async () => {
    expect(await s.meta(trigger('boot'))).toEqual(ok);
    await db.exec('DROP FUNCTION svc_catalog."notify_svc_boot_INSERT"() CASCADE');
    expect(await installed()).toEqual([]);
    await s.close();
    s = await startEventServer(db.url);
    expect(await installed()).toEqual(['function notify_svc_boot_INSERT', 'notify_svc_boot_INSERT ON author O']);
  });

  it('follows a column renamed by run_sql: the payload names the new column', async () => {
    expect(await s.meta(trigger('renamed', { insert: { columns: '*', payload: ['bio'] } }))).toEqual(ok);
    const r = await s.meta({ type: 'run_sql', args: { sql: 'ALTER TABLE author RENAME COLUMN bio TO about' } }, '/v2/query');
    expect(r.status).toBe(200);
    await db.exec(`INSERT INTO author (name, about) VALUES ('ann', 'hi')`);
    expect(await db.query(`SELECT payload->'data'->'new' AS n FROM svc_catalog.event_log`)).toEqual([{ n: { about: 'hi' } }]);
    const back = await s.meta({ type: 'run_sql', args: { sql: 'ALTER TABLE author RENAME COLUMN about TO bio' } }, '/v2/query');
    expect(back.status).toBe(200);
  });

  it('a trigger with only enable_manual installs no database trigger, and can be invoked on a fresh database', async () => {
    const fresh = await createTestDatabase('evlife2', 'CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL)');
    const other = await startEventServer(fresh.url);
    try {
      expect(await other.meta({ type: 'pg_track_table', args: { table: 'author' } })).toEqual(ok);
      expect(await other.meta(trigger('manual', { insert: undefined, enable_manual: true }))).toEqual(ok);
      expect(await fresh.query(`SELECT tgname FROM pg_trigger WHERE tgname LIKE 'notify%'`)).toEqual([]);
      const r = await other.meta({ type: 'pg_invoke_event_trigger', args: { name: 'manual', payload: { a: 1 } } });
      expect(r.status).toBe(200);
      expect(await fresh.query(`SELECT trigger_name, payload->>'op' AS op FROM svc_catalog.event_log`)).toEqual([{ trigger_name: 'manual', op: 'MANUAL' }]);
    } finally {
      await other.close();
      await fresh.drop();
    }
  });
});
