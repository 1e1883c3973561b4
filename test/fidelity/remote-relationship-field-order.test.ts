// A table type's remote relationship fields take their place among its other fields in name order,
// as Hasura lists a table's fields, and a relationship's arguments are in name order too.
// tests-py test_remote_relationships.py TestRemoteRelationshipFieldType::test_remote_relationship_field_type
// (remote_relationship_field_type.yaml), TestCreateRemoteRelationship::test_generation (select_remote_fields.yaml).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

describe('remote relationship fields in a table type', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;

  beforeAll(async () => {
    remote = await startRemote('type Query { messages(where: String, includes: [Int], id: Int): [Message]  message(id: Int!): Message }  type Message { id: Int! }', {});
    server = await serveDatabase('fidrrorder', 'CREATE TABLE profiles (id serial PRIMARY KEY, name text, zeta text);', { track: ['profiles'] });
    expect((await server.metadata('add_remote_schema', { name: 'msgs', definition: { url: remote.url } })).status).toBe(200);
    for (const [name, remote_field] of [['messagesNested', { messages: { arguments: { id: '$id' } } }], ['messageBasic', { message: { arguments: { id: '$id' } } }]] as const) {
      expect((await server.post('/v1/query', { type: 'create_remote_relationship', args: { name, table: 'profiles',
        hasura_fields: ['id'], remote_schema: 'msgs', remote_field } })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('lists them among the columns in name order, their arguments too', async () => {
    const r = await server.gql('{ __type(name: "profiles") { fields { name args { name } type { kind } } } }');
    expect(r.data.__type.fields).toEqual([
      { name: 'id', args: [], type: { kind: 'NON_NULL' } },
      { name: 'messageBasic', args: [], type: { kind: 'OBJECT' } },
      { name: 'messagesNested', args: [{ name: 'includes' }, { name: 'where' }], type: { kind: 'LIST' } },
      { name: 'name', args: [], type: { kind: 'SCALAR' } },
      { name: 'zeta', args: [], type: { kind: 'SCALAR' } },
    ]);
  });
});
