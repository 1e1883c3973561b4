// A mutation whose root fields write tables of two PostgreSQL sources, on a served Kiln: Hasura v2
// runs such an operation field by field, each in a transaction of its own on its source, in the
// operation's order, and the first error is the whole answer (what ran before it stays written).
// A mutation on one source keeps its single transaction.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { serveCatalog, type CatalogServer } from '../helpers/catalog-server.js';

let shop: TestDatabase;
let stock: TestDatabase;
let server: CatalogServer;

const gql = async (query: string, variables: Record<string, unknown> = {}): Promise<any> => (await server.post('/v1/graphql', { query, variables })).body;

beforeAll(async () => {
  shop = await createTestDatabase('mutsrc_shop', `
    CREATE TABLE sale (id int PRIMARY KEY, item text NOT NULL, big bigint);
    CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL CHECK (body <> ''));`);
  stock = await createTestDatabase('mutsrc_stock', `
    CREATE TABLE shelf (id int PRIMARY KEY, item text NOT NULL, count int NOT NULL CHECK (count >= 0));
    INSERT INTO shelf VALUES (1, 'lamp', 5);`);
  server = await serveCatalog(shop.url);
  await server.ok('/v1/metadata', { type: 'bulk', args: [
    { type: 'pg_track_table', args: { table: 'sale' } },
    { type: 'pg_track_table', args: { table: 'note' } },
    { type: 'pg_add_source', args: { name: 'stock', configuration: { connection_info: { database_url: stock.url } } } },
    { type: 'pg_track_table', args: { source: 'stock', table: 'shelf' } },
  ] });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await shop?.drop();
  await stock?.drop();
});

describe('a mutation writing two sources', () => {
  it('writes both, in order, and answers every field under its alias with numbers as sent', async () => {
    const r = await gql(`mutation {
      sold: insert_sale_one(object: {id: 1, item: "lamp", big: "9007199254740993"}) { id item big }
      __typename
      update_shelf(where: {item: {_eq: "lamp"}}, _inc: {count: -1}) { affected_rows returning { count } }
    }`);
    expect(r).toEqual({ data: {
      sold: { id: 1, item: 'lamp', big: 9007199254740993 },
      __typename: 'mutation_root',
      update_shelf: { affected_rows: 1, returning: [{ count: 4 }] },
    } });
    // The bigint keeps its digits: the answers are joined as text, not parsed and printed again.
    const raw = await fetch(`${server.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { update_sale_by_pk(pk_columns: {id: 1}, _set: {item: "lamp2"}) { big } update_shelf_by_pk(pk_columns: {id: 1}, _inc: {count: 1}) { count } }' }) });
    expect(await raw.text()).toContain('9007199254740993');
    expect(await shop.query('SELECT id, item FROM sale')).toEqual([{ id: 1, item: 'lamp2' }]);
    expect(await stock.query('SELECT count FROM shelf WHERE id = 1')).toEqual([{ count: 5 }]);
  });

  it('stops at the first failing field: its error is the answer, the fields before it stay written, the ones after never run', async () => {
    const r = await gql(`mutation($n: Int!) {
      insert_sale_one(object: {id: 2, item: "chair"}) { id }
      update_shelf_by_pk(pk_columns: {id: 1}, _inc: {count: $n}) { count }
      insert_note_one(object: {id: 1, body: "after"}) { id }
    }`, { n: -100 });
    expect(r.data).toBeUndefined();
    expect(r.errors).toHaveLength(1);
    // Hasura's mapping of a CHECK violation (23514).
    expect(r.errors[0]).toMatchObject({ message: expect.stringContaining('shelf_count_check'), extensions: { code: 'permission-error' } });
    expect(await shop.query('SELECT id FROM sale WHERE id = 2')).toEqual([{ id: 2 }]);
    expect(await stock.query('SELECT count FROM shelf WHERE id = 1')).toEqual([{ count: 5 }]);
    expect(await shop.query('SELECT id FROM note')).toEqual([]);
  });

  it('keeps one transaction for the fields of one source: a failing second field undoes the first', async () => {
    const r = await gql(`mutation {
      insert_sale_one(object: {id: 3, item: "desk"}) { id }
      insert_note_one(object: {id: 2, body: ""}) { id }
    }`);
    expect(r.errors[0]).toMatchObject({ message: expect.stringContaining('note_body_check'), extensions: { code: 'permission-error' } });
    expect(await shop.query('SELECT id FROM sale WHERE id = 3')).toEqual([]);
  });

  it('answers the same on a second run (the one-field operations are cached with the operation)', async () => {
    const q = 'mutation($id: Int!) { insert_sale_one(object: {id: $id, item: "x"}) { id } update_shelf_by_pk(pk_columns: {id: 1}, _inc: {count: 0}) { id } }';
    expect(await gql(q, { id: 10 })).toEqual({ data: { insert_sale_one: { id: 10 }, update_shelf_by_pk: { id: 1 } } });
    expect(await gql(q, { id: 11 })).toEqual({ data: { insert_sale_one: { id: 11 }, update_shelf_by_pk: { id: 1 } } });
  });

  it('runs the same way as a REST endpoint (a stored query)', async () => {
    await server.ok('/v1/metadata', { type: 'bulk', args: [
      { type: 'create_query_collection', args: { name: 'ops', definition: { queries: [
        { name: 'sell', query: 'mutation ($id: Int!, $item: String!) { insert_sale_one(object: {id: $id, item: $item}) { id item } update_shelf_by_pk(pk_columns: {id: 1}, _inc: {count: -1}) { count } }' },
      ] } } },
      { type: 'create_rest_endpoint', args: { name: 'sell', url: 'sell', methods: ['POST'], definition: { query: { collection_name: 'ops', query_name: 'sell' } } } },
    ] });
    const r = await server.post('/api/rest/sell', { id: 20, item: 'rug' });
    expect(r).toEqual({ status: 200, body: { insert_sale_one: { id: 20, item: 'rug' }, update_shelf_by_pk: { count: 4 } } });
    expect(await stock.query('SELECT count FROM shelf WHERE id = 1')).toEqual([{ count: 4 }]);
  });
});
