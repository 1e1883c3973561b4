// Hasura parses a whole request before it runs any of it, a bulk's every element included (its
// `args` are a list of requests: Server/API/Query.hs and Metadata.hs, `RQBulk [RQLQuery]`). So an
// element that does not parse (unknown type, a key its arguments do not take, run_sql arguments of
// the wrong shape, a nested bulk's element) fails the bulk at its own path even when an earlier
// element would fail when run; before, Kiln ran the elements in order and reported the first
// failure it met. Either way the bulk changes nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import type { TestDatabase } from '../helpers/database.js';

describe('a bulk is parsed whole before it runs', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const tracked = async (): Promise<string[]> => (await server.ok('/v1/metadata', { type: 'export_metadata', args: {} })).sources[0].tables
    .map((t: { table: { name: string } }) => t.table.name).sort();
  // Tracking a table twice fails when run: it stands for an element that parses but cannot run.
  const trackTwice = [{ type: 'pg_track_table', args: { table: 'quill' } }, { type: 'pg_track_table', args: { table: 'quill' } }];

  beforeAll(async () => {
    server = await serveDatabase('fidbulkparse', 'CREATE TABLE quill (id int PRIMARY KEY); CREATE TABLE inkwell (id int PRIMARY KEY);');
    db = server.db;
  });

  afterAll(() => server?.close());

  it('the run-time failure of an element is reported when every element parses', async () => {
    const res = await post('/v1/metadata', { type: 'bulk', args: trackTwice });
    expect(res).toEqual({ status: 400, body: { path: '$.args[1].args', code: 'already-tracked', error: 'view/table already tracked : "quill"' } });
    expect(await tracked()).toEqual([]);
  });

  it('an unknown command after it fails the bulk first', async () => {
    const res = await post('/v1/metadata', { type: 'bulk', args: [...trackTwice, { type: 'pg_track_tabel', args: { table: 'inkwell' } }] });
    expect(res).toEqual({ status: 400, body: { path: '$.args[2]', code: 'parse-failed', error: 'unknown metadata command "track_tabel" for backend postgres' } });
    expect(await tracked()).toEqual([]);
  });

  it('an argument key an operation does not take, on /v1/metadata and /v1/query', async () => {
    const meta = await post('/v1/metadata', { type: 'bulk', args: [...trackTwice, { type: 'pg_track_table', args: { table: 'inkwell', sauce: 1 } }] });
    expect(meta.status).toBe(400);
    expect(meta.body).toMatchObject({ path: '$.args[2].args.sauce', code: 'parse-failed' });
    const query = await post('/v1/query', { type: 'bulk', args: [{ type: 'track_table', args: { name: 'quill' } }, { type: 'track_table', args: { name: 'quill' } },
      { type: 'create_select_permission', args: { table: 'quill', role: 'scribe', permision: {} } }] });
    expect(query.status).toBe(400);
    expect(query.body).toMatchObject({ code: 'parse-failed', error: expect.stringContaining('unknown key "permision"') });
    expect(await tracked()).toEqual([]);
  });

  it('run_sql arguments and the elements of a nested bulk are read first too', async () => {
    const sql = await post('/v1/query', { type: 'bulk', args: [{ type: 'run_sql', args: { sql: 'CREATE TABLE blotter (id int)' }, }, { type: 'run_sql', args: { sql: 42 } }] });
    expect(sql).toMatchObject({ status: 400, body: { path: '$.args[1].args.sql', code: 'parse-failed' } });
    expect(await db.query("SELECT 1 FROM pg_class WHERE relname = 'blotter'")).toEqual([]);
    const nested = await post('/v1/metadata', { type: 'bulk', args: [...trackTwice, { type: 'bulk', args: [{ type: 'pg_untrack_tabel', args: {} }] }] });
    expect(nested).toEqual({ status: 400, body: { path: '$.args[2].args[0]', code: 'parse-failed', error: 'unknown metadata command "untrack_tabel" for backend postgres' } });
    expect(await tracked()).toEqual([]);
  });

  it('a bulk that parses runs in order', async () => {
    expect(await server.ok('/v1/metadata', { type: 'bulk', args: [{ type: 'pg_track_table', args: { table: 'quill' } }, { type: 'pg_track_table', args: { table: 'inkwell' } }] }))
      .toEqual([{ message: 'success' }, { message: 'success' }]);
    expect(await tracked()).toEqual(['inkwell', 'quill']);
  });
});
