// A session `@preset` of a remote schema permission is read as Hasura's resolveRemoteVariable reads
// it (GraphQL/Execute/Remote.hs; tests-py queries/remote_schemas/permissions/argument_presets/
// execution_with_session_preset_args.yaml): a session variable the request lacks is
// '"x-svc-user-id" session variable expected, but not found' (not-found), text that spells no Int,
// Float, Boolean or enum value is a coercion-error, both at $ with no data and no call of the remote.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

const SDL = `
  enum Tier { GOLD SILVER }
  type Query { user(user_id: Int!, score: Float, active: Boolean, tier: Tier, tag: String): User }
  type User { user_id: Int  score: Float  active: Boolean  tier: Tier  tag: String }`;
const ROOT = { user: (a: Record<string, unknown>) => a };
const ROLE = `
  enum Tier { GOLD SILVER }
  type Query { user(user_id: Int! @preset(value: "x-svc-user-id"), score: Float @preset(value: "x-svc-score"),
    active: Boolean @preset(value: "x-svc-active"), tier: Tier @preset(value: "x-svc-tier"), tag: String @preset(value: "x-svc-tag")): User }
  type User { user_id: Int  score: Float  active: Boolean  tier: Tier  tag: String }`;
const ALL = { 'x-svc-role': 'user', 'x-svc-user-id': '1', 'x-svc-score': '2.5', 'x-svc-active': 'true', 'x-svc-tier': 'GOLD', 'x-svc-tag': 'x' };
const Q = '{ user { user_id score active tier tag } }';

describe('session presets of a remote schema permission', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;
  const before = process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS;
  const error = (code: string, message: string) => ({ errors: [{ message, extensions: { path: '$', code } }] });

  beforeAll(async () => {
    process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS = 'true';
    remote = await startRemote(SDL, ROOT);
    server = await serveDatabase('fidrspreset', 'SELECT 1;', { metadata: [
      { type: 'add_remote_schema', args: { name: 'my-remote-schema', definition: { url: remote.url } } },
      { type: 'add_remote_schema_permissions', args: { remote_schema: 'my-remote-schema', role: 'user', definition: { schema: ROLE } } },
    ] });
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS;
    else process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS = before;
    await server?.close();
    await remote?.close();
  });

  it('sends the session values read as the arguments\' types', async () => {
    expect(await server.gql(Q, undefined, ALL)).toEqual({ data: { user: { user_id: 1, score: 2.5, active: true, tier: 'GOLD', tag: 'x' } } });
  });

  it('refuses a request without a session variable a preset names', async () => {
    const calls = remote.calls().length;
    const { 'x-svc-user-id': _, ...noUser } = ALL;
    expect(await server.gql(Q, undefined, noUser)).toEqual(error('not-found', '"x-svc-user-id" session variable expected, but not found'));
    const { 'x-svc-tag': __, ...noTag } = ALL;
    expect(await server.gql(Q, undefined, noTag)).toEqual(error('not-found', '"x-svc-tag" session variable expected, but not found'));
    expect(remote.calls().length).toBe(calls);
  });

  it('refuses a session value its argument\'s type cannot read', async () => {
    expect(await server.gql(Q, undefined, { ...ALL, 'x-svc-user-id': 'randomid123' })).toEqual(error('coercion-error', '"randomid123" cannot be coerced into an Int value'));
    expect(await server.gql(Q, undefined, { ...ALL, 'x-svc-score': 'high' })).toEqual(error('coercion-error', '"high" cannot be coerced into a Float value'));
    expect(await server.gql(Q, undefined, { ...ALL, 'x-svc-active': 'yes' })).toEqual(error('coercion-error', '"yes" cannot be coerced into a Boolean value'));
    expect(await server.gql(Q, undefined, { ...ALL, 'x-svc-tier': 'BRONZE' })).toEqual(error('coercion-error', '"BRONZE" is not one of the valid enum values'));
    expect(await server.gql(Q, undefined, { ...ALL, 'x-svc-tier': 'no way' })).toEqual(error('coercion-error', '"no way" is not a valid GraphQL name'));
  });
});
