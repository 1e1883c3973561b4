// A remote relationship's `remote_field` is judged against the remote's schema when it is made,
// as Hasura judges it (RQL/DDL/RemoteRelationship/Validate.hs validateRemoteArguments,
// validateType, isTypeCoercible): every argument given is the field's, an input object's keys
// are its fields, a list holds one element at most and only where a list goes, a `$field` names
// a join field whose GraphQL scalar is the argument's (a singleton going to a list), and a literal
// is of the argument's scalar. Otherwise create_remote_relationship answers 400 with Hasura's
// reason. tests-py test_remote_relationships.py TestCreateRemoteRelationship::test_create_invalid
// (setup_invalid_remote_rel_literal / _variable / _remote_args / _nested_args / _array / _type).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

const SDL = `
  type Query { message(id: Int!): Message  messages(where: Where, includes: Includes): [Message]  users(user_ids: [Int]!): [Int]  byKey(key: ID): Message }
  input Where { id: IntCmp  name: StrCmp }
  input IntCmp { eq: Int }
  input StrCmp { eq: String }
  input Includes { id: [Int]  name: [String] }
  type Message { id: Int!  name: String! }`;

describe('remote_field judged against the remote schema', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;
  const create = (name: string, hasura_fields: string[], remote_field: unknown) => server.post('/v1/query', { type: 'create_remote_relationship',
    args: { name, table: 'profiles', hasura_fields, remote_schema: 'msgs', remote_field } });
  const reasonOf = (r: { status: number; body: any }) => [r.status, r.body.internal?.[0]?.reason ?? r.body.error];

  beforeAll(async () => {
    remote = await startRemote(SDL, {});
    server = await serveDatabase('fidrrvalid', 'CREATE TABLE profiles (id serial PRIMARY KEY, name text, big bigint);', { track: ['profiles'] });
    expect((await server.metadata('add_remote_schema', { name: 'msgs', definition: { url: remote.url } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('refuses a literal of another scalar', async () => {
    expect(reasonOf(await create('r', ['id'], { message: { arguments: { id: 'abc' } } })))
      .toEqual([400, 'Inconsistent object: expected type "Int" but got "String"']);
  });

  it('refuses a join field of another scalar, and one not in hasura_fields', async () => {
    expect(reasonOf(await create('r', ['id', 'name'], { message: { arguments: { id: '$name' } } })))
      .toEqual([400, 'Inconsistent object: expected type "Int" but got "String"']);
    expect(reasonOf(await create('r', ['id', 'big'], { message: { arguments: { id: '$big' } } })))
      .toEqual([400, 'Inconsistent object: expected type "Int" but got "bigint"']);
    expect(reasonOf(await create('r', ['id'], { message: { arguments: { id: '$id_wrong' } } })))
      .toEqual([400, 'Inconsistent object: variable "id_wrong" is not found']);
  });

  it('refuses an argument or input field the remote does not have', async () => {
    expect(reasonOf(await create('r', ['id'], { message: { arguments: { id_wrong: '$id' } } })))
      .toEqual([400, 'Inconsistent object: argument with name "id_wrong" not found in remote schema']);
    expect(reasonOf(await create('r', ['id'], { messages: { arguments: { where: { id: { xyz: '$id' } } } } })))
      .toEqual([400, 'Inconsistent object: argument with name "xyz" not found in remote schema']);
    expect(reasonOf(await create('r', ['id'], { message_wrong: { arguments: { id: '$id' } } })))
      .toEqual([400, 'Inconsistent object: remote field with name "message_wrong" and type "Query" not found']);
  });

  it('refuses a list where none goes, and a list of two', async () => {
    expect(reasonOf(await create('r', ['id'], { messages: { arguments: { where: { id: { eq: ['$id'] } } } } })))
      .toEqual([400, 'Inconsistent object: type "Int"is not a list type']);
    expect(reasonOf(await create('r', ['id'], { messages: { arguments: { includes: { id: ['$id', 2] } } } })))
      .toEqual([400, 'Inconsistent object: multiple elements in list value is not supported']);
  });

  it('takes a singleton for a list, a list of one, and Int or bigint for ID', async () => {
    expect((await create('a', ['id'], { users: { arguments: { user_ids: '$id' } } })).status).toBe(200);
    expect((await create('b', ['name'], { messages: { arguments: { includes: { name: ['$name'] } } } })).status).toBe(200);
    expect((await create('c', ['big'], { byKey: { arguments: { key: '$big' } } })).status).toBe(200);
    expect(reasonOf(await create('d', ['name'], { byKey: { arguments: { key: true } } })))
      .toEqual([400, 'Inconsistent object: Only ID, Int, uuid or String scalar types can be joined to the ID type, but received "Boolean"']);
  });
});
