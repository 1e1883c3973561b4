// Remote relationships are fields of Hasura's own schema only: its Relay schema leaves them out
// (GraphQL/Schema/Select.hs serves a remote relationship field on the Hasura schema only,
// hasura/graphql-engine#5144), so selecting one under /v1beta1/relay is a validation error
// naming the field on the table's type. tests-py test_remote_relationships.py
// TestWithRelay::test_with_relay_fail (with_relay.yaml).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

describe('remote relationships under the Relay API', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;

  beforeAll(async () => {
    remote = await startRemote('type Query { message(id: Int!): Message }  type Message { id: Int! msg: String! }',
      { message: ({ id }: { id: number }) => ({ id, msg: `m${id}` }) });
    server = await serveDatabase('fidrrrelay', `
      CREATE TABLE profiles (id serial PRIMARY KEY, name text);
      INSERT INTO profiles (name) VALUES ('alice'), ('bob');`, { track: ['profiles'] });
    expect((await server.metadata('add_remote_schema', { name: 'msgs', definition: { url: remote.url } })).status).toBe(200);
    expect((await server.post('/v1/query', { type: 'create_remote_relationship', args: { name: 'messageBasic', table: 'profiles',
      hasura_fields: ['id'], remote_schema: 'msgs', remote_field: { message: { arguments: { id: '$id' } } } } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('is no field of the Relay node type', async () => {
    const r = await server.post('/v1beta1/relay', { query: '{ profiles_connection { edges { node { id name messageBasic { msg } } } } }' });
    expect(r.body).toEqual({ errors: [{ message: 'field "messageBasic" not found in type: \'profiles\'', extensions: {
      path: '$.selectionSet.profiles_connection.selectionSet.edges.selectionSet.node.selectionSet.messageBasic', code: 'validation-failed' } }] });
  });

  it('stays a field of the GraphQL API', async () => {
    expect(await server.gql('{ profiles(order_by: {id: asc}) { name messageBasic { msg } } }'))
      .toEqual({ data: { profiles: [{ name: 'alice', messageBasic: { msg: 'm1' } }, { name: 'bob', messageBasic: { msg: 'm2' } }] } });
  });
});
