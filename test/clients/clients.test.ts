// The clients README's "Clients" section shows, against a real server on 127.0.0.1 in JWT mode
// (default claims namespace): graphql-ws itself (the package) for subscriptions and queries over
// WebSocket; and the HTTP requests Apollo Client, urql and graphql-request send, replayed with
// their shapes (Apollo's `__typename` in every selection, their Accept headers, urql's default
// GET and the POST it sends once told `preferGetMethod: false`, graphql-request's batch), plus the
// CORS preflight a browser makes before any of them.
import { SignJWT } from 'jose';
import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { createJwtAuthenticator, parseJwtConfig } from '../../runtime/auth/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer, type KilnServer } from '../../runtime/server/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const KEY = 'a-test-key-that-is-at-least-32-characters-long';
const SECRET = 'clients-admin';
const METADATA = {
  version: 3,
  sources: [{ name: 'default', kind: 'postgres', configuration: {},
    tables: [{ table: { schema: 'public', name: 'todo' }, select_permissions: [{ role: 'user', permission: { columns: ['id', 'title', 'done'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } }] }] }],
};

let db: TestDatabase;
let driver: Driver;
let server: KilnServer;
let http: string;
let ws: string;
let token: string;

beforeAll(async () => {
  db = await createTestDatabase('clients', "CREATE TABLE todo (id int PRIMARY KEY, owner text NOT NULL, title text NOT NULL, done boolean NOT NULL DEFAULT false); INSERT INTO todo VALUES (1, 'u1', 'write', false), (2, 'u2', 'other', false);");
  driver = createPgDriver({ url: db.url, max: 4 });
  const bundle = await buildBundle({ metadata: parseMetadata(METADATA).value!, introspection: { default: await introspectPostgres(driver) }, engineVersion: 'test' });
  const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: () => driver });
  const jwt = await createJwtAuthenticator([parseJwtConfig(JSON.stringify({ type: 'HS256', key: KEY }))]);
  server = createServer({
    engine, version: 'test', adminSecret: SECRET, consoleEnabled: false, authenticators: [jwt],
    subscriptions: { engine: () => engine, settings: { liveRefetchMs: 50 }, log: () => undefined },
  });
  const { port } = await server.listen(0, '127.0.0.1');
  http = `http://127.0.0.1:${port}/v1/graphql`;
  ws = `ws://127.0.0.1:${port}/v1/graphql`;
  // The claims under Kiln's default namespace, as the README shows them.
  token = await new SignJWT({
    'https://svc.io/jwt/claims': { 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 'user', 'x-svc-user-id': 'u1' },
  }).setProtectedHeader({ alg: 'HS256' }).setSubject('u1').setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(KEY));
}, 60_000);

afterAll(async () => {
  await server?.close();
  await driver?.close();
  await db?.drop();
});

const post = async (body: unknown, headers: Record<string, string>): Promise<{ status: number; type: string | null; body: any }> => {
  const res = await fetch(http, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers } });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
};

describe('graphql-ws (the package)', () => {
  let client: WsClient;
  beforeAll(() => {
    // What the README shows: the headers go in connectionParams.headers.
    client = createClient({ url: ws, webSocketImpl: WebSocket, connectionParams: { headers: { Authorization: `Bearer ${token}` } } });
  });
  afterAll(async () => { await client?.dispose(); });

  it('runs a live subscription with the JWT\'s role and sees a change', async () => {
    const results = client.iterate<{ todo: { title: string }[] }>({ query: 'subscription { todo(order_by: {id: asc}) { title } }' });
    expect((await results.next()).value).toEqual({ data: { todo: [{ title: 'write' }] } });
    await db.exec("INSERT INTO todo VALUES (3, 'u1', 'read', false), (4, 'u2', 'hidden', false)");
    expect((await results.next()).value).toEqual({ data: { todo: [{ title: 'write' }, { title: 'read' }] } });
    await results.return!();
  });

  it('runs a query over the same socket, and reports a GraphQL error as graphql-ws does', async () => {
    const once = client.iterate({ query: 'query { todo_by_pk(id: 1) { title } }' });
    expect((await once.next()).value).toEqual({ data: { todo_by_pk: { title: 'write' } } });
    expect((await once.next()).done).toBe(true);
    const bad = client.iterate({ query: 'subscription { todo { owner } }' });
    await expect(bad.next()).rejects.toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'validation-failed' }) })]);
  });
});

describe('HTTP clients', () => {
  it('answers Apollo Client\'s request: __typename in every selection set, its Accept header', async () => {
    const r = await post({
      operationName: 'Todos', variables: { done: false },
      query: 'query Todos($done: Boolean!) {\n  todo(where: {done: {_eq: $done}}, order_by: {id: asc}) {\n    id\n    title\n    __typename\n  }\n}',
    }, { accept: 'application/graphql-response+json,application/json;q=0.9' });
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.body.data.todo[0]).toEqual({ id: 1, title: 'write', __typename: 'todo' });
  });

  it('answers urql\'s default GET with the error the README explains, and its POST once preferGetMethod is false', async () => {
    const query = 'query { todo { title } }';
    const get = await fetch(`${http}?query=${encodeURIComponent(query)}`, { headers: { authorization: `Bearer ${token}` } });
    expect(get.status).toBe(200);
    expect((await get.json()).errors[0].message).toBe('PersistedQueryNotSupported');
    const r = await post({ query, variables: {} }, { accept: 'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed' });
    expect(r.body).toEqual({ data: { todo: expect.arrayContaining([{ title: 'write' }]) } });
  });

  it('answers graphql-request\'s batch (a JSON array in, an array out)', async () => {
    const r = await post([{ query: 'query { todo_by_pk(id: 1) { title } }' }, { query: 'query { todo_aggregate { aggregate { count } } }' }],
      { accept: 'application/graphql-response+json, application/json' });
    expect(r.body[0]).toEqual({ data: { todo_by_pk: { title: 'write' } } });
    expect(r.body[1].errors[0].extensions.code).toBe('validation-failed'); // no aggregate permission for the role
  });

  it('lets a browser on another origin call it (CORS preflight with the headers the clients send)', async () => {
    const res = await fetch(http, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type,x-svc-role' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type,x-svc-role');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('switches role with X-Svc-Role among the JWT\'s allowed roles only', async () => {
    const r = await post({ query: 'query { todo { title } }' }, { 'x-svc-role': 'admin' });
    expect(r.body.errors[0].extensions.code).toBe('access-denied');
  });
});
