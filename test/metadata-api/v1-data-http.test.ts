// The v1 data operations over HTTP for a role: `/v1/query` lets a role run `select` and `count`
// under its select permission (both the read path and the path inside a transaction get the
// session), refuses it the writes, and keeps every other operation, `bulk` included, admin only.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const SECRET = 'v1-data-http-secret';

describe('/v1/query data operations for a role', () => {
  let db: TestDatabase;
  let close: () => Promise<void>;
  let url: string;

  const call = async (body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${url}/v1/query`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET, ...headers },
    });
    return { status: res.status, body: await res.json() };
  };
  const asUser = (body: unknown, id = '1') => call(body, { 'x-svc-role': 'user', 'x-svc-user-id': id });

  beforeAll(async () => {
    db = await createTestDatabase('v1datahttp', `
      CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, secret text);
      INSERT INTO author (name, secret) VALUES ('ann', 's1'), ('bob', 's2'), ('cid', 's3');`);
    const s = await serveCommand({
      databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', adminSecret: SECRET,
      pgConnections: 4, stringifyNumericTypes: false, console: false,
    });
    url = `http://127.0.0.1:${s.port}`;
    close = () => s.close();
    const setup = await call({ type: 'bulk', args: [
      { type: 'track_table', args: { name: 'author' } },
      { type: 'create_select_permission', args: { table: 'author', role: 'user',
        permission: { columns: ['id', 'name'], filter: { id: { _lte: 'X-Svc-User-Id' } } } } },
    ] });
    expect(setup.status).toBe(200);
  });

  afterAll(async () => {
    await close?.();
    await db?.drop();
  });

  it('runs select and count under the role\'s permission', async () => {
    expect(await asUser({ type: 'select', args: { table: 'author', columns: ['*'], order_by: 'id' } }, '2'))
      .toEqual({ status: 200, body: [{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }] });
    expect(await asUser({ type: 'count', args: { table: 'author' } })).toEqual({ status: 200, body: { count: 1 } });
    expect(await asUser({ type: 'select', args: { table: 'author', columns: ['secret'] } })).toEqual({ status: 400,
      body: { path: '$.args.columns[0]', error: 'role "user" does not have permission to select column "secret"', code: 'permission-denied' } });
    expect(await call({ type: 'select', args: { table: 'author', columns: ['id'] } }, { 'x-svc-role': 'guest' })).toEqual({ status: 400,
      body: { path: '$.args', error: 'select on "author" for role "guest" is not allowed. ', code: 'permission-denied' } });
  });

  it('refuses the role the writes, which run inside the catalog transaction, and changes nothing', async () => {
    expect(await asUser({ type: 'insert', args: { table: 'author', objects: [{ name: 'eve' }] } })).toEqual({ status: 400,
      body: { path: '$.args', error: 'insert on "author" for role "user" is not allowed. ', code: 'permission-denied' } });
    expect(await asUser({ type: 'delete', args: { table: 'author', where: {} } })).toEqual({ status: 400,
      body: { path: '$.args', error: 'delete on "author" for role "user" is not allowed. ', code: 'permission-denied' } });
    expect(await call({ type: 'count', args: { table: 'author' } })).toEqual({ status: 200, body: { count: 3 } });
  });

  it('keeps bulk and every other operation admin only', async () => {
    const denied = { status: 400, body: { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' } };
    expect(await asUser({ type: 'bulk', args: [{ type: 'select', args: { table: 'author', columns: ['id'] } }] })).toEqual(denied);
    expect(await asUser({ type: 'run_sql', args: { sql: 'select 1' } })).toEqual(denied);
    expect(await asUser({ type: 'export_metadata', args: {} })).toEqual(denied);
  });
});
