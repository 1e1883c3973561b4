// SVC_GRAPHQL_INFER_FUNCTION_PERMISSIONS (Hasura's --infer-function-permissions, default true). With
// inference, a function exposed as a query is a field for every role that may select from the table
// it returns; with `false`, only for admin and the roles given pg_create_function_permission (and the
// inherited roles of those). /v1alpha1/config reports the setting. The flag and its variable take
// true or false, nothing else.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServeInput } from '../../runtime/start/input-check.js';
import { serveCatalog, type CatalogServer } from '../helpers/catalog-server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';

const config = async (server: CatalogServer): Promise<any> => (await fetch(`${server.url}/v1alpha1/config`)).json();

const SETUP = `
  CREATE TABLE article (id int PRIMARY KEY, title text NOT NULL, author_id int NOT NULL);
  INSERT INTO article VALUES (1, 'one', 1), (2, 'two', 2);
  CREATE FUNCTION get_articles(author int) RETURNS SETOF article LANGUAGE sql STABLE AS $$ SELECT * FROM article WHERE author_id = author $$;`;

const METADATA = [
  { type: 'pg_track_table', args: { table: 'article' } },
  { type: 'pg_track_function', args: { function: 'get_articles' } },
  { type: 'pg_create_select_permission', args: { table: 'article', role: 'user', permission: { columns: ['id', 'title'], filter: { author_id: { _eq: 'X-Svc-User-Id' } } } } },
  { type: 'pg_create_select_permission', args: { table: 'article', role: 'editor', permission: { columns: ['id', 'title'], filter: {} } } },
  { type: 'add_inherited_role', args: { role_name: 'chief', role_set: ['editor'] } },
];

const QUERY = '{ get_articles(args: {author: 2}) { id title } }';

describe('function permission inference', () => {
  let db: TestDatabase;
  let inferred: CatalogServer;
  let strict: CatalogServer;
  const as = (server: CatalogServer, role: string) => postJson(server.url, '/v1/graphql', { query: QUERY }, { 'X-Svc-Role': role, 'X-Svc-User-Id': '2' });

  beforeAll(async () => {
    db = await createTestDatabase('fidfninfer', SETUP);
    inferred = await serveCatalog(db.url);
    await inferred.ok('/v1/metadata', { type: 'bulk', args: METADATA });
    await inferred.close();
    // The same catalog served again without inference: the metadata is read back and compiled anew.
    strict = await serveCatalog(db.url, { inferFunctionPermissions: false });
    inferred = await serveCatalog(db.url);
  });

  afterAll(async () => {
    await inferred?.close();
    await strict?.close();
    await db?.drop();
  });

  it('inferred: every role that may read the table calls the function', async () => {
    expect((await as(inferred, 'user')).body).toEqual({ data: { get_articles: [{ id: 2, title: 'two' }] } });
    expect((await as(inferred, 'editor')).body).toEqual({ data: { get_articles: [{ id: 2, title: 'two' }] } });
    expect(await config(inferred)).toMatchObject({ is_function_permissions_inferred: true });
  });

  it('not inferred: only admin and the roles granted it (and their inherited roles) see the field', async () => {
    expect((await as(strict, 'user')).body).toEqual({ errors: [{ message: 'field "get_articles" not found in type: \'query_root\'',
      extensions: { path: '$.selectionSet.get_articles', code: 'validation-failed' } }] });
    expect((await postJson(strict.url, '/v1/graphql', { query: QUERY })).body).toEqual({ data: { get_articles: [{ id: 2, title: 'two' }] } });
    await strict.ok('/v1/metadata', { type: 'pg_create_function_permission', args: { function: 'get_articles', role: 'editor' } });
    expect((await as(strict, 'editor')).body).toEqual({ data: { get_articles: [{ id: 2, title: 'two' }] } });
    expect((await as(strict, 'chief')).body).toEqual({ data: { get_articles: [{ id: 2, title: 'two' }] } });
    expect((await as(strict, 'user')).body.errors[0].extensions.code).toBe('validation-failed');
    expect(await config(strict)).toMatchObject({ is_function_permissions_inferred: false });
  });

  it('the setting takes true or false only', () => {
    const base = { dataDir: '.kiln/x', port: '0', host: '127.0.0.1', pgConnections: '1' };
    expect(checkServeInput({ ...base, inferFunctionPermissions: 'FALSE' }).inferFunctionPermissions).toBe(false);
    expect(checkServeInput(base).inferFunctionPermissions).toBe(true);
    expect(() => checkServeInput({ ...base, inferFunctionPermissions: 'no' }))
      .toThrow('--infer-function-permissions (or SVC_GRAPHQL_INFER_FUNCTION_PERMISSIONS) must be true or false, not "no"');
  });
});
