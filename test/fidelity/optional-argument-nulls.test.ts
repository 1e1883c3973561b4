// Arguments Hasura reads with `fieldOptional` over a parser that takes no null may be left out,
// but an explicit null (a literal, or a variable sent null or not sent) is handed to that parser,
// which refuses it (Parser/Internal/Input.hs, Note [Optional fields and nullability]): an
// aggregate's `count(columns:, distinct:)` (Schema/Select.hs countField: `P.list`, `P.boolean`)
// a json/jsonb column's `path` (jsonPathArg: `P.string`), an update's operators `_set`, `_inc`,
// `_append`... (Schema/Update.hs updateOperators: `P.object`) and an insert's `on_conflict`, nested
// ones too (Schema/Mutation.hs mkConflictClause: `P.object`). The select arguments wrap their
// parsers in `P.nullable` and still take a null. Before, Kiln read such a null as "left out".

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('explicit nulls for arguments whose parser takes none', () => {
  let server: ServedDatabase;
  const gql = (query: string, variables?: Record<string, unknown>) => server.gql(query, variables);
  const refused = (message: string, path: string) => ({ errors: [{ message, extensions: { path, code: 'validation-failed' } }] });
  const COUNT = '$.selectionSet.doc_aggregate.selectionSet.aggregate.selectionSet.count.args';

  beforeAll(async () => {
    server = await serveDatabase('fidargnull', `CREATE TABLE doc (id int PRIMARY KEY, kind text, body jsonb);
      INSERT INTO doc VALUES (1, 'a', '{"x": {"y": 1}}'), (2, 'a', '{"x": {"y": 2}}'), (3, 'b', NULL);
      CREATE TABLE tag (id int PRIMARY KEY, doc_id int REFERENCES doc(id));`, { track: ['doc', 'tag'], metadata: [
      { type: 'pg_create_array_relationship', args: { table: 'doc', name: 'tags', using: { foreign_key_constraint_on: { table: 'tag', column: 'doc_id' } } } }] });
  }, 60_000);
  afterAll(() => server?.close());

  it('refuses a null literal for count\'s distinct and columns, in the words of their parsers', async () => {
    expect(await gql('{ doc_aggregate { aggregate { count(distinct: null) } } }'))
      .toEqual(refused('expected a boolean for type "Boolean", but found null', `${COUNT}.distinct`));
    expect(await gql('{ doc_aggregate { aggregate { count(columns: null) } } }'))
      .toEqual(refused('expected a list, but found null', `${COUNT}.columns`));
    expect(await gql('{ doc_aggregate { aggregate { n: count(columns: [kind], distinct: true) all: count } } }'))
      .toEqual({ data: { doc_aggregate: { aggregate: { n: 2, all: 3 } } } });
  });

  it('refuses a null variable there, sent or not, at the place it is used', async () => {
    const q = 'query Q($d: Boolean, $c: [doc_select_column!]) { doc_aggregate { aggregate { count(columns: $c, distinct: $d) } } }';
    expect(await gql(q, { c: ['kind'], d: null })).toEqual(refused('expected a boolean for type "Boolean", but found null', `${COUNT}.distinct`));
    expect(await gql(q, { d: true })).toEqual(refused('expected a list, but found null', `${COUNT}.columns`));
    expect(await gql(q, { c: ['kind'], d: true })).toEqual({ data: { doc_aggregate: { aggregate: { count: 2 } } } });
  });

  it('refuses a null json path, literal or variable', async () => {
    expect(await gql('{ doc(order_by: {id: asc}) { body(path: null) } }'))
      .toEqual(refused('expected a string for type "String", but found null', '$.selectionSet.doc.selectionSet.body.args.path'));
    const q = 'query Q($p: String) { doc(order_by: {id: asc}, limit: 1) { body(path: $p) } }';
    expect(await gql(q, { p: null })).toEqual(refused('expected a string for type "String", but found null', '$.selectionSet.doc.selectionSet.body.args.path'));
    expect(await gql(q, { p: '$.x.y' })).toEqual({ data: { doc: [{ body: 1 }] } });
  });

  it('still takes a null for the select arguments, whose parsers are nullable', async () => {
    const all = await gql('{ doc(where: null, limit: null, offset: null, order_by: null, distinct_on: null) { id } }');
    expect(all.data.doc.map((r: { id: number }) => r.id).sort()).toEqual([1, 2, 3]);
  });

  it('refuses a null update operator, literal or variable, and changes nothing', async () => {
    expect(await gql('mutation { update_doc(where: {id: {_eq: 1}}, _set: null) { affected_rows } }'))
      .toEqual(refused('expected an object for type "doc_set_input", but found null', '$.selectionSet.update_doc.args._set'));
    expect(await gql('mutation { update_doc_by_pk(pk_columns: {id: 1}, _append: null, _set: {kind: "z"}) { kind } }'))
      .toEqual(refused('expected an object for type "doc_append_input", but found null', '$.selectionSet.update_doc_by_pk.args._append'));
    const q = 'mutation M($s: doc_set_input) { update_doc(where: {id: {_eq: 3}}, _set: $s) { affected_rows } }';
    expect(await gql(q, { s: null })).toEqual(refused('expected an object for type "doc_set_input", but found null', '$.selectionSet.update_doc.args._set'));
    expect(await gql('{ doc(order_by: {id: asc}) { kind } }')).toEqual({ data: { doc: [{ kind: 'a' }, { kind: 'a' }, { kind: 'b' }] } });
    expect(await gql(q, { s: { kind: 'c' } })).toEqual({ data: { update_doc: { affected_rows: 1 } } });
  });

  it('refuses a null on_conflict, at the root and in a nested insert, and inserts nothing', async () => {
    expect(await gql('mutation { insert_doc(objects: [{id: 9}], on_conflict: null) { affected_rows } }'))
      .toEqual(refused('expected an object for type "doc_on_conflict", but found null', '$.selectionSet.insert_doc.args.on_conflict'));
    expect(await gql('mutation { insert_doc_one(object: {id: 9}, on_conflict: null) { id } }'))
      .toEqual(refused('expected an object for type "doc_on_conflict", but found null', '$.selectionSet.insert_doc_one.args.on_conflict'));
    expect(await gql('mutation { insert_doc(objects: [{id: 9, tags: {data: [{id: 1}], on_conflict: null}}]) { affected_rows } }'))
      .toEqual(refused('expected an object for type "tag_on_conflict", but found null', '$.selectionSet.insert_doc.args.objects[0].tags.on_conflict'));
    const q = 'mutation M($c: doc_on_conflict) { insert_doc(objects: [{id: 9}], on_conflict: $c) { affected_rows } }';
    expect(await gql(q, { c: null })).toEqual(refused('expected an object for type "doc_on_conflict", but found null', '$.selectionSet.insert_doc.args.on_conflict'));
    expect(await gql('{ doc_aggregate { aggregate { count } } tag_aggregate { aggregate { count } } }'))
      .toEqual({ data: { doc_aggregate: { aggregate: { count: 3 } }, tag_aggregate: { aggregate: { count: 0 } } } });
  });
});
