// The v1 query API's writes as a role, through its permissions as Hasura v2 applies them: the
// columns it may give (Hasura's wordings for others and for preset ones), its presets, the rows
// its update or delete filter admits (an upsert updates only those), and its check, whose failure
// leaves nothing written.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('v1 insert, update and delete as a role', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = (body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> => server.post('/v1/query', body, headers);
  const asCook = (type: string, args: unknown, user = '1') => post({ type, args }, { 'x-svc-role': 'cook', 'x-svc-user-id': user });
  const rows = () => db.query('SELECT id, dish, spice, kitchen FROM recipe ORDER BY id');

  beforeAll(async () => {
    server = await serveDatabase('v1writes', `CREATE TABLE recipe (id int PRIMARY KEY, dish text UNIQUE, spice int DEFAULT 0, kitchen int);
      INSERT INTO recipe VALUES (1, 'soup', 1, 1), (2, 'stew', 2, 2);`);
    db = server.db;
    const perm = (type: string, permission: unknown) => ({ type: `create_${type}_permission`, args: { table: 'recipe', role: 'cook', permission } });
    const setup = await post({ type: 'bulk', args: [
      { type: 'track_table', args: { table: 'recipe' } },
      perm('select', { columns: '*', filter: {} }),
      perm('insert', { columns: ['id', 'dish', 'spice'], check: { spice: { _lte: 5 } }, set: { kitchen: 'X-Svc-User-Id' } }),
      perm('update', { columns: ['dish', 'spice'], filter: { kitchen: 'X-Svc-User-Id' }, check: { spice: { _lte: 5 } } }),
      perm('delete', { filter: { kitchen: 'X-Svc-User-Id' } }),
    ] });
    expect(setup.status).toBe(200);
  }, 60_000);
  afterAll(() => server?.close());

  it('inserts with the preset, refuses other and preset columns, and writes nothing when the check fails', async () => {
    expect(await asCook('insert', { table: 'recipe', objects: [{ id: 3, dish: 'curry', spice: 4 }], returning: ['kitchen'] }))
      .toEqual({ status: 200, body: { affected_rows: 1, returning: [{ kitchen: 1 }] } });
    expect(await asCook('insert', { table: 'recipe', objects: [{ id: 4, kitchen: 2 }] })).toEqual({ status: 400, body: {
      path: '$.args.objects[0]', code: 'not-supported', error: 'column "kitchen" is not insertable for role "cook"; its value is predefined in permission' } });
    expect(await asCook('insert', { table: 'recipe', objects: [{ id: 5, dish: 'chili', spice: 3 }, { id: 6, dish: 'vindaloo', spice: 9 }] })).toEqual({
      status: 400, body: { path: '$.args', code: 'permission-error', error: 'check constraint of an insert/update permission has failed' } });
    expect((await rows()).map((r) => r['id'])).toEqual([1, 2, 3]);
  });

  it('updates only the rows its filter admits, refuses columns it may not set, and checks the result', async () => {
    expect(await asCook('update', { table: 'recipe', where: {}, $inc: { spice: 1 } })).toEqual({ status: 200, body: { affected_rows: 2 } });
    expect(await asCook('update', { table: 'recipe', where: {}, $set: { kitchen: 2 } })).toEqual({ status: 400, body: {
      path: "$.args['$set']", code: 'permission-denied', error: 'role "cook" does not have permission to update column "kitchen"' } });
    expect((await asCook('update', { table: 'recipe', where: { id: 1 }, $set: { spice: 50 } })).body.code).toBe('permission-error');
    expect(await rows()).toEqual([
      { id: 1, dish: 'soup', spice: 2, kitchen: 1 }, { id: 2, dish: 'stew', spice: 2, kitchen: 2 }, { id: 3, dish: 'curry', spice: 5, kitchen: 1 }]);
  });

  it('upserts only over a row its update filter admits, and deletes only its own rows', async () => {
    expect(await asCook('insert', { table: 'recipe', objects: [{ id: 7, dish: 'stew', spice: 0 }], on_conflict: { constraint: 'recipe_dish_key', action: 'update' } }))
      .toEqual({ status: 200, body: { affected_rows: 0 } });
    expect(await asCook('insert', { table: 'recipe', objects: [{ id: 8, dish: 'soup', spice: 0 }], on_conflict: { constraint: 'recipe_dish_key', action: 'update' }, returning: ['id', 'spice'] }))
      .toEqual({ status: 200, body: { affected_rows: 1, returning: [{ id: 1, spice: 0 }] } });
    expect(await asCook('delete', { table: 'recipe', where: {} }, '2')).toEqual({ status: 200, body: { affected_rows: 1 } });
    expect((await rows()).map((r) => r['id'])).toEqual([1, 3]);
  });
});
