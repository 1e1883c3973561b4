// Relationships of every kind, filters and ordering through them, nested pagination, and the
// GraphQL request features (aliases, fragments, directives, __typename, batches, operationName).
import { describe, expect, it } from 'vitest';
import type { TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, ids, metadataOf, serveOnFreshDatabase, table } from './setup.js';

const SETUP = `
CREATE SCHEMA content;
CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL, is_public boolean NOT NULL DEFAULT true);
CREATE TABLE author_detail (author_id int PRIMARY KEY REFERENCES author(id), bio text);
CREATE TABLE article (id int PRIMARY KEY, title text NOT NULL, author_id int NOT NULL REFERENCES author(id),
  editor_id int REFERENCES author(id), published boolean NOT NULL, rating int);
CREATE TABLE comment (id int PRIMARY KEY, article_id int NOT NULL REFERENCES article(id), body text,
  commenter_id int REFERENCES author(id));
CREATE TABLE content.tag (id int PRIMARY KEY, label text NOT NULL, article_id int);
INSERT INTO author VALUES (1, 'Alice', true), (2, 'Bob', false), (3, 'Carol', true);
INSERT INTO author_detail VALUES (1, 'bio A'), (2, 'bio B');
INSERT INTO article VALUES (1, 'A1', 1, 2, true, 5), (2, 'A2', 1, NULL, false, 3), (3, 'B1', 2, 1, true, 4), (4, 'A3', 1, NULL, true, 1);
INSERT INTO comment VALUES (1, 1, 'c1', 2), (2, 1, 'c2', 3), (3, 3, 'c3', 1), (4, 1, 'c4', NULL);
INSERT INTO content.tag VALUES (1, 'news', 1), (2, 'tech', 1), (3, 'misc', 3), (4, 'orphan', 99);
`;

const fk = (t: string, column: string, schema = 'public'): unknown => ({ foreign_key_constraint_on: { table: { schema, name: t }, column } });
const manual = (t: string, mapping: Record<string, string>, schema = 'public'): unknown =>
  ({ manual_configuration: { remote_table: { schema, name: t }, column_mapping: mapping } });

const METADATA = metadataOf([
  table('author', {
    object_relationships: [{ name: 'detail', using: fk('author_detail', 'author_id') }],
    array_relationships: [{ name: 'articles', using: fk('article', 'author_id') }],
  }),
  table('author_detail'),
  table('article', {
    object_relationships: [
      { name: 'author', using: { foreign_key_constraint_on: 'author_id' } },
      { name: 'editor', using: { foreign_key_constraint_on: 'editor_id' } },
    ],
    array_relationships: [
      { name: 'comments', using: fk('comment', 'article_id') },
      { name: 'tags', using: manual('tag', { id: 'article_id' }, 'content') },
    ],
  }),
  table('comment', { object_relationships: [{ name: 'article', using: { foreign_key_constraint_on: 'article_id' } }] }),
  table('tag', { object_relationships: [{ name: 'article', using: manual('article', { article_id: 'id' }) }] }, 'content'),
]);

let kiln: TestKiln;
serveOnFreshDatabase('rels', SETUP, METADATA, (_, k) => { kiln = k; });

const q = async (query: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>> => dataOf(await kiln.gql(query, variables));

describe('relationship kinds', () => {
  it('nests three levels through array relationships', async () => {
    const d = await q('{ author(order_by: {id: asc}) { name articles(order_by: {id: asc}) { title comments(order_by: {id: asc}) { body } } } }');
    expect(d['author']).toEqual([
      { name: 'Alice', articles: [
        { title: 'A1', comments: [{ body: 'c1' }, { body: 'c2' }, { body: 'c4' }] },
        { title: 'A2', comments: [] },
        { title: 'A3', comments: [] },
      ] },
      { name: 'Bob', articles: [{ title: 'B1', comments: [{ body: 'c3' }] }] },
      { name: 'Carol', articles: [] },
    ]);
  });

  it('follows non-null and nullable object relationships', async () => {
    const d = await q('{ article(order_by: {id: asc}) { id author { name } editor { name } } }');
    expect(d['article']).toEqual([
      { id: 1, author: { name: 'Alice' }, editor: { name: 'Bob' } },
      { id: 2, author: { name: 'Alice' }, editor: null },
      { id: 3, author: { name: 'Bob' }, editor: { name: 'Alice' } },
      { id: 4, author: { name: 'Alice' }, editor: null },
    ]);
    const t = await q('{ __type(name: "article") { fields { name type { kind name ofType { name } } } } }');
    const fields = (t['__type'] as { fields: { name: string; type: { kind: string; name: string | null; ofType: { name: string } | null } }[] }).fields;
    expect(fields.find((f) => f.name === 'author')!.type).toEqual({ kind: 'NON_NULL', name: null, ofType: { name: 'author' } });
    expect(fields.find((f) => f.name === 'editor')!.type).toEqual({ kind: 'OBJECT', name: 'author', ofType: null });
  });

  it('follows a reverse object relationship (foreign key on the other table)', async () => {
    const d = await q('{ author(order_by: {id: asc}) { id detail { bio } } }');
    expect(d['author']).toEqual([{ id: 1, detail: { bio: 'bio A' } }, { id: 2, detail: { bio: 'bio B' } }, { id: 3, detail: null }]);
  });

  it('follows manual relationships into and out of a second schema', async () => {
    const d = await q(`{ article(order_by: {id: asc}) { id tags(order_by: {label: asc}) { label } }
      content_tag(order_by: {id: asc}) { id article { title } } }`);
    expect(d['article']).toEqual([
      { id: 1, tags: [{ label: 'news' }, { label: 'tech' }] }, { id: 2, tags: [] }, { id: 3, tags: [{ label: 'misc' }] }, { id: 4, tags: [] },
    ]);
    expect(d['content_tag']).toEqual([
      { id: 1, article: { title: 'A1' } }, { id: 2, article: { title: 'A1' } }, { id: 3, article: { title: 'B1' } }, { id: 4, article: null },
    ]);
    expect((await q('{ content_tag_by_pk(id: 3) { label } }'))['content_tag_by_pk']).toEqual({ label: 'misc' });
  });
});

describe('filters and ordering through relationships', () => {
  it('filters through object and array relationships', async () => {
    expect(ids((await q('{ article(where: {author: {name: {_eq: "Bob"}}}) { id } }'))['article'])).toEqual([3]);
    expect(ids((await q('{ article(where: {editor: {name: {_eq: "Alice"}}}) { id } }'))['article'])).toEqual([3]);
    expect(ids((await q('{ author(where: {articles: {published: {_eq: false}}}) { id } }'))['author'])).toEqual([1]);
    expect(ids((await q('{ author(where: {articles: {}}, order_by: {id: asc}) { id } }'))['author'])).toEqual([1, 2]);
    expect(ids((await q('{ author(where: {_not: {articles: {}}}) { id } }'))['author'])).toEqual([3]);
    expect(ids((await q('{ author(where: {articles: {comments: {body: {_eq: "c3"}}}}) { id } }'))['author'])).toEqual([2]);
    expect(ids((await q('{ content_tag(where: {article: {author: {name: {_eq: "Alice"}}}}, order_by: {id: asc}) { id } }'))['content_tag'])).toEqual([1, 2]);
    expect(ids((await q('{ author(where: {detail: {bio: {_like: "%B"}}}) { id } }'))['author'])).toEqual([2]);
  });

  it('orders through an object relationship and by array aggregates', async () => {
    expect(ids((await q('{ article(order_by: [{author: {name: desc}}, {id: asc}]) { id } }'))['article'])).toEqual([3, 1, 2, 4]);
    expect(ids((await q('{ author(order_by: {articles_aggregate: {count: desc}}) { id } }'))['author'])).toEqual([1, 2, 3]);
    expect(ids((await q('{ author(order_by: {articles_aggregate: {max: {id: asc}}}) { id } }'))['author'])).toEqual([2, 1, 3]);
    expect(ids((await q('{ author(order_by: {articles_aggregate: {sum: {rating: desc_nulls_last}}}) { id } }'))['author'])).toEqual([1, 2, 3]);
    expect(ids((await q('{ comment(order_by: [{article: {author: {name: asc}}}, {id: desc}]) { id } }'))['comment'])).toEqual([4, 2, 1, 3]);
  });

  it('pages and filters a nested array relationship', async () => {
    const d = await q(`{ author_by_pk(id: 1) {
      page: articles(order_by: {rating: desc}, limit: 2, offset: 1) { id }
      first: articles(order_by: {id: asc}, limit: 1) { id }
      published: articles(where: {published: {_eq: true}}, order_by: {id: desc}) { id } } }`);
    expect(d['author_by_pk']).toEqual({ page: [{ id: 2 }, { id: 4 }], first: [{ id: 1 }], published: [{ id: 4 }, { id: 1 }] });
  });

  it('applies distinct_on with a matching order_by', async () => {
    const d = await q('{ article(distinct_on: [author_id], order_by: [{author_id: asc}, {id: desc}]) { id author_id } }');
    expect(d['article']).toEqual([{ id: 4, author_id: 1 }, { id: 3, author_id: 2 }]);
    const nested = await q('{ author_by_pk(id: 1) { articles(distinct_on: published, order_by: [{published: asc}, {rating: desc}]) { id } } }');
    expect(nested['author_by_pk']).toEqual({ articles: [{ id: 2 }, { id: 1 }] });
  });

  it('refuses distinct_on columns that do not lead the order_by', async () => {
    const e = errorOf(await kiln.gql('{ article(distinct_on: [author_id], order_by: {id: asc}) { id } }'));
    expect(e).toEqual({ message: '"distinct_on" columns must match initial "order_by" columns', path: '$.selectionSet.article.args', code: 'validation-failed' });
  });
});

describe('request features', () => {
  it('answers under aliases', async () => {
    const d = await q('{ a: author_by_pk(id: 1) { n: name } b: author_by_pk(id: 2) { name x: articles { t: title } } }');
    expect(d).toEqual({ a: { n: 'Alice' }, b: { name: 'Bob', x: [{ t: 'B1' }] } });
  });

  it('expands fragments and inline fragments', async () => {
    const d = await q(`query { author(where: {id: {_eq: 2}}) { ...A ... on author { id } ... { is_public } } }
      fragment A on author { name articles { ...B } }
      fragment B on article { title author { ...C } }
      fragment C on author { id }`);
    expect(d['author']).toEqual([{ name: 'Bob', articles: [{ title: 'B1', author: { id: 2 } }], id: 2, is_public: false }]);
  });

  it('honours @skip and @include, literal and from variables', async () => {
    const query = `query Q($s: Boolean!, $i: Boolean!) { author_by_pk(id: 1) {
      id name @skip(if: $s) is_public @include(if: $i) x: id @skip(if: true) y: id @include(if: true) } }`;
    expect((await q(query, { s: true, i: false }))['author_by_pk']).toEqual({ id: 1, y: 1 });
    expect((await q(query, { s: false, i: true }))['author_by_pk']).toEqual({ id: 1, name: 'Alice', is_public: true, y: 1 });
    expect((await q(query, { s: true, i: true }))['author_by_pk']).toEqual({ id: 1, is_public: true, y: 1 });
  });

  it('answers one query text right for variables that change its shape, also in parallel', async () => {
    const query = `query Q($w: article_bool_exp, $inc: Boolean!, $a: author_bool_exp, $l: Int) {
      author(where: $a, order_by: {id: asc}) { id articles(where: $w, order_by: {id: asc}, limit: $l) { id } detail @include(if: $inc) { bio } } }`;
    const named = (name: string) => ({ name: { _eq: name } });
    const cases: [Record<string, unknown>, unknown][] = [
      [{ w: { published: { _eq: true } }, inc: false, a: named('Alice') }, [{ id: 1, articles: [{ id: 1 }, { id: 4 }] }]],
      [{ w: null, inc: true, a: named('Bob') }, [{ id: 2, articles: [{ id: 3 }], detail: { bio: 'bio B' } }]],
      [{ w: { comments: {} }, inc: false, a: null, l: 1 }, [{ id: 1, articles: [{ id: 1 }] }, { id: 2, articles: [{ id: 3 }] }, { id: 3, articles: [] }]],
      [{ w: { published: { _eq: false } }, inc: true, a: named('Alice'), l: null }, [{ id: 1, articles: [{ id: 2 }], detail: { bio: 'bio A' } }]],
      [{ w: { published: { _eq: true } }, inc: false, a: named('Carol') }, [{ id: 3, articles: [] }]],
    ];
    for (const [variables, want] of cases) expect((await q(query, variables))['author'], JSON.stringify(variables)).toEqual(want);
    const answers = await Promise.all([...cases, ...cases].map(([variables]) => q(query, variables)));
    answers.forEach((a, i) => expect(a['author']).toEqual(cases[i % cases.length]![1]));
  });

  it('answers introspection beside data, and fragments on query_root', async () => {
    const d = await q('query { ...R __type(name: "content_tag") { name } } fragment R on query_root { author_by_pk(id: 3) { name } }');
    expect(d).toEqual({ author_by_pk: { name: 'Carol' }, __type: { name: 'content_tag' } });
  });

  it('merges fields selected twice under one response key', async () => {
    const d = await q('{ author_by_pk(id: 1) { id } author_by_pk(id: 1) { name articles(where: {id: {_eq: 2}}) { id } } }');
    expect(d).toEqual({ author_by_pk: { id: 1, name: 'Alice', articles: [{ id: 2 }] } });
  });

  it('answers __typename at every level', async () => {
    const d = await q(`{ __typename author_by_pk(id: 1) { __typename detail { __typename }
      articles(limit: 1, order_by: {id: asc}) { __typename tags(limit: 1) { __typename } } }
      content_tag_by_pk(id: 1) { __typename } author_aggregate { __typename aggregate { __typename } } }`);
    expect(d).toEqual({
      __typename: 'query_root',
      author_by_pk: { __typename: 'author', detail: { __typename: 'author_detail' }, articles: [{ __typename: 'article', tags: [{ __typename: 'content_tag' }] }] },
      content_tag_by_pk: { __typename: 'content_tag' },
      author_aggregate: { __typename: 'author_aggregate', aggregate: { __typename: 'author_aggregate_fields' } },
    });
    expect(await q('{ __typename }')).toEqual({ __typename: 'query_root' });
  });

  it('answers a batch with one answer per element, a failure staying in its element', async () => {
    const batch = [
      { query: '{ author_by_pk(id: 3) { name } }' },
      { query: '{ nope { id } }' },
      { query: 'query Q($id: Int!) { article_by_pk(id: $id) { title } }', variables: { id: 2 } },
    ];
    const r = await kiln.post('/v1/graphql', JSON.stringify(batch));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual([
      { data: { author_by_pk: { name: 'Carol' } } },
      { errors: [{ message: 'field "nope" not found in type: \'query_root\'', extensions: { path: '$.selectionSet.nope', code: 'validation-failed' } }] },
      { data: { article_by_pk: { title: 'A2' } } },
    ]);
  });

  it('runs the operation named by operationName', async () => {
    const doc = 'query One { author_by_pk(id: 1) { name } } query Two { author_by_pk(id: 2) { name } }';
    const post = async (operationName?: string): Promise<unknown> =>
      JSON.parse((await kiln.post('/v1/graphql', JSON.stringify({ query: doc, operationName }))).text);
    expect(await post('One')).toEqual({ data: { author_by_pk: { name: 'Alice' } } });
    expect(await post('Two')).toEqual({ data: { author_by_pk: { name: 'Bob' } } });
    expect(await post('One')).toEqual({ data: { author_by_pk: { name: 'Alice' } } });
    const missing = (await post()) as { errors: { extensions: { code: string } }[] };
    expect(missing.errors[0]!.extensions.code).toBe('validation-failed');
    const unknown = (await post('Three')) as { errors: { extensions: { code: string } }[] };
    expect(unknown.errors[0]!.extensions.code).toBe('validation-failed');
  });
});
