// A subscription sent over HTTP is validated as any operation (its document, its variables), then
// refused: Hasura's runGQ answers "subscriptions are not supported over HTTP, use websockets
// instead" (unexpected-payload) for a subscription plan (Transport/HTTP.hs); over WebSocket the
// same document streams.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

let server: ServedDatabase;

const REFUSED = { message: 'subscriptions are not supported over HTTP, use websockets instead', extensions: { path: '$', code: 'unexpected-payload' } };

beforeAll(async () => {
  server = await serveDatabase('fidhttpsub', 'CREATE TABLE beacon (id serial PRIMARY KEY, signal text); INSERT INTO beacon (signal) VALUES (\'ping\');', { track: ['beacon'] });
});
afterAll(() => server?.close());

describe('subscriptions over HTTP', () => {
  it('refuses a valid subscription on /v1/graphql, alone and in a batch beside a query that runs', async () => {
    expect(await server.post('/v1/graphql', { query: 'subscription { beacon { signal } }' })).toEqual({ status: 200, body: { errors: [REFUSED] } });
    expect(await server.post('/v1/graphql', { query: 'subscription Only { __typename }' })).toEqual({ status: 200, body: { errors: [REFUSED] } });
    expect(await server.post('/v1/graphql', [{ query: 'subscription { beacon { id } }' }, { query: '{ beacon { signal } }' }]))
      .toEqual({ status: 200, body: [{ errors: [REFUSED] }, { data: { beacon: [{ signal: 'ping' }] } }] });
  });

  it('answers /v1alpha1/graphql with the error\'s status', async () => {
    expect(await server.post('/v1alpha1/graphql', { query: 'subscription { beacon { id } }' })).toEqual({ status: 400, body: { errors: [REFUSED] } });
  });

  it('reports the document\'s and the variables\' errors first', async () => {
    expect((await server.post('/v1/graphql', { query: 'subscription { beacon { strength } }' })).body.errors[0].extensions.code).toBe('validation-failed');
    expect((await server.post('/v1/graphql', { query: 'subscription ($n: Int!) { beacon(limit: $n) { id } }', variables: {} })).body)
      .toEqual({ errors: [{ message: 'expecting a value for non-nullable variable: "n"', extensions: { path: '$', code: 'validation-failed' } }] });
  });

  it('streams the same subscription over WebSocket', async () => {
    const c = await Client.open(`${server.url.replace('http', 'ws')}/v1/graphql`, 'graphql-transport-ws');
    await c.init({});
    c.send({ id: '1', type: 'subscribe', payload: { query: 'subscription { beacon { signal } }' } });
    const first = await c.next((m) => m.id === '1');
    expect(first).toMatchObject({ type: 'next', payload: { data: { beacon: [{ signal: 'ping' }] } } });
    c.close();
    await c.waitClosed();
  });
});
