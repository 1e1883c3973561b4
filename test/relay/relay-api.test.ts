// The Relay API (POST /v1beta1/relay): connections with edges, cursors and pageInfo, pages by
// first/after and last/before, `node(id:)` by global id, nested array relationships as
// connections, and the role's permissions on every row (a node the role may not see is null).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('the Relay API', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> =>
    (await server.post(path, body, headers)).body;
  const relay = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) => post('/v1beta1/relay', { query, variables }, headers);
  const reader = { 'x-svc-role': 'reader', 'x-svc-user-id': '10' };

  beforeAll(async () => {
    server = await serveDatabase('relayapi', `CREATE TABLE shelf (code int PRIMARY KEY, label text, owner int);
      INSERT INTO shelf VALUES (10, 'ten', 10), (20, 'twenty', 10), (30, 'thirty', 99), (40, 'forty', 10);
      CREATE TABLE book (isbn text PRIMARY KEY, title text, shelf int REFERENCES shelf);
      INSERT INTO book VALUES ('b1', 'One', 10), ('b2', 'Two', 10), ('b3', 'Three', 30);
      CREATE FUNCTION shelves_like(pattern text) RETURNS SETOF shelf LANGUAGE sql STABLE AS $$ SELECT * FROM shelf WHERE label LIKE pattern $$;`);
    db = server.db;
    const setup = await post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'shelf' } },
      { type: 'pg_track_table', args: { table: 'book' } },
      { type: 'pg_create_array_relationship', args: { table: 'shelf', name: 'books', using: { foreign_key_constraint_on: { table: 'book', column: 'shelf' } } } },
      // The reader may not read `code`: node ids and cursors still carry it.
      { type: 'pg_create_select_permission', args: { table: 'shelf', role: 'reader', permission: { columns: ['label'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } } },
      { type: 'pg_create_select_permission', args: { table: 'book', role: 'reader', permission: { columns: ['isbn', 'title'], filter: {} } } },
      { type: 'pg_track_function', args: { function: 'shelves_like' } },
    ] });
    expect(setup).toHaveLength(6);
  }, 60_000);
  afterAll(() => server?.close());

  it('answers a connection in primary-key order with Hasura\'s ids and cursors, nested connections included', async () => {
    const r = await relay('{ shelf_connection { pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id label books_connection { edges { node { id title } } } } } } }', {}, reader);
    const shelfId = (code: number) => b64(`[1, "public", "shelf", ${code}]`);
    const cursor = (code: number) => b64(`{"code" : ${code}}`);
    expect(r.data.shelf_connection.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: cursor(10), endCursor: cursor(40) });
    expect(r.data.shelf_connection.edges.map((e: any) => [e.cursor, e.node.id, e.node.label])).toEqual([
      [cursor(10), shelfId(10), 'ten'], [cursor(20), shelfId(20), 'twenty'], [cursor(40), shelfId(40), 'forty']]);
    expect(r.data.shelf_connection.edges[0].node.books_connection.edges).toEqual([
      { node: { id: b64('[1, "public", "book", "b1"]'), title: 'One' } }, { node: { id: b64('[1, "public", "book", "b2"]'), title: 'Two' } }]);
  });

  it('pages forward with first/after and backward with last/before', async () => {
    const page = async (args: string) => {
      const r = await relay(`{ shelf_connection(${args}) { pageInfo { hasNextPage hasPreviousPage endCursor } edges { node { label } } } }`, {}, reader);
      return [r.data.shelf_connection.edges.map((e: any) => e.node.label), r.data.shelf_connection.pageInfo];
    };
    const [labels, info] = await page('first: 2');
    expect(labels).toEqual(['ten', 'twenty']);
    expect(info).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect((await page(`first: 2, after: "${info.endCursor}"`))[0]).toEqual(['forty']);
    expect((await page('last: 1'))[0]).toEqual(['forty']);
    expect((await page(`last: 5, before: "${b64('{"code" : 40}')}"`))[0]).toEqual(['ten', 'twenty']);
    expect((await page('first: 1, where: {label: {_like: "f%"}}'))[0]).toEqual(['forty']);
  });

  it('finds a node by its id for the role, and answers null for one it may not see or that does not exist', async () => {
    const node = (id: string) => relay('query ($id: ID!) { node(id: $id) { __typename ... on shelf { label } ... on book { title } } }', { id }, reader);
    expect(await node(b64('[1, "public", "shelf", 20]'))).toEqual({ data: { node: { __typename: 'shelf', label: 'twenty' } } });
    expect(await node(b64('[1, "public", "book", "b3"]'))).toEqual({ data: { node: { __typename: 'book', title: 'Three' } } });
    expect(await node(b64('[1, "public", "shelf", 30]'))).toEqual({ data: { node: null } });
    expect(await node(b64('[1, "public", "shelf", 77]'))).toEqual({ data: { node: null } });
    expect((await node('not base64 json')).errors[0].extensions.code).toBe('validation-failed');
  });

  it('keeps the ordinary schema\'s rules: a column the role may not read is not a field', async () => {
    const r = await relay('{ shelf_connection { edges { node { owner } } } }', {}, reader);
    expect(r.errors[0].message).toBe(`field "owner" not found in type: 'shelf'`);
    // Nor is the key column the role may not read, though ids and cursors carry it.
    expect((await relay('{ shelf_connection { edges { node { code } } } }', {}, reader)).errors[0]).toEqual({ message: `field "code" not found in type: 'shelf'`,
      extensions: { code: 'validation-failed', path: '$.selectionSet.shelf_connection.selectionSet.edges.selectionSet.node.selectionSet.code' } });
  });

  // As admin: every shelf; by label: forty (40), ten (10), thirty (30), twenty (20).
  const labels = (r: any, field = 'shelf_connection') => r.data[field].edges.map((e: any) => e.node.label);

  it('orders by order_by then the key; last reads that order backwards; cursors carry the order columns then the key', async () => {
    const r = await relay('{ shelf_connection(order_by: {label: asc}, last: 2) { pageInfo { startCursor endCursor hasPreviousPage hasNextPage } edges { cursor node { label } } } }');
    expect(labels(r)).toEqual(['thirty', 'twenty']);
    expect(r.data.shelf_connection.pageInfo).toEqual({ startCursor: b64('{"label" : "thirty", "code" : 30}'), endCursor: b64('{"label" : "twenty", "code" : 20}'),
      hasPreviousPage: true, hasNextPage: false });
    const desc = await relay('{ shelf_connection(order_by: [{label: desc}], first: 2) { edges { node { label } } } }');
    expect(labels(desc)).toEqual(['twenty', 'thirty']);
  });

  it('pages by cursors in the order_by order, ties broken by the key, and says what lies beyond the cursor', async () => {
    await db.exec("UPDATE shelf SET label = 'same' WHERE code IN (10, 30)");
    try {
      // By label: forty (40), same (10), same (30), twenty (20).
      const page1 = await relay('{ shelf_connection(order_by: {label: asc}, first: 2) { pageInfo { endCursor hasPreviousPage hasNextPage } edges { node { id } } } }');
      expect(page1.data.shelf_connection.pageInfo).toMatchObject({ endCursor: b64('{"label" : "same", "code" : 10}'), hasPreviousPage: false, hasNextPage: true });
      const page2 = await relay('query ($c: String) { shelf_connection(order_by: {label: asc}, first: 2, after: $c) { pageInfo { startCursor hasPreviousPage hasNextPage } edges { node { label } } } }',
        { c: page1.data.shelf_connection.pageInfo.endCursor });
      expect(labels(page2)).toEqual(['same', 'twenty']);
      // Rows before the `after` cursor exist: Hasura's hasPreviousPage is true on every page but the first.
      expect(page2.data.shelf_connection.pageInfo).toEqual({ startCursor: b64('{"label" : "same", "code" : 30}'), hasPreviousPage: true, hasNextPage: false });
      const back = await relay(`{ shelf_connection(order_by: {label: asc}, last: 1, before: "${b64('{"label" : "same", "code" : 30}')}") { pageInfo { hasPreviousPage hasNextPage } edges { node { label } } } }`);
      expect(labels(back)).toEqual(['same']);
      expect(back.data.shelf_connection.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: true });
      const desc = await relay(`{ shelf_connection(order_by: {label: desc}, after: "${b64('{"label" : "same", "code" : 30}')}") { edges { node { label } } } }`);
      // Descending by label, ascending by key: twenty, same (10), same (30), forty.
      expect(labels(desc)).toEqual(['forty']);
      const missing = await relay(`{ shelf_connection(order_by: {label: asc}, after: "${b64('{"code" : 30}')}") { edges { cursor } } }`);
      expect(missing.errors[0]).toEqual({ message: 'the cursor is invalid', extensions: { code: 'validation-failed', path: '$.selectionSet.shelf_connection.args.after' } });
    } finally {
      await db.exec("UPDATE shelf SET label = CASE code WHEN 10 THEN 'ten' ELSE 'thirty' END WHERE code IN (10, 30)");
    }
  });

  it("refuses first with last and after with before in Hasura's words, at the connection", async () => {
    for (const [args, message] of [['first: 1, last: 2', '"first" and "last" are not allowed at once'],
      [`after: "${b64('{"code" : 10}')}", before: "${b64('{"code" : 40}')}"`, '"after" and "before" are not allowed at once']]) {
      expect((await relay(`{ shelf_connection(${args}) { edges { cursor } } }`)).errors[0])
        .toEqual({ message, extensions: { code: 'validation-failed', path: '$.selectionSet.shelf_connection' } });
    }
  });

  it('answers a connection of a function returning rows of a table, and refuses a connection field no relationship gives', async () => {
    const r = await relay('{ shelves_like_connection(args: {pattern: "t%"}, first: 2) { pageInfo { hasNextPage } edges { cursor node { label } } } }');
    expect(labels(r, 'shelves_like_connection')).toEqual(['ten', 'twenty']);
    expect(r.data.shelves_like_connection.pageInfo).toEqual({ hasNextPage: true });
    expect(r.data.shelves_like_connection.edges[0].cursor).toBe(b64('{"code" : 10}'));
    const bad = await relay('{ shelf_connection { edges { node { shelves_connection { edges { cursor } } } } } }');
    expect(bad.errors[0]).toEqual({ message: 'field "shelves_connection" not found in type: \'shelf\'',
      extensions: { code: 'validation-failed', path: '$.selectionSet.shelf_connection.selectionSet.edges.selectionSet.node.selectionSet.shelves_connection' } });
  });
});
