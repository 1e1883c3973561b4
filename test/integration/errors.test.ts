// Error answers of /v1/graphql with Hasura's wording, codes and request paths, and values that
// try to break out of their SQL parameters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, ids, metadataOf, table } from './setup.js';

const SETUP = `
CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL, token uuid, info jsonb);
INSERT INTO author VALUES (1, 'Alice', '11111111-1111-1111-1111-111111111111', '{"a": 1}'), (2, 'Bob', NULL, NULL);
`;

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('err', SETUP);
  kiln = await startKiln({ metadata: metadataOf([table('author')]), databaseUrl: db.url });
});
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const fails = async (query: string, variables?: Record<string, unknown>): Promise<ReturnType<typeof errorOf>> => errorOf(await kiln.gql(query, variables));
const invalid = (message: string, path: string): unknown => ({ message, path, code: 'validation-failed' });

describe('documents that do not validate', () => {
  it('refuses a document that does not parse', async () => {
    expect(await fails('{ author { id }')).toEqual(invalid('not a valid graphql query', '$.query'));
    expect(await fails('')).toEqual(invalid('not a valid graphql query', '$.query'));
  });

  it('names unknown fields, arguments and input fields with their paths', async () => {
    expect(await fails('{ nope }')).toEqual(invalid('field "nope" not found in type: \'query_root\'', '$.selectionSet.nope'));
    expect(await fails('{ author { id notPresentCol } }')).toEqual(invalid('field "notPresentCol" not found in type: \'author\'', '$.selectionSet.author.selectionSet.notPresentCol'));
    // Hasura keys the path by field names, not aliases (Parser/Internal/Parser.hs).
    expect(await fails('{ a: author { b: nope } }')).toEqual(invalid('field "nope" not found in type: \'author\'', '$.selectionSet.author.selectionSet.nope'));
    expect(await fails('{ author(foo: 1) { id } }')).toEqual(invalid('"author" has no argument named "foo"', '$.selectionSet.author'));
    expect(await fails('{ author(where: {name: {_ne: "x"}}) { id } }')).toEqual(invalid('field "_ne" not found in type: \'String_comparison_exp\'', '$.selectionSet.author.args.where.name._ne'));
    expect(await fails('{ author(where: {_and: [{id: {_eq: 1}}, {bad: {}}]}) { id } }')).toEqual(invalid('field "bad" not found in type: \'author_bool_exp\'', '$.selectionSet.author.args.where._and[1].bad'));
    expect(await fails('{ author(order_by: [{id: asc}, {nope: desc}]) { id } }')).toEqual(invalid('field "nope" not found in type: \'author_order_by\'', '$.selectionSet.author.args.order_by[1].nope'));
  });

  it('refuses a mutation when none exist', async () => {
    // A role with no insert, update or delete permission has no mutation_root.
    expect(errorOf(await kiln.gql('mutation { insert_author(objects: []) { affected_rows } }', null, { 'X-Svc-Role': 'nobody' })))
      .toEqual(invalid('no mutations exist', '$'));
  });

  it('refuses a variable used where another type is expected', async () => {
    expect(await fails('query Q($limit: String) { author(limit: $limit) { id } }', { limit: 42 }))
      .toEqual(invalid('variable "limit" is declared as String, but used where Int is expected', '$.selectionSet.author.args.limit'));
    expect(await fails('query Q($n: String!) { author(where: {id: {_eq: $n}}) { id } }', { n: '1' }))
      .toEqual(invalid('variable "n" is declared as String!, but used where Int is expected', '$.selectionSet.author.args.where.id._eq'));
    expect(await fails('query Q($id: Int) { author_by_pk(id: $id) { id } }', { id: 1 }))
      .toEqual(invalid('variable "id" is declared as Int, but used where Int! is expected', '$.selectionSet.author_by_pk.args.id'));
    // A non-null variable fits a nullable position, and a list variable a list position.
    expect(dataOf(await kiln.gql('query Q($id: Int!, $l: [Int!]) { author_by_pk(id: $id) { id } author(where: {id: {_in: $l}}) { id } }', { id: 1, l: [2] })))
      .toEqual({ author_by_pk: { id: 1 }, author: [{ id: 2 }] });
  });

  it('refuses variable values that are missing, null or of the wrong kind', async () => {
    expect(await fails('query Q($id: Int!) { author_by_pk(id: $id) { id } }', {}))
      .toEqual(invalid('expecting a value for non-nullable variable: "id"', '$'));
    expect(await fails('query Q($id: Int!) { author(where: {id: {_eq: $id}}) { id } }', { id: null }))
      .toEqual(invalid('unexpected null value for type "Int"', '$.selectionSet.author.args.where.id._eq'));
    // A default value stands in for a missing non-null variable.
    expect(dataOf(await kiln.gql('query Q($id: Int! = 2) { author_by_pk(id: $id) { id } }', {}))).toEqual({ author_by_pk: { id: 2 } });
    // A string for a column's value goes to PostgreSQL, which refuses it (Hasura's parsePGValue).
    expect(await fails('query Q($id: Int!) { author_by_pk(id: $id) { id } }', { id: 'abc' }))
      .toEqual({ message: 'invalid input syntax for type integer: "abc"', path: '$', code: 'data-exception' });
    expect(await fails('query Q($id: Int!) { author_by_pk(id: $id) { id } }', { id: true }))
      .toEqual(invalid('expected a 32-bit integer for type "Int", but found a boolean', '$.selectionSet.author_by_pk.args.id'));
    expect(await fails('query Q($n: [String!]) { author(where: {name: {_in: $n}}) { id } }', { n: ['a', 3] }))
      .toEqual(invalid('expected a string for type "String", but found a number', '$.selectionSet.author.args.where.name._in[1]'));
    expect(await fails('query Q($w: author_bool_exp) { author(where: $w) { id } }', { w: { id: { _eq: 'x' } } }))
      .toEqual({ message: 'invalid input syntax for type integer: "x"', path: '$', code: 'data-exception' });
    expect(await fails('query Q($w: author_bool_exp) { author(where: $w) { id } }', { w: { id: { _eq: [] } } }))
      .toEqual(invalid('expected a 32-bit integer for type "Int", but found a list', '$.selectionSet.author.args.where.id._eq'));
  });

  it('refuses a negative or string limit literal in Hasura words', async () => {
    expect(await fails('{ author(limit: -1) { id } }'))
      .toEqual(invalid('expected a non-negative 32-bit integer for type "Int", but found an integer', '$.selectionSet.author.args.limit'));
    expect(await fails('{ author(limit: "3") { id } }'))
      .toEqual(invalid('expected a non-negative 32-bit integer for type "Int", but found a string', '$.selectionSet.author.args.limit'));
    expect(dataOf(await kiln.gql('{ author(limit: 0) { id } }'))).toEqual({ author: [] });
  });

  it('checks a limit variable the same way; a negative offset is PostgreSQL\'s data-exception', async () => {
    const q = 'query Q($l: Int, $o: Int) { author(limit: $l, offset: $o, order_by: {id: asc}) { id } }';
    expect(await fails(q, { l: -1 }))
      .toEqual(invalid('expected a non-negative 32-bit integer for type "Int", but found a number', '$.selectionSet.author.args.limit'));
    expect(dataOf(await kiln.gql(q, { l: 1, o: 1 }))).toEqual({ author: [{ id: 2 }] });
    expect(await fails(q, { o: -1 })).toEqual({ message: 'OFFSET must not be negative', path: '$', code: 'data-exception' });
  });
});

describe('bodies and database errors', () => {
  it('answers a body that is not JSON with invalid-json', async () => {
    const r = await kiln.post('/v1/graphql', '{"query": "{ author { id } }"');
    expect(r.status).toBe(200);
    expect((JSON.parse(r.text) as { errors: { extensions: unknown }[] }).errors[0]!.extensions).toEqual({ path: '$', code: 'invalid-json' });
  });

  it('maps a value PostgreSQL refuses to data-exception', async () => {
    expect(await fails('{ author(where: {token: {_eq: "not-a-uuid"}}) { id } }'))
      .toEqual({ message: 'invalid input syntax for type uuid: "not-a-uuid"', path: '$', code: 'data-exception' });
    expect((await fails('query Q($t: uuid) { author(where: {token: {_eq: $t}}) { id } }', { t: 'nope' })).code).toBe('data-exception');
  });
});

describe('values are parameters, never SQL', () => {
  const evil = "'; DROP TABLE author; --";

  it('keeps quotes and comment markers inside values', async () => {
    expect(dataOf(await kiln.gql(`{ author(where: {name: {_eq: ${JSON.stringify(evil)}}}) { id } }`))).toEqual({ author: [] });
    expect(dataOf(await kiln.gql('query Q($n: String) { author(where: {name: {_like: $n}}) { id } }', { n: evil }))).toEqual({ author: [] });
    expect(dataOf(await kiln.gql('query Q($w: author_bool_exp) { author(where: $w) { id } }', { w: { name: { _regex: evil }, info: { _has_key: evil } } }))).toEqual({ author: [] });
    expect(dataOf(await kiln.gql(`{ author(order_by: {id: asc}) { id info(path: ${JSON.stringify(`$["${evil}"]`)}) } }`)))
      .toEqual({ author: [{ id: 1, info: null }, { id: 2, info: null }] });
    expect(dataOf(await kiln.gql('query Q($j: jsonb) { author(where: {info: {_contains: $j}}) { id } }', { j: { [evil]: evil } }))).toEqual({ author: [] });
    expect((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM author'))[0]!.n).toBe('2');
  });

  it('answers a jsonb value too deep to write as a parameter with data-exception, and keeps serving', async () => {
    // 100,000 nested arrays: JSON.parse reads them; writing the parameter (JSON.stringify) overflows the stack.
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const body = `{"query":"query Q($j: jsonb) { author(where: {info: {_contains: $j}}) { id } }","variables":{"j":${deep}}}`;
    for (let i = 0; i < 6; i++) {
      const res = await kiln.post('/v1/graphql', body, { 'content-type': 'application/json' });
      expect(res.status).toBe(200);
      expect((JSON.parse(res.text) as { errors: { message: string; extensions: { code: string } }[] }).errors)
        .toEqual([{ message: 'a JSON value is nested too deeply', extensions: { path: '$', code: 'data-exception' } }]);
    }
    expect(ids(dataOf(await kiln.gql('{ author(order_by: {id: asc}) { id } }'))['author'])).toEqual([1, 2]);
  });

  it('cannot smuggle SQL through names: aliases and enum values must be GraphQL names', async () => {
    expect((await fails('{ author { "x": id } }')).message).toBe('not a valid graphql query');
    expect((await fails('{ author(order_by: {id: "asc; DROP TABLE author"}) { id } }')).code).toBe('validation-failed');
    expect((await fails('{ author(distinct_on: "name; DROP TABLE author") { id } }')).code).toBe('validation-failed');
    expect(ids(dataOf(await kiln.gql('{ author(order_by: {id: asc}) { id } }'))['author'])).toEqual([1, 2]);
  });
});
