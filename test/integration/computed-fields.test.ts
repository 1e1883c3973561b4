// Computed fields wherever Hasura v2 serves them: selected (scalar, set of rows, single row, with
// `args` and a session argument), filtered on in `where` and in permission filters, ordered by
// (scalar value, `<cf>_aggregate` of a set), and their permissions (scalar ones listed in
// `computed_fields`, table ones derived from the select permission of the table they return).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, ids, metadataOf, table } from './setup.js';

const SETUP = `
CREATE TABLE author (id serial PRIMARY KEY, first_name text NOT NULL, last_name text);
INSERT INTO author (first_name, last_name) VALUES ('Roger', 'Chris'), ('Daniel', NULL), ('Eve', 'Quiet');
CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, author_id int NOT NULL REFERENCES author(id), is_published boolean NOT NULL DEFAULT false);
INSERT INTO article (title, author_id, is_published) VALUES
  ('Article 1', 1, true), ('Article 2', 2, false), ('Article 3', 2, true), ('Other 4', 2, true);
CREATE FUNCTION full_name(author) RETURNS text AS $$
  SELECT $1.first_name || coalesce(' ' || $1.last_name, '')
$$ LANGUAGE sql STABLE;
CREATE FUNCTION fetch_articles(search text, author_row author) RETURNS SETOF article AS $$
  SELECT * FROM article WHERE title ILIKE ('%' || search || '%') AND author_id = author_row.id
$$ LANGUAGE sql STABLE;
CREATE FUNCTION articles_of(author_row author) RETURNS SETOF article AS $$
  SELECT * FROM article WHERE author_id = author_row.id
$$ LANGUAGE sql STABLE;
CREATE FUNCTION latest_article(author_row author) RETURNS article AS $$
  SELECT * FROM article WHERE author_id = author_row.id ORDER BY id DESC LIMIT 1
$$ LANGUAGE sql STABLE;
CREATE FUNCTION boosted_id(svc_session json, author_row author) RETURNS int AS $$
  SELECT author_row.id + (svc_session ->> 'x-svc-boost')::int
$$ LANGUAGE sql STABLE;
CREATE FUNCTION session_articles(svc_session json, author_row author) RETURNS SETOF article AS $$
  SELECT * FROM article WHERE author_id = author_row.id AND title ILIKE ('%' || (svc_session ->> 'x-svc-search') || '%')
$$ LANGUAGE sql STABLE;
`;

const cf = (name: string, fn: string, extra: Record<string, unknown> = {}): unknown =>
  ({ name, definition: { function: { schema: 'public', name: fn }, ...extra } });

const METADATA = metadataOf([
  table('author', {
    computed_fields: [
      cf('full_name', 'full_name'),
      cf('get_articles', 'fetch_articles', { table_argument: 'author_row' }),
      cf('all_articles', 'articles_of'),
      cf('latest', 'latest_article'),
      cf('boosted', 'boosted_id', { table_argument: 'author_row', session_argument: 'svc_session' }),
      cf('searched', 'session_articles', { table_argument: 'author_row', session_argument: 'svc_session' }),
    ],
    select_permissions: [
      // Lists only the scalar `full_name`; the table computed fields follow article's permission.
      { role: 'user', permission: { columns: ['id'], computed_fields: ['full_name'], filter: { id: { _eq: 'X-Svc-User-Id' } } } },
      { role: 'public', permission: { columns: ['id', 'first_name'], computed_fields: [], filter: {} } },
      // Authors with a published article whose title has "Article", by a set-returning computed field.
      { role: 'reader', permission: { columns: ['id'], computed_fields: ['full_name'],
        filter: { all_articles: { _and: [{ is_published: { _eq: true } }, { title: { _like: 'Article%' } }] } } } },
      { role: 'named', permission: { columns: ['id'], computed_fields: ['full_name'], filter: { full_name: { _eq: 'Daniel' } } } },
    ],
  }),
  table('article', {
    select_permissions: [
      { role: 'user', permission: { columns: ['id', 'title', 'author_id'], filter: {} } },
      { role: 'public', permission: { columns: ['title'], filter: { is_published: { _eq: true } }, allow_aggregations: true } },
      { role: 'reader', permission: { columns: ['id'], filter: {} } },
    ],
  }),
], [
  { function: { schema: 'public', name: 'fetch_articles' } },
]);

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('cfields', SETUP);
  kiln = await startKiln({ metadata: METADATA, databaseUrl: db.url, adminSecret: 'secret' });
});
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const ADMIN = { 'X-Svc-Admin-Secret': 'secret' };
const as = (role: string, extra: Record<string, string> = {}): Record<string, string> =>
  ({ ...ADMIN, 'X-Svc-Role': role, ...extra });

describe('selecting computed fields', () => {
  it('selects scalar and set-returning computed fields with their arguments', async () => {
    const d = dataOf(await kiln.gql('{ author(order_by: {id: asc}) { id full_name get_articles(args: {search: "Article"}, order_by: {id: asc}) { id } } }', null, ADMIN));
    expect(d['author']).toEqual([
      { id: 1, full_name: 'Roger Chris', get_articles: [{ id: 1 }] },
      { id: 2, full_name: 'Daniel', get_articles: [{ id: 2 }, { id: 3 }] },
      { id: 3, full_name: 'Eve Quiet', get_articles: [] },
    ]);
  });

  it('applies the select arguments to a set-returning computed field', async () => {
    const d = dataOf(await kiln.gql('{ author_by_pk(id: 2) { all_articles(where: {is_published: {_eq: true}}, order_by: {id: desc}, limit: 1) { id } } }', null, ADMIN));
    expect(d['author_by_pk']).toEqual({ all_articles: [{ id: 4 }] });
  });

  it('selects a computed field returning one row as an object, null when there is none', async () => {
    const d = dataOf(await kiln.gql('{ author(order_by: {id: asc}) { latest { id title } } }', null, ADMIN));
    expect(d['author']).toEqual([{ latest: { id: 1, title: 'Article 1' } }, { latest: { id: 4, title: 'Other 4' } }, { latest: null }]);
  });

  it('passes the session to a session argument', async () => {
    const d = dataOf(await kiln.gql('{ author(order_by: {id: asc}) { boosted searched { id } } }', null, { ...ADMIN, 'X-Svc-Boost': '100', 'X-Svc-Search': 'other' }));
    expect(d['author']).toEqual([{ boosted: 101, searched: [] }, { boosted: 102, searched: [{ id: 4 }] }, { boosted: 103, searched: [] }]);
  });

  it('refuses a computed field called without its required arguments', async () => {
    expect(errorOf(await kiln.gql('{ author { get_articles { id } } }', null, ADMIN)).code).toBe('validation-failed');
  });

  it('serves a function tracked both as a root field and as a computed field (one args type for both)', async () => {
    const d = dataOf(await kiln.gql('{ fetch_articles(args: {search: "Art", author_row: "(2,Daniel,)"}, order_by: {id: asc}) { id } author_by_pk(id: 1) { get_articles(args: {search: "Art"}) { id } } }', null, ADMIN));
    expect(ids(d['fetch_articles'])).toEqual([2, 3]);
    expect(d['author_by_pk']).toEqual({ get_articles: [{ id: 1 }] });
    const t = dataOf(await kiln.gql('{ __type(name: "fetch_articles_args") { inputFields { name type { name } } } }', null, ADMIN));
    expect((t['__type'] as { inputFields: unknown[] }).inputFields).toEqual([
      { name: 'author_row', type: { name: 'author_scalar' } }, { name: 'search', type: { name: 'String' } },
    ]);
  });
});

describe('permissions on computed fields', () => {
  it('serves listed scalar computed fields and table ones the role may read through their table', async () => {
    const d = dataOf(await kiln.gql('{ author { full_name get_articles(args: {search: "Art"}) { id title } } }', null, as('user', { 'X-Svc-User-Id': '1' })));
    expect(d['author']).toEqual([{ full_name: 'Roger Chris', get_articles: [{ id: 1, title: 'Article 1' }] }]);
  });

  it('hides a scalar computed field the permission does not list', async () => {
    expect(errorOf(await kiln.gql('{ author { full_name } }', null, as('public')))).toEqual({
      message: 'field "full_name" not found in type: \'author\'', path: '$.selectionSet.author.selectionSet.full_name', code: 'validation-failed' });
  });

  it('applies the returned table\'s permission (filter and columns) to a table computed field', async () => {
    const d = dataOf(await kiln.gql('{ author(order_by: {id: asc}) { id all_articles { title } } }', null, as('public')));
    expect(d['author']).toEqual([
      { id: 1, all_articles: [{ title: 'Article 1' }] },
      { id: 2, all_articles: [{ title: 'Article 3' }, { title: 'Other 4' }] },
      { id: 3, all_articles: [] },
    ]);
    expect(errorOf(await kiln.gql('{ author { all_articles { id } } }', null, as('public'))).message)
      .toBe('field "id" not found in type: \'article\'');
  });

  it('filters rows by a set-returning computed field in the permission filter', async () => {
    const d = dataOf(await kiln.gql('{ author(order_by: {id: asc}) { id } }', null, as('reader')));
    expect(ids(d['author'])).toEqual([1, 2]);
  });

  it('filters rows by a scalar computed field in the permission filter', async () => {
    const d = dataOf(await kiln.gql('{ author { id full_name } }', null, as('named')));
    expect(d['author']).toEqual([{ id: 2, full_name: 'Daniel' }]);
  });
});

describe('computed fields in where', () => {
  it('compares a scalar computed field', async () => {
    const d = dataOf(await kiln.gql('{ author(where: {full_name: {_ilike: "%chris%"}}) { id } }', null, ADMIN));
    expect(ids(d['author'])).toEqual([1]);
  });

  it('matches some row of a set-returning computed field', async () => {
    const d = dataOf(await kiln.gql('{ author(where: {all_articles: {title: {_like: "Other%"}}}) { id } }', null, ADMIN));
    expect(ids(d['author'])).toEqual([2]);
    const none = dataOf(await kiln.gql('{ author(where: {_not: {all_articles: {}}}) { id } }', null, ADMIN));
    expect(ids(none['author'])).toEqual([3]);
  });

  it('uses the session argument in a filter', async () => {
    const d = dataOf(await kiln.gql('{ author(where: {boosted: {_gt: 11}}, order_by: {id: asc}) { id } }', null, { ...ADMIN, 'X-Svc-Boost': '10' }));
    expect(ids(d['author'])).toEqual([2, 3]);
  });

  it('checks the returned table\'s permission inside the filter', async () => {
    // public sees only published articles: Article 2 (unpublished) matches nothing.
    const d = dataOf(await kiln.gql('{ author(where: {all_articles: {title: {_eq: "Article 2"}}}) { id } }', null, as('public')));
    expect(d['author']).toEqual([]);
  });

  it('leaves computed fields that take arguments out of the boolean expression', async () => {
    expect(errorOf(await kiln.gql('{ author(where: {get_articles: {}}) { id } }', null, ADMIN))).toEqual({
      message: 'field "get_articles" not found in type: \'author_bool_exp\'', path: '$.selectionSet.author.args.where.get_articles', code: 'validation-failed' });
  });
});

describe('ordering by computed fields', () => {
  it('orders by a scalar computed field', async () => {
    const d = dataOf(await kiln.gql('{ author(order_by: {full_name: desc}) { id } }', null, ADMIN));
    expect(ids(d['author'])).toEqual([1, 3, 2]);
  });

  it('orders by the aggregates of a set-returning computed field, with the session', async () => {
    const d = dataOf(await kiln.gql('{ author(order_by: [{all_articles_aggregate: {count: desc}}, {id: asc}]) { id } }', null, ADMIN));
    expect(ids(d['author'])).toEqual([2, 1, 3]);
    const s = dataOf(await kiln.gql('{ author(order_by: [{searched_aggregate: {count: desc}}, {id: desc}]) { id } }', null, { ...ADMIN, 'X-Svc-Search': '1' }));
    expect(ids(s['author'])).toEqual([1, 3, 2]);
    const m = dataOf(await kiln.gql('{ author(order_by: {all_articles_aggregate: {max: {id: asc}}}) { id } }', null, ADMIN));
    expect(ids(m['author'])).toEqual([1, 2, 3]);
  });

  it('counts only the rows the role may read when ordering by an aggregate', async () => {
    // public: author 2 has two published articles, author 1 one, author 3 none.
    const d = dataOf(await kiln.gql('{ author(order_by: {all_articles_aggregate: {count: asc}}) { id } }', null, as('public')));
    expect(ids(d['author'])).toEqual([3, 1, 2]);
  });

  it('has no aggregate ordering for a computed field with arguments, nor without allow_aggregations', async () => {
    expect(errorOf(await kiln.gql('{ author(order_by: {get_articles_aggregate: {count: asc}}) { id } }', null, ADMIN)).message)
      .toBe('field "get_articles_aggregate" not found in type: \'author_order_by\'');
    expect(errorOf(await kiln.gql('{ author(order_by: {all_articles_aggregate: {count: asc}}) { id } }', null, as('user', { 'X-Svc-User-Id': '1' }))).message)
      .toBe('field "all_articles_aggregate" not found in type: \'author_order_by\'');
  });
});
