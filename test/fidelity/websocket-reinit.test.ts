// A second connection_init on an initialised socket is answered, in both sub-protocols: Hasura's
// onConnInit (Transport/WebSocket.hs) resolves the user again from the new payload's headers (the
// handshake's headers count only before the first init), stores it for the operations started
// after it and sends connection_ack (and a keep-alive) again. tests-py's websocket clients
// (context.py GQLWsClient / GraphQLWSClient) send a fresh connection_init with the case's headers
// before every query, so every `transport=websocket` case of test_graphql_queries and
// test_subscriptions (TestSubscriptionBasic::test_negative[websocket], TestSubscriptionLiveQueries*,
// TestSubscriptionUDFWithSessionArg) depends on it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

let server: ServedDatabase;
const ADMIN = { 'x-svc-admin-secret': 'reinit' };

beforeAll(async () => {
  server = await serveDatabase('fidwsreinit', "CREATE TABLE lamp (id int PRIMARY KEY, owner text); INSERT INTO lamp VALUES (1, 'a'), (2, 'b');", {
    adminSecret: 'reinit', track: ['lamp'],
    metadata: [{ type: 'pg_create_select_permission', args: { table: 'lamp', role: 'user', permission: { columns: ['id'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } } }],
  });
});
afterAll(() => server?.close());

for (const protocol of ['graphql-ws', 'graphql-transport-ws'] as const) {
  describe(`connection_init again (${protocol})`, () => {
    const start = protocol === 'graphql-ws' ? 'start' : 'subscribe';
    const ws = () => `${server.url.replace('http', 'ws')}/v1/graphql`;

    it('acknowledges it and runs the next operations with the new headers', async () => {
      const c = await Client.open(ws(), protocol);
      await c.init(ADMIN);
      c.send({ id: 'a', type: start, payload: { query: 'query { lamp(order_by: {id: asc}) { id } }' } });
      expect((await c.next((m) => m.id === 'a')).payload).toEqual({ data: { lamp: [{ id: 1 }, { id: 2 }] } });
      await c.init({ ...ADMIN, 'x-svc-role': 'user', 'x-svc-user-id': 'b' });
      c.send({ id: 'b', type: start, payload: { query: 'query { lamp { id } }' } });
      expect((await c.next((m) => m.id === 'b')).payload).toEqual({ data: { lamp: [{ id: 2 }] } });
      await c.init(ADMIN);
      c.send({ id: 'c', type: start, payload: { query: 'query { lamp(order_by: {id: asc}) { id } }' } });
      expect((await c.next((m) => m.id === 'c')).payload).toEqual({ data: { lamp: [{ id: 1 }, { id: 2 }] } });
      expect(c.closed).toBeNull();
      c.close();
      await c.waitClosed();
    });
  });
}
