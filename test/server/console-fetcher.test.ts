// The console's fetcher (scripts/console-fetcher.mjs, bundled into GraphiQL) against a real
// server on 127.0.0.1: a query POSTed with the headers editor's headers (admin secret, role,
// session variables), a subscription over graphql-transport-ws yielding each new result until
// GraphiQL stops it (the server sees the stop), and a refused connection shown as an error.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer, type KilnServer } from '../../runtime/server/index.js';
import { createKilnFetcher, isSubscription, webSocketUrl } from '../../scripts/console-fetcher.mjs';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const SECRET = 'console-secret';
const METADATA = {
  version: 3,
  sources: [{ name: 'default', kind: 'postgres', configuration: {},
    tables: [{ table: { schema: 'public', name: 'note' }, select_permissions: [{ role: 'user', permission: { columns: ['id', 'body'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } }] }] }],
};

let db: TestDatabase;
let driver: Driver;
let server: KilnServer;
let base: string;
const lines: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase('consolefetch', "CREATE TABLE note (id int PRIMARY KEY, owner int NOT NULL, body text NOT NULL); INSERT INTO note VALUES (1, 1, 'mine'), (2, 2, 'theirs');");
  driver = createPgDriver({ url: db.url, max: 4 });
  const bundle = await buildBundle({ metadata: parseMetadata(METADATA).value!, introspection: { default: await introspectPostgres(driver) }, engineVersion: 'test' });
  const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: () => driver });
  server = createServer({
    engine, version: 'test', adminSecret: SECRET, consoleEnabled: false,
    subscriptions: { engine: () => engine, settings: { liveRefetchMs: 50 }, log: () => undefined },
    logging: { level: 'info', types: new Set(['websocket-log']), write: (l) => lines.push(l) },
  });
  const { port } = await server.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await driver?.close();
  await db?.drop();
});

const fetcher = () => createKilnFetcher({
  endpoint: `${base}/v1/graphql`, wsUrl: webSocketUrl(new URL(base), '/v1/graphql'), WebSocketImpl: WebSocket as never, fetchImpl: fetch,
});
const asUser = { 'x-svc-admin-secret': SECRET, 'x-svc-role': 'user', 'x-svc-user-id': '1' };

describe('console fetcher', () => {
  it('tells subscriptions from other operations, by the operation GraphiQL runs', () => {
    expect(isSubscription({ query: 'subscription { note { id } }' })).toBe(true);
    expect(isSubscription({ query: 'query { note { id } }' })).toBe(false);
    expect(isSubscription({ query: 'query A { note { id } } subscription B { note { id } }', operationName: 'B' })).toBe(true);
    expect(isSubscription({ query: 'query A { note { id } } subscription B { note { id } }', operationName: 'A' })).toBe(false);
    expect(isSubscription({ query: 'subscription {' })).toBe(false);
    expect(webSocketUrl({ protocol: 'https:', host: 'kiln.example:8443' }, '/v1/graphql')).toBe('wss://kiln.example:8443/v1/graphql');
  });

  it('POSTs a query with the headers editor\'s role and session variables', async () => {
    const result = await fetcher()({ query: 'query { note { body } }' }, { headers: asUser });
    expect(result).toEqual({ data: { note: [{ body: 'mine' }] } });
  });

  it('runs a subscription over WebSocket, yields each change, and stops it when GraphiQL does', async () => {
    const it = (await fetcher()({ query: 'subscription Notes { note(order_by: {id: asc}) { body } }', operationName: 'Notes' }, { headers: asUser })) as AsyncIterableIterator<unknown>;
    expect(typeof it[Symbol.asyncIterator]).toBe('function');
    expect(await it.next()).toEqual({ done: false, value: { data: { note: [{ body: 'mine' }] } } });
    await db.exec("INSERT INTO note VALUES (3, 1, 'new'), (4, 2, 'not mine')");
    expect(await it.next()).toEqual({ done: false, value: { data: { note: [{ body: 'mine' }, { body: 'new' }] } } });
    expect(await it.return!()).toEqual({ done: true, value: undefined });
    expect(await it.next()).toEqual({ done: true, value: undefined });
    const deadline = Date.now() + 3000;
    const events = () => lines.map((l) => JSON.parse(l).detail.event).map((e) => (e.type === 'operation' ? e.detail.operation_type.type : e.type));
    while (!events().includes('closed') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(events()).toEqual(['accepted', 'started', 'stopped', 'closed']);
    expect(JSON.parse(lines[0]!).detail.user_vars).toEqual({ 'x-svc-role': 'user', 'x-svc-user-id': '1' });
  });

  it('shows a refused connection and a bad subscription as errors, then ends', async () => {
    const refused = (await fetcher()({ query: 'subscription { note { id } }' }, { headers: { 'x-svc-admin-secret': 'wrong' } })) as AsyncIterableIterator<any>;
    const first = await refused.next();
    expect(first.value.errors[0].message).toMatch(/^the WebSocket closed: 4403 Forbidden/);
    expect(await refused.next()).toEqual({ done: true, value: undefined });
    const bad = (await fetcher()({ query: 'subscription { note { nope } }' }, { headers: asUser })) as AsyncIterableIterator<any>;
    const err = await bad.next();
    expect(err.value.errors[0].extensions.code).toBe('validation-failed');
    expect(await bad.next()).toEqual({ done: true, value: undefined });
  });
});
