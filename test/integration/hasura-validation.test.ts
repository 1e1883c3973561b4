// GraphQL validation as Hasura's parser does it (runtime/graphql/validate.ts, variable-values.ts):
// its rules (unused variables and fragments allowed, strings accepted for a column's value), its
// words and its JSON paths, on queries, mutations and variables alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, metadataOf, table } from './setup.js';

const SETUP = `
CREATE TABLE shade (value text PRIMARY KEY, comment text);
INSERT INTO shade VALUES ('teal', NULL), ('amber', NULL), ('ochre', NULL);
CREATE TABLE lamp (id serial PRIMARY KEY, label text NOT NULL, watts int, lumens float8, lit boolean, shade text REFERENCES shade);
INSERT INTO lamp (label, watts, lumens, lit, shade) VALUES ('desk', 40, 450.5, true, 'teal'), ('floor', 60, 800, false, 'amber');
`;

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('hval', SETUP);
  const perms = { insert_permissions: [], update_permissions: [], delete_permissions: [] };
  kiln = await startKiln({ metadata: metadataOf([table('shade', { is_enum: true }), table('lamp', perms)]), databaseUrl: db.url });
});
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const fails = async (query: string, variables?: Record<string, unknown>): Promise<ReturnType<typeof errorOf>> => errorOf(await kiln.gql(query, variables));
const err = (message: string, path: string, code = 'validation-failed'): unknown => ({ message, path, code });

describe('rules graphql-js has and Hasura does not', () => {
  it('allows variables and fragments that are declared but not used', async () => {
    expect(dataOf(await kiln.gql('query Q($unused: Int) { lamp(order_by: {id: asc}) { id } }'))).toEqual({ lamp: [{ id: 1 }, { id: 2 }] });
    expect(dataOf(await kiln.gql('query Q { lamp_by_pk(id: 2) { label } } fragment F on lamp { id }'))).toEqual({ lamp_by_pk: { label: 'floor' } });
    expect(dataOf(await kiln.gql('mutation M($spare: String) { update_lamp(where: {id: {_eq: 1}}, _set: {watts: 41}) { affected_rows } }')))
      .toEqual({ update_lamp: { affected_rows: 1 } });
  });

  it('coerces a single value sent where a list is expected into a list of one', async () => {
    expect(dataOf(await kiln.gql('query Q($ids: [Int!]) { lamp(where: {id: {_in: $ids}}) { label } }', { ids: 2 }))).toEqual({ lamp: [{ label: 'floor' }] });
    expect(dataOf(await kiln.gql('query Q($w: lamp_bool_exp) { lamp(where: $w) { label } }', { w: { _or: { id: { _eq: 1 } } } }))).toEqual({ lamp: [{ label: 'desk' }] });
  });

  it('takes a string where a column expects a number or a boolean: PostgreSQL reads it', async () => {
    expect(dataOf(await kiln.gql('{ lamp(where: {watts: {_eq: "60"}}) { label } }'))).toEqual({ lamp: [{ label: 'floor' }] });
    expect(dataOf(await kiln.gql('query Q($w: Int) { lamp(where: {watts: {_gt: $w}}) { label } }', { w: '50' }))).toEqual({ lamp: [{ label: 'floor' }] });
    expect(dataOf(await kiln.gql('{ lamp(where: {lit: {_eq: "true"}}) { label } }'))).toEqual({ lamp: [{ label: 'desk' }] });
  });
});

describe('enum values', () => {
  it('names the values of an enum table in Hasura\'s order, for literals and variables, queries and mutations', async () => {
    const listed = 'expected one of the values ochre, teal, or amber for type "shade_enum", but found "mauve"';
    expect(await fails('{ lamp(where: {shade: {_eq: mauve}}) { id } }')).toEqual(err(listed, '$.selectionSet.lamp.args.where.shade._eq'));
    expect(await fails('mutation { insert_lamp(objects: [{label: "x", shade: mauve}]) { affected_rows } }'))
      .toEqual(err(listed, '$.selectionSet.insert_lamp.args.objects[0].shade'));
    expect(await fails('query Q($s: shade_enum) { lamp(where: {shade: {_eq: $s}}) { id } }', { s: 'mauve' }))
      .toEqual(err(listed, '$.selectionSet.lamp.args.where.shade._eq'));
  });

  it('refuses a string where an enum value is expected', async () => {
    expect(await fails('{ lamp(where: {shade: {_eq: "teal"}}) { id } }'))
      .toEqual(err('expected an enum value for type "shade_enum", but found a string', '$.selectionSet.lamp.args.where.shade._eq'));
    expect(await fails('{ lamp(order_by: {id: "asc"}) { id } }'))
      .toEqual(err('expected an enum value for type "order_by", but found a string', '$.selectionSet.lamp.args.order_by[0].id'));
    expect(await fails('query Q($s: shade_enum) { lamp(where: {shade: {_eq: $s}}) { id } }', { s: 3 }))
      .toEqual(err('expected an enum value for type "shade_enum", but found a number', '$.selectionSet.lamp.args.where.shade._eq'));
  });
});

describe('values of the wrong kind', () => {
  it('reports integer overflow as Hasura does, literal or variable', async () => {
    const overflow = 'The value 2.147483648e9 lies outside the bounds or is not an integer.  Maybe it is a float, or is there integer overflow?';
    expect(await fails('mutation { insert_lamp(objects: [{label: "x", watts: 2147483648}]) { affected_rows } }'))
      .toEqual(err(overflow, '$.selectionSet.insert_lamp.args.objects[0].watts', 'parse-failed'));
    expect(await fails('query Q($w: Int) { lamp(where: {watts: {_eq: $w}}) { id } }', { w: 2147483648 }))
      .toEqual(err(overflow, '$.selectionSet.lamp.args.where.watts._eq', 'parse-failed'));
    expect(await fails('{ lamp(where: {watts: {_eq: 2.5}}) { id } }'))
      .toEqual(err('The value 2.5 lies outside the bounds or is not an integer.  Maybe it is a float, or is there integer overflow?', '$.selectionSet.lamp.args.where.watts._eq', 'parse-failed'));
  });

  it('names what it found where an object or a scalar was expected', async () => {
    expect(await fails('{ lamp(where: 3) { id } }'))
      .toEqual(err('expected an object for type "lamp_bool_exp", but found an integer', '$.selectionSet.lamp.args.where'));
    expect(await fails('mutation { insert_lamp(objects: [{label: "x", lit: 1}]) { affected_rows } }'))
      .toEqual(err('expected a boolean for type "Boolean", but found an integer', '$.selectionSet.insert_lamp.args.objects[0].lit'));
    expect(await fails('query Q($o: [lamp_insert_input!]!) { lamp { id } }', { o: 1 })).toMatchObject({ code: 'validation-failed' });
  });

  it('refuses null where the type takes none', async () => {
    expect(await fails('{ lamp_by_pk(id: null) { id } }')).toEqual(err('unexpected null value for type "Int"', '$.selectionSet.lamp_by_pk.args.id'));
    expect(await fails('mutation { insert_lamp(objects: null) { affected_rows } }'))
      .toEqual(err('expected a list, but found null', '$.selectionSet.insert_lamp.args.objects'));
  });
});

describe('required arguments and selection sets', () => {
  it('names a missing required argument or input field at its path', async () => {
    expect(await fails('{ lamp_by_pk { id } }')).toEqual(err('missing required field "id"', '$.selectionSet.lamp_by_pk.args.id'));
    expect(await fails('mutation { insert_lamp_one { id } }')).toEqual(err('missing required field "object"', '$.selectionSet.insert_lamp_one.args.object'));
    expect(await fails('mutation { update_lamp(_set: {watts: 1}) { affected_rows } }')).toEqual(err('missing required field "where"', '$.selectionSet.update_lamp.args.where'));
  });

  it('wants a selection set on objects and none on scalars, keyed by field name (not alias)', async () => {
    expect(await fails('{ lamp }')).toEqual(err('missing selection set for "lamp"', '$.selectionSet.lamp.selectionSet'));
    expect(await fails('{ l: lamp { w: watts { id } } }')).toEqual(err('unexpected subselection set for non-object field', '$.selectionSet.lamp.selectionSet.watts'));
    expect(await fails('mutation { insert_lamp(objects: []) }')).toEqual(err('missing selection set for "lamp_mutation_response"', '$.selectionSet.insert_lamp.selectionSet'));
  });

  it('keys the paths of planning errors by field name too, in queries and mutations', async () => {
    expect(await fails('{ l: lamp(distinct_on: [label], order_by: {id: asc}) { id } }'))
      .toEqual(err('"distinct_on" columns must match initial "order_by" columns', '$.selectionSet.lamp.args'));
    expect((await fails('mutation { ins: insert_lamp(objects: [{label: "x", watts: "many"}]) { affected_rows } }')).path)
      .toBe('$.selectionSet.insert_lamp.args.objects');
  });
});

describe('fields with the same response name', () => {
  it('merges the same field selected twice, also through fragments, and refuses different ones', async () => {
    expect(dataOf(await kiln.gql('{ lamp_by_pk(id: 1) { label ...F } } fragment F on lamp { label watts }'))).toEqual({ lamp_by_pk: { label: 'desk', watts: 41 } });
    expect(await fails('{ lamp(limit: 1) { x: label x: watts } }'))
      .toEqual(err('selection of both "label" and "watts" specify the same response name, "x"', '$.selectionSet.lamp.selectionSet'));
    expect(await fails('{ lamp(limit: 1) { id } lamp(limit: 2) { id } }'))
      .toEqual(err('inconsistent arguments between multiple selections of field "lamp"', '$.selectionSet'));
    expect(await fails('mutation { a: delete_lamp(where: {id: {_eq: 9}}) { affected_rows } a: update_lamp(where: {}, _set: {watts: 1}) { affected_rows } }'))
      .toEqual(err('selection of both "delete_lamp" and "update_lamp" specify the same response name, "a"', '$.selectionSet'));
  });
});

describe('variables and fragments resolved first', () => {
  it('refuses a variable used but not declared, and one declared twice', async () => {
    expect(await fails('query Q { lamp(limit: $n) { id } }')).toEqual(err('unbound variable "n"', '$'));
    expect(await fails('mutation { update_lamp(where: {id: {_eq: $id}}, _set: {watts: 1}) { affected_rows } }')).toEqual(err('unbound variable "id"', '$'));
    expect(await fails('query Q($a: Int, $a: Int) { lamp { id } }')).toEqual(err('multiple definitions for variable "a"', '$', 'parse-failed'));
  });

  it('refuses values sent for variables the operation does not use', async () => {
    expect(await fails('{ lamp { id } }', { stray: 1 })).toEqual(err('unexpected variables in variableValues: stray', '$'));
    expect(await fails('query Q($a: Int) { lamp { id } }', { a: 1 })).toEqual(err('unexpected variables in variableValues: a', '$'));
  });

  it('names fragment cycles and unknown fragments with the path of the spread', async () => {
    expect(await fails('{ lamp { ...A } } fragment A on lamp { id ...B } fragment B on lamp { label ...A }'))
      .toEqual(err('the fragment definition(s) "A" and "B" form a cycle', '$.selectionSet.lamp.selectionSet.A.selectionSet.B.selectionSet'));
    expect(await fails('{ lamp { ...Self } } fragment Self on lamp { ...Self }'))
      .toEqual(err('the fragment definition(s) "Self" form a cycle', '$.selectionSet.lamp.selectionSet.Self.selectionSet'));
    expect(await fails('{ lamp { ...Missing } }')).toEqual(err('reference to undefined fragment "Missing"', '$.selectionSet.lamp.selectionSet'));
    expect(await fails('{ lamp { id } } fragment F on lamp { id } fragment F on lamp { label }')).toEqual(err('multiple definitions for fragment "F"', '$', 'parse-failed'));
  });

  it('drops a fragment definition\'s own directives unread, as Hasura\'s inliner does', async () => {
    expect(dataOf(await kiln.gql('{ lamp_by_pk(id: 1) { ...F } } fragment F on lamp @include(if: false) { label }'))).toEqual({ lamp_by_pk: { label: 'desk' } });
    expect(dataOf(await kiln.gql('{ lamp_by_pk(id: 2) { ...F } } fragment F on lamp @unknown { label }'))).toEqual({ lamp_by_pk: { label: 'floor' } });
    // On a spread they still count.
    expect(dataOf(await kiln.gql('{ lamp_by_pk(id: 2) { id ...F @include(if: false) } } fragment F on lamp { label }'))).toEqual({ lamp_by_pk: { id: 2 } });
  });

  it('reports a variable\'s default that does not fit where the variable is used, in that place\'s words', async () => {
    expect(await fails('query Q($l: Int = "x") { lamp(limit: $l) { id } }'))
      .toEqual(err('expected a non-negative 32-bit integer for type "Int", but found a string', '$.selectionSet.lamp.args.limit'));
    expect(await fails('query Q($s: shade_enum = nope) { lamp(where: {shade: {_eq: $s}}) { id } }'))
      .toEqual(err('expected one of the values ochre, teal, or amber for type "shade_enum", but found "nope"', '$.selectionSet.lamp.args.where.shade._eq'));
    expect(await fails('query Q($w: lamp_bool_exp = {foo: 1}) { lamp(where: $w) { id } }'))
      .toEqual(err('field "foo" not found in type: \'lamp_bool_exp\'', '$.selectionSet.lamp.args.where.foo'));
    // A default that fits is used; a value sent wins over it.
    expect(dataOf(await kiln.gql('query Q($l: Int = 1) { lamp(limit: $l, order_by: {id: asc}) { id } }'))).toEqual({ lamp: [{ id: 1 }] });
    expect(dataOf(await kiln.gql('query Q($l: Int = 1) { lamp(limit: $l, order_by: {id: asc}) { id } }', { l: 2 }))).toEqual({ lamp: [{ id: 1 }, { id: 2 }] });
  });

  it('reports errors inside a fragment at the path of the field it selects', async () => {
    expect(await fails('{ lamp { ...F } } fragment F on lamp { watts { id } }'))
      .toEqual(err('unexpected subselection set for non-object field', '$.selectionSet.lamp.selectionSet.watts'));
    expect(await fails('query { ... on query_root { lamp(where: {shade: {_eq: mauve}}) { id } } }'))
      .toMatchObject({ path: '$.selectionSet.lamp.args.where.shade._eq' });
  });
});

describe('choosing the operation, and subscriptions', () => {
  const op = async (query: string, operationName: string): Promise<unknown> =>
    (await fetch(`${kiln.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, operationName }) })).json();

  it('takes the first operation of the name asked for, even when two share it (no uniqueness rule)', async () => {
    expect(await op('query Q { lamp_by_pk(id: 1) { label } } query Q { lamp_by_pk(id: 2) { label } }', 'Q'))
      .toEqual({ data: { lamp_by_pk: { label: 'desk' } } });
    expect(await op('mutation M { update_lamp(where: {id: {_eq: 2}}, _set: {watts: 61}) { affected_rows } } query M { lamp { id } }', 'M'))
      .toEqual({ data: { update_lamp: { affected_rows: 1 } } });
  });

  it('refuses an operation name beside a shorthand query, and allows it beside an unnamed `query`', async () => {
    expect(errorOf(await op('{ lamp { id } } query Q { lamp { label } }', 'Q') as never))
      .toEqual(err('operationName cannot be used when an anonymous operation exists in the document', '$'));
    expect(await op('query { lamp(where: {id: {_eq: 1}}) { id } } query Q { lamp(where: {id: {_eq: 1}}) { label } }', 'Q'))
      .toEqual({ data: { lamp: [{ label: 'desk' }] } });
  });

  it('wants one root field in a subscription, counted through fragments, in Hasura\'s words', async () => {
    expect(await fails('subscription { lamp { id } lamp_by_pk(id: 1) { id } }'))
      .toEqual(err('subscriptions must select one top level field', '$'));
    expect(await fails('subscription S { ...Two } fragment Two on subscription_root { lamp { id } lamp_aggregate { aggregate { count } } }'))
      .toEqual(err('subscriptions must select one top level field', '$'));
  });
});
