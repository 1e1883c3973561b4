// The event operations of the metadata API over HTTP: invoke (manual events), redeliver, the
// event-log reads and cleanup, on /v1/metadata and (invoke, redeliver) on /v1/query.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startEventServer, type EventServer } from './event-server.js';

const HOOK = 'http://127.0.0.1:9/hook';

describe('event trigger operations', () => {
  let db: TestDatabase;
  let s: EventServer;
  const row = async (id: string): Promise<Record<string, unknown>> =>
    (await db.query('SELECT delivered, error, tries, locked, next_retry_at, archived FROM svc_catalog.event_log WHERE id = $1', [id]))[0]!;
  const insertEvent = async (): Promise<string> => {
    await db.exec(`INSERT INTO author (name) VALUES ('ann')`);
    return (await db.query<{ id: string }>('SELECT id FROM svc_catalog.event_log ORDER BY created_at DESC LIMIT 1'))[0]!.id;
  };

  beforeAll(async () => {
    db = await createTestDatabase('evops', 'CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL)');
    s = await startEventServer(db.url);
    const r = await s.meta({ type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'author' } },
      { type: 'pg_create_event_trigger', args: { name: 'manual_on', table: 'author', webhook: HOOK, enable_manual: true } },
      { type: 'pg_create_event_trigger', args: { name: 'auto', table: 'author', webhook: HOOK, insert: { columns: '*' } } },
    ] });
    expect(r.status).toBe(200);
  });

  beforeEach(async () => {
    await db.exec('TRUNCATE svc_catalog.event_log, svc_catalog.event_invocation_logs');
  });

  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });

  describe('pg_invoke_event_trigger', () => {
    it('inserts a MANUAL event with the payload as new and the caller\'s session, and answers its id', async () => {
      const r = await s.meta({ type: 'pg_invoke_event_trigger', args: { name: 'manual_on', source: 'default', payload: { id: 7, x: [1] } } });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['event_id']);
      const rows = await db.query('SELECT id, schema_name, table_name, trigger_name, payload, delivered, tries FROM svc_catalog.event_log');
      expect(rows).toEqual([{
        id: r.body.event_id, schema_name: 'public', table_name: 'author', trigger_name: 'manual_on', delivered: false, tries: 0,
        payload: { op: 'MANUAL', data: { old: null, new: { id: 7, x: [1] } }, session_variables: { 'x-svc-role': 'admin' }, trace_context: null },
      }]);
    });

    it('refuses a trigger without enable_manual, an unknown trigger and a missing payload, writing nothing', async () => {
      expect(await s.meta({ type: 'pg_invoke_event_trigger', args: { name: 'auto', payload: {} } })).toEqual({ status: 400,
        body: { path: '$.args', error: 'manual mode is not enabled for event trigger', code: 'not-supported' } });
      expect(await s.meta({ type: 'pg_invoke_event_trigger', args: { name: 'nope', payload: {} } })).toEqual({ status: 400,
        body: { path: '$.args', error: 'event trigger "nope" does not exist', code: 'not-exists' } });
      expect(await s.meta({ type: 'pg_invoke_event_trigger', args: { name: 'manual_on' } })).toEqual({ status: 400,
        body: { path: '$.args', error: "the key 'payload' was not present", code: 'parse-failed' } });
      expect(await s.meta({ type: 'pg_invoke_event_trigger', args: { name: 'manual_on', source: 'other', payload: 1 } })).toEqual({ status: 400,
        body: { path: '$.args.source', error: 'source with name "other" does not exist', code: 'not-exists' } });
      expect(await db.query('SELECT id FROM svc_catalog.event_log')).toEqual([]);
    });

    it('is invoke_event_trigger on /v1/query, without a source', async () => {
      const r = await s.meta({ type: 'invoke_event_trigger', args: { name: 'manual_on', payload: null } }, '/v1/query');
      expect(r.status).toBe(200);
      expect((await db.query<{ p: unknown }>("SELECT payload->'data' AS p FROM svc_catalog.event_log"))).toEqual([{ p: { old: null, new: null } }]);
      expect(await s.meta({ type: 'invoke_event_trigger', args: { payload: 1 } }, '/v1/query')).toEqual({ status: 400,
        body: { path: '$', error: "the key 'name' was not present", code: 'parse-failed' } });
    });
  });

  describe('pg_redeliver_event', () => {
    it('resets a failed event for delivery', async () => {
      const id = await insertEvent();
      await db.query(`UPDATE svc_catalog.event_log SET error = true, tries = 4, next_retry_at = now(), locked = now() - interval '1 hour' WHERE id = $1`, [id]);
      expect(await s.meta({ type: 'pg_redeliver_event', args: { event_id: id } })).toEqual({ status: 200, body: { message: 'success' } });
      expect(await row(id)).toEqual({ delivered: false, error: false, tries: 0, locked: null, next_retry_at: null, archived: false });
    });

    it('refuses an unknown event and one a worker holds, changing nothing', async () => {
      expect(await s.meta({ type: 'pg_redeliver_event', args: { event_id: 'no-such-event' } })).toEqual({ status: 400,
        body: { path: '$.args', error: 'event not found', code: 'not-exists' } });
      const id = await insertEvent();
      await db.query('UPDATE svc_catalog.event_log SET tries = 2, locked = now() WHERE id = $1', [id]);
      expect(await s.meta({ type: 'pg_redeliver_event', args: { event_id: id } })).toEqual({ status: 400,
        body: { path: '$.args', error: 'event is already being processed', code: 'busy' } });
      expect((await row(id))['tries']).toBe(2);
      expect(await s.meta({ type: 'pg_redeliver_event', args: { event_id: 5 } })).toEqual({ status: 400,
        body: { path: '$.args.event_id', error: 'parsing Text failed, expected String, but encountered Number', code: 'parse-failed' } });
    });

    it('is redeliver_event on /v1/query', async () => {
      const id = await insertEvent();
      await db.query('UPDATE svc_catalog.event_log SET delivered = true, tries = 1 WHERE id = $1', [id]);
      expect(await s.meta({ type: 'redeliver_event', args: { event_id: id } }, '/v1/query')).toEqual({ status: 200, body: { message: 'success' } });
      expect(await row(id)).toMatchObject({ delivered: false, tries: 0 });
    });
  });

  describe('event logs', () => {
    let ids: string[];
    beforeEach(async () => {
      ids = [];
      for (let i = 0; i < 3; i++) ids.push(await insertEvent());
      await db.query('UPDATE svc_catalog.event_log SET delivered = true WHERE id = $1', [ids[0]]);
      await db.query(`INSERT INTO svc_catalog.event_invocation_logs (trigger_name, event_id, status, request, response)
        VALUES ('auto', $1, 200, '{"payload": {}}', '{"type": "webhook_response"}'), ('auto', $1, 500, '{}', '{}')`, [ids[0]]);
    });

    it('pg_get_event_logs lists a trigger\'s events newest first, by status and page', async () => {
      const all = await s.meta({ type: 'pg_get_event_logs', args: { name: 'auto' } });
      expect(all.status).toBe(200);
      expect(all.body.map((e: any) => e.id)).toEqual([...ids].reverse());
      expect(Object.keys(all.body[0]).sort()).toEqual(['archived', 'created_at', 'delivered', 'error', 'id', 'locked', 'next_retry_at',
        'payload', 'schema_name', 'table_name', 'tries', 'trigger_name']);
      expect(all.body[2]).toMatchObject({ id: ids[0], trigger_name: 'auto', schema_name: 'public', table_name: 'author', delivered: true, error: false,
        tries: 0, locked: null, next_retry_at: null, archived: false, payload: { op: 'INSERT' } });
      expect(all.body[2].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      const processed = await s.meta({ type: 'pg_get_event_logs', args: { name: 'auto', status: 'processed' } });
      expect(processed.body.map((e: any) => e.id)).toEqual([ids[0]]);
      const pending = await s.meta({ type: 'pg_get_event_logs', args: { name: 'auto', status: 'pending', limit: 1, offset: 1 } });
      expect(pending.body.map((e: any) => e.id)).toEqual([ids[1]]);
    });

    it('pg_get_event_logs checks its arguments', async () => {
      expect(await s.meta({ type: 'pg_get_event_logs', args: { name: 'auto', status: 'all' } })).toEqual({ status: 400, body: { path: '$.args.status',
        error: 'event logs status can only be one of the following: processed or pending', code: 'parse-failed' } });
      expect(await s.meta({ type: 'pg_get_event_logs', args: { name: 'auto', limit: -1 } })).toEqual({ status: 400, body: { path: '$.args.limit',
        error: 'limit must be a non-negative integer', code: 'parse-failed' } });
      expect(await s.meta({ type: 'pg_get_event_logs', args: { name: 'auto', offset: 'x' } })).toEqual({ status: 400, body: { path: '$.args.offset',
        error: 'parsing Int failed, expected Number, but encountered String', code: 'parse-failed' } });
      expect(await s.meta({ type: 'pg_get_event_logs', args: { name: 'ghost' } })).toEqual({ status: 400, body: { path: '$.args',
        error: 'event trigger "ghost" does not exist', code: 'not-exists' } });
    });

    it('pg_get_event_invocation_logs lists a trigger\'s delivery attempts', async () => {
      const r = await s.meta({ type: 'pg_get_event_invocation_logs', args: { name: 'auto', source: 'default', limit: 10 } });
      expect(r.status).toBe(200);
      expect(r.body.map((i: any) => [i.event_id, i.http_status, i.trigger_name]).sort()).toEqual([[ids[0], 200, 'auto'], [ids[0], 500, 'auto']]);
      expect(Object.keys(r.body[0]).sort()).toEqual(['created_at', 'event_id', 'http_status', 'id', 'request', 'response', 'trigger_name']);
      expect((await s.meta({ type: 'pg_get_event_invocation_logs', args: { name: 'manual_on' } })).body).toEqual([]);
    });

    it('pg_get_event_by_id answers the event and its invocations (null for an unknown id)', async () => {
      const r = await s.meta({ type: 'pg_get_event_by_id', args: { event_id: ids[0], invocation_log_limit: 1 } });
      expect(r.status).toBe(200);
      expect(r.body.event).toMatchObject({ id: ids[0], delivered: true });
      expect(r.body.invocations).toHaveLength(1);
      expect(r.body.invocations[0].event_id).toBe(ids[0]);
      expect(await s.meta({ type: 'pg_get_event_by_id', args: { event_id: 'unknown' } })).toEqual({ status: 200, body: { event: null, invocations: [] } });
      expect(await s.meta({ type: 'pg_get_event_by_id', args: {} })).toEqual({ status: 400, body: { path: '$.args',
        error: "the key 'event_id' was not present", code: 'parse-failed' } });
    });

    it('cleanup_event_trigger_logs deletes processed events older than the given hours, with their invocations when asked', async () => {
      const none = await s.meta({ type: 'cleanup_event_trigger_logs', args: { event_trigger_name: 'auto', clear_older_than: 1, clean_invocation_logs: true } });
      expect(none).toEqual({ status: 200, body: { deleted_event_logs: 0, deleted_event_invocation_logs: 0 } });
      await db.exec(`UPDATE svc_catalog.event_log SET created_at = created_at - interval '2 hours'`);
      const r = await s.meta({ type: 'cleanup_event_trigger_logs', args: { event_trigger_name: 'auto', clear_older_than: 1, clean_invocation_logs: true, batch_size: 1 } });
      expect(r).toEqual({ status: 200, body: { deleted_event_logs: 1, deleted_event_invocation_logs: 2 } });
      expect((await db.query<{ id: string }>('SELECT id FROM svc_catalog.event_log ORDER BY created_at')).map((x) => x.id)).toEqual(ids.slice(1));
      expect(await s.meta({ type: 'cleanup_event_trigger_logs', args: { event_trigger_name: 'auto' } })).toEqual({ status: 400, body: { path: '$.args',
        error: "the key 'clear_older_than' was not present", code: 'parse-failed' } });
    });
  });
});
