// /v2/query takes the data operations (insert, select, update, delete, count) besides run_sql and
// bulk, as Hasura's V2Query.RQLQuery does; a role runs them under its permissions, as on
// /v1/query. Anything else is refused, inside its bulks too. Kiln took run_sql and bulk only.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import type { TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';

describe('data operations on /v2/query', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const v2 = (body: unknown, headers: Record<string, string> = {}) => postJson(server.url, '/v2/query', body, headers);
  const reader = { 'X-Svc-Role': 'reader', 'X-Svc-User-Id': '2' };

  beforeAll(async () => {
    server = await serveDatabase('fidv2data', 'CREATE TABLE parcel (id int PRIMARY KEY, owner_id int NOT NULL, weight int NOT NULL);', { metadata: [{ type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'parcel' } },
      { type: 'pg_create_select_permission', args: { table: 'parcel', role: 'reader', permission: { columns: ['id', 'weight'], filter: { owner_id: { _eq: 'X-Svc-User-Id' } } } } },
    ] }] });
    db = server.db;
  });

  afterAll(() => server?.close());

  it('insert, update, delete and count run for admin', async () => {
    expect(await v2({ type: 'insert', args: { table: 'parcel', objects: [{ id: 1, owner_id: 1, weight: 3 }, { id: 2, owner_id: 2, weight: 5 }, { id: 3, owner_id: 2, weight: 8 }] } }))
      .toEqual({ status: 200, body: { affected_rows: 3 } });
    expect(await v2({ type: 'update', args: { table: 'parcel', where: { id: { $eq: 3 } }, $inc: { weight: 1 } } })).toEqual({ status: 200, body: { affected_rows: 1 } });
    expect(await v2({ type: 'count', args: { table: 'parcel', where: { weight: { $gt: 4 } } } })).toEqual({ status: 200, body: { count: 2 } });
    expect(await db.query('SELECT weight FROM parcel WHERE id = 3')).toEqual([{ weight: 9 }]);
  });

  it('a role selects and counts under its permission', async () => {
    expect(await v2({ type: 'select', args: { table: 'parcel', columns: ['id', 'weight'], order_by: ['id'] } }, reader))
      .toEqual({ status: 200, body: [{ id: 2, weight: 5 }, { id: 3, weight: 9 }] });
    expect(await v2({ type: 'count', args: { table: 'parcel' } }, reader)).toEqual({ status: 200, body: { count: 2 } });
    // run_sql stays admin only.
    expect((await v2({ type: 'run_sql', args: { sql: 'SELECT 1' } }, reader)).status).toBe(400);
  });

  it('a bulk mixes them with run_sql, and a metadata operation in it is refused before anything runs', async () => {
    expect(await v2({ type: 'bulk', args: [{ type: 'delete', args: { table: 'parcel', where: { id: { $eq: 1 } } } },
      { type: 'run_sql', args: { sql: 'SELECT count(*) FROM parcel' } }] }))
      .toEqual({ status: 200, body: [{ affected_rows: 1 }, { result_type: 'TuplesOk', result: [['count'], ['2']] }] });
    const refused = await v2({ type: 'bulk', args: [{ type: 'delete', args: { table: 'parcel', where: {} } }, { type: 'untrack_table', args: { table: 'parcel' } }] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ path: '$.args[1].type', code: 'parse-failed' });
    expect(await db.query('SELECT count(*)::int AS n FROM parcel')).toEqual([{ n: 2 }]);
  });
});
