// Behaviours the conformance corpus (Hasura's own tests) pins down: unnamed function arguments
// (`arg_1`, ...) and which go by position, composite-typed function arguments, the role's row limit
// on aggregates (nodes only), `offset` written as a string, an explicit null for a defaulted
// non-null variable, JSON paths with a dot before a bracket, and directive errors with their paths.
import { describe, expect, it } from 'vitest';
import type { TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, ids, metadataOf, serveOnFreshDatabase, table } from './setup.js';

const SETUP = `
CREATE TABLE "user" (id serial PRIMARY KEY, name text NOT NULL, is_admin boolean DEFAULT false);
INSERT INTO "user" (name, is_admin) VALUES ('Starke Blake', true), ('Bellamy Blake', true), ('Dora Blake', false), ('Ann Other', true);
CREATE FUNCTION get_users(search text, integer DEFAULT 10, boolean DEFAULT false) RETURNS SETOF "user" AS $$
  SELECT * FROM "user" WHERE name ILIKE ('%' || search || '%') AND is_admin = $3 ORDER BY id LIMIT $2
$$ LANGUAGE sql STABLE;
CREATE FUNCTION users_named(search text, lim integer DEFAULT 10) RETURNS SETOF "user" AS $$
  SELECT * FROM "user" WHERE name ILIKE ('%' || search || '%') ORDER BY id LIMIT lim
$$ LANGUAGE sql STABLE;
CREATE FUNCTION users_like(u "user") RETURNS SETOF "user" AS $$
  SELECT * FROM "user" WHERE name ILIKE ('%' || split_part(u.name, ' ', 2) || '%') AND id <> u.id
$$ LANGUAGE sql STABLE;
CREATE TABLE author (id serial PRIMARY KEY, name text);
CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author(id), doc jsonb);
INSERT INTO author (name) VALUES ('A1'), ('A2'), ('A3');
INSERT INTO article (title, author_id, doc) VALUES
  ('T1', 1, '{"objs": [{"你好": "Hello!"}], "a": {"b": 1}}'), ('T2', 1, NULL), ('T3', 2, NULL), ('T4', 3, NULL);
`;

const METADATA = metadataOf([
  table('user'),
  table('author', {
    array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'author_id' } } }],
    select_permissions: [{ role: 'user', permission: { columns: '*', filter: {}, allow_aggregations: true, limit: 1 } }],
  }),
  table('article', {
    select_permissions: [
      { role: 'user', permission: { columns: '*', filter: {}, allow_aggregations: true, limit: 2 } },
      // (`columns: []` as in the corpus breaks buildBundle's engine.d.ts preview, which asks for the
      // `article` root the role's schema leaves out; one column keeps the point: count ignores the limit.)
      { role: 'few_cols', permission: { columns: ['id'], filter: {}, allow_aggregations: true, limit: 1 } },
    ],
  }),
], [
  { function: { schema: 'public', name: 'get_users' } },
  { function: { schema: 'public', name: 'users_named' } },
  { function: { schema: 'public', name: 'users_like' } },
]);

let kiln: TestKiln;
serveOnFreshDatabase('conffix', SETUP, METADATA, (_, k) => { kiln = k; });

describe('function arguments', () => {
  it('names unnamed arguments arg_1, arg_2 counting only the unnamed ones', async () => {
    const t = dataOf(await kiln.gql('{ __type(name: "get_users_args") { inputFields { name } } }'))['__type'] as { inputFields: { name: string }[] };
    expect(t.inputFields.map((f) => f.name).sort()).toEqual(['arg_1', 'arg_2', 'search']);
  });

  it('passes the leading given arguments by position', async () => {
    const all = dataOf(await kiln.gql('{ get_users(args: {search: "Blake", arg_1: 2, arg_2: true}) { id } }'));
    expect(ids(all['get_users'])).toEqual([1, 2]);
    const one = dataOf(await kiln.gql('{ get_users(args: {search: "Blake", arg_1: 1, arg_2: true}) { id } }'));
    expect(ids(one['get_users'])).toEqual([1]);
    const defaults = dataOf(await kiln.gql('{ get_users(args: {search: "Blake"}) { id } }'));
    expect(ids(defaults['get_users'])).toEqual([3]);
  });

  it('refuses an unnamed argument after an omitted one', async () => {
    expect(errorOf(await kiln.gql('{ get_users(args: {search: "Blake", arg_2: true}) { id } }'))).toEqual({
      message: 'Only last set of positional arguments can be omitted', path: '$.selectionSet.get_users.args.args', code: 'not-supported' });
  });

  it('refuses an omitted argument without a default', async () => {
    expect(errorOf(await kiln.gql('{ get_users(args: {arg_2: true}) { id } }'))).toEqual({
      message: 'Non default arguments cannot be omitted', path: '$.selectionSet.get_users.args.args', code: 'not-supported' });
  });

  it('still passes named arguments by name', async () => {
    expect(ids(dataOf(await kiln.gql('{ users_named(args: {lim: 1, search: "Blake"}) { id } }'))['users_named'])).toEqual([1]);
    expect(ids(dataOf(await kiln.gql('{ users_named(args: {search: "Blake"}) { id } }'))['users_named'])).toEqual([1, 2, 3]);
  });

  it('takes a composite (row type) argument as its text', async () => {
    const d = dataOf(await kiln.gql('{ users_like(args: {u: "(1,\\"Starke Blake\\",true)"}, order_by: {id: asc}) { id } }'));
    expect(ids(d['users_like'])).toEqual([2, 3]);
  });
});

describe('role row limit and aggregates', () => {
  const USER = { 'X-Svc-Role': 'user' };

  it('counts every permitted row while nodes keep the limit', async () => {
    const d = dataOf(await kiln.gql('{ author_aggregate { aggregate { count max { id } } nodes { id } } }', null, USER));
    expect(d['author_aggregate']).toEqual({ aggregate: { count: 3, max: { id: 3 } }, nodes: [{ id: 1 }] });
  });

  it('counts past the limit with only an aggregate selected', async () => {
    const d = dataOf(await kiln.gql('{ article_aggregate { aggregate { count } } }', null, { 'X-Svc-Role': 'few_cols' }));
    expect(d['article_aggregate']).toEqual({ aggregate: { count: 4 } });
  });

  it('keeps the limit on nodes alone, and a user limit applies to both', async () => {
    const nodes = dataOf(await kiln.gql('{ article_aggregate(order_by: {id: desc}) { nodes { id } } }', null, USER));
    expect(nodes['article_aggregate']).toEqual({ nodes: [{ id: 4 }, { id: 3 }] });
    const limited = dataOf(await kiln.gql('{ article_aggregate(limit: 3, order_by: {id: desc}) { aggregate { count } nodes { id } } }', null, USER));
    expect(limited['article_aggregate']).toEqual({ aggregate: { count: 3 }, nodes: [{ id: 4 }, { id: 3 }] });
  });

  it('applies the limit to nodes of a relationship aggregate too', async () => {
    const d = dataOf(await kiln.gql('{ author(where: {id: {_eq: 1}}) { articles_aggregate { aggregate { count } nodes { id } } } }', null, USER));
    expect(d['author']).toEqual([{ articles_aggregate: { aggregate: { count: 2 }, nodes: [{ id: 1 }, { id: 2 }] } }]);
  });
});

describe('arguments and variables', () => {
  it('accepts an integer offset written as a string', async () => {
    const d = dataOf(await kiln.gql('{ article(offset: "1", limit: 1, order_by: {id: desc}) { id } }'));
    expect(ids(d['article'])).toEqual([3]);
  });

  it('still refuses a string offset that is not an integer', async () => {
    expect(errorOf(await kiln.gql('{ article(offset: "x") { id } }')).code).toBe('validation-failed');
  });

  it('takes an explicit null for a non-null variable with a default as null', async () => {
    const d = dataOf(await kiln.gql('query q($limit: Int! = 1) { article(limit: $limit, order_by: {id: asc}) { id } }', { limit: null }));
    expect(ids(d['article'])).toEqual([1, 2, 3, 4]);
    const dflt = dataOf(await kiln.gql('query q($limit: Int! = 1) { article(limit: $limit, order_by: {id: asc}) { id } }', {}));
    expect(ids(dflt['article'])).toEqual([1]);
  });

  it('reads JSON paths with a dot before a bracket and non-ASCII keys', async () => {
    const q = `{ article(where: {id: {_eq: 1}}) { a: doc(path: "objs[0]['你好']") b: doc(path: "objs.[0].[\\"你好\\"]") c: doc(path: "a.b") } }`;
    expect(dataOf(await kiln.gql(q))['article']).toEqual([{ a: 'Hello!', b: 'Hello!', c: 1 }]);
  });
});

describe('directives', () => {
  it('refuses an unknown directive at the enclosing selection set', async () => {
    expect(errorOf(await kiln.gql('{ author { id @exclude(if: true) name } }'))).toEqual({
      message: 'directive "exclude" is not defined in the schema', path: '$.selectionSet.author.selectionSet', code: 'validation-failed' });
  });

  it('refuses a repeated directive', async () => {
    expect(errorOf(await kiln.gql('{ author { id @include(if: true) @include(if: true) } }'))).toEqual({
      message: 'the following directives are used more than once: include', path: '$.selectionSet.author.selectionSet', code: 'validation-failed' });
  });

  it('refuses a directive where it is not allowed', async () => {
    expect(errorOf(await kiln.gql('query @include(if: true) { author { id } }'))).toEqual({
      message: 'directive "include" is not allowed on a query', path: '$', code: 'validation-failed' });
  });

  it('still honours @include and @skip', async () => {
    const d = dataOf(await kiln.gql('{ author(order_by: {id: asc}, limit: 1) { id @include(if: false) name @skip(if: false) } }'));
    expect(d['author']).toEqual([{ name: 'A1' }]);
  });
});
