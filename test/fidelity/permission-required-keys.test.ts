// A permission body must hold its row filter (select, update, delete), its check (insert) and the
// columns of a select or update permission: Hasura's FromJSON instances read them with `.:`
// (RQL/Types/Permission.hs: SelPerm columns, filter; InsPerm check; UpdPerm columns, filter;
// DelPerm filter), so a body without one is refused as the document is read (parse-failed, "the
// key 'filter' was not present", at the body's path) and nothing changes. Before, Kiln took such a
// body and read the missing filter as "every row".

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('permission bodies without their filter or check', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> => server.post(path, body, headers);
  const md = (type: string, args: unknown) => post('/v1/metadata', { type, args });
  const missing = (key: string, path: string) => ({ status: 400, body: { code: 'parse-failed', error: `the key '${key}' was not present`, path } });

  beforeAll(async () => {
    server = await serveDatabase('fidpermkeys', "CREATE TABLE memo (id serial PRIMARY KEY, body text, owner int); INSERT INTO memo (body, owner) VALUES ('a', 1), ('b', 2);", {
      track: ['memo'] });
  }, 60_000);
  afterAll(() => server?.close());

  it('refuses each kind of permission without its filter, check or columns, on /v1/metadata', async () => {
    const before = (await md('export_metadata', {})).body;
    const cases: [string, Record<string, unknown>, string][] = [
      ['pg_create_select_permission', { columns: ['id', 'body'] }, 'filter'],
      ['pg_create_select_permission', { filter: {} }, 'columns'],
      ['pg_create_insert_permission', { columns: ['body'] }, 'check'],
      ['pg_create_update_permission', { columns: ['body'] }, 'filter'],
      ['pg_create_update_permission', { filter: {} }, 'columns'],
      ['pg_create_delete_permission', {}, 'filter'],
    ];
    for (const [type, permission, key] of cases) {
      expect(await md(type, { table: 'memo', role: 'user', permission })).toEqual(missing(key, '$.args.permission'));
    }
    // A null is no filter either.
    expect(await md('pg_create_select_permission', { table: 'memo', role: 'user', permission: { columns: '*', filter: null } }))
      .toEqual(missing('filter', '$.args.permission'));
    expect((await md('export_metadata', {})).body).toEqual(before);
    const asUser = await post('/v1/graphql', { query: '{ memo { id } }' }, { 'x-svc-role': 'user' });
    expect(asUser.body.errors[0].extensions.code).toBe('validation-failed');
  });

  it('reports the path relative to args on /v1/query, and still takes a body that has its keys', async () => {
    expect(await post('/v1/query', { type: 'create_select_permission', args: { table: 'memo', role: 'user', permission: { columns: '*' } } }))
      .toEqual(missing('filter', '$.permission'));
    expect(await post('/v1/query', { type: 'create_delete_permission', args: { table: 'memo', role: 'user', permission: { backend_only: false } } }))
      .toEqual(missing('filter', '$.permission'));
    const made = await post('/v1/query', { type: 'create_select_permission', args: { table: 'memo', role: 'user', permission: { columns: '*', filter: { owner: { _eq: 1 } } } } });
    expect(made).toEqual({ status: 200, body: { message: 'success' } });
    const asUser = await post('/v1/graphql', { query: '{ memo { body } }' }, { 'x-svc-role': 'user' });
    expect(asUser.body).toEqual({ data: { memo: [{ body: 'a' }] } });
  });

  it('refuses a whole document whose permission has no filter, at that permission', async () => {
    const before = (await md('export_metadata', {})).body;
    const source = before.sources[0];
    const table = { table: { schema: 'public', name: 'memo' }, delete_permissions: [{ role: 'user', permission: {} }] };
    const r = await post('/v1/metadata', { type: 'replace_metadata', args: { ...before, sources: [{ ...source, tables: [table] }] } });
    expect(r).toEqual(missing('filter', '$.args.sources[0].tables[0].delete_permissions[0].permission'));
    expect((await md('export_metadata', {})).body).toEqual(before);
  });
});
