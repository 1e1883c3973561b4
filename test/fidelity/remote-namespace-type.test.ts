// A remote schema's root_fields_namespace field is typed as Hasura's getCustomizer names the
// remote's root type: its type_names mapping, else its prefix and suffix, else the namespace
// before the root's name (<namespace><Root>); a namespace field asking only `__typename` is
// answered by the engine, without calling the remote (tests-py queries/remote_schemas/validation/
// multiple_remote_schema_with_namespace.yaml: fooCharacterIFaceQuery, MyQueryRoot, bazUserQuery).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

describe('namespace field types', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;

  beforeAll(async () => {
    remote = await startRemote('type UserQuery { hello: String } schema { query: UserQuery }', { hello: () => 'world' });
    const add = (name: string, customization: unknown) => ({ type: 'add_remote_schema', args: { name, definition: { url: remote.url, customization } } });
    server = await serveDatabase('fidrsns', 'SELECT 1;', { metadata: [
      add('plain', { root_fields_namespace: 'foo' }),
      add('mapped', { root_fields_namespace: 'bar', type_names: { mapping: { UserQuery: 'MyQueryRoot' } } }),
      add('affixed', { root_fields_namespace: 'baz', type_names: { prefix: 'P_', suffix: '_s' } }),
    ] });
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('names the namespace type after the mapping, the affixes, or the namespace', async () => {
    const calls = remote.calls().length;
    expect(await server.gql('{ foo { __typename } bar { t: __typename } baz { __typename } }'))
      .toEqual({ data: { foo: { __typename: 'fooUserQuery' }, bar: { t: 'MyQueryRoot' }, baz: { __typename: 'P_UserQuery_s' } } });
    expect(remote.calls().length).toBe(calls);
    expect(await server.gql('{ __type(name: "fooUserQuery") { name fields { name } } }'))
      .toEqual({ data: { __type: { name: 'fooUserQuery', fields: [{ name: 'hello' }] } } });
  });

  it('still calls the remote for the namespace\'s fields', async () => {
    expect(await server.gql('{ foo { __typename hello } }')).toEqual({ data: { foo: { __typename: 'fooUserQuery', hello: 'world' } } });
  });
});
