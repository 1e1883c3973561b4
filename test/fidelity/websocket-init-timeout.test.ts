// The connection_init timeout (SVC_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT) closes only a
// graphql-transport-ws socket (4408): Hasura applies it to the graphql-ws library's protocol and
// ignores it for subscriptions-transport-ws (Apollo) clients, whose socket may send its
// connection_init later. tests-py opens its session-wide Apollo client (context.py GQLWsClient,
// hge_ctx.ws_client) at start-up and first sends connection_init in a later websocket case
// (test_subscriptions TestSubscriptionBasic::test_negative[websocket], every transport=websocket case).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client, sleep } from '../subscriptions/helpers.js';

let server: ServedDatabase;
const saved = process.env.SVC_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT;

beforeAll(async () => {
  process.env.SVC_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT = '1';
  try {
    server = await serveDatabase('fidwsinitto', "CREATE TABLE dial (id int PRIMARY KEY); INSERT INTO dial VALUES (3);", { track: ['dial'] });
  } finally {
    if (saved === undefined) delete process.env.SVC_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT;
    else process.env.SVC_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT = saved;
  }
});
afterAll(() => server?.close());

describe('connection_init timeout', () => {
  it('closes a graphql-transport-ws socket with 4408 but lets a graphql-ws socket wait', async () => {
    const url = `${server.url.replace('http', 'ws')}/v1/graphql`;
    const modern = await Client.open(url, 'graphql-transport-ws');
    const legacy = await Client.open(url, 'graphql-ws');
    expect((await modern.waitClosed(3000)).code).toBe(4408);
    await sleep(500);
    expect(legacy.closed).toBeNull();
    await legacy.init({});
    legacy.send({ id: 'q', type: 'start', payload: { query: '{ dial { id } }' } });
    expect((await legacy.next((m) => m.id === 'q')).payload).toEqual({ data: { dial: [{ id: 3 }] } });
    legacy.close();
  });
});
