// Array columns (`text[]`, `int[][]`) are GraphQL scalars named after the array type (`_text`,
// `_int4`), as in Hasura v2. A value of one is a JSON array (nested for more dimensions) or a
// PostgreSQL array literal string, in inserts, in `_set` and in comparison operands alike (Hasura:
// Backends/Postgres/SQL/Value.hs `parsePGValue`, `PGArray` and the string fallback; the array is
// sent as one text parameter, never as SQL text). A variable declared as a GraphQL list
// (`[String]`) is not a `_text` and is refused where one is expected: Hasura marks its own case
// insert_into_array_col_with_array_input `xfail` (hasura/graphql-engine#348) and answers the
// variable-type error. A value PostgreSQL cannot read as an array is its data-exception, with
// nothing written.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

let server: ServedDatabase;

const SETUP = `CREATE TABLE shelf (id serial PRIMARY KEY, labels text[], grid integer[][]);`;

const gql = (query: string, variables?: Record<string, unknown>) => server.gql(query, variables);
const rows = () => server.db.query('SELECT id, labels, grid FROM shelf ORDER BY id');

beforeAll(async () => {
  server = await serveDatabase('fidarrays', SETUP, { track: ['shelf'] });
});
afterAll(() => server?.close());

describe('array columns', () => {
  it('types an array column as the array type\'s scalar', async () => {
    const fields = (await gql('{ __type(name: "shelf") { fields { name type { name } } } }')).data.__type.fields;
    expect(fields).toEqual(expect.arrayContaining([{ name: 'labels', type: { name: '_text' } }, { name: 'grid', type: { name: '_int4' } }]));
  });

  it('inserts a JSON array or an array literal, inline or through a variable of the scalar type', async () => {
    const insert = 'mutation($l: _text, $g: _int4) { insert_shelf(objects: [{labels: $l, grid: $g}]) { returning { labels grid } } }';
    expect(await gql(insert, { l: ['a', 'b,c', 'd"e'], g: [[1, 2], [3, 4]] }))
      .toEqual({ data: { insert_shelf: { returning: [{ labels: ['a', 'b,c', 'd"e'], grid: [[1, 2], [3, 4]] }] } } });
    expect(await gql(insert, { l: '{x,y}', g: '{{5}}' })).toEqual({ data: { insert_shelf: { returning: [{ labels: ['x', 'y'], grid: [[5]] }] } } });
    expect(await gql('mutation { insert_shelf_one(object: {labels: ["inline"], grid: "{7,8}"}) { labels grid } }'))
      .toEqual({ data: { insert_shelf_one: { labels: ['inline'], grid: [7, 8] } } });
    expect((await rows()).map((r) => r['labels'])).toEqual([['a', 'b,c', 'd"e'], ['x', 'y'], ['inline']]);
  });

  it('updates with either form and compares with either form', async () => {
    expect(await gql('mutation { update_shelf(where: {labels: {_eq: "{x,y}"}}, _set: {labels: ["x", "y", "z"]}) { affected_rows } }'))
      .toEqual({ data: { update_shelf: { affected_rows: 1 } } });
    expect(await gql('mutation($v: _text) { update_shelf_by_pk(pk_columns: {id: 3}, _set: {labels: $v}) { labels } }', { v: '{again}' }))
      .toEqual({ data: { update_shelf_by_pk: { labels: ['again'] } } });
    expect(await gql('{ shelf(where: {labels: {_contains: ["z"]}}) { id } }')).toEqual({ data: { shelf: [{ id: 2 }] } });
    expect(await gql('query($v: _text!) { shelf(where: {labels: {_in: [$v, "{again}"]}}, order_by: {id: asc}) { id } }', { v: ['x', 'y', 'z'] }))
      .toEqual({ data: { shelf: [{ id: 2 }, { id: 3 }] } });
    expect(await gql('mutation { delete_shelf(where: {labels: {_eq: ["again"]}}) { affected_rows } }')).toEqual({ data: { delete_shelf: { affected_rows: 1 } } });
  });

  it('refuses a list-typed variable where the array scalar is expected, before anything runs', async () => {
    const before = await rows();
    const res = await gql('mutation($v: [String]) { insert_shelf(objects: [{labels: $v}]) { affected_rows } }', { v: ['a'] });
    expect(res).toEqual({ errors: [{ message: 'variable "v" is declared as [String], but used where _text is expected',
      extensions: { path: '$.selectionSet.insert_shelf.args.objects[0].labels', code: 'validation-failed' } }] });
    const bad = await gql('mutation($v: _text) { update_shelf(where: {}, _set: {labels: $v}) { affected_rows } }', { v: 'not an array' });
    expect(bad.errors[0].extensions.code).toBe('data-exception');
    expect(bad.errors[0].message).toContain('malformed array literal');
    expect(await rows()).toEqual(before);
  });
});
