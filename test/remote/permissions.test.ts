// Remote schema permissions (issue 17, SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS=true): a role
// sees only its permission's subset of the remote schema; `@preset` arguments and input fields
// are hidden and filled in (session variables, static literals, non-string values), merged into
// the client's input objects; a role without a permission sees no remote field.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { startRemote, type RemoteServer } from './remote-server.js';

const SDL = `
  type Query { orders(user_id: ID!, limit: Int, where: OrderWhere): [Order!]!  secret: String }
  input OrderWhere { status: String  region: String }
  type Order { id: ID!  status: String!  total: Int! }`;
const seen: unknown[] = [];
const ROOT = {
  orders: (args: { user_id: string; limit?: number; where?: { status?: string; region?: string } }) => {
    seen.push(args);
    return [1, 2, 3].slice(0, args.limit ?? 3).map((n) => ({ id: `${args.user_id}-${n}`, status: args.where?.status ?? 'any', total: n }));
  },
  secret: () => 'classified',
};
const USER_SCHEMA = `
  type Query { orders(user_id: ID! @preset(value: "x-svc-user-id"), limit: Int @preset(value: 2), where: OrderWhere): [Order!]! }
  input OrderWhere { status: String  region: String @preset(value: "x-svc-region", static: true) }
  type Order { id: ID!  status: String! }`;

describe('remote schema permissions', () => {
  let db: TestDatabase;
  let server: { port: number; close(): Promise<void> };
  let remote: RemoteServer;
  const before = process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS;
  const base = () => `http://127.0.0.1:${server.port}`;
  const md = (body: unknown) => postJson(base(), '/v1/metadata', body);
  const asUser = (query: string, variables?: unknown) => postJson(base(), '/v1/graphql', { query, variables }, { 'x-svc-role': 'user', 'x-svc-user-id': '7' });

  beforeAll(async () => {
    process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS = 'true';
    db = await createTestDatabase('rperm', 'CREATE TABLE author (id int PRIMARY KEY); INSERT INTO author VALUES (1);');
    server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4,
      stringifyNumericTypes: false, console: false });
    remote = await startRemote(SDL, ROOT);
    expect((await md({ type: 'pg_track_table', args: { table: 'author' } })).status).toBe(200);
    expect((await md({ type: 'pg_create_select_permission', args: { table: 'author', role: 'user', permission: { columns: ['id'], filter: {} } } })).status).toBe(200);
    expect((await md({ type: 'add_remote_schema', args: { name: 'shop', definition: { url: remote.url } } })).status).toBe(200);
    expect(await md({ type: 'add_remote_schema_permissions', args: { remote_schema: 'shop', role: 'user', definition: { schema: USER_SCHEMA } } }))
      .toEqual({ status: 200, body: { message: 'success' } });
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS;
    else process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS = before;
    await server?.close();
    await remote?.close();
    await db?.drop();
  });

  it('fills presets from the session, static strings and numbers, merged into the client\'s input object', async () => {
    seen.length = 0;
    const r = await asUser('{ author { id } orders(where: {status: "open"}) { id status } }');
    expect(r.body).toEqual({ data: { author: [{ id: 1 }], orders: [{ id: '7-1', status: 'open' }, { id: '7-2', status: 'open' }] } });
    expect(seen).toEqual([{ user_id: '7', limit: 2, where: { status: 'open', region: 'x-svc-region' } }]);
    seen.length = 0;
    const v = await asUser('query ($w: OrderWhere) { orders(where: $w) { id } }', { w: { status: 'done' } });
    expect(v.body.data.orders).toHaveLength(2);
    expect(seen).toEqual([{ user_id: '7', limit: 2, where: { status: 'done', region: 'x-svc-region' } }]);
  });

  it('hides what the permission leaves out, preset arguments included', async () => {
    for (const q of ['{ orders { total } }', '{ secret }', '{ orders(user_id: "1") { id } }', '{ orders(limit: 9) { id } }']) {
      const r = await asUser(q);
      expect(r.body.errors?.[0]?.extensions.code, q).toBe('validation-failed');
    }
    const t = await asUser('{ __type(name: "OrderWhere") { inputFields { name } } }');
    expect(t.body.data.__type.inputFields).toEqual([{ name: 'status' }]);
  });

  it('shows no remote field to a role without a permission, and everything to admin', async () => {
    const other = await postJson(base(), '/v1/graphql', { query: '{ orders { id } }' }, { 'x-svc-role': 'other' });
    expect(other.body.errors[0].extensions.code).toBe('validation-failed');
    const admin = await postJson(base(), '/v1/graphql', { query: '{ secret orders(user_id: "1", limit: 1) { total } }' });
    expect(admin.body).toEqual({ data: { secret: 'classified', orders: [{ total: 1 }] } });
  });

  it('applies the role\'s presets to remote relationship calls too, but for the arguments the relationship binds', async () => {
    expect((await md({ type: 'pg_create_remote_relationship', args: { name: 'orders', table: 'author', definition: { to_remote_schema: {
      remote_schema: 'shop', lhs_fields: ['id'], remote_field: { orders: { arguments: { user_id: '$id' } } } } } } })).status).toBe(200);
    seen.length = 0;
    const r = await asUser('{ author { id orders { id } } }');
    expect(r.body).toEqual({ data: { author: [{ id: 1, orders: [{ id: '1-1' }, { id: '1-2' }] }] } });
    expect(seen).toEqual([{ user_id: '1', limit: 2 }]);
    const admin = await postJson(base(), '/v1/graphql', { query: '{ author { orders { total } } }' });
    expect(admin.body).toEqual({ data: { author: [{ orders: [{ total: 1 }, { total: 2 }, { total: 3 }] }] } });
    expect((await md({ type: 'pg_delete_remote_relationship', args: { table: 'author', name: 'orders' } })).status).toBe(200);
  });

  it('refuses a permission naming what the remote does not have, and drops one', async () => {
    const bad = await md({ type: 'add_remote_schema_permissions', args: { remote_schema: 'shop', role: 'guest', definition: { schema: 'type Query { nothing: String }' } } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ path: "$.args", code: "invalid-role-based-remote-schema", error: "validation for the given role-based schema failed because field \"nothing\" does not exist in the \"Object\": \"Query\"" });
    const badPreset = await md({ type: 'add_remote_schema_permissions', args: { remote_schema: 'shop', role: 'guest',
      definition: { schema: 'type Query { secret(x: Int @preset(value: 1)): String }' } } });
    expect(badPreset.status).toBe(400);
    expect((await md({ type: 'drop_remote_schema_permissions', args: { remote_schema: 'shop', role: 'user' } })).status).toBe(200);
    expect((await asUser('{ orders { id } }')).body.errors[0].extensions.code).toBe('validation-failed');
    expect((await md({ type: 'add_remote_schema_permissions', args: { remote_schema: 'shop', role: 'user', definition: { schema: USER_SCHEMA } } })).status).toBe(200);
  });
});
