// An array relationship asked as a plain list on the Relay API (POST /v1beta1/relay) yields nodes:
// in Hasura v2's Relay schema (GraphQL/Schema/Relay.hs, the table selection sets built with the
// Node interface) the relationship's target type is the same Node type as `<rel>_connection`'s,
// so each item's `id` is the global id, not the key column. tests-py case:
// test_graphql_queries.py::TestRelayQueriesBasic::test_author_connection (relay/basic/
// author_connection.yaml, `articles { id title content }` inside `author_connection`). The list
// keeps its arguments (where, order_by, limit). Kiln passed the list through and answered the
// key column (`id: 1`).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

const nodeId = (table: string, id: number): string => Buffer.from(`[1, "public", "${table}", ${id}]`).toString('base64');

let server: ServedDatabase;
const relay = async (query: string, headers: Record<string, string> = {}): Promise<any> => (await server.post('/v1beta1/relay', { query }, headers)).body;

beforeAll(async () => {
  server = await serveDatabase('fidrelaylist', `CREATE TABLE shelf (id serial PRIMARY KEY, label text NOT NULL);
    CREATE TABLE volume (id serial PRIMARY KEY, title text NOT NULL, shelf_id int REFERENCES shelf);
    INSERT INTO shelf (label) VALUES ('A'), ('B');
    INSERT INTO volume (title, shelf_id) VALUES ('one', 1), ('two', 1), ('three', 2);`, {
    track: ['shelf', 'volume'],
    metadata: [
      { type: 'pg_create_array_relationship', args: { table: 'shelf', name: 'volumes', using: { foreign_key_constraint_on: { table: 'volume', column: 'shelf_id' } } } },
      { type: 'pg_create_select_permission', args: { table: 'shelf', role: 'reader', permission: { columns: ['label'], filter: {} } } },
      { type: 'pg_create_select_permission', args: { table: 'volume', role: 'reader', permission: { columns: ['title'], filter: {} } } },
    ],
  });
}, 60_000);
afterAll(() => server?.close());

describe('a plain array relationship on the Relay API', () => {
  it('answers its rows as nodes, with global ids, keeping its arguments', async () => {
    const body = await relay(`{ shelf_connection(first: 1) { edges { node { id label
      volumes(order_by: {title: desc}, where: {title: {_neq: "none"}}, limit: 2) { id title __typename } } } } }`);
    expect(body).toEqual({ data: { shelf_connection: { edges: [{ node: { id: nodeId('shelf', 1), label: 'A',
      volumes: [{ id: nodeId('volume', 2), title: 'two', __typename: 'volume' }, { id: nodeId('volume', 1), title: 'one', __typename: 'volume' }] } }] } } });
  });

  it('gives the global id to a role that cannot read the key column, inside a node too', async () => {
    const body = await relay(`{ node(id: "${nodeId('shelf', 2)}") { ... on shelf { volumes { id title } } } }`, { 'x-svc-role': 'reader' });
    expect(body).toEqual({ data: { node: { volumes: [{ id: nodeId('volume', 3), title: 'three' }] } } });
  });
});
