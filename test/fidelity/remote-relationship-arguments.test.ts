// A remote relationship keeps the remote field's arguments it does not bind, as Hasura's stripInMap
// (RQL/DDL/RemoteRelationship/Validate.hs) makes them: an argument bound to a scalar or a `$field`
// goes; one bound to an input object in part stays, typed by a new input type
// `<Type>_remote_rel_<table><relationship>` holding the keys the relationship leaves. The client's
// value is merged into the relationship's when the remote is called. tests-py
// test_remote_relationships.py TestCreateRemoteRelationship::test_generation (select_remote_fields.yaml),
// TestExecution::test_arguments / test_with_variables (query_with_arguments.yaml, remote_rel_variables.yaml).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

const MESSAGES = [{ id: 1, name: 'alice', msg: 'You win!' }, { id: 2, name: 'bob', msg: 'You lose!' }, { id: 3, name: 'alice', msg: 'Another alice' }];
type Where = { id?: { eq?: number; gt?: number }; name?: { eq?: string } };

describe('the arguments a remote relationship leaves to the client', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;

  beforeAll(async () => {
    remote = await startRemote(`
      type Query { messages(where: Where, includes: Includes): [Message] }
      input Where { id: IntCmp  name: StrCmp }
      input IntCmp { eq: Int  gt: Int }
      input StrCmp { eq: String }
      input Includes { id: [Int] }
      type Message { id: Int! name: String! msg: String! }`, {
      messages: ({ where }: { where?: Where }) => MESSAGES.filter((m) => (where?.id?.eq === undefined || m.id === where.id.eq)
        && (where?.name?.eq === undefined || m.name === where.name.eq)),
    });
    server = await serveDatabase('fidrrargs', `CREATE TABLE profiles (id serial PRIMARY KEY, name text);
      INSERT INTO profiles (name) VALUES ('alice'), ('bob'), ('alice');`, { track: ['profiles'] });
    expect((await server.metadata('add_remote_schema', { name: 'msgs', definition: { url: remote.url } })).status).toBe(200);
    expect((await server.post('/v1/query', { type: 'create_remote_relationship', args: { name: 'messagesNestedArgs', table: 'profiles',
      hasura_fields: ['id'], remote_schema: 'msgs', remote_field: { messages: { arguments: { where: { id: { eq: '$id' } } } } } } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('types an input object bound in part by a new input type of the keys left', async () => {
    const r = await server.gql(`{ __type(name: "profiles") { fields { name args { name type { name } } } }
      w: __type(name: "Where_remote_rel_profilesmessagesNestedArgs") { inputFields { name type { name } } }
      i: __type(name: "IntCmp_remote_rel_profilesmessagesNestedArgs") { inputFields { name type { name } } } }`);
    expect(r.data.__type.fields.find((f: { name: string }) => f.name === 'messagesNestedArgs').args).toEqual([
      { name: 'includes', type: { name: 'Includes' } }, { name: 'where', type: { name: 'Where_remote_rel_profilesmessagesNestedArgs' } }]);
    expect(r.data.w.inputFields).toEqual([{ name: 'id', type: { name: 'IntCmp_remote_rel_profilesmessagesNestedArgs' } }, { name: 'name', type: { name: 'StrCmp' } }]);
    expect(r.data.i.inputFields).toEqual([{ name: 'gt', type: { name: 'Int' } }]);
  });

  it('merges the client\'s keys into the relationship\'s object, given inline or by a variable', async () => {
    const expected = { data: { profiles: [{ id: 1, messagesNestedArgs: [{ id: 1, msg: 'You win!' }] }, { id: 2, messagesNestedArgs: [] },
      { id: 3, messagesNestedArgs: [{ id: 3, msg: 'Another alice' }] }] } };
    expect(await server.gql('{ profiles(order_by: {id: asc}) { id messagesNestedArgs(where: {name: {eq: "alice"}}) { id msg } } }')).toEqual(expected);
    expect(await server.gql('query ($name: String!) { profiles(order_by: {id: asc}) { id messagesNestedArgs(where: {name: {eq: $name}}) { id msg } } }',
      { name: 'alice' })).toEqual(expected);
    const sent = remote.calls().at(-1)!.body.query;
    expect(sent).toContain('where: {id: {eq: 1},name: {eq: "alice"}}');
  });
});
