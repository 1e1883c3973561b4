// A list whose rows are picked by their order (a LIMIT, an OFFSET, DISTINCT ON) is sorted once, in
// the statement that picks them, and json_agg takes the rows as they come; a list whose order picks
// nothing is sorted by json_agg's own ORDER BY. These tests hold every answer to PostgreSQL's own
// ORDER BY, row for row, on rows stored in a shuffled order (so that a list sorted nowhere comes out
// wrong), at the root and under a parent, through relationships and the role's row limit, and hold
// the statements to their shape: no ORDER BY inside json_agg where the rows come sorted.
import { describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import type { TestKiln } from '../helpers/kiln.js';
import { adminStatement, dataOf, ids, metadataOf, serveOnFreshDatabase, table } from './setup.js';

// 40 bands, 1,200 songs; songs stored in a random order (fixed seed), `plays` with ties and nulls.
const SETUP = `
SELECT setseed(0.42);
CREATE TABLE band (id int PRIMARY KEY, name text NOT NULL);
INSERT INTO band SELECT b, 'band ' || lpad((b * 7 % 40)::text, 2, '0') FROM generate_series(1, 40) b ORDER BY random();
CREATE TABLE song (id int PRIMARY KEY, band_id int NOT NULL REFERENCES band(id), title text NOT NULL, plays int);
CREATE INDEX song_band_id_idx ON song (band_id);
INSERT INTO song SELECT s, 1 + s % 40, 'song ' || s, CASE WHEN s % 9 = 0 THEN NULL ELSE s % 23 END
  FROM generate_series(1, 1200) s ORDER BY random();
ANALYZE band; ANALYZE song;
`;

const METADATA = metadataOf([
  table('band', {
    array_relationships: [{ name: 'songs', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'song' }, column: 'band_id' } } }],
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: {}, allow_aggregations: true } }],
  }),
  table('song', {
    object_relationships: [{ name: 'band', using: { foreign_key_constraint_on: 'band_id' } }],
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'band_id', 'title', 'plays'], filter: {}, limit: 25 } }],
  }),
]);

let db: TestDatabase;
let kiln: TestKiln;
serveOnFreshDatabase('sorted_list', SETUP, METADATA, (d, k) => { db = d; kiln = k; });

const direct = async (sql: string, params: unknown[] = []): Promise<number[]> =>
  (await db.query<{ id: number }>(sql, params)).map((r) => r.id);

// json_agg calls of a statement that order their input themselves, and those that do not.
const orderedAggs = (text: string): number => text.match(/json_agg\([^()]*?\s+ORDER BY /g)?.length ?? 0;
const plainAggs = (text: string): number => text.match(/json_agg\("_r_\d+"\."__kiln_row"\)/g)?.length ?? 0;

describe('a root list picked by its order', () => {
  // Each: the query's arguments, and PostgreSQL's answer to the same.
  const CASES: readonly (readonly [string, string])[] = [
    ['order_by: {id: desc}, limit: 30', 'SELECT id FROM song ORDER BY id DESC LIMIT 30'],
    ['order_by: [{plays: desc_nulls_first}, {id: asc}], limit: 40', 'SELECT id FROM song ORDER BY plays DESC NULLS FIRST, id ASC LIMIT 40'],
    ['order_by: [{plays: asc}, {id: desc}], offset: 1150', 'SELECT id FROM song ORDER BY plays ASC NULLS LAST, id DESC OFFSET 1150'],
    ['order_by: [{plays: asc_nulls_first}, {id: asc}], limit: 15, offset: 100', 'SELECT id FROM song ORDER BY plays ASC NULLS FIRST, id ASC LIMIT 15 OFFSET 100'],
    // Filtered: the rows are picked in a MATERIALIZED CTE under a planning bound.
    ['where: {plays: {_gt: 20}}, order_by: {id: desc}, limit: 37', 'SELECT id FROM song WHERE plays > 20 ORDER BY id DESC LIMIT 37'],
    ['where: {title: {_like: "song 1%"}}, order_by: [{band: {name: desc}}, {id: asc}], limit: 50',
      'SELECT s.id FROM song s JOIN band b ON b.id = s.band_id WHERE s.title LIKE \'song 1%\' ORDER BY b.name DESC, s.id ASC LIMIT 50'],
  ];

  for (const [args, sql] of CASES) {
    it(`answers ${args} in PostgreSQL's order, sorted once`, async () => {
      const query = `{ song(${args}) { id } }`;
      expect(ids(dataOf(await kiln.gql(query)).song)).toEqual(await direct(sql));
      const { text } = adminStatement(kiln, query);
      expect(orderedAggs(text), text).toBe(0);
      expect(plainAggs(text), text).toBe(1);
    });
  }

  it('answers distinct_on in its order, one row per key', async () => {
    const query = '{ song(distinct_on: band_id, order_by: [{band_id: desc}, {plays: desc_nulls_last}, {id: asc}]) { id band_id } }';
    const rows = dataOf(await kiln.gql(query)).song as { id: number; band_id: number }[];
    expect(ids(rows)).toEqual(await direct('SELECT DISTINCT ON (band_id) id FROM song ORDER BY band_id DESC, plays DESC NULLS LAST, id ASC'));
    expect(rows.map((r) => r.band_id)).toEqual(Array.from({ length: 40 }, (_, i) => 40 - i));
    expect(orderedAggs(adminStatement(kiln, query).text)).toBe(0);
  });

  it('answers a limit given as a variable, and the role\'s row limit alone', async () => {
    const q = 'query ($n: Int) { song(where: {plays: {_lt: 5}}, order_by: [{plays: desc}, {id: desc}], limit: $n) { id } }';
    const all = await direct('SELECT id FROM song WHERE plays < 5 ORDER BY plays DESC, id DESC');
    expect(ids(dataOf(await kiln.gql(q, { n: 12 })).song)).toEqual(all.slice(0, 12));
    expect(orderedAggs(adminStatement(kiln, q, { n: 12 }).text)).toBe(0);
    // The role `user` reads at most 25 rows: its limit picks them, with no limit asked.
    const user = { 'x-svc-role': 'user' };
    expect(ids(dataOf(await kiln.gql('{ song(order_by: {id: desc}) { id } }', null, user)).song))
      .toEqual(await direct('SELECT id FROM song ORDER BY id DESC LIMIT 25'));
  });

  it('sorts in json_agg where the order picks nothing', async () => {
    const query = '{ song(where: {band_id: {_eq: 3}}, order_by: [{plays: desc}, {id: asc}]) { id } }';
    expect(ids(dataOf(await kiln.gql(query)).song)).toEqual(await direct('SELECT id FROM song WHERE band_id = 3 ORDER BY plays DESC NULLS FIRST, id ASC'));
    const { text } = adminStatement(kiln, query);
    expect(orderedAggs(text)).toBe(1);
    expect(plainAggs(text)).toBe(0);
  });
});

describe('an array relationship picked by its order, per parent row', () => {
  it('answers each parent\'s rows in PostgreSQL\'s order, under a parent list sorted either way', async () => {
    for (const parentArgs of ['order_by: {name: desc}', 'order_by: {name: asc}, limit: 6, offset: 3']) {
      const query = `{ band(${parentArgs}) { id songs(order_by: [{plays: asc_nulls_first}, {id: desc}], limit: 4, offset: 2) { id } } }`;
      const bands = dataOf(await kiln.gql(query)).band as { id: number; songs: unknown }[];
      const order = parentArgs.includes('desc') ? 'name DESC' : 'name ASC';
      expect(ids(bands), parentArgs).toEqual(await direct(`SELECT id FROM band ORDER BY ${order}${parentArgs.includes('limit') ? ' LIMIT 6 OFFSET 3' : ''}`));
      for (const b of bands) {
        expect(ids(b.songs), `${parentArgs}: band ${b.id}`).toEqual(
          await direct('SELECT id FROM song WHERE band_id = $1 ORDER BY plays ASC NULLS FIRST, id DESC LIMIT 4 OFFSET 2', [b.id]));
      }
      // The songs are sorted where they are picked; the bands, without a limit, by json_agg.
      expect(orderedAggs(adminStatement(kiln, query).text)).toBe(parentArgs.includes('limit') ? 0 : 1);
    }
  });

  it('answers a root list ordered by an aggregate of its rows', async () => {
    const query = '{ band(order_by: [{songs_aggregate: {count: desc}}, {name: asc}], limit: 10) { id } }';
    expect(ids(dataOf(await kiln.gql(query)).band)).toEqual(await direct(
      'SELECT b.id FROM band b ORDER BY (SELECT count(*) FROM song s WHERE s.band_id = b.id) DESC, b.name ASC LIMIT 10'));
    expect(orderedAggs(adminStatement(kiln, query).text)).toBe(0);
  });
});

describe('the nodes of an aggregate', () => {
  it('keep json_agg\'s ORDER BY beside other aggregates, and answer in order', async () => {
    const query = '{ song_aggregate(order_by: [{plays: desc}, {id: asc}], limit: 20) { aggregate { count(columns: plays, distinct: true) } nodes { id } } }';
    const agg = dataOf(await kiln.gql(query)).song_aggregate as { aggregate: { count: number }; nodes: unknown };
    const want = await direct('SELECT id FROM song ORDER BY plays DESC NULLS FIRST, id ASC LIMIT 20');
    expect(ids(agg.nodes)).toEqual(want);
    const [distinct] = await db.query<{ n: number }>('SELECT count(DISTINCT plays)::int AS n FROM (SELECT plays FROM song ORDER BY plays DESC NULLS FIRST, id ASC LIMIT 20) s');
    expect(agg.aggregate.count).toBe(distinct!.n);
    expect(orderedAggs(adminStatement(kiln, query).text)).toBe(1);
  });
});
