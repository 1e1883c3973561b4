// The first connection_init resolves the session from its payload's headers over those of the
// HTTP upgrade request: Hasura's onConnInit builds the headers as the payload's followed by the
// client's handshake headers (mkHeaders), so an auth webhook sees the handshake's cookie even when
// the payload carries `headers: {}`; with CORS disabled the cookie is not read (onConn). tests-py
// test_websocket_init_cookie TestWebsocketInitCookie::test_websocket_init_cookie_used.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startHttpServer, type TestHttpServer } from '../auth/helpers.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

let hook: TestHttpServer;
let open: ServedDatabase;
let closed: ServedDatabase;

beforeAll(async () => {
  // The webhook admits a request carrying the cookie foo=bar (as the user of x-user, when given).
  hook = await startHttpServer((req, _body, res) => {
    if (!/(^|;\s*)foo=bar(;|$)/.test(String(req.headers.cookie ?? ''))) return json(res, 401, {});
    json(res, 200, { 'X-Svc-Role': 'user', 'X-Svc-User-Id': String(req.headers['x-user'] ?? '1') });
  });
  const opts = (cors: object) => ({ adminSecret: 'c00kie', authHook: `${hook.url}/`, track: ['person'], ...cors,
    metadata: [{ type: 'pg_create_select_permission', args: { table: 'person', role: 'user', permission: { columns: ['name'], filter: { id: { _eq: 'X-Svc-User-Id' } } } } }] });
  const sql = "CREATE TABLE person (id int PRIMARY KEY, name text); INSERT INTO person VALUES (1, 'ann'), (2, 'bo');";
  open = await serveDatabase('fidwscookie', sql, opts({}));
  closed = await serveDatabase('fidwscookie2', sql, opts({ disableCors: true }));
});
afterAll(async () => {
  await open?.close();
  await closed?.close();
  await hook?.close();
});

const ws = (s: ServedDatabase) => `${s.url.replace('http', 'ws')}/v1alpha1/graphql`;

describe('connection_init with the upgrade request\'s cookie', () => {
  it('lets the webhook see the cookie beside the payload\'s headers', async () => {
    const c = await Client.open(ws(open), 'graphql-ws', { cookie: 'foo=bar;' });
    c.send({ type: 'connection_init', payload: { headers: {} } });
    c.send({ type: 'start', id: '1', payload: { query: 'query { person { name } }' } });
    expect(await c.next((m) => m.id === '1')).toEqual({ type: 'data', id: '1', payload: { data: { person: [{ name: 'ann' }] } } });
    c.send({ type: 'connection_init', payload: { headers: { 'x-user': '2', cookie: 'foo=bar' } } });
    await c.next((m) => m.type === 'connection_ack');
    c.send({ type: 'start', id: '2', payload: { query: 'query { person { name } }' } });
    expect(await c.next((m) => m.id === '2')).toEqual({ type: 'data', id: '2', payload: { data: { person: [{ name: 'bo' }] } } });
    c.close();
  });

  it('does not read the cookie when CORS is disabled', async () => {
    const c = await Client.open(ws(closed), 'graphql-ws', { cookie: 'foo=bar;' });
    c.send({ type: 'connection_init', payload: { headers: {} } });
    expect((await c.next((m) => m.type !== 'ka')).type).toBe('connection_error');
    c.close();
  });
});
