// Relay cursors with an order_by on an object relationship or an array relationship's aggregate
// carry those values as Hasura's mkCursorExp writes them (Backends/Postgres/Translate/Select.hs):
// `{"articles_aggregate" : {"count" : 0}, "id" : 4}`, `{"author" : {"name" : "..."}, "id" : 1}`,
// and page past them in that order (tests-py TestRelayQueriesBasic
// test_author_orderby_articles_aggregate_orderby_forward/backward_pagination).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { MAX_CURSOR_SCAN_ROWS } from '../../runtime/graphql/relay.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const unb64 = (s: string): string => Buffer.from(s, 'base64').toString('utf8');

let server: ServedDatabase;
const relay = async (query: string, headers: Record<string, string> = {}): Promise<any> => (await server.post('/v1beta1/relay', { query }, headers)).body;

beforeAll(async () => {
  server = await serveDatabase('fidrelayorder', `CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL);
    INSERT INTO author (name) VALUES ('Ann'), ('Bob'), ('Cid'), ('Dee');
    CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author);
    INSERT INTO article (title, author_id) VALUES ('a', 1), ('b', 1), ('c', 1), ('d', 2), ('e', 2), ('f', 3);`);
  const setup = (await server.post('/v1/metadata', { type: 'bulk', args: [
    { type: 'pg_track_table', args: { table: 'author' } },
    { type: 'pg_track_table', args: { table: 'article' } },
    { type: 'pg_create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
    { type: 'pg_create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
  ] })).body;
  expect(setup).toHaveLength(4);
}, 60_000);
afterAll(() => server?.close());

const byCount = (args: string) => relay(`{ author_connection(${args} order_by: {articles_aggregate: {count: asc}}) {
  pageInfo { startCursor endCursor hasPreviousPage hasNextPage } edges { cursor node { name } } } }`);
const countCursor = (count: number, id: number) => b64(`{"articles_aggregate" : {"count" : ${count}}, "id" : ${id}}`);

describe('cursors of an order on an aggregate', () => {
  it('carry the aggregate under <rel>_aggregate, then the key', async () => {
    expect((await byCount('first: 2')).data.author_connection).toEqual({
      pageInfo: { startCursor: countCursor(0, 4), endCursor: countCursor(1, 3), hasPreviousPage: false, hasNextPage: true },
      edges: [{ cursor: countCursor(0, 4), node: { name: 'Dee' } }, { cursor: countCursor(1, 3), node: { name: 'Cid' } }],
    });
  });

  it('page forward after such a cursor and backward before one', async () => {
    expect((await byCount(`first: 2 after: "${countCursor(1, 3)}"`)).data.author_connection).toEqual({
      pageInfo: { startCursor: countCursor(2, 2), endCursor: countCursor(3, 1), hasPreviousPage: true, hasNextPage: false },
      edges: [{ cursor: countCursor(2, 2), node: { name: 'Bob' } }, { cursor: countCursor(3, 1), node: { name: 'Ann' } }],
    });
    expect((await byCount(`last: 2 before: "${countCursor(3, 1)}"`)).data.author_connection).toEqual({
      pageInfo: { startCursor: countCursor(1, 3), endCursor: countCursor(2, 2), hasPreviousPage: true, hasNextPage: true },
      edges: [{ cursor: countCursor(1, 3), node: { name: 'Cid' } }, { cursor: countCursor(2, 2), node: { name: 'Bob' } }],
    });
    expect((await byCount(`last: 1 before: "${countCursor(1, 3)}"`)).data.author_connection.pageInfo).toEqual(
      { startCursor: countCursor(0, 4), endCursor: countCursor(0, 4), hasPreviousPage: false, hasNextPage: true });
  });

  it('refuse a cursor without the order\'s keys', async () => {
    const r = await byCount(`first: 1 after: "${b64('{"id" : 3}')}"`);
    expect(r.errors[0]).toEqual({ message: 'the cursor is invalid', extensions: { code: 'validation-failed', path: '$.selectionSet.author_connection.args.after' } });
  });
});

describe('cursors of an order on an object relationship', () => {
  it('carry its columns under the relationship\'s name, and page past them', async () => {
    const q = (args: string) => relay(`{ article_connection(${args} order_by: [{author: {name: desc}}, {title: asc}]) { edges { cursor node { title } } } }`);
    const first = (await q('first: 2')).data.article_connection.edges;
    expect(first.map((e: any) => [unb64(e.cursor), e.node.title])).toEqual([
      ['{"author" : {"name" : "Cid"}, "title" : "f", "id" : 6}', 'f'], ['{"author" : {"name" : "Bob"}, "title" : "d", "id" : 4}', 'd']]);
    const next = (await q(`first: 3 after: "${first[1].cursor}"`)).data.article_connection.edges;
    expect(next.map((e: any) => e.node.title)).toEqual(['e', 'a', 'b']);
  });
});

describe('a cursor on such an order is bounded', () => {
  // Past such a cursor the connection is read from its start (a relationship's or an aggregate's
  // value is no column of `where`): at most MAX_CURSOR_SCAN_ROWS rows, past that a clear refusal.
  it('refuses a connection longer than the bound, and pages one within it', async () => {
    const big = await serveDatabase('fidrelayscan', `CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL);
      INSERT INTO author (name) SELECT 'a' || g FROM generate_series(1, ${MAX_CURSOR_SCAN_ROWS + 5}) AS g;
      CREATE TABLE article (id serial PRIMARY KEY, author_id int REFERENCES author);`);
    try {
      expect((await big.post('/v1/metadata', { type: 'bulk', args: [
        { type: 'pg_track_table', args: { table: 'author' } },
        { type: 'pg_track_table', args: { table: 'article' } },
        { type: 'pg_create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
      ] })).status).toBe(200);
      const page = async (where: string) => (await big.post('/v1beta1/relay', { query: `{ author_connection(first: 1 after: "${countCursor(0, 1)}" ${where}
        order_by: {articles_aggregate: {count: asc}}) { edges { node { name } } } }` })).body;
      expect((await page('')).errors).toEqual([{ message: `a cursor on an order by a relationship or an aggregate pages through at most ${MAX_CURSOR_SCAN_ROWS} rows of a connection; narrow it with where, or order by columns`,
        extensions: { code: 'not-supported', path: '$.selectionSet.author_connection.args.after' } }]);
      expect((await page('where: {id: {_lte: 100}}')).data.author_connection.edges).toEqual([{ node: { name: 'a2' } }]);
    } finally {
      await big.close();
    }
  }, 60_000);
});
