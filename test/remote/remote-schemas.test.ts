// Remote schemas served (issue 17): add_remote_schema introspects a real GraphQL server on
// 127.0.0.1; its root fields join the schema; a request mixing tables and remotes is split into
// one SQL statement and one call per remote; headers, errors, update/remove/reload, clashes.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { startRemote, type RemoteServer } from './remote-server.js';

const USERS = [{ id: 1, name: 'ada' }, { id: 2, name: 'bob' }];
const SDL_A = `
  type Query { hello(name: String): String  user(id: Int!): User  users: [User!]!  boom: String }
  type User { id: Int!  name: String!  role: String }
  type Mutation { greet(text: String!): String }`;
const ROOT_A = {
  hello: ({ name }: { name?: string }) => `hello ${name ?? 'world'}`,
  user: ({ id }: { id: number }) => USERS.find((u) => u.id === id) ?? null,
  users: () => USERS,
  boom: () => { throw new Error('remote exploded'); },
  greet: ({ text }: { text: string }) => `greeted ${text}`,
};
const SDL_B = 'type Query { weather(city: String!): Float }';
const ROOT_B = { weather: ({ city }: { city: string }) => (city === 'oslo' ? -3.5 : 20) };

describe('remote schemas', () => {
  let db: TestDatabase;
  let server: { port: number; close(): Promise<void> };
  let a: RemoteServer;
  let b: RemoteServer;
  const SECRET = 'remote-secret';
  const base = () => `http://127.0.0.1:${server.port}`;
  const md = (body: unknown) => postJson(base(), '/v1/metadata', body, { 'x-svc-admin-secret': SECRET });
  const gql = (query: string, variables?: unknown, headers: Record<string, string> = {}) =>
    postJson(base(), '/v1/graphql', { query, variables }, { 'x-svc-admin-secret': SECRET, ...headers });
  const addA = (extra: Record<string, unknown> = {}) => md({ type: 'add_remote_schema', args: { name: 'people', definition: {
    url: a.url, headers: [{ name: 'x-api-key', value: 'k1' }, { name: 'x-env-key', value_from_env: 'KILN_REMOTE_TEST_KEY' }],
    forward_client_headers: true, timeout_seconds: 5, ...extra } } });
  const exported = async () => (await md({ type: 'export_metadata', args: {} })).body;

  beforeAll(async () => {
    process.env.KILN_REMOTE_TEST_KEY = 'from-env';
    db = await createTestDatabase('remote', "CREATE TABLE author (id int PRIMARY KEY, name text); INSERT INTO author VALUES (1, 'anne'), (2, 'ben');");
    server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4,
      stringifyNumericTypes: false, console: false, adminSecret: SECRET });
    a = await startRemote(SDL_A, ROOT_A);
    b = await startRemote(SDL_B, ROOT_B);
  });
  afterAll(async () => {
    await server?.close();
    await a?.close();
    await b?.close();
    await db?.drop();
  });
  beforeEach(async () => {
    await md({ type: 'clear_metadata', args: {} });
    expect((await md({ type: 'pg_track_table', args: { table: 'author' } })).status).toBe(200);
    a.setSchema(SDL_A, ROOT_A);
    a.answerWith(null);
    a.delay(0);
    a.received.length = 0;
    b.received.length = 0;
  });

  it('introspects with the configured headers and serves the remote root fields', async () => {
    expect(await addA()).toEqual({ status: 200, body: { message: 'success' } });
    const intro = a.received.find((r) => r.body.query.includes('__schema'))!;
    expect(intro.headers['x-api-key']).toBe('k1');
    expect(intro.headers['x-env-key']).toBe('from-env');
    const r = await gql('{ hello(name: "kiln") users { id name } }');
    expect(r).toEqual({ status: 200, body: { data: { hello: 'hello kiln', users: USERS } } });
    const m = await gql('mutation { greet(text: "x") }');
    expect(m.body).toEqual({ data: { greet: 'greeted x' } });
  });

  it('splits a request: one SQL statement, one call per remote with only its variables and fragments, answers in order', async () => {
    await addA();
    expect((await md({ type: 'add_remote_schema', args: { name: 'weather', definition: { url: b.url } } })).status).toBe(200);
    a.received.length = 0;
    b.received.length = 0;
    const q = `query Mixed($id: Int!, $city: String!, $unused: String) {
      w: weather(city: $city)
      author(order_by: {id: asc}) { id name }
      u: user(id: $id) { ...U }
      hello
      ... on query_root { again: hello(name: $unused) }
    }
    fragment U on User { id name }
    fragment Unused on User { role }`;
    const r = await gql(q, { id: 2, city: 'oslo', unused: 'z' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data)).toEqual(['w', 'author', 'u', 'hello', 'again']);
    expect(r.body).toEqual({ data: { w: -3.5, author: [{ id: 1, name: 'anne' }, { id: 2, name: 'ben' }], u: { id: 2, name: 'bob' },
      hello: 'hello world', again: 'hello z' } });
    expect(a.calls()).toHaveLength(1);
    expect(b.calls()).toHaveLength(1);
    const sent = a.calls()[0]!.body;
    expect(sent.variables).toEqual({ id: 2, unused: 'z' });
    expect(sent.query).toContain('fragment U on User');
    expect(sent.query).not.toContain('Unused');
    expect(sent.query).not.toContain('weather');
    expect(sent.query).not.toContain('author');
    expect(b.calls()[0]!.body.variables).toEqual({ city: 'oslo' });
    // A skipped root field stays out of the answer, whichever part it belongs to.
    const skipped = await gql('query ($no: Boolean!) { hello @include(if: $no) author @skip(if: true) { id } users { id } }', { no: false });
    expect(skipped.body).toEqual({ data: { users: USERS.map((u) => ({ id: u.id })) } });
  });

  it('runs a mutation mixing a table and a remote: the table part, then the remote call, answers in order', async () => {
    await addA();
    const r = await gql('mutation { g: greet(text: "first") insert_author_one(object: {id: 9, name: "nine"}) { id name } }');
    expect(r.body).toEqual({ data: { g: 'greeted first', insert_author_one: { id: 9, name: 'nine' } } });
    await db.exec('DELETE FROM author WHERE id = 9');
  });

  it('passes remote errors through with their path', async () => {
    await addA();
    const r = await gql('{ boom hello }');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ boom: null, hello: 'hello world' });
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors[0]).toMatchObject({ message: 'remote exploded', path: ['boom'] });
  });

  it('forwards client headers (never the admin secret) and the session variables', async () => {
    await addA();
    a.received.length = 0;
    await gql('{ hello }', undefined, { 'x-trace': 't-1', 'x-svc-role': 'admin', 'x-svc-user-id': '42', 'x-api-key': 'client-wins?' });
    const h = a.calls()[0]!.headers;
    expect(h['x-trace']).toBe('t-1');
    expect(h['x-svc-user-id']).toBe('42');
    expect(h['x-svc-role']).toBe('admin');
    expect(h['x-svc-admin-secret']).toBeUndefined();
    // Configured headers win over the client's.
    expect(h['x-api-key']).toBe('k1');
  });

  it('does not forward client headers without forward_client_headers', async () => {
    await addA({ forward_client_headers: false });
    a.received.length = 0;
    await gql('{ hello }', undefined, { 'x-trace': 't-1', 'x-svc-user-id': '42' });
    const h = a.calls()[0]!.headers;
    expect(h['x-trace']).toBeUndefined();
    expect(h['x-svc-user-id']).toBe('42');
  });

  it('refuses an unreachable remote, a non-schema answer and a slow remote, changing nothing', async () => {
    const before = await exported();
    const down = await md({ type: 'add_remote_schema', args: { name: 'down', definition: { url: 'http://127.0.0.1:9/graphql' } } });
    expect(down).toEqual({ status: 400, body: { path: '$.args', code: 'remote-schema-error', error: 'HTTP exception occurred while sending the request to http://127.0.0.1:9/graphql' } });
    a.answerWith('{"data":{"nothing":1}}');
    const junk = await addA();
    expect(junk.status).toBe(400);
    expect(junk.body.code).toBe('remote-schema-error');
    expect(junk.body.error).toMatch(/^invalid remote schema/);
    a.answerWith(null);
    a.delay(1500);
    const slow = await addA({ timeout_seconds: 1 });
    expect(slow.body).toMatchObject({ code: 'remote-schema-error', error: `HTTP exception occurred while sending the request to ${a.url}` });
    a.delay(0);
    expect(await exported()).toEqual(before);
    expect((await gql('{ hello }')).body.errors[0].message).toMatch(/hello/);
  });

  it('refuses a remote whose root field a table already has, with Hasura\'s message', async () => {
    const c = await startRemote('type Query { author: String }', { author: () => 'x' });
    try {
      const r = await md({ type: 'add_remote_schema', args: { name: 'clash', definition: { url: c.url } } });
      expect(r).toEqual({ status: 500, body: { path: '$.args', code: 'unexpected', error: 'found duplicate fields in selection set: author' } });
      expect((await exported()).remote_schemas).toBeUndefined();
    } finally {
      await c.close();
    }
  });

  it('refuses a remote whose type clashes with a table\'s type', async () => {
    const c = await startRemote('type Query { other: author }  type author { x: Int }', {});
    try {
      const r = await md({ type: 'add_remote_schema', args: { name: 'clash', definition: { url: c.url } } });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('Inconsistent object: types: [ author ] have mismatch with current graphql schema. HINT: Types must be same.');
    } finally {
      await c.close();
    }
  });

  it('update_remote_schema introspects the new URL; remove_remote_schema removes the fields', async () => {
    await addA();
    expect((await md({ type: 'update_remote_schema', args: { name: 'people', definition: { url: b.url } } })).status).toBe(200);
    expect((await gql('{ weather(city: "x") }')).body).toEqual({ data: { weather: 20 } });
    expect((await gql('{ hello }')).body.errors[0].extensions.code).toBe('validation-failed');
    const bad = await md({ type: 'update_remote_schema', args: { name: 'people', definition: { url: 'http://127.0.0.1:9/x' } } });
    expect(bad.body.code).toBe('remote-schema-error');
    expect((await gql('{ weather(city: "x") }')).body).toEqual({ data: { weather: 20 } });
    expect((await md({ type: 'remove_remote_schema', args: { name: 'people' } })).status).toBe(200);
    expect((await gql('{ weather(city: "x") }')).body.errors[0].extensions.code).toBe('validation-failed');
  });

  it('reload_remote_schema and reload_metadata introspect again', async () => {
    await addA();
    a.setSchema(`${SDL_A} extend type Query { fresh: String }`, { ...ROOT_A, fresh: () => 'new' });
    expect((await gql('{ fresh }')).body.errors[0].extensions.code).toBe('validation-failed');
    expect(await md({ type: 'reload_remote_schema', args: { name: 'people' } })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await gql('{ fresh }')).body).toEqual({ data: { fresh: 'new' } });
    a.setSchema(`${SDL_A} extend type Query { fresher: String }`, { ...ROOT_A, fresher: () => 'newer' });
    expect((await md({ type: 'reload_metadata', args: {} })).body).toEqual({ is_consistent: true, message: 'success' });
    expect((await gql('{ fresher }')).body).toEqual({ data: { fresher: 'newer' } });
    const missing = await md({ type: 'reload_remote_schema', args: { name: 'nope' } });
    expect(missing.body.code).toBe('not-exists');
  });

  it('a remote that goes down on reload is inconsistent; the tables still serve; reload brings it back', async () => {
    await addA();
    a.answerWith('not json');
    expect((await md({ type: 'reload_metadata', args: {} })).body).toMatchObject({ is_consistent: false,
      inconsistent_objects: [{ type: 'remote_schema', name: 'remote_schema people' }] });
    expect((await gql('{ author(where: {id: {_eq: 1}}) { name } }')).body).toEqual({ data: { author: [{ name: 'anne' }] } });
    a.answerWith(null);
    await md({ type: 'reload_remote_schema', args: { name: 'people' } });
    expect((await md({ type: 'get_inconsistent_metadata', args: {} })).body.is_consistent).toBe(true);
    expect((await gql('{ hello }')).body).toEqual({ data: { hello: 'hello world' } });
  });

  it('refuses remote schema permissions while they are not enabled; every role sees the remote', async () => {
    await addA();
    const r = await md({ type: 'add_remote_schema_permissions', args: { remote_schema: 'people', role: 'user', definition: { schema: 'type Query { hello: String }' } } });
    expect(r).toEqual({ status: 400, body: { path: '$.args', code: 'constraint-violation',
      error: 'remote schema permissions can only be added when remote schema permissions are enabled in the graphql-engine' } });
    expect((await gql('{ users { id } }', undefined, { 'x-svc-role': 'anyone' })).body).toEqual({ data: { users: USERS.map((u) => ({ id: u.id })) } });
  });

  it('a remote that is down when a server starts from the catalog is inconsistent there; reload_remote_schema brings it back', async () => {
    await addA();
    a.answerWith('down');
    const second = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 2,
      stringifyNumericTypes: false, console: false, adminSecret: SECRET });
    try {
      const at = (path: string, body: unknown) => postJson(`http://127.0.0.1:${second.port}`, path, body, { 'x-svc-admin-secret': SECRET });
      const inc = await at('/v1/metadata', { type: 'get_inconsistent_metadata', args: {} });
      expect(inc.body).toMatchObject({ is_consistent: false, inconsistent_objects: [{ type: 'remote_schema', name: 'remote_schema people',
        reason: expect.stringMatching(/did not answer with JSON/) }] });
      expect((await at('/v1/graphql', { query: '{ author(where: {id: {_eq: 2}}) { name } }' })).body).toEqual({ data: { author: [{ name: 'ben' }] } });
      a.answerWith(null);
      expect((await at('/v1/metadata', { type: 'reload_remote_schema', args: { name: 'people' } })).status).toBe(200);
      expect((await at('/v1/graphql', { query: '{ hello }' })).body).toEqual({ data: { hello: 'hello world' } });
    } finally {
      a.answerWith(null);
      await second.close();
    }
  });

  it('an unreachable remote at request time is a remote-schema-error', async () => {
    await addA();
    a.answerWith('<html>');
    const r = await gql('{ hello author { id } }');
    expect(r.body.errors[0].extensions.code).toBe('remote-schema-error');
  });
});
