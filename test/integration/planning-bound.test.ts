// A filtered, ordered list with a limit known when planning picks its rows in a MATERIALIZED CTE
// under a planning bound (the least power of two at or above the limit), then takes the limit,
// itself a parameter, from the CTE.
// These tests hold it to the plain `ORDER BY .. LIMIT n` answer, row for row, on a real database,
// at and around the bounds, through relationships, aggregates and role limits; hold the CTE, which
// keeps only the columns read outside it, to every column the rows' JSON, relationships, aggregates
// and computed fields read; and show why it exists: PostgreSQL's generic plan of the statement
// reads the rows wanted, not the whole table.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import type { TestKiln } from '../helpers/kiln.js';
import { adminStatement, type AdminStatement, dataOf, metadataOf, serveOnFreshDatabase, table } from './setup.js';

// 3,000 items in 25 kinds; kind 7 is the only one dearer than 1 (like bench Q4's 'TV Shows').
// `rank` repeats (ties) and is null for every tenth item; each rank has two notes (a relationship
// by a column that is neither the key nor an order key), and a kind has a computed `label`.
const SETUP = `
CREATE TABLE kind (id int PRIMARY KEY, name text NOT NULL UNIQUE);
CREATE TABLE item (id int PRIMARY KEY, kind_id int NOT NULL REFERENCES kind(id), price numeric NOT NULL, rank int);
CREATE INDEX item_kind_id_idx ON item (kind_id);
INSERT INTO kind SELECT k, 'kind ' || k FROM generate_series(1, 25) k;
INSERT INTO item SELECT i, 1 + i % 25, CASE WHEN 1 + i % 25 = 7 THEN 2 ELSE 1 END,
  CASE WHEN i % 10 = 0 THEN NULL ELSE i % 37 END FROM generate_series(1, 3000) i;
CREATE TABLE rank_note (id int PRIMARY KEY, rank int NOT NULL, body text NOT NULL);
INSERT INTO rank_note SELECT n, n / 2, 'note ' || n FROM generate_series(0, 73) n;
CREATE FUNCTION kind_label(k kind) RETURNS text LANGUAGE sql STABLE AS $$ SELECT upper(k.name) || ' #' || k.id $$;
ANALYZE kind; ANALYZE item; ANALYZE rank_note;
`;

const METADATA = metadataOf([
  table('kind', {
    computed_fields: [{ name: 'label', definition: { function: { schema: 'public', name: 'kind_label' } } }],
    array_relationships: [{ name: 'items', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'item' }, column: 'kind_id' } } }],
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], computed_fields: ['label'], filter: {} } }],
  }),
  table('item', {
    object_relationships: [{ name: 'kind', using: { foreign_key_constraint_on: 'kind_id' } }],
    array_relationships: [{ name: 'notes', using: { manual_configuration: { remote_table: { schema: 'public', name: 'rank_note' }, column_mapping: { rank: 'rank' } } } }],
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'kind_id', 'price', 'rank'], filter: {}, limit: 40, allow_aggregations: true } }],
  }),
  table('rank_note', {
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'body'], filter: {}, allow_aggregations: true } }],
  }),
]);

let db: TestDatabase;
let kiln: TestKiln;
serveOnFreshDatabase('planning_bound', SETUP, METADATA, (d, k) => { db = d; kiln = k; });

const statement = (query: string): AdminStatement => adminStatement(kiln, query);

// The select list of the statement's (first) CTE of picked rows.
const pickedList = (text: string): string | undefined => /AS MATERIALIZED \(SELECT (.*?) FROM "public"\./s.exec(text)?.[1];

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

describe('the picked rows, read by everything outside the CTE', () => {
  // The JSON PostgreSQL builds for an item of these queries, from `i` (an item) and `k` (its kind).
  const NOTES = '(SELECT json_agg(json_build_object(\'id\', n.id, \'body\', n.body) ORDER BY n.id) FROM rank_note n WHERE n.rank = i.rank)';
  const ITEM_JSON = `json_build_object('id', i.id, 'price', i.price, 'rank', i.rank,
    'kind', json_build_object('name', k.name, 'label', kind_label(k)),
    'notes', coalesce(${NOTES}, '[]'),
    'notes_aggregate', json_build_object('aggregate', json_build_object('count', (SELECT count(*) FROM rank_note n WHERE n.rank = i.rank),
      'max', json_build_object('id', (SELECT max(n.id) FROM rank_note n WHERE n.rank = i.rank)))))`;
  const ITEM_FIELDS = 'id price rank kind { name label } notes(order_by: {id: asc}) { id body } notes_aggregate { aggregate { count max { id } } }';

  const expected = async (picked: string, order: string, params: unknown[] = []): Promise<unknown> =>
    (await db.query<{ j: unknown }>(`SELECT coalesce(json_agg(${ITEM_JSON} ORDER BY ${order}), '[]') AS j FROM (${picked}) i JOIN kind k ON k.id = i.kind_id`, params))[0]!.j;

  it('answers the columns, object and array relationships, their aggregates and a computed field of the rows picked', async () => {
    for (const limit of [1, 33, 64, 65]) {
      const q = `{ item(where: {price: {_gt: 1}, kind: {name: {_eq: "kind 7"}}}, order_by: {id: desc}, limit: ${limit}) { ${ITEM_FIELDS} } }`;
      expect(dataOf(await kiln.gql(q)).item, `limit ${limit}`).toEqual(
        await expected('SELECT * FROM item WHERE price > 1 AND kind_id = 7 ORDER BY id DESC LIMIT $1', 'i.id DESC', [limit]));
      // The CTE keeps the columns read (the join keys of `kind` and `notes` among them), not the row.
      const list = pickedList(statement(q).text);
      expect(list).toMatch(/^[^*]+$/);
      expect(list?.split(', ').map((c) => c.replace(/^"_item_\d+"\./, '')).sort()).toEqual(['"id"', '"kind_id"', '"price"', '"rank"']);
    }
  });

  it('answers them in the nodes and aggregates of an aggregate', async () => {
    const q = `{ item_aggregate(where: {kind_id: {_in: [4, 5]}, rank: {_gte: 20}}, order_by: [{rank: asc}, {id: asc}], limit: 12) {
      aggregate { count sum { price } avg { rank } max { kind_id } } nodes { ${ITEM_FIELDS} } } }`;
    expect(pickedList(statement(q).text)).toMatch(/^[^*]+$/);
    const data = dataOf(await kiln.gql(q));
    const picked = 'SELECT * FROM item WHERE kind_id IN (4, 5) AND rank >= 20 ORDER BY rank ASC, id ASC LIMIT 12';
    const agg = data.item_aggregate as { aggregate: Record<string, unknown>; nodes: unknown };
    expect(agg.nodes).toEqual(await expected(picked, 'i.rank ASC, i.id ASC'));
    const [want] = await db.query<Record<string, unknown>>(`SELECT count(*)::int AS count, sum(price)::int AS sum, avg(rank)::float8 AS avg, max(kind_id) AS max FROM (${picked}) i`);
    expect(agg.aggregate).toEqual({ count: want!.count, sum: { price: want!.sum }, avg: { rank: want!.avg }, max: { kind_id: want!.max } });
  });

  it('answers them under an array relationship whose rows are picked per parent', async () => {
    const q = `{ kind(where: {id: {_lte: 3}}, order_by: {id: asc}) { id label items(where: {rank: {_gt: 30}}, order_by: {id: desc}, limit: 3) { ${ITEM_FIELDS} } } }`;
    expect(pickedList(statement(q).text)).toMatch(/^[^*]+$/);
    const data = dataOf(await kiln.gql(q));
    const kinds = data.kind as { id: number; label: string; items: unknown }[];
    expect(kinds.map((k) => [k.id, k.label])).toEqual([[1, 'KIND 1 #1'], [2, 'KIND 2 #2'], [3, 'KIND 3 #3']]);
    for (const k of kinds) {
      expect(k.items, `kind ${k.id}`).toEqual(await expected('SELECT * FROM item WHERE kind_id = $1 AND rank > 30 ORDER BY id DESC LIMIT 3', 'i.id DESC', [k.id]));
    }
  });

  it('reads a table with computed fields without a CTE: a computed field takes the whole row', async () => {
    const q = '{ kind(where: {name: {_like: "kind 1%"}}, order_by: {id: desc}, limit: 3) { id label items_aggregate { aggregate { count } } } }';
    expect(dataOf(await kiln.gql(q)).kind).toEqual((await db.query<{ id: number; label: string; n: number }>(
      'SELECT k.id, kind_label(k) AS label, (SELECT count(*)::int FROM item WHERE kind_id = k.id) AS n FROM kind k WHERE k.name LIKE \'kind 1%\' ORDER BY k.id DESC LIMIT 3'))
      .map((r) => ({ id: r.id, label: r.label, items_aggregate: { aggregate: { count: r.n } } })));
    expect(statement(q).text).not.toMatch(/MATERIALIZED/);
  });
});

describe('the statement PostgreSQL plans once', () => {
  const Q = '{ item(where: {price: {_gt: 1}, kind: {name: {_eq: "kind 7"}}}, order_by: {id: asc}, limit: 50) { id } }';

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
    const plan = adminStatement(kiln, 'query ($n: Int) { item(where: {price: {_gt: 1}}, order_by: {id: asc}, limit: $n) { id } }', { n: 5 });
    expect(plan.valueSensitive).toBe(true);
    expect(plan.text).not.toMatch(/MATERIALIZED/);
  });
});
