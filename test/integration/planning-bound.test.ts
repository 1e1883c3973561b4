// A filtered, ordered list with a limit known when planning picks its rows in a MATERIALIZED CTE
// under a planning bound (the least power of two at or above the limit), then takes the limit,
// itself a parameter, from the CTE.
// These tests hold it to the plain `ORDER BY .. LIMIT n` answer, row for row, on a real database,
// at and around the bounds, through relationships, aggregates and role limits; and show why it
// exists: PostgreSQL's generic plan of the statement reads the rows wanted, not the whole table.
import { parse, type OperationDefinitionNode } from 'graphql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindParams, planOperation } from '../../runtime/graphql/index.js';
import { postgres } from '../../runtime/sql/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, metadataOf, table } from './setup.js';

// 3,000 items in 25 kinds; kind 7 is the only one dearer than 1 (like bench Q4's 'TV Shows').
// `rank` repeats (ties) and is null for every tenth item.
const SETUP = `
CREATE TABLE kind (id int PRIMARY KEY, name text NOT NULL UNIQUE);
CREATE TABLE item (id int PRIMARY KEY, kind_id int NOT NULL REFERENCES kind(id), price numeric NOT NULL, rank int);
CREATE INDEX item_kind_id_idx ON item (kind_id);
INSERT INTO kind SELECT k, 'kind ' || k FROM generate_series(1, 25) k;
INSERT INTO item SELECT i, 1 + i % 25, CASE WHEN 1 + i % 25 = 7 THEN 2 ELSE 1 END,
  CASE WHEN i % 10 = 0 THEN NULL ELSE i % 37 END FROM generate_series(1, 3000) i;
ANALYZE kind; ANALYZE item;
`;

const METADATA = metadataOf([
  table('kind', {
    array_relationships: [{ name: 'items', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'item' }, column: 'kind_id' } } }],
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: {} } }],
  }),
  table('item', {
    object_relationships: [{ name: 'kind', using: { foreign_key_constraint_on: 'kind_id' } }],
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'kind_id', 'price', 'rank'], filter: {}, limit: 40, allow_aggregations: true } }],
  }),
]);

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('planning_bound', SETUP);
  kiln = await startKiln({ metadata: METADATA, databaseUrl: db.url });
});

afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const idsOf = (rows: unknown): number[] => (rows as { id: number }[]).map((r) => r.id);
const direct = async (sql: string, params: unknown[] = []): Promise<number[]> =>
  (await db.query<{ id: number }>(sql, params)).map((r) => r.id);

describe('a filtered, ordered list under a planning bound', () => {
  it('answers the rows ORDER BY .. LIMIT answers, at and around each bound', async () => {
    for (const limit of [0, 1, 2, 31, 32, 33, 50, 63, 64, 65, 119, 120, 121, 500]) {
      const data = dataOf(await kiln.gql(`{ item(where: {price: {_gt: 1}, kind: {name: {_eq: "kind 7"}}}, order_by: {id: desc}, limit: ${limit}) { id } }`));
      expect(idsOf(data.item), `limit ${limit}`).toEqual(
        await direct('SELECT id FROM item WHERE price > 1 AND kind_id = 7 ORDER BY id DESC LIMIT $1', [limit]));
    }
  });

  it('keeps ties and nulls in the order asked (several order_by terms)', async () => {
    const data = dataOf(await kiln.gql('{ item(where: {kind_id: {_in: [1, 2, 3]}}, order_by: [{rank: desc_nulls_first}, {id: asc}], limit: 45) { id rank } }'));
    expect(idsOf(data.item)).toEqual(
      await direct('SELECT id FROM item WHERE kind_id IN (1, 2, 3) ORDER BY rank DESC NULLS FIRST, id ASC LIMIT 45'));
  });

  it('orders through an object relationship', async () => {
    const data = dataOf(await kiln.gql('{ item(where: {rank: {_lt: 3}}, order_by: [{kind: {name: desc}}, {id: asc}], limit: 20) { id } }'));
    expect(idsOf(data.item)).toEqual(await direct(
      'SELECT i.id FROM item i JOIN kind k ON k.id = i.kind_id WHERE i.rank < 3 ORDER BY k.name DESC, i.id ASC LIMIT 20'));
  });

  it('limits a nested array relationship per parent row', async () => {
    const data = dataOf(await kiln.gql('{ kind(where: {id: {_lte: 3}}, order_by: {id: asc}) { id items(where: {rank: {_gt: 30}}, order_by: {id: desc}, limit: 3) { id } } }'));
    const kinds = data.kind as { id: number; items: { id: number }[] }[];
    expect(kinds.map((k) => k.id)).toEqual([1, 2, 3]);
    for (const k of kinds) {
      expect(idsOf(k.items), `kind ${k.id}`).toEqual(
        await direct('SELECT id FROM item WHERE kind_id = $1 AND rank > 30 ORDER BY id DESC LIMIT 3', [k.id]));
    }
  });

  it('aggregates and lists exactly the limited rows', async () => {
    const data = dataOf(await kiln.gql('{ item_aggregate(where: {kind_id: {_eq: 4}}, order_by: {id: asc}, limit: 10) { aggregate { count max { id } } nodes { id } } }'));
    const agg = data.item_aggregate as { aggregate: { count: number; max: { id: number } }; nodes: { id: number }[] };
    const expected = await direct('SELECT id FROM item WHERE kind_id = 4 ORDER BY id ASC LIMIT 10');
    expect(idsOf(agg.nodes)).toEqual(expected);
    expect(agg.aggregate.count).toBe(10);
    expect(agg.aggregate.max.id).toBe(expected[expected.length - 1]);
  });

  it('applies the role\'s row limit with a variable limit, null or not', async () => {
    const q = 'query ($n: Int) { item(where: {kind_id: {_eq: 9}}, order_by: {id: asc}, limit: $n) { id } }';
    const user = { 'x-svc-role': 'user' };
    const all = await direct('SELECT id FROM item WHERE kind_id = 9 ORDER BY id ASC');
    expect(idsOf(dataOf(await kiln.gql(q, { n: 5 }, user)).item)).toEqual(all.slice(0, 5));
    expect(idsOf(dataOf(await kiln.gql(q, { n: 100 }, user)).item)).toEqual(all.slice(0, 40));
    expect(idsOf(dataOf(await kiln.gql(q, { n: null }, user)).item)).toEqual(all.slice(0, 40));
    expect(idsOf(dataOf(await kiln.gql('{ item(where: {kind_id: {_eq: 9}}, order_by: {id: asc}, limit: 70) { id } }', null, user)).item))
      .toEqual(all.slice(0, 40));
  });
});

describe('the statement PostgreSQL plans once', () => {
  const Q = '{ item(where: {price: {_gt: 1}, kind: {name: {_eq: "kind 7"}}}, order_by: {id: asc}, limit: 50) { id } }';

  function statement(query: string): { text: string; values: unknown[]; valueSensitive: boolean } {
    const document = parse(query);
    const plan = planOperation({ model: kiln.bundle.model, schema: kiln.bundle.schemas.admin!, role: 'admin', dialect: postgres,
      stringifyNumeric: false, document, operation: document.definitions[0] as OperationDefinitionNode, variables: {}, structural: new Set() });
    if (plan.kind !== 'sql') throw new Error('expected one statement');
    return { text: plan.sql.text, values: bindParams(plan.sql.params, {}, { role: 'admin', variables: {} } as never), valueSensitive: plan.valueSensitive };
  }

  // Rows the generic plan's scans of `item` read (returned plus removed by a filter).
  async function itemRowsRead(text: string, values: readonly unknown[]): Promise<number> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE s AS ${text}`);
      const args = values.map((v) => (typeof v === 'number' ? String(v) : client.escapeLiteral(String(v)))).join(', ');
      const r = await client.query<{ 'QUERY PLAN': unknown[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE s(${args})`);
      let read = 0;
      const walk = (n: Record<string, unknown>): void => {
        if (n['Relation Name'] === 'item') read += Number(n['Actual Rows'] ?? 0) + Number(n['Rows Removed by Filter'] ?? 0);
        for (const c of (n.Plans as Record<string, unknown>[] | undefined) ?? []) walk(c);
      };
      walk((r.rows[0]!['QUERY PLAN'][0] as { Plan: Record<string, unknown> }).Plan);
      return read;
    } finally {
      await client.end();
    }
  }

  it('carries the bound as a constant and the limit as a parameter', () => {
    const s = statement(Q);
    expect(s.valueSensitive).toBe(true);
    expect(s.text).toMatch(/\bAS MATERIALIZED \(.*\bLIMIT 64\)/s);
    expect(s.text).toMatch(/\) SELECT .* LIMIT \(\$\d+\)::int4/s);
    expect(s.text).not.toMatch(/\b50\b/);
    expect(s.values).toContain(50);
  });

  it('reads the kind\'s rows, not the table in id order, where a parameter LIMIT would', async () => {
    const s = statement(Q);
    const bounded = await itemRowsRead(s.text, s.values);
    // The same statement with the plain `LIMIT $n` shape, as before the bound.
    const plain = 'SELECT id FROM item AS i WHERE i.price > ($1)::numeric AND EXISTS (SELECT 1 FROM kind AS k WHERE k.id = i.kind_id AND k.name = ($2)::text) ORDER BY i.id LIMIT ($3)::int4';
    const unbounded = await itemRowsRead(plain, [1, 'kind 7', 50]);
    expect(bounded).toBeLessThanOrEqual(200);
    expect(unbounded).toBeGreaterThan(1000);
  });

  it('keeps LIMIT $n, value-sensitive, when the limit is a variable and the role has no row limit', () => {
    const document = parse('query ($n: Int) { item(where: {price: {_gt: 1}}, order_by: {id: asc}, limit: $n) { id } }');
    const plan = planOperation({ model: kiln.bundle.model, schema: kiln.bundle.schemas.admin!, role: 'admin', dialect: postgres,
      stringifyNumeric: false, document, operation: document.definitions[0] as OperationDefinitionNode, variables: { n: 5 }, structural: new Set() });
    expect(plan.kind === 'sql' && plan.valueSensitive).toBe(true);
    expect(plan.kind === 'sql' && plan.sql.text).not.toMatch(/MATERIALIZED/);
  });
});
