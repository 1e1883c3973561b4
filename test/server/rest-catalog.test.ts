// REST endpoints and the allow-list under `kiln serve --database-url` (metadata in svc_catalog):
// what the metadata API creates is served at once, and a dropped endpoint or collection is gone
// at once, because every change swaps in a newly compiled engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const SECRET = 'rest-catalog-secret';

let db: TestDatabase;
let server: { close(): Promise<void>; port: number };
let url: string;

async function metadata(type: string, args: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/v1/metadata`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET },
    body: JSON.stringify({ type, args }) });
  return { status: res.status, body: await res.json() };
}

const asReader = { 'x-svc-admin-secret': SECRET, 'x-svc-role': 'reader' };

beforeAll(async () => {
  db = await createTestDatabase('rest_catalog', `
    CREATE TABLE item (id serial PRIMARY KEY, label text NOT NULL);
    INSERT INTO item (label) VALUES ('one'), ('two');`);
  server = await serveCommand({
    databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', adminSecret: SECRET,
    pgConnections: 4, stringifyNumericTypes: false, console: false, enableAllowlist: true,
  });
  url = `http://127.0.0.1:${server.port}`;
  expect((await metadata('pg_track_table', { table: 'item' })).status).toBe(200);
  expect((await metadata('pg_create_select_permission', { table: 'item', role: 'reader', permission: { columns: ['label'], filter: {} } })).status).toBe(200);
});

afterAll(async () => {
  await server?.close();
  await db?.drop();
});

describe('REST endpoints and the allow-list served from the catalog', () => {
  it('serves an endpoint as soon as it is created, and answers 404 once it is dropped', async () => {
    expect((await fetch(`${url}/api/rest/items`, { headers: asReader })).status).toBe(404);
    const created = await metadata('create_query_collection', { name: 'c', definition: { queries: [{ name: 'items', query: 'query { item(order_by: {label: asc}) { label } }' }] } });
    expect(created.status).toBe(200);
    expect((await metadata('create_rest_endpoint', { name: 'items', url: 'items', methods: ['GET'], definition: { query: { collection_name: 'c', query_name: 'items' } } })).status).toBe(200);
    // The collection is not allow-listed yet: the reader is refused, admin is not.
    expect(await (await fetch(`${url}/api/rest/items`, { headers: asReader })).json()).toEqual({ path: '$', error: 'query is not allowed', code: 'validation-failed' });
    expect(await (await fetch(`${url}/api/rest/items`, { headers: { 'x-svc-admin-secret': SECRET } })).json()).toEqual({ item: [{ label: 'one' }, { label: 'two' }] });
    expect((await metadata('add_collection_to_allowlist', { collection: 'c' })).status).toBe(200);
    expect(await (await fetch(`${url}/api/rest/items`, { headers: asReader })).json()).toEqual({ item: [{ label: 'one' }, { label: 'two' }] });
    expect((await metadata('drop_rest_endpoint', { name: 'items' })).status).toBe(200);
    const gone = await fetch(`${url}/api/rest/items`, { headers: asReader });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ path: '$', error: 'Endpoint not found', code: 'not-found' });
  });

  it('follows the allow-list as it changes: a scope of other roles refuses the reader', async () => {
    const query = 'query { item(order_by: {label: asc}) { label } }';
    const gql = async (): Promise<unknown> => (await (await fetch(`${url}/v1/graphql`, { method: 'POST',
      headers: { 'content-type': 'application/json', ...asReader }, body: JSON.stringify({ query }) })).json());
    expect(await gql()).toEqual({ data: { item: [{ label: 'one' }, { label: 'two' }] } });
    expect((await metadata('update_scope_of_collection_in_allowlist', { collection: 'c', scope: { global: false, roles: ['someone'] } })).status).toBe(200);
    expect(await gql()).toEqual({ errors: [{ message: 'query is not allowed', extensions: { path: '$', code: 'validation-failed' } }] });
    expect((await metadata('drop_collection_from_allowlist', { collection: 'c' })).status).toBe(200);
    expect(await gql()).toEqual({ errors: [{ message: 'query is not allowed', extensions: { path: '$', code: 'validation-failed' } }] });
  });
});
