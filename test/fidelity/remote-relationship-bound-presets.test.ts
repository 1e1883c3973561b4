// A role's @preset on an argument a remote relationship binds is not applied to the
// relationship's call: the value comes from the parent row, as Hasura derives the relationship's
// field for the role (tests-py test_remote_schema_permissions.py TestRemoteRelationshipPermissions
// test_remote_relationship_with_field_containing_preset_argument); presets of the other arguments
// still apply and those arguments stay hidden (test_partial_arguments_of_remote_relationship_from_preset).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

const MESSAGES = [{ id: 1, name: 'alice', msg: 'You win!' }, { id: 2, name: 'bob', msg: 'You lose!' }, { id: 3, name: 'alice', msg: 'Another alice' }];
const SDL = `
  type Message { id: Int!  name: String!  msg: String! }
  input NameIs { eq: String }
  input Where { name: NameIs }
  input Includes { id: [Int] }
  type Query { message(id: Int!): Message  messages(where: Where, includes: Includes): [Message] }`;
const ROOT = {
  message: ({ id }: { id: number }) => MESSAGES.find((m) => m.id === id) ?? null,
  messages: ({ where, includes }: { where?: { name?: { eq?: string } }; includes?: { id?: number[] } }) =>
    MESSAGES.filter((m) => (where?.name?.eq === undefined || m.name === where.name.eq) && (includes?.id === undefined || includes.id.includes(m.id))),
};
const ROLE = `
  type Message { id: Int!  name: String!  msg: String! }
  input NameIs { eq: String }
  input Where { name: NameIs }
  input Includes { id: [Int] }
  type Query { message(id: Int! @preset(value: 2)): Message  messages(where: Where, includes: Includes @preset(value: {id: [3]})): [Message] }`;

describe('presets and a remote relationship\'s bound arguments', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;
  const before = process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS;
  const user = { 'x-svc-role': 'user', 'x-svc-user-id': '1' };

  beforeAll(async () => {
    process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS = 'true';
    remote = await startRemote(SDL, ROOT);
    server = await serveDatabase('fidrsrelpre', "CREATE TABLE profiles (id serial PRIMARY KEY, name text); INSERT INTO profiles (name) VALUES ('alice'), ('bob'), ('alice');", {
      track: ['profiles'], metadata: [
        { type: 'pg_create_select_permission', args: { table: 'profiles', role: 'user', permission: { columns: ['id', 'name'], filter: { id: { _eq: 'X-Svc-User-Id' } } } } },
        { type: 'add_remote_schema', args: { name: 'msgs', definition: { url: remote.url } } },
        { type: 'add_remote_schema_permissions', args: { remote_schema: 'msgs', role: 'user', definition: { schema: ROLE } } },
        { type: 'pg_create_remote_relationship', args: { name: 'message', table: 'profiles', definition: { to_remote_schema: {
          remote_schema: 'msgs', lhs_fields: ['id'], remote_field: { message: { arguments: { id: '$id' } } } } } } },
        { type: 'pg_create_remote_relationship', args: { name: 'messages', table: 'profiles', definition: { to_remote_schema: {
          remote_schema: 'msgs', lhs_fields: ['name'], remote_field: { messages: { arguments: { where: { name: { eq: '$name' } } } } } } } } },
      ] });
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS;
    else process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS = before;
    await server?.close();
    await remote?.close();
  });

  it('takes a bound argument from the row, not from the preset', async () => {
    expect(await server.gql('{ profiles { id message { id name } } }', undefined, user))
      .toEqual({ data: { profiles: [{ id: 1, message: { id: 1, name: 'alice' } }] } });
  });

  it('applies the preset of an argument the relationship does not bind, and hides it', async () => {
    expect(await server.gql('{ profiles { id messages { id msg } } }', undefined, user))
      .toEqual({ data: { profiles: [{ id: 1, messages: [{ id: 3, msg: 'Another alice' }] }] } });
    expect(await server.gql('{ profiles { messages(includes: {id: [1]}) { id } } }', undefined, user)).toEqual({ errors: [{
      message: '"messages" has no argument named "includes"', extensions: { path: '$.selectionSet.profiles.selectionSet.messages', code: 'validation-failed' } }] });
  });

  it('still applies the preset to the remote\'s own root field', async () => {
    expect(await server.gql('{ message { id } }', undefined, user)).toEqual({ data: { message: { id: 2 } } });
  });
});
