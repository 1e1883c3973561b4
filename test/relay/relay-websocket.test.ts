// The Relay API over WebSocket (/v1beta1/relay), as Hasura serves it (Server/App.hs serves the
// relay path's sockets; GraphQL/Schema.hs buildRelayRoleContext: the subscription root has the
// query root's fields): queries and mutations run once, subscriptions are live queries whose every
// result has the Relay shape (global ids, cursors, pageInfo), under the role's permissions.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('the Relay API over WebSocket', () => {
  let server: ServedDatabase;
  let wsUrl: string;

  beforeAll(async () => {
    server = await serveDatabase('relayws', `CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, owner int);
      INSERT INTO author (name, owner) VALUES ('A1', 1), ('A2', 2);`);
    const setup = (await server.post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'author' } },
      { type: 'pg_create_select_permission', args: { table: 'author', role: 'reader', permission: { columns: ['name'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } } },
    ] })).body;
    expect(setup).toHaveLength(2);
    wsUrl = `${server.url.replace(/^http/, 'ws')}/v1beta1/relay`;
  }, 60_000);
  afterAll(() => server?.close());

  it('answers a subscription in the Relay shape and again when the rows change', async () => {
    const c = await Client.open(wsUrl, 'graphql-transport-ws');
    await c.init({ 'x-svc-role': 'reader', 'x-svc-user-id': '1' });
    c.send({ id: '1', type: 'subscribe', payload: { query: 'subscription { author_connection(first: 5) { pageInfo { hasNextPage } edges { cursor node { id name } } } }' } });
    const first = await c.next((m) => m.id === '1' && m.type === 'next', 5000);
    expect(first.payload).toEqual({ data: { author_connection: { pageInfo: { hasNextPage: false },
      edges: [{ cursor: b64('{"id" : 1}'), node: { id: b64('[1, "public", "author", 1]'), name: 'A1' } }] } } });
    await server.post('/v1/graphql', { query: 'mutation { insert_author(objects: [{name: "A3", owner: 1}]) { affected_rows } }' });
    const second = await c.next((m) => m.id === '1' && m.type === 'next', 5000);
    expect((second.payload as any).data.author_connection.edges.map((e: any) => e.node)).toEqual([
      { id: b64('[1, "public", "author", 1]'), name: 'A1' }, { id: b64('[1, "public", "author", 3]'), name: 'A3' }]);
    c.close();
  });

  it('answers a subscription past a cursor, saying what lies before it', async () => {
    const c = await Client.open(wsUrl, 'graphql-ws');
    await c.init({});
    c.send({ id: 'p', type: 'start', payload: { query: `subscription { author_connection(after: "${b64('{"id" : 1}')}", first: 1) { pageInfo { hasPreviousPage hasNextPage } edges { node { name } } } }` } });
    expect((await c.next((m) => m.id === 'p' && m.type === 'data', 5000)).payload).toEqual({ data: { author_connection: {
      pageInfo: { hasPreviousPage: true, hasNextPage: true }, edges: [{ node: { name: 'A2' } }] } } });
    c.close();
  });

  it('runs a query once, with the Relay shape', async () => {
    const c = await Client.open(wsUrl, 'graphql-transport-ws');
    await c.init({});
    c.send({ id: 'q', type: 'subscribe', payload: { query: `{ node(id: "${b64('[1, "public", "author", 2]')}") { id ... on author { name } } }` } });
    expect((await c.next((m) => m.id === 'q' && m.type === 'next')).payload).toEqual({ data: { node: { id: b64('[1, "public", "author", 2]'), name: 'A2' } } });
    await c.next((m) => m.id === 'q' && m.type === 'complete');
    c.close();
  });

  it('refuses a query the Relay schema does not have with an error message, as on /v1/graphql', async () => {
    const c = await Client.open(wsUrl, 'graphql-transport-ws');
    await c.init({});
    c.send({ id: 'e', type: 'subscribe', payload: { query: '{ author_connection { nope } }' } });
    expect(await c.next((m) => m.id === 'e')).toEqual({ id: 'e', type: 'error', payload: [{ message: 'field "nope" not found in type: \'authorConnection\'',
      extensions: { path: '$.selectionSet.author_connection.selectionSet.nope', code: 'validation-failed' } }] });
    c.close();
  });
});
