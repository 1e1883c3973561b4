// websocket-log lines in Hasura's shape, from a real server on 127.0.0.1 and a real socket: a
// connection accepted and closed, operations started, completed, stopped and failed (query_err),
// a connection rejected by its auth, the query text only when query-log is on, and no line at all
// when websocket-log is not an enabled log type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer, type KilnServer, type LogLevel } from '../../runtime/server/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { Client, sleep } from './helpers.js';

const SECRET = 'ws-secret';
const METADATA = {
  version: 3,
  sources: [{ name: 'default', kind: 'postgres', configuration: {},
    tables: [{ table: { schema: 'public', name: 'author' }, select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: { id: { _eq: 'X-Svc-User-Id' } } } }] }] }],
};

let db: TestDatabase;
let driver: Driver;
let engine: Engine;
const servers: KilnServer[] = [];

/** A server whose log lines of the given types land in `lines`. */
async function serve(level: LogLevel, types: string[], lines: string[]): Promise<string> {
  const server = createServer({
    engine, version: 'test', adminSecret: SECRET, consoleEnabled: false,
    subscriptions: { engine: () => engine, settings: { liveRefetchMs: 50 }, log: () => undefined },
    logging: { level, types: new Set(types), write: (l) => lines.push(l) },
  });
  servers.push(server);
  const { port } = await server.listen(0, '127.0.0.1');
  return `ws://127.0.0.1:${port}/v1/graphql`;
}

const wsLines = (lines: string[]): any[] => lines.map((l) => JSON.parse(l)).filter((l) => l.type === 'websocket-log');
const opTypes = (lines: string[]): string[] => wsLines(lines).map((l) => l.detail.event.type === 'operation'
  ? `${l.detail.event.detail.operation_id}:${l.detail.event.detail.operation_type.type}` : l.detail.event.type);

beforeAll(async () => {
  db = await createTestDatabase('wslog', "CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL); INSERT INTO author VALUES (1, 'Ann'), (2, 'Bo');");
  driver = createPgDriver({ url: db.url, max: 4 });
  const bundle = await buildBundle({ metadata: parseMetadata(METADATA).value!, introspection: { default: await introspectPostgres(driver) }, engineVersion: 'test' });
  engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: () => driver });
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  await driver?.close();
  await db?.drop();
});

describe('websocket-log', () => {
  it('logs a connection\'s life and its operations in Hasura\'s shape', async () => {
    const lines: string[] = [];
    const url = await serve('info', ['websocket-log'], lines);
    const c = await Client.open(url, 'graphql-transport-ws');
    await c.init({ 'x-svc-admin-secret': SECRET, 'x-svc-role': 'user', 'x-svc-user-id': '1' });
    c.send({ id: 'live', type: 'subscribe', payload: { query: 'subscription Names { author { name } }', operationName: 'Names' } });
    await c.next((m) => m.id === 'live' && m.type === 'next');
    c.send({ id: 'once', type: 'subscribe', payload: { query: 'query { author { id } }' } });
    await c.next((m) => m.id === 'once' && m.type === 'complete');
    c.send({ id: 'bad', type: 'subscribe', payload: { query: 'subscription { author { nope } }' } });
    await c.next((m) => m.id === 'bad' && m.type === 'error');
    c.send({ id: 'live', type: 'complete' });
    await sleep(50);
    c.close();
    await c.waitClosed();
    await sleep(50);
    expect(opTypes(lines)).toEqual(['accepted', 'live:started', 'once:started', 'once:completed', 'bad:started', 'bad:query_err', 'live:stopped', 'closed']);
    const all = wsLines(lines);
    const id = all[0].detail.connection_info.websocket_id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    for (const l of all) {
      expect(Object.keys(l)).toEqual(['type', 'timestamp', 'level', 'detail']);
      expect(l.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
      expect(l.detail.connection_info).toEqual({ websocket_id: id, token_expiry: null, msg: null });
      expect(l.detail.user_vars).toEqual({ 'x-svc-role': 'user', 'x-svc-user-id': '1' });
    }
    const started = all[1].detail.event.detail;
    expect(started).toEqual({ request_id: expect.stringMatching(/^[0-9a-f-]{36}$/), operation_id: 'live', operation_name: 'Names', query: null, operation_type: { type: 'started' } });
    const failed = all.find((l) => l.detail.event.detail?.operation_type?.type === 'query_err');
    expect(failed.level).toBe('error');
    expect(failed.detail.event.detail.operation_type.detail).toEqual({ path: expect.stringContaining('nope'), error: expect.stringContaining('nope'), code: 'validation-failed' });
    const badStart = all.find((l) => l.detail.event.detail?.operation_id === 'bad' && l.detail.event.detail.operation_type.type === 'started');
    expect(failed.detail.event.detail.request_id).toBe(badStart.detail.event.detail.request_id);
    expect(all[6].detail.event.detail).toEqual({ request_id: null, operation_id: 'live', operation_name: null, query: null, operation_type: { type: 'stopped' } });
  });

  it('logs a rejected connection, and shows the query when query-log is on (Hasura\'s GQLReq: operationName, query, variables)', async () => {
    const lines: string[] = [];
    const url = await serve('info', ['websocket-log', 'query-log'], lines);
    const refused = await Client.open(url, 'graphql-transport-ws');
    refused.send({ type: 'connection_init', payload: { headers: { 'x-svc-admin-secret': 'wrong' } } });
    expect((await refused.waitClosed()).code).toBe(4403);
    const c = await Client.open(url, 'graphql-ws');
    await c.init({ 'x-svc-admin-secret': SECRET });
    c.send({ id: '1', type: 'start', payload: { query: 'subscription ($n: String) { author(where: {name: {_eq: $n}}) { id } }', variables: { n: 'Bo' } } });
    await c.next((m) => m.id === '1' && m.type === 'data');
    c.close();
    await c.waitClosed();
    await sleep(50);
    const all = wsLines(lines);
    const rejected = all.find((l) => l.detail.event.type === 'rejected');
    expect(rejected).toMatchObject({ level: 'error', detail: { event: { type: 'rejected', detail: { code: 'access-denied' } }, user_vars: null } });
    const started = all.find((l) => l.detail.event.detail?.operation_type?.type === 'started');
    expect(started.detail.event.detail.query).toEqual({ query: 'subscription ($n: String) { author(where: {name: {_eq: $n}}) { id } }', variables: { n: 'Bo' } });
    expect(started.detail.user_vars).toEqual({ 'x-svc-role': 'admin' });
  });

  it('shows no query without query-log, even at debug level', async () => {
    const lines: string[] = [];
    const url = await serve('debug', ['websocket-log'], lines);
    const c = await Client.open(url, 'graphql-transport-ws');
    await c.init({ 'x-svc-admin-secret': SECRET });
    c.send({ id: '1', type: 'subscribe', payload: { query: 'query Named { author { id } }', operationName: 'Named' } });
    await c.next((m) => m.id === '1' && m.type === 'complete');
    c.close();
    await c.waitClosed();
    await sleep(50);
    const started = wsLines(lines).find((l) => l.detail.event.detail?.operation_type?.type === 'started');
    expect(started.detail.event.detail).toMatchObject({ operation_name: 'Named', query: null });
  });

  it('writes ws-server lines at level debug, whatever the enabled types: each message sent, an operation\'s with its id and name', async () => {
    const lines: string[] = [];
    const url = await serve('debug', ['http-log'], lines);
    const c = await Client.open(url, 'graphql-ws');
    await c.init({ 'x-svc-admin-secret': SECRET });
    c.send({ id: 'q1', type: 'start', payload: { query: 'query GetHello { author { id } }', operationName: 'GetHello' } });
    await c.next((m) => m.id === 'q1' && m.type === 'complete');
    c.close();
    await c.waitClosed();
    await sleep(50);
    const server = lines.map((l) => JSON.parse(l)).filter((l) => l.type === 'ws-server');
    expect(wsLines(lines)).toHaveLength(0);
    expect(server.every((l) => l.level === 'debug')).toBe(true);
    const data = server.find((l) => l.detail.metadata?.event_type === 'data');
    expect(data.detail.metadata).toEqual({ event_type: 'data', operation_id: 'q1', operation_name: 'GetHello' });
    expect(data.detail.event.type).toBe('message_sent');
    expect(server.map((l) => l.detail.event.type)).toEqual(expect.arrayContaining(['accepted', 'closed']));
    // The first line with metadata is an operation's (connection_ack and ka carry none).
    expect(server.find((l) => l.detail.metadata !== undefined).detail.metadata).toMatchObject({ operation_id: 'q1', operation_name: 'GetHello' });
    expect(lines.some((l) => l.includes(SECRET))).toBe(false);
  });

  it('writes no ws-server line above level debug', async () => {
    const lines: string[] = [];
    const url = await serve('info', ['websocket-log'], lines);
    const c = await Client.open(url, 'graphql-transport-ws');
    await c.init({ 'x-svc-admin-secret': SECRET });
    c.send({ id: '1', type: 'subscribe', payload: { query: 'query { author { id } }' } });
    await c.next((m) => m.id === '1' && m.type === 'complete');
    c.close();
    await c.waitClosed();
    await sleep(50);
    expect(lines.some((l) => l.includes('"ws-server"'))).toBe(false);
    expect(wsLines(lines).length).toBeGreaterThan(0);
  });

  it('writes nothing when websocket-log is not enabled', async () => {
    const lines: string[] = [];
    const url = await serve('info', ['http-log'], lines);
    const c = await Client.open(url, 'graphql-transport-ws');
    await c.init({ 'x-svc-admin-secret': SECRET });
    c.send({ id: '1', type: 'subscribe', payload: { query: 'query { author { id } }' } });
    await c.next((m) => m.id === '1' && m.type === 'complete');
    c.close();
    await c.waitClosed();
    await sleep(50);
    expect(wsLines(lines)).toEqual([]);
  });
});
