// What the capture triggers write into svc_catalog.event_log for each operation, read from the
// table after changes made directly in PostgreSQL (so no session: null session_variables).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startEventServer, type EventServer } from './event-server.js';

const HOOK = 'http://127.0.0.1:9/hook';

describe('event trigger capture', () => {
  let db: TestDatabase;
  let s: EventServer;
  const events = async (): Promise<{ trigger_name: string; schema_name: string; table_name: string; payload: any }[]> =>
    db.query(`SELECT trigger_name, schema_name, table_name, payload FROM svc_catalog.event_log ORDER BY created_at, payload->>'op'`);
  const create = async (args: Record<string, unknown>): Promise<void> => {
    const r = await s.meta({ type: 'pg_create_event_trigger', args: { webhook: HOOK, ...args } });
    expect(r).toEqual({ status: 200, body: { message: 'success' } });
  };

  beforeAll(async () => {
    db = await createTestDatabase('evcapture', `
      CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, bio text, meta json);
      CREATE SCHEMA "odd ""schema""";
      CREATE TABLE "odd ""schema"""."we'ird" (id int CONSTRAINT weird_pkey PRIMARY KEY, "col ""q""" text, "x$svc$y" text);`);
    s = await startEventServer(db.url);
    const r = await s.meta({ type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'author' } },
      { type: 'pg_track_table', args: { table: { schema: 'odd "schema"', name: "we'ird" }, configuration: {
        custom_name: 'weird', column_config: { 'col "q"': { custom_name: 'colq' }, x$svc$y: { custom_name: 'xy' } } } } },
    ] });
    expect(r).toEqual({ status: 200, body: [{ message: 'success' }, { message: 'success' }] });
    await create({ name: 'author_all', table: 'author', insert: { columns: '*' }, update: { columns: '*' }, delete: { columns: '*' } });
    await create({ name: 'author-name', table: 'author', update: { columns: ['name'], payload: ['id', 'name'] }, insert: { columns: '*', payload: ['id'] } });
    await create({ name: 'odd', table: { schema: 'odd "schema"', name: "we'ird" }, insert: { columns: '*', payload: ['col "q"', 'x$svc$y'] },
      update: { columns: ['col "q"'] } });
  });

  beforeEach(async () => {
    await db.exec('DELETE FROM svc_catalog.event_log; DELETE FROM author');
  });

  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });

  it('records an insert with old null and the whole row as new, and only the payload columns when listed', async () => {
    await db.exec(`INSERT INTO author (id, name, meta) VALUES (1, 'ann', '{"k": [1, 2]}')`);
    const all = await events();
    expect(all).toHaveLength(2);
    expect(all.find((e) => e.trigger_name === 'author_all')).toEqual({
      trigger_name: 'author_all', schema_name: 'public', table_name: 'author',
      payload: { op: 'INSERT', data: { old: null, new: { id: 1, name: 'ann', bio: null, meta: { k: [1, 2] } } }, session_variables: null, trace_context: null },
    });
    expect(all.find((e) => e.trigger_name === 'author-name')?.payload.data).toEqual({ old: null, new: { id: 1 } });
  });

  it('records an update with both rows, and nothing for an update that changes nothing', async () => {
    await db.exec(`INSERT INTO author (id, name) VALUES (1, 'ann')`);
    await db.exec('DELETE FROM svc_catalog.event_log');
    await db.exec(`UPDATE author SET name = 'ann'`);
    expect(await events()).toEqual([]);
    await db.exec(`UPDATE author SET name = 'bea', bio = 'b'`);
    const all = await events();
    expect(all.find((e) => e.trigger_name === 'author_all')?.payload).toEqual({
      op: 'UPDATE', data: { old: { id: 1, name: 'ann', bio: null, meta: null }, new: { id: 1, name: 'bea', bio: 'b', meta: null } },
      session_variables: null, trace_context: null,
    });
    expect(all.find((e) => e.trigger_name === 'author-name')?.payload.data).toEqual({ old: { id: 1, name: 'ann' }, new: { id: 1, name: 'bea' } });
  });

  it('fires an update with a column list only when a listed column changes', async () => {
    await db.exec(`INSERT INTO author (id, name) VALUES (1, 'ann')`);
    await db.exec('DELETE FROM svc_catalog.event_log');
    await db.exec(`UPDATE author SET bio = 'only bio'`);
    expect((await events()).map((e) => e.trigger_name)).toEqual(['author_all']);
    const installed = await db.query<{ def: string }>(`SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgname = 'notify_svc_author-name_UPDATE'`);
    // The function compares the columns; the trigger names none, so dropping a column is the metadata's to judge.
    expect(installed[0]?.def).toContain('AFTER UPDATE ON public.author');
  });

  it('compares columns without an equality operator (json) by value, as jsonb', async () => {
    await db.exec(`INSERT INTO author (id, name, meta) VALUES (1, 'ann', '{"a": 1}')`);
    await db.exec('DELETE FROM svc_catalog.event_log');
    await db.exec(`UPDATE author SET meta = '{"a": 1}'`);
    expect(await events()).toEqual([]);
    await db.exec(`UPDATE author SET meta = '{"a": 2}'`);
    const e = await events();
    expect(e.map((x) => [x.trigger_name, x.payload.data.new.meta])).toEqual([['author_all', { a: 2 }]]);
    await db.exec('DELETE FROM svc_catalog.event_log');
    await db.exec(`UPDATE author SET meta = '{ "a" :2 }'`); // the same value written another way
    expect(await events()).toEqual([]);
  });

  it('records a delete with the old row and new null', async () => {
    await db.exec(`INSERT INTO author (id, name) VALUES (1, 'ann')`);
    await db.exec('DELETE FROM svc_catalog.event_log');
    await db.exec('DELETE FROM author');
    expect(await events()).toEqual([{
      trigger_name: 'author_all', schema_name: 'public', table_name: 'author',
      payload: { op: 'DELETE', data: { old: { id: 1, name: 'ann', bio: null, meta: null }, new: null }, session_variables: null, trace_context: null },
    }]);
  });

  it('quotes names with quotes, spaces and dollar signs in schema, table and columns', async () => {
    await db.exec(`INSERT INTO "odd ""schema"""."we'ird" VALUES (1, 'q', 'd')`);
    await db.exec(`UPDATE "odd ""schema"""."we'ird" SET "x$svc$y" = 'e'`);
    await db.exec(`UPDATE "odd ""schema"""."we'ird" SET "col ""q""" = 'r'`);
    const e = (await events()).filter((x) => x.trigger_name === 'odd');
    expect(e.map((x) => [x.schema_name, x.table_name, x.payload.op, x.payload.data])).toEqual([
      ['odd "schema"', "we'ird", 'INSERT', { old: null, new: { 'col "q"': 'q', x$svc$y: 'd' } }],
      ['odd "schema"', "we'ird", 'UPDATE', { old: { id: 1, 'col "q"': 'q', x$svc$y: 'e' }, new: { id: 1, 'col "q"': 'r', x$svc$y: 'e' } }],
    ]);
  });
});
