// Select permissions through a real socket: column sets, row filters (session variables,
// relationships, _exists, _in with an array session value, _ceq), limits, aggregation switch,
// the role's schema (introspection), and the admin secret in front of it all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, ids, metadataOf, table } from './setup.js';

const SETUP = `
CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL, is_public boolean NOT NULL);
CREATE TABLE article (id int PRIMARY KEY, title text NOT NULL, author_id int NOT NULL REFERENCES author(id),
  editor_id int REFERENCES author(id), body text, views int NOT NULL, likes int NOT NULL, published boolean NOT NULL);
CREATE TABLE flag (id int PRIMARY KEY, enabled boolean NOT NULL);
INSERT INTO author VALUES (1, 'Alice', true), (2, 'Bob', false), (3, 'Carol', true);
INSERT INTO article VALUES (1, 'A1', 1, 2, 'b1', 10, 10, true), (2, 'A2', 1, NULL, 'b2', 5, 3, false),
  (3, 'B1', 2, 1, 'b3', 7, 7, true), (4, 'A3', 1, 3, 'b4', 0, 0, true), (5, 'C1', 3, NULL, 'b5', 2, 1, true);
INSERT INTO flag VALUES (1, true);
`;

const sel = (role: string, permission: Record<string, unknown>): unknown => ({ role, permission });
const METADATA = metadataOf([
  table('author', {
    array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'author_id' } } }],
    select_permissions: [
      sel('user', { columns: ['name'], filter: {} }),
      sel('reader', { columns: ['id', 'name', 'is_public'], filter: { is_public: { _eq: true } } }),
    ],
  }),
  table('article', {
    object_relationships: [
      { name: 'author', using: { foreign_key_constraint_on: 'author_id' } },
      { name: 'editor', using: { foreign_key_constraint_on: 'editor_id' } },
    ],
    select_permissions: [
      sel('user', { columns: ['id', 'title', 'author_id'], filter: { author_id: { _eq: 'X-Svc-User-Id' } }, limit: 2 }),
      sel('reader', { columns: '*', filter: { author: { is_public: { _eq: true } } }, allow_aggregations: true }),
      sel('anon', { columns: ['id', 'title'], filter: { _exists: { _table: { schema: 'public', name: 'flag' }, _where: { enabled: { _eq: true } } } } }),
      sel('lister', { columns: ['id'], filter: { id: { _in: 'X-Svc-Allowed-Ids' } } }),
      sel('ceq', { columns: ['id'], filter: { likes: { _ceq: 'views' } } }),
      sel('rooted', { columns: ['id'], filter: { editor: { id: { _cgt: ['$', 'author_id'] } } } }),
    ],
  }),
  table('flag'),
]);

let db: TestDatabase;
let kiln: TestKiln;
let guarded: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('perm', SETUP);
  kiln = await startKiln({ metadata: METADATA, databaseUrl: db.url });
  guarded = await startKiln({ metadata: METADATA, databaseUrl: db.url, adminSecret: 's3cret' });
});
afterAll(async () => {
  await kiln?.close();
  await guarded?.close();
  await db?.drop();
});

const USER = { 'X-Svc-Role': 'user', 'X-Svc-User-Id': '1' };
const READER = { 'X-Svc-Role': 'reader' };
const as = (headers: Record<string, string>) => async (query: string, variables?: Record<string, unknown>) => kiln.gql(query, variables ?? null, headers);
const user = as(USER);
const reader = as(READER);

describe('columns', () => {
  it('hides columns outside the permission from selection, where and order_by', async () => {
    expect(errorOf(await user('{ article { id body } }'))).toEqual({
      message: 'field "body" not found in type: \'article\'', path: '$.selectionSet.article.selectionSet.body', code: 'validation-failed' });
    expect(errorOf(await user('{ article(where: {body: {_eq: "b1"}}) { id } }'))).toEqual({
      message: 'field "body" not found in type: \'article_bool_exp\'', path: '$.selectionSet.article.args.where.body', code: 'validation-failed' });
    const order = errorOf(await user('{ article(order_by: {views: asc}) { id } }'));
    expect(order.message).toBe('field "views" not found in type: \'article_order_by\'');
    expect(order.code).toBe('validation-failed');
    expect(errorOf(await user('{ article(where: {author: {id: {_eq: 1}}}) { id } }')).message).toBe('field "id" not found in type: \'author_bool_exp\'');
    expect(errorOf(await user('{ article(distinct_on: body) { id } }')).code).toBe('validation-failed');
  });

  it('leaves out _by_pk when a primary-key column is hidden, and _aggregate without allow_aggregations', async () => {
    expect(errorOf(await user('{ author_by_pk(id: 1) { name } }'))).toEqual({
      message: 'field "author_by_pk" not found in type: \'query_root\'', path: '$.selectionSet.author_by_pk', code: 'validation-failed' });
    expect(errorOf(await user('{ article_aggregate { aggregate { count } } }')).message).toBe('field "article_aggregate" not found in type: \'query_root\'');
    expect(errorOf(await user('{ author { articles_aggregate { aggregate { count } } } }')).message).toBe('field "articles_aggregate" not found in type: \'author\'');
    expect(dataOf(await user('{ article_by_pk(id: 2) { title } }'))).toEqual({ article_by_pk: { title: 'A2' } });
    expect(dataOf(await user('{ article_by_pk(id: 3) { title } }'))).toEqual({ article_by_pk: null });
  });
});

describe('rows', () => {
  it('applies the session filter and caps the limit at the permission limit', async () => {
    expect(ids(dataOf(await user('{ article(order_by: {id: asc}) { id } }'))['article'])).toEqual([1, 2]);
    expect(ids(dataOf(await user('{ article(order_by: {id: desc}, limit: 10) { id } }'))['article'])).toEqual([4, 2]);
    expect(ids(dataOf(await user('{ article(order_by: {id: desc}, limit: 1) { id } }'))['article'])).toEqual([4]);
    const q = 'query Q($l: Int) { article(order_by: {id: asc}, limit: $l) { id } }';
    expect(ids(dataOf(await user(q, { l: 5 }))['article'])).toEqual([1, 2]);
    expect(ids(dataOf(await user(q, { l: 1 }))['article'])).toEqual([1]);
    // One query text, one cached plan, the session value bound per request.
    const asUser = (id: string): Promise<unknown> => kiln.gql('{ article(order_by: {id: asc}) { id title } }', null, { 'X-Svc-Role': 'user', 'X-Svc-User-Id': id })
      .then((b) => dataOf(b)['article']);
    expect(await asUser('2')).toEqual([{ id: 3, title: 'B1' }]);
    expect(await asUser('1')).toEqual([{ id: 1, title: 'A1' }, { id: 2, title: 'A2' }]);
    expect(await asUser('3')).toEqual([{ id: 5, title: 'C1' }]);
    expect(await Promise.all(['2', '3', '1'].map(asUser))).toEqual([[{ id: 3, title: 'B1' }], [{ id: 5, title: 'C1' }], [{ id: 1, title: 'A1' }, { id: 2, title: 'A2' }]]);
  });

  it('applies the target permission through relationships', async () => {
    // user sees every author but only its own articles, also nested and inside filters.
    const d = dataOf(await user('{ author { name articles(order_by: {id: asc}) { id } } }'));
    expect(d['author']).toEqual(expect.arrayContaining([{ name: 'Alice', articles: [{ id: 1 }, { id: 2 }] }, { name: 'Bob', articles: [] }]));
    expect(dataOf(await user('{ author(where: {articles: {id: {_eq: 3}}}) { name } }'))['author']).toEqual([]);
    // reader: articles of public authors only; Bob (private) is hidden as an editor too.
    const r = dataOf(await reader('{ article(order_by: {id: asc}) { id editor { name } } }'));
    expect(r['article']).toEqual([{ id: 1, editor: null }, { id: 2, editor: null }, { id: 4, editor: { name: 'Carol' } }, { id: 5, editor: null }]);
    expect(ids(dataOf(await reader('{ author(order_by: {id: asc}) { id } }'))['author'])).toEqual([1, 3]);
    expect(dataOf(await reader('{ author_by_pk(id: 2) { id } }'))).toEqual({ author_by_pk: null });
    expect(ids(dataOf(await reader('{ article(where: {editor: {}}, order_by: {id: asc}) { id } }'))['article'])).toEqual([4]);
    // Ordering by a hidden editor's name sorts as null (nulls last), not as "Bob".
    expect(ids(dataOf(await reader('{ article(order_by: [{editor: {name: asc}}, {id: asc}]) { id } }'))['article'])).toEqual([4, 1, 2, 5]);
  });

  it('aggregates only the permitted rows', async () => {
    const d = dataOf(await reader('{ article_aggregate { aggregate { count sum { views } } } author(order_by: {id: asc}) { articles_aggregate { aggregate { count } } } }'));
    expect(d).toEqual({ article_aggregate: { aggregate: { count: 4, sum: { views: 17 } } }, author: [
      { articles_aggregate: { aggregate: { count: 3 } } }, { articles_aggregate: { aggregate: { count: 1 } } }] });
  });

  it('filters with _exists, _in on an array session value and _ceq', async () => {
    const anon = { 'X-Svc-Role': 'anon' };
    expect(ids(dataOf(await kiln.gql('{ article(order_by: {id: asc}) { id } }', null, anon))['article'])).toEqual([1, 2, 3, 4, 5]);
    await db.exec('UPDATE flag SET enabled = false');
    try {
      expect(ids(dataOf(await kiln.gql('{ article(order_by: {id: asc}) { id } }', null, anon))['article'])).toEqual([]);
    } finally {
      await db.exec('UPDATE flag SET enabled = true');
    }
    const lister = (v: string): Promise<unknown[]> => kiln.gql('{ article(order_by: {id: asc}) { id } }', null, { 'X-Svc-Role': 'lister', 'X-Svc-Allowed-Ids': v })
      .then((b) => ids(dataOf(b)['article']));
    expect(await lister('[1,2]')).toEqual([1, 2]);
    expect(await lister('{1,3}')).toEqual([1, 3]);
    expect(await lister('[]')).toEqual([]);
    expect(ids(dataOf(await kiln.gql('{ article(order_by: {id: asc}) { id } }', null, { 'X-Svc-Role': 'ceq' }))['article'])).toEqual([1, 3, 4]);
    // ["$", col] names the root table's column from inside the relationship (editor.id > article.author_id).
    expect(ids(dataOf(await kiln.gql('{ article(order_by: {id: asc}) { id } }', null, { 'X-Svc-Role': 'rooted' }))['article'])).toEqual([1, 4]);
  });

  it('reports a missing session variable, and a role without permissions', async () => {
    expect(errorOf(await kiln.gql('{ article { id } }', null, { 'X-Svc-Role': 'user' }))).toEqual({
      message: 'missing session variable: "x-svc-user-id"', path: '$', code: 'not-found' });
    expect(errorOf(await kiln.gql('{ article { id } }', null, { 'X-Svc-Role': 'nobody' }))).toEqual({
      message: 'field "article" not found in type: \'query_root\'', path: '$.selectionSet.article', code: 'validation-failed' });
  });

  it("answers the placeholder of a role that may query nothing with Hasura's text; a role with queries has none", async () => {
    const text = 'There are no queries available to the current role. Either there are no sources or remote schemas configured, '
      + "or the current role doesn't have the required permissions.";
    expect(dataOf(await kiln.gql('{ no_queries_available t: __typename again: no_queries_available }', null, { 'X-Svc-Role': 'nobody' })))
      .toEqual({ no_queries_available: text, t: 'query_root', again: text });
    expect(errorOf(await kiln.gql('{ no_queries_available }', null, USER))).toEqual({
      message: 'field "no_queries_available" not found in type: \'query_root\'', path: '$.selectionSet.no_queries_available', code: 'validation-failed' });
  });
});

describe('the role schema', () => {
  const rootFields = async (headers: Record<string, string>): Promise<string[]> => {
    const d = dataOf(await kiln.gql('{ __schema { queryType { fields { name } } } }', null, headers));
    return (d['__schema'] as { queryType: { fields: { name: string }[] } }).queryType.fields.map((f) => f.name);
  };
  const typeFields = async (headers: Record<string, string>, name: string): Promise<string[] | null> => {
    const d = dataOf(await kiln.gql(`{ __type(name: "${name}") { fields { name } } }`, null, headers));
    return (d['__type'] as { fields: { name: string }[] } | null)?.fields.map((f) => f.name) ?? null;
  };

  it('lists only the role\'s root fields and columns', async () => {
    expect(await rootFields(USER)).toEqual(['article', 'article_by_pk', 'author']);
    expect(await rootFields(READER)).toEqual(['article', 'article_aggregate', 'article_by_pk', 'author', 'author_by_pk']);
    expect(await rootFields({ 'X-Svc-Role': 'ceq' })).toEqual(['article', 'article_by_pk']);
    expect(await rootFields({ 'X-Svc-Role': 'nobody' })).toEqual(['no_queries_available']);
    expect(await rootFields({})).toEqual(expect.arrayContaining(['flag', 'flag_aggregate', 'author_aggregate']));
    expect(await typeFields(USER, 'article')).toEqual(['author', 'author_id', 'editor', 'id', 'title']);
    expect(await typeFields(USER, 'author')).toEqual(['articles', 'name']);
    expect(await typeFields({ 'X-Svc-Role': 'anon' }, 'article')).toEqual(['id', 'title']);
    expect(await typeFields(USER, 'flag')).toBeNull();
  });
});

describe('admin secret', () => {
  const post = async (headers: Record<string, string>): Promise<{ status: number; body: unknown }> => {
    const r = await guarded.post('/v1/graphql', JSON.stringify({ query: '{ article(order_by: {id: asc}) { id } }' }), headers);
    return { status: r.status, body: JSON.parse(r.text) };
  };

  it('refuses a request without the secret or with a wrong one', async () => {
    const none = await post(USER);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ errors: [{ message: 'x-svc-admin-secret/x-svc-access-key required, but not found', extensions: { path: '$', code: 'access-denied' } }] });
    const wrong = await post({ ...USER, 'X-Svc-Admin-Secret': 'nope' });
    expect((wrong.body as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('access-denied');
  });

  it('serves the role named beside a correct secret, and admin without a role', async () => {
    expect((await post({ ...USER, 'X-Svc-Admin-Secret': 's3cret' })).body).toEqual({ data: { article: [{ id: 1 }, { id: 2 }] } });
    expect((await post({ 'X-Svc-Admin-Secret': 's3cret' })).body).toEqual({ data: { article: [1, 2, 3, 4, 5].map((id) => ({ id })) } });
  });
});
