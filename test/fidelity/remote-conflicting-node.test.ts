// Tracking a table whose name is already a root field of a remote schema is refused as Hasura's
// checkConflictingNode refuses it (RQL/DDL/Schema/Table.hs; tests-py test_schema_stitching.py
// TestAddRemoteSchemaTbls test_add_conflicting_table): 400 remote-schema-conflicts "node user
// already exists in current graphql schema", for the table's snake-cased name (schema_name outside
// public), with track_table, pg_track_table and inside a bulk; the table stays untracked.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

describe('a table named as a remote root field', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;
  const conflict = (node: string, path = '$.args') => ({ status: 400, body: { path, code: 'remote-schema-conflicts', error: `node ${node} already exists in current graphql schema` } });

  beforeAll(async () => {
    remote = await startRemote('type Query { user(id: Int!): User  shop_order: Int  hello: String } type User { id: Int }', { hello: () => 'hi' });
    server = await serveDatabase('fidrsnode', 'CREATE TABLE "user" (id int PRIMARY KEY); CREATE SCHEMA shop; CREATE TABLE shop."order" (id int PRIMARY KEY); CREATE TABLE other (id int PRIMARY KEY);',
      { metadata: [{ type: 'add_remote_schema', args: { name: 'users', definition: { url: remote.url } } }] });
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('is refused by track_table and pg_track_table', async () => {
    expect(await server.post('/v1/query', { type: 'track_table', args: { schema: 'public', name: 'user' } })).toEqual(conflict('user'));
    expect(await server.metadata('pg_track_table', { table: 'user' })).toEqual(conflict('user'));
    expect(await server.metadata('pg_track_table', { table: { schema: 'shop', name: 'order' } })).toEqual(conflict('shop_order'));
  });

  it('is refused inside a bulk, at its place', async () => {
    expect(await server.post('/v1/query', { type: 'bulk', args: [{ type: 'track_table', args: { schema: 'public', name: 'other' } }, { type: 'track_table', args: { schema: 'public', name: 'user' } }] }))
      .toEqual(conflict('user', '$.args[1].args'));
  });

  it('leaves the table untracked and other tables trackable', async () => {
    const tables = (await server.metadata('export_metadata', {})).body.sources[0].tables.map((t: { table: { name: string } }) => t.table.name);
    expect(tables).toEqual([]);
    expect((await server.metadata('pg_track_table', { table: 'other' })).status).toBe(200);
    expect(await server.gql('{ hello other { id } }')).toEqual({ data: { hello: 'hi', other: [] } });
  });
});
