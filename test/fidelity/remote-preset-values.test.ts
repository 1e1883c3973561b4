// A remote schema permission's `@preset` value must be a value of its argument's type, read against
// the role's document with the built-in scalars, as Hasura's parsePresetValue reads it
// (RQL/DDL/RemoteSchema/Permission.hs; tests-py queries/remote_schemas/permissions/
// argument_preset_validation.yaml): the first bad preset stops the check, after the reasons found
// before it, and add_remote_schema_permissions answers 400 invalid-role-based-remote-schema.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

const SDL = `
  enum Status { READ SENT }
  input IntCompare { eq: Int  gt: Int }
  input Where { id: IntCompare  status: Status  tags: [String] }
  type Message { id: Int!  msg: String }
  type Query { messages(where: Where, ids: [Int], status: Status, limit: Int): [Message]  hello: String }`;
const doc = (args: string, where = 'input Where { id: IntCompare  status: Status  tags: [String] }') => `
  enum Status { READ SENT }
  input IntCompare { eq: Int  gt: Int }
  ${where}
  type Message { id: Int!  msg: String }
  type Query { messages${args}: [Message]  hello: String }`;

describe('@preset values are checked against their argument\'s type', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;
  const before = process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS;
  const permit = (schema: string) => server.metadata('add_remote_schema_permissions', { remote_schema: 'msgs', role: 'user', definition: { schema } });
  const refused = (why: string) => ({ status: 400, body: { path: '$.args', code: 'invalid-role-based-remote-schema', error: `validation for the given role-based schema failed because ${why}` } });

  beforeAll(async () => {
    process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS = 'true';
    remote = await startRemote(SDL, { hello: () => 'world', messages: () => [] });
    server = await serveDatabase('fidrspval', 'SELECT 1;', { metadata: [{ type: 'add_remote_schema', args: { name: 'msgs', definition: { url: remote.url } } }] });
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS;
    else process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS = before;
    await server?.close();
    await remote?.close();
  });

  it('refuses a value of another kind than the type', async () => {
    expect(await permit(doc('(where: Where)', 'input Where { id: IntCompare @preset(value: 2)  status: Status }')))
      .toEqual(refused('expected preset value "2" of type "IntCompare" to be an input object value'));
    expect(await permit(doc('(limit: Int @preset(value: {a: 1}))'))).toEqual(refused('expected preset value "{a: 1}" of type "Int" to be a scalar value'));
    expect(await permit(doc('(status: Status @preset(value: "READ"))'))).toEqual(refused('expected preset value "\\"READ\\"" of type "Status" to be an enum value'));
  });

  it('refuses a key the input object lacks, an enum value the enum lacks, a session variable for a list', async () => {
    expect(await permit(doc('(where: Where)', 'input Where { id: IntCompare @preset(value: {lte: 2})  status: Status }')))
      .toEqual(refused('"lte" does not exist in the input object "IntCompare"'));
    expect(await permit(doc('(where: Where @preset(value: {status: DRAFT}))'))).toEqual(refused('"DRAFT" not found in the enum: "Status"'));
    expect(await permit(doc('(ids: [Int] @preset(value: "x-svc-user-id"))')))
      .toEqual(refused('illegal preset value at "ids". Session arguments can only be set for singleton values'));
  });

  it('refuses a preset without a value or with a static that is no Boolean', async () => {
    expect(await permit(doc('(limit: Int @preset(static: true))'))).toEqual(refused('preset argument "value" not found at "limit"'));
    expect(await permit(doc('(limit: Int @preset(value: 2, static: "yes"))'))).toEqual(refused('expected preset static value to be a Boolean value'));
  });

  it('keeps the reasons found before the bad preset', async () => {
    const r = await permit(doc('(where: Where)', 'input Where { extra: Int  id: IntCompare @preset(value: 2)  status: Status }'));
    expect(r.body.error).toBe('validation for the given role-based schema failed for the following reasons:\n'
      + ' • input argument "extra" does not exist in the input object:"Where"\n'
      + ' • expected preset value "2" of type "IntCompare" to be an input object value\n');
  });

  it('accepts values of the types: lists from one value, enums, sessions for scalars and enums', async () => {
    expect(await permit(doc('(where: Where @preset(value: {id: {eq: 1}, status: READ, tags: "a"}), ids: [Int] @preset(value: 3), status: Status @preset(value: "x-svc-status"), limit: Int @preset(value: "x-svc-limit"))')))
      .toEqual({ status: 200, body: { message: 'success' } });
  });
});
