// The Relay API (POST /v1beta1/relay): connections with edges, cursors and pageInfo, pages by
// first/after and last/before, `node(id:)` by global id, nested array relationships as
// connections, and the role's permissions on every row (a node the role may not see is null).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('the Relay API', () => {
  let db: TestDatabase;
  let server: { port: number; close(): Promise<void> };
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> =>
    (await postJson(`http://127.0.0.1:${server.port}`, path, body, headers)).body;
  const relay = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) => post('/v1beta1/relay', { query, variables }, headers);
  const reader = { 'x-svc-role': 'reader', 'x-svc-user-id': '10' };

  beforeAll(async () => {
    db = await createTestDatabase('relayapi', `CREATE TABLE shelf (code int PRIMARY KEY, label text, owner int);
      INSERT INTO shelf VALUES (10, 'ten', 10), (20, 'twenty', 10), (30, 'thirty', 99), (40, 'forty', 10);
      CREATE TABLE book (isbn text PRIMARY KEY, title text, shelf int REFERENCES shelf);
      INSERT INTO book VALUES ('b1', 'One', 10), ('b2', 'Two', 10), ('b3', 'Three', 30);`);
    server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false });
    const setup = await post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'shelf' } },
      { type: 'pg_track_table', args: { table: 'book' } },
      { type: 'pg_create_array_relationship', args: { table: 'shelf', name: 'books', using: { foreign_key_constraint_on: { table: 'book', column: 'shelf' } } } },
      // The reader may not read `code`: node ids and cursors still carry it.
      { type: 'pg_create_select_permission', args: { table: 'shelf', role: 'reader', permission: { columns: ['label'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } } },
      { type: 'pg_create_select_permission', args: { table: 'book', role: 'reader', permission: { columns: ['isbn', 'title'], filter: {} } } },
    ] });
    expect(setup).toHaveLength(5);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

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
});
