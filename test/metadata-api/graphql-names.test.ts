// Database names that are not GraphQL names, as Hasura v2 treats them: a table whose GraphQL name
// would not be one is inconsistent (qualifiedObjectToName's wording) unless a custom name fixes it,
// and so is a table with such a column (textToName's wording, two spaces included), on
// track_table and on replace_metadata alike; a unique constraint with such a name is only left
// out of `<t>_constraint`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('names that are not GraphQL names', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const TABLE = 'Inconsistent object: cannot include "order-line" in the GraphQL schema because "order-line" is not a valid GraphQL identifier';
  const COLUMN = 'Inconsistent object: cannot include "unit.price" in the GraphQL schema because  it is not a valid GraphQL identifier';

  beforeAll(async () => {
    server = await serveDatabase('gqlnames', `CREATE TABLE "order-line" (id int PRIMARY KEY, qty int);
      CREATE TABLE price (id int PRIMARY KEY, "unit.price" numeric);
      CREATE TABLE sku (id int PRIMARY KEY, code text CONSTRAINT "sku-code" UNIQUE, alt text CONSTRAINT sku_alt UNIQUE);`);
    db = server.db;
  });
  afterAll(() => server?.close());

  it('refuses to track a table whose name or one of whose columns is not a GraphQL name', async () => {
    const table = await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'order-line' } });
    expect(table.status).toBe(400);
    expect(table.body).toMatchObject({ path: '$.args', code: 'invalid-configuration', error: TABLE });
    const column = await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'price' } });
    expect(column.body).toMatchObject({ path: '$.args', code: 'invalid-configuration', error: COLUMN });
    // A custom name makes the table fit.
    expect((await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'order-line', configuration: { custom_name: 'order_line' } } })).status).toBe(200);
  });

  it('lists the same reasons when replace_metadata allows inconsistencies', async () => {
    const r = await post('/v1/metadata', { type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: {
      version: 3, sources: [{ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: db.url } },
        tables: [{ table: { schema: 'public', name: 'order-line' } }, { table: { schema: 'public', name: 'price' } }] }] } } });
    expect(r.body.is_consistent).toBe(false);
    expect(r.body.inconsistent_objects.map((o: any) => [o.name, o.reason])).toEqual([
      ['table order-line in source default', TABLE], ['table price in source default', COLUMN]]);
  });

  it('leaves a unique constraint that is not a GraphQL name out of on_conflict, and keeps the others', async () => {
    await post('/v1/metadata', { type: 'clear_metadata', args: {} });
    expect((await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'sku' } })).status).toBe(200);
    const values = await post('/v1/graphql', { query: '{ __type(name: "sku_constraint") { enumValues { name } } }' });
    expect(values.body.data.__type.enumValues.map((v: any) => v.name)).toEqual(['sku_alt', 'sku_pkey']);
    const upsert = await post('/v1/graphql', { query: `mutation { a: insert_sku_one(object: {id: 1, alt: "x"}) { id }
      b: insert_sku_one(object: {id: 2, alt: "x"}, on_conflict: {constraint: sku_alt, update_columns: [code]}) { id } }` });
    expect(upsert.body).toEqual({ data: { a: { id: 1 }, b: { id: 1 } } });
  });
});
