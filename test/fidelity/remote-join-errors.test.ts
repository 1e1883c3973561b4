// A table's remote relationship whose remote answers errors fails the whole request, as Hasura's
// executeRemoteSchemaCall fails it (GraphQL/Execute/RemoteJoin/RemoteSchema.hs): one error
// "Errors from remote server", code unexpected, path $, the remote's errors under `internal` for
// the admin, and no data. The call is written as Hasura's printer writes it
// (Language/GraphQL/Draft/Printer.hs: one line, `query  { f0: message(id: 1) { msg  errorMsg  } ... }`),
// so the remote's error locations are the ones Hasura's call gets. tests-py
// test_remote_relationships.py TestExecution::test_with_errors (query_with_errors_obj.yaml, query_with_errors_arr.yaml).

import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

const message = (id: number) => ({ id, msg: `m${id}`, errorMsg: () => { throw new GraphQLError('intentional-error'); } });

describe('errors of a remote joined to a table', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;

  beforeAll(async () => {
    remote = await startRemote(`type Query { message(id: Int!): Message  messages(where: Where): [Message] }
      input Where { id: Cmp }  input Cmp { eq: Int }  type Message { id: Int! msg: String! errorMsg: String }`, {
      message: ({ id }: { id: number }) => message(id),
      messages: ({ where }: { where: { id: { eq: number } } }) => [message(where.id.eq)],
    });
    server = await serveDatabase('fidrrerr', `CREATE TABLE profiles (id serial PRIMARY KEY, name text);
      INSERT INTO profiles (name) VALUES ('alice'), ('bob'), ('alice');`, { track: ['profiles'], metadata: [
      { type: 'pg_create_select_permission', args: { table: 'profiles', role: 'user', permission: { columns: ['id', 'name'], filter: {} } } }] });
    expect((await server.metadata('add_remote_schema', { name: 'msgs', definition: { url: remote.url } })).status).toBe(200);
    for (const [name, remote_field] of [['messageBasic', { message: { arguments: { id: '$id' } } }],
      ['messagesNestedArgs', { messages: { arguments: { where: { id: { eq: '$id' } } } } }]] as const) {
      expect((await server.post('/v1/query', { type: 'create_remote_relationship', args: { name, table: 'profiles',
        hasura_fields: ['id'], remote_schema: 'msgs', remote_field } })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  const failed = (errors: unknown[]) => ({ errors: [{ message: 'Errors from remote server', extensions: { path: '$', code: 'unexpected', internal: { errors } } }] });
  const at = (path: (string | number)[], column: number) => ({ message: 'intentional-error', locations: [{ line: 1, column }], path });

  it('fails the request with the remote\'s errors, located in Hasura\'s one-line call', async () => {
    expect(await server.gql('{ profiles(order_by: {id: asc}) { id messageBasic { msg errorMsg } } }'))
      .toEqual(failed([at(['f0', 'errorMsg'], 36), at(['f1', 'errorMsg'], 74), at(['f2', 'errorMsg'], 112)]));
    expect(remote.calls().at(-1)!.body.query).toBe('query  { f0: message(id: 1) { msg  errorMsg  } f1: message(id: 2) { msg  errorMsg  } '
      + 'f2: message(id: 3) { msg  errorMsg  } }');
    expect(await server.gql('{ profiles(order_by: {id: asc}) { id name messagesNestedArgs { msg errorMsg } } }'))
      .toEqual(failed([at(['f0', 0, 'errorMsg'], 52), at(['f1', 0, 'errorMsg'], 106), at(['f2', 0, 'errorMsg'], 160)]));
  });

  it('keeps the remote\'s errors from a role other than the admin', async () => {
    expect(await server.gql('{ profiles(order_by: {id: asc}) { id messageBasic { errorMsg } } }', undefined, { 'x-svc-role': 'user' }))
      .toEqual({ errors: [{ message: 'Errors from remote server', extensions: { path: '$', code: 'unexpected' } }] });
  });
});
