// rename_relationship renames the relationship wherever permissions reach it (Hasura's
// Schema/Rename.hs, renameRelationshipInMetadata): the filters and checks of every permission of
// its table, and those of other tables that reach it through their own relationships; it was
// refused as a dependency. A new name already taken by a column or another relationship is
// refused in Hasura's words (Relationship/Rename.hs, renameRelP2).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { postJson } from '../helpers/http.js';

let server: ServedDatabase;

const SETUP = `
CREATE TABLE orchard (id serial PRIMARY KEY, keeper text);
CREATE TABLE tree (id serial PRIMARY KEY, orchard_id integer REFERENCES orchard(id), species text);
CREATE TABLE apple (id serial PRIMARY KEY, tree_id integer REFERENCES tree(id), ripe boolean);
INSERT INTO orchard (keeper) VALUES ('ana'), ('bo');
INSERT INTO tree (orchard_id, species) VALUES (1, 'gala'), (2, 'fuji');
INSERT INTO apple (tree_id, ripe) VALUES (1, true), (2, false);
`;

const asAna = { 'X-Svc-Role': 'picker', 'X-Svc-User-Id': 'ana' };
const gql = (query: string, headers: Record<string, string> = {}) => postJson(server.url, '/v1/graphql', { query }, headers).then((r) => r.body);
const tables = async (): Promise<{ table: { name: string } }[]> => (await server.ok('/v1/metadata', { type: 'export_metadata', args: {} })).sources[0].tables;
const entry = async (name: string): Promise<any> => (await tables()).find((t) => t.table.name === name);

beforeAll(async () => {
  const mine = { grove: { keeper: { _eq: 'X-Svc-User-Id' } } };
  server = await serveDatabase('fidrenamerel', SETUP, { metadata: [{ type: 'bulk', args: [
    { type: 'pg_track_table', args: { table: 'orchard' } },
    { type: 'pg_track_table', args: { table: 'tree' } },
    { type: 'pg_track_table', args: { table: 'apple' } },
    { type: 'pg_create_object_relationship', args: { table: 'tree', name: 'grove', using: { foreign_key_constraint_on: 'orchard_id' } } },
    { type: 'pg_create_object_relationship', args: { table: 'apple', name: 'tree', using: { foreign_key_constraint_on: 'tree_id' } } },
    { type: 'pg_create_select_permission', args: { table: 'tree', role: 'picker', permission: { columns: ['id', 'species'], filter: mine } } },
    { type: 'pg_create_update_permission', args: { table: 'tree', role: 'picker', permission: { columns: ['species'], filter: mine, check: { _or: [mine] } } } },
    { type: 'pg_create_select_permission', args: { table: 'apple', role: 'picker', permission: { columns: ['id', 'ripe'], filter: { tree: mine } } } },
  ] }] });
});
afterAll(() => server?.close());

describe('rename_relationship', () => {
  it('renames the relationship in the permissions of its table and of the tables reaching it', async () => {
    expect(await server.ok('/v1/metadata', { type: 'pg_rename_relationship', args: { table: 'tree', name: 'grove', new_name: 'orchard' } })).toEqual({ message: 'success' });
    const renamed = { orchard: { keeper: { _eq: 'X-Svc-User-Id' } } };
    const tree = await entry('tree');
    expect(tree.object_relationships.map((r: { name: string }) => r.name)).toEqual(['orchard']);
    expect(tree.select_permissions[0].permission.filter).toEqual(renamed);
    expect(tree.update_permissions[0].permission).toMatchObject({ filter: renamed, check: { _or: [renamed] } });
    expect((await entry('apple')).select_permissions[0].permission.filter).toEqual({ tree: renamed });
  });

  it('keeps serving the role through the renamed relationship', async () => {
    expect(await gql('{ tree { species } apple { ripe } }', asAna)).toEqual({ data: { tree: [{ species: 'gala' }], apple: [{ ripe: true }] } });
    expect(await gql('mutation { update_tree(where: {}, _set: {species: "honeycrisp"}) { affected_rows } }', asAna))
      .toEqual({ data: { update_tree: { affected_rows: 1 } } });
    expect(await gql('{ tree(where: {orchard: {keeper: {_eq: "ana"}}}) { id } }')).toEqual({ data: { tree: [{ id: 1 }] } });
  });

  it('refuses a new name a column or another relationship has, in Hasura\'s words, on both APIs', async () => {
    expect(await server.post('/v1/metadata', { type: 'pg_rename_relationship', args: { table: 'apple', name: 'tree', new_name: 'ripe' } })).toEqual({ status: 400, body: {
      path: '$.args', code: 'already-exists', error: 'cannot rename relationship "tree" to "ripe" in table "apple" as a column/relationship with the name already exists' } });
    await server.ok('/v1/metadata', { type: 'pg_create_object_relationship', args: { table: 'apple', name: 'branch', using: { foreign_key_constraint_on: 'tree_id' } } });
    expect(await server.post('/v1/query', { type: 'rename_relationship', args: { table: 'apple', name: 'tree', new_name: 'branch' } })).toEqual({ status: 400, body: {
      path: '$.args', code: 'already-exists', error: 'cannot rename relationship "tree" to "branch" in table "apple" as a column/relationship with the name already exists' } });
    expect((await entry('apple')).select_permissions[0].permission.filter).toEqual({ tree: { orchard: { keeper: { _eq: 'X-Svc-User-Id' } } } });
  });
});
