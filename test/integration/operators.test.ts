// Every comparison operator family through a real socket against PostgreSQL, with exact result
// rows; variables (whole `where`, `_in` lists, nulls) and the plan cache; output formats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, ids, metadataOf, table } from './setup.js';

const SETUP = `
CREATE EXTENSION IF NOT EXISTS citext;
CREATE TABLE item (
  id int PRIMARY KEY, n int, big bigint, num numeric, f float8, t text, v varchar(20), ci citext,
  b boolean, d date, ts timestamptz, u uuid, j jsonb, tags text[], nums int[]
);
INSERT INTO item VALUES
 (1, 1, 9007199254740993, 1.50, 1.5, 'apple', 'Alpha', 'Apple', true, '2020-01-01', '2020-01-01T10:00:00Z',
  '11111111-1111-1111-1111-111111111111', '{"a": {"b": 1}, "k": "x"}', '{red,green}', '{1,2}'),
 (2, 2, 2, 2.25, 2.5, 'banana', 'beta', 'BANANA', false, '2020-06-15', '2020-06-15T12:30:00Z',
  '22222222-2222-2222-2222-222222222222', '{"a": {"b": 2}, "m": 1}', '{green}', '{2,3}'),
 (3, 3, 3, 10, -1, 'cherry pie', 'Gamma', 'cherry', true, '2021-01-01', '2021-01-01T00:00:00Z',
  '33333333-3333-3333-3333-333333333333', '{"k": "y", "m": 2}', '{blue}', '{}'),
 (4, 4, -4, 0.001, 0, 'Apricot', 'delta', 'apricot', false, '2019-12-31', '2019-12-31T23:59:59Z',
  '44444444-4444-4444-4444-444444444444', '[1, 2]', '{red,blue}', '{4}'),
 (5, 5, NULL, NULL, NULL, 'a_b%c', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
 (6, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
`;

let db: TestDatabase;
let kiln: TestKiln;
let strKiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('ops', SETUP);
  const metadata = metadataOf([table('item')]);
  kiln = await startKiln({ metadata, databaseUrl: db.url });
  strKiln = await startKiln({ metadata, databaseUrl: db.url, stringifyNumeric: true });
});
afterAll(async () => {
  await kiln?.close();
  await strKiln?.close();
  await db?.drop();
});

/** The ids of `item` matching a `where` literal (ordered by id). */
async function match(where: string): Promise<unknown[]> {
  const body = await kiln.gql(`{ item(where: ${where}, order_by: {id: asc}) { id } }`);
  return ids(dataOf(body)['item']);
}

describe('comparison operators', () => {
  it('compares integers with _eq _neq _gt _gte _lt _lte _in _nin _is_null', async () => {
    expect(await match('{n: {_eq: 2}}')).toEqual([2]);
    expect(await match('{n: {_neq: 2}}')).toEqual([1, 3, 4, 5]);
    expect(await match('{n: {_gt: 3}}')).toEqual([4, 5]);
    expect(await match('{n: {_gte: 3}}')).toEqual([3, 4, 5]);
    expect(await match('{n: {_lt: 2}}')).toEqual([1]);
    expect(await match('{n: {_lte: 2}}')).toEqual([1, 2]);
    expect(await match('{n: {_in: [1, 3, 99]}}')).toEqual([1, 3]);
    expect(await match('{n: {_nin: [1, 3]}}')).toEqual([2, 4, 5]);
    expect(await match('{n: {_in: []}}')).toEqual([]);
    expect(await match('{n: {_is_null: true}}')).toEqual([6]);
    expect(await match('{n: {_is_null: false}}')).toEqual([1, 2, 3, 4, 5]);
    expect(await match('{n: {_gt: 1, _lt: 4}}')).toEqual([2, 3]);
  });

  it('compares bigint, numeric and float8 exactly', async () => {
    expect(await match('{big: {_eq: 9007199254740993}}')).toEqual([1]);
    expect(await match('{big: {_eq: "9007199254740993"}}')).toEqual([1]);
    expect(await match('{big: {_lt: 0}}')).toEqual([4]);
    expect(await match('{num: {_gt: 2}}')).toEqual([2, 3]);
    expect(await match('{num: {_eq: 1.5}}')).toEqual([1]);
    expect(await match('{num: {_lte: 0.001}}')).toEqual([4]);
    expect(await match('{num: {_in: [10, 0.001]}}')).toEqual([3, 4]);
    expect(await match('{f: {_gte: 1.5}}')).toEqual([1, 2]);
    expect(await match('{f: {_lt: 0}}')).toEqual([3]);
  });

  it('matches text with the pattern and regex operators', async () => {
    expect(await match('{t: {_like: "a%"}}')).toEqual([1, 5]);
    expect(await match('{t: {_nlike: "a%"}}')).toEqual([2, 3, 4]);
    expect(await match('{t: {_ilike: "a%"}}')).toEqual([1, 4, 5]);
    expect(await match('{t: {_nilike: "a%"}}')).toEqual([2, 3]);
    expect(await match('{t: {_like: "a\\\\_b\\\\%c"}}')).toEqual([5]);
    expect(await match('{t: {_similar: "(apple|banana)"}}')).toEqual([1, 2]);
    expect(await match('{t: {_nsimilar: "(apple|banana)"}}')).toEqual([3, 4, 5]);
    expect(await match('{t: {_regex: "^[ab]"}}')).toEqual([1, 2, 5]);
    expect(await match('{t: {_nregex: "^[ab]"}}')).toEqual([3, 4]);
    expect(await match('{t: {_iregex: "^A"}}')).toEqual([1, 4, 5]);
    expect(await match('{t: {_niregex: "^A"}}')).toEqual([2, 3]);
    expect(await match('{t: {_eq: "cherry pie"}}')).toEqual([3]);
    expect(await match('{t: {_gt: "b"}}')).toEqual([2, 3]);
    expect(await match('{v: {_ilike: "%A"}}')).toEqual([1, 2, 3, 4]);
    expect(await match('{v: {_like: "%a"}}')).toEqual([1, 2, 3, 4]);
    expect(await match('{v: {_regex: "^[A-Z]"}}')).toEqual([1, 3]);
  });

  it('compares citext case-insensitively', async () => {
    expect(await match('{ci: {_eq: "apple"}}')).toEqual([1]);
    expect(await match('{ci: {_in: ["banana", "CHERRY"]}}')).toEqual([2, 3]);
    expect(await match('{ci: {_like: "ap%"}}')).toEqual([1, 4]);
    expect(await match('{ci: {_regex: "^A"}}')).toEqual([1, 4]);
    expect(await match('{ci: {_nilike: "%A%"}}')).toEqual([3]);
  });

  it('compares booleans, dates and timestamps', async () => {
    expect(await match('{b: {_eq: true}}')).toEqual([1, 3]);
    expect(await match('{b: {_neq: true}}')).toEqual([2, 4]);
    expect(await match('{b: {_is_null: true}}')).toEqual([5, 6]);
    expect(await match('{d: {_gte: "2020-01-01"}}')).toEqual([1, 2, 3]);
    expect(await match('{d: {_lt: "2020-01-01"}}')).toEqual([4]);
    expect(await match('{d: {_in: ["2020-06-15", "2021-01-01"]}}')).toEqual([2, 3]);
    expect(await match('{ts: {_gt: "2020-01-01T10:00:00+00:00"}}')).toEqual([2, 3]);
    expect(await match('{ts: {_eq: "2020-01-01T12:00:00+02:00"}}')).toEqual([1]);
    expect(await match('{ts: {_lte: "2020-01-01T00:00:00Z"}}')).toEqual([4]);
  });

  it('compares uuids', async () => {
    expect(await match('{u: {_eq: "22222222-2222-2222-2222-222222222222"}}')).toEqual([2]);
    expect(await match('{u: {_in: ["11111111-1111-1111-1111-111111111111", "44444444-4444-4444-4444-444444444444"]}}')).toEqual([1, 4]);
    expect(await match('{u: {_neq: "22222222-2222-2222-2222-222222222222"}}')).toEqual([1, 3, 4]);
  });

  it('applies the jsonb operators and _cast to String', async () => {
    expect(await match('{j: {_contains: {a: {b: 1}}}}')).toEqual([1]);
    expect(await match('{j: {_contains: {k: "y"}}}')).toEqual([3]);
    expect(await match('{j: {_contained_in: {a: {b: 2}, m: 1, z: 0}}}')).toEqual([2]);
    expect(await match('{j: {_has_key: "m"}}')).toEqual([2, 3]);
    expect(await match('{j: {_has_keys_any: ["k", "m"]}}')).toEqual([1, 2, 3]);
    expect(await match('{j: {_has_keys_all: ["k", "m"]}}')).toEqual([3]);
    expect(await match('{j: {_eq: [1, 2]}}')).toEqual([4]);
    expect(await match('{j: {_cast: {String: {_ilike: "%\\"K\\": \\"X\\"%"}}}}')).toEqual([1]);
    expect(await match('{j: {_cast: {String: {_like: "[%"}}}}')).toEqual([4]);
  });

  it('applies containment to array columns', async () => {
    expect(await match('{tags: {_contains: ["red"]}}')).toEqual([1, 4]);
    expect(await match('{tags: {_contained_in: ["red", "green", "blue"]}}')).toEqual([1, 2, 3, 4]);
    expect(await match('{tags: {_contained_in: ["green", "red"]}}')).toEqual([1, 2]);
    expect(await match('{nums: {_contains: [2]}}')).toEqual([1, 2]);
    expect(await match('{nums: {_contained_in: [1, 2, 3]}}')).toEqual([1, 2, 3]);
    expect(await match('{tags: {_eq: ["green"]}}')).toEqual([2]);
    expect(await match('{nums: {_is_null: true}}')).toEqual([5, 6]);
  });

  it('names the array comparison types after the array type', async () => {
    const body = await kiln.gql('{ __type(name: "item_bool_exp") { inputFields { name type { name } } } }');
    const fields = (dataOf(body)['__type'] as { inputFields: { name: string; type: { name: string } }[] }).inputFields;
    const typeOf = (n: string): string | undefined => fields.find((f) => f.name === n)?.type.name;
    expect(typeOf('tags')).toBe('_text_comparison_exp');
    expect(typeOf('nums')).toBe('_int4_comparison_exp');
    expect(typeOf('j')).toBe('jsonb_comparison_exp');
    expect(typeOf('big')).toBe('bigint_comparison_exp');
  });
});

describe('boolean structure', () => {
  it('nests _and, _or and _not', async () => {
    expect(await match('{_or: [{n: {_eq: 1}}, {t: {_eq: "banana"}}]}')).toEqual([1, 2]);
    expect(await match('{_and: [{n: {_gt: 1}}, {n: {_lt: 4}}]}')).toEqual([2, 3]);
    // NOT (n < 3) is unknown for a null n, so row 6 stays out (Hasura emits the same NOT).
    expect(await match('{_not: {n: {_lt: 3}}}')).toEqual([3, 4, 5]);
    expect(await match('{_not: {_or: [{b: {_eq: true}}, {b: {_is_null: true}}]}}')).toEqual([2, 4]);
    expect(await match('{_or: [{_and: [{b: {_eq: true}}, {n: {_gt: 1}}]}, {_not: {t: {_is_null: false}}}]}')).toEqual([3, 6]);
    expect(await match('{_or: []}')).toEqual([]);
    expect(await match('{_and: []}')).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('treats {} as true, and refuses an explicit null in a comparison or a boolean expression (Hasura v2)', async () => {
    expect(await match('{}')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await match('{n: {}}')).toEqual([1, 2, 3, 4, 5, 6]);
    // Hasura v2 hands an explicit null to the operator's parser, which takes none (v1 read it as
    // "no condition": a delete with a null variable deleted every row).
    const refused = async (where: string) => errorOf(await kiln.gql(`{ item(where: ${where}) { id } }`));
    const at = (...keys: string[]) => ['$.selectionSet.item.args.where', ...keys].join('.');
    expect(await refused('{n: {_eq: null}}')).toEqual({ message: 'unexpected null value for type "Int"', path: at('n', '_eq'), code: 'validation-failed' });
    expect(await refused('{n: {_gt: 3, _in: null}}')).toEqual({ message: 'expected a list, but found null', path: at('n', '_in'), code: 'validation-failed' });
    expect(await refused('{b: {_is_null: null}}')).toEqual({ message: 'expected a boolean for type "Boolean", but found null', path: at('b', '_is_null'), code: 'validation-failed' });
    expect(await refused('{n: null}')).toEqual({ message: 'expected an object for type "Int_comparison_exp", but found null', path: at('n'), code: 'validation-failed' });
    expect(await refused('{_not: null}')).toEqual({ message: 'expected an object for type "item_bool_exp", but found null', path: at('_not'), code: 'validation-failed' });
    expect(await refused('{_or: [{n: {_eq: 1}}, {_and: null}]}')).toEqual({ message: 'expected a list, but found null', path: '$.selectionSet.item.args.where._or[1]._and', code: 'validation-failed' });
    // `where`, `limit` and `order_by` themselves take a null.
    expect(ids(dataOf(await kiln.gql('{ item(where: null, limit: null, order_by: null) { id } }'))['item']).sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('variables and the plan cache', () => {
  const Q_EQ = 'query Q($n: Int) { item(where: {n: {_eq: $n}}, order_by: {id: asc}) { id } }';
  const Q_WHERE = 'query Q($w: item_bool_exp) { item(where: $w, order_by: {id: asc}) { id } }';
  const Q_IN = 'query Q($list: [Int!]) { item(where: {n: {_in: $list}}, order_by: {id: asc}) { id } }';
  const Q_TEXT = 'query Q($p: String, $j: jsonb, $u: uuid) { item(where: {t: {_ilike: $p}, j: {_contains: $j}, u: {_neq: $u}}, order_by: {id: asc}) { id } }';
  const run = async (q: string, variables: Record<string, unknown>): Promise<unknown[]> => ids(dataOf(await kiln.gql(q, variables))['item']);

  it('answers the same query text right for each value of a scalar variable, and refuses a null one where it compares', async () => {
    const nulled = { message: 'unexpected null value for type "Int"', path: '$.selectionSet.item.args.where.n._eq', code: 'validation-failed' };
    for (let round = 0; round < 2; round++) {
      expect(await run(Q_EQ, { n: 1 })).toEqual([1]);
      expect(await run(Q_EQ, { n: 3 })).toEqual([3]);
      // Sent as null, or not sent (a nullable variable without a default is null): refused at its use.
      expect(errorOf(await kiln.gql(Q_EQ, { n: null }))).toEqual(nulled);
      expect(errorOf(await kiln.gql(Q_EQ, {}))).toEqual(nulled);
      expect(await run(Q_EQ, { n: 4 })).toEqual([4]);
    }
  });

  it('answers a whole `where` variable right for each shape', async () => {
    const cases: [unknown, unknown[]][] = [
      [{ n: { _eq: 2 } }, [2]],
      [{ t: { _like: 'a%' } }, [1, 5]],
      [{ n: { _eq: 3 } }, [3]],
      [{ _or: [{ n: { _eq: 1 } }, { n: { _eq: 4 } }] }, [1, 4]],
      [{}, [1, 2, 3, 4, 5, 6]],
      [null, [1, 2, 3, 4, 5, 6]],
      [{ j: { _has_key: 'k' } }, [1, 3]],
      [{ n: { _eq: 2 } }, [2]],
    ];
    for (const [w, want] of cases) expect(await run(Q_WHERE, { w }), JSON.stringify(w)).toEqual(want);
    // A null inside the variable's value is refused as a literal one is, at its place in the request.
    expect(errorOf(await kiln.gql(Q_WHERE, { w: { _or: [{ n: { _eq: null } }] } }))).toEqual({
      message: 'unexpected null value for type "Int"', path: '$.selectionSet.item.args.where._or[0].n._eq', code: 'validation-failed' });
    expect(errorOf(await kiln.gql(Q_WHERE, { w: { _not: null } }))).toEqual({
      message: 'expected an object for type "item_bool_exp", but found null', path: '$.selectionSet.item.args.where._not', code: 'validation-failed' });
  });

  it('answers `_in: $list` right for each list', async () => {
    expect(await run(Q_IN, { list: [1, 2] })).toEqual([1, 2]);
    expect(await run(Q_IN, { list: [5] })).toEqual([5]);
    expect(await run(Q_IN, { list: [] })).toEqual([]);
    expect(errorOf(await kiln.gql(Q_IN, { list: null }))).toEqual({ message: 'expected a list, but found null', path: '$.selectionSet.item.args.where.n._in', code: 'validation-failed' });
    expect(await run(Q_IN, { list: [3, 4, 2] })).toEqual([2, 3, 4]);
  });

  it('binds text, jsonb and uuid variables', async () => {
    const u1 = '11111111-1111-1111-1111-111111111111';
    const u0 = '00000000-0000-0000-0000-000000000000';
    // `_contains: {}` holds for every object (row 4's jsonb is an array, row 5's null).
    expect(await run(Q_TEXT, { p: 'a%', j: {}, u: u0 })).toEqual([1]);
    expect(await run(Q_TEXT, { p: 'a%', j: { k: 'x' }, u: u0 })).toEqual([1]);
    expect(await run(Q_TEXT, { p: 'a%', j: { k: 'x' }, u: u1 })).toEqual([]);
    expect(await run(Q_TEXT, { p: '%', j: { m: 1 }, u: u1 })).toEqual([2]);
    expect(errorOf(await kiln.gql(Q_TEXT, { p: '%E%', j: null, u: u1 }))).toMatchObject({ path: '$.selectionSet.item.args.where.j._contains', code: 'validation-failed' });
  });

  it('binds bigint (as text or number) and _is_null variables', async () => {
    const qb = 'query Q($b: bigint) { item(where: {big: {_eq: $b}}) { id } }';
    expect(await run(qb, { b: '9007199254740993' })).toEqual([1]);
    expect(await run(qb, { b: 2 })).toEqual([2]);
    const qn = 'query Q($x: Boolean) { item(where: {b: {_is_null: $x}}, order_by: {id: asc}) { id } }';
    expect(await run(qn, { x: true })).toEqual([5, 6]);
    expect(await run(qn, { x: false })).toEqual([1, 2, 3, 4]);
    expect(errorOf(await kiln.gql(qn, { x: null }))).toEqual({ message: 'expected a boolean for type "Boolean", but found null',
      path: '$.selectionSet.item.args.where.b._is_null', code: 'validation-failed' });
  });

  it('uses variables in limit, offset and order_by', async () => {
    const q = 'query Q($l: Int, $o: Int, $ob: [item_order_by!]) { item(limit: $l, offset: $o, order_by: $ob, where: {n: {_is_null: false}}) { id } }';
    expect(await run(q, { l: 2, o: 0, ob: [{ n: 'desc' }] })).toEqual([5, 4]);
    expect(await run(q, { l: 2, o: 1, ob: [{ n: 'asc' }] })).toEqual([2, 3]);
    expect(await run(q, { l: null, o: 3, ob: { id: 'asc' } })).toEqual([4, 5]);
    expect(await run(q, { l: 1, o: null, ob: { t: 'desc' } })).toEqual([3]);
  });
});

describe('output formats', () => {
  const ROW = '{ item_by_pk(id: 1) { id n big num f t b d ts u j tags nums } }';

  it('prints numbers as JSON numbers, times and json as PostgreSQL does', async () => {
    const r = await kiln.post('/v1/graphql', JSON.stringify({ query: ROW }));
    expect(r.text).toContain('"big" : 9007199254740993');
    const row = (JSON.parse(r.text) as { data: { item_by_pk: Record<string, unknown> } }).data.item_by_pk;
    expect(row).toMatchObject({
      id: 1, n: 1, num: 1.5, f: 1.5, t: 'apple', b: true, d: '2020-01-01', ts: '2020-01-01T10:00:00+00:00',
      u: '11111111-1111-1111-1111-111111111111', j: { a: { b: 1 }, k: 'x' }, tags: ['red', 'green'], nums: [1, 2],
    });
    expect(r.text).toMatch(/"num" : 1\.50\b/);
  });

  it('prints bigint, numeric and float8 as strings with stringifyNumeric', async () => {
    const row = dataOf(await strKiln.gql(ROW))['item_by_pk'] as Record<string, unknown>;
    expect(row).toMatchObject({ id: 1, n: 1, big: '9007199254740993', num: '1.50', f: '1.5', ts: '2020-01-01T10:00:00+00:00' });
    const nulls = dataOf(await strKiln.gql('{ item_by_pk(id: 6) { big num f } }'))['item_by_pk'];
    expect(nulls).toEqual({ big: null, num: null, f: null });
  });

  it('extracts a json path', async () => {
    const q = '{ item(order_by: {id: asc}, where: {id: {_lte: 4}}) { id ab: j(path: "$.a.b") k: j(path: "k") first: j(path: "[0]") } }';
    expect(dataOf(await kiln.gql(q))['item']).toEqual([
      { id: 1, ab: 1, k: 'x', first: null },
      { id: 2, ab: 2, k: null, first: null },
      { id: 3, ab: null, k: 'y', first: null },
      { id: 4, ab: null, k: null, first: 1 },
    ]);
  });

  it('builds objects wider than one json_build_object call allows, keys in order', async () => {
    const keys = Array.from({ length: 120 }, (_, i) => `k${i}`);
    const r = await kiln.post('/v1/graphql', JSON.stringify({ query: `{ item(where: {id: {_in: [1, 6]}}, order_by: {id: asc}) { ${keys.map((k, i) => `${k}: ${i % 2 ? 't' : 'id'}`).join(' ')} } }` }));
    const rows = (JSON.parse(r.text) as { data: { item: Record<string, unknown>[] } }).data.item;
    expect(rows.map((row) => Object.keys(row))).toEqual([keys, keys]);
    expect(rows[0]!['k118']).toBe(1);
    expect(rows[0]!['k119']).toBe('apple');
    expect(rows[1]!['k1']).toBeNull();
  });

  it('prints null for every null column', async () => {
    const row = dataOf(await kiln.gql(ROW.replace('id: 1', 'id: 6')))['item_by_pk'];
    expect(row).toEqual({ id: 6, n: null, big: null, num: null, f: null, t: null, b: null, d: null, ts: null, u: null, j: null, tags: null, nums: null });
  });
});
