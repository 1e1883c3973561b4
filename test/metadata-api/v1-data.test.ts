// The v1 data operations (insert, select, count, update, delete) against a model compiled from
// a real database: answers keyed by column name, Hasura's boolean expressions in both
// spellings, relationships, ordering and paging, and Hasura's error bodies.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { resolveModel } from '../../compiler/model/index.js';
import type { BundleModel, Json } from '../../runtime/bundle/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { ApiError, managementErrorBody } from '../../runtime/errors/index.js';
import { isV1DataType, runV1Data } from '../../runtime/metadata-api/v1-data.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const SETUP = `
CREATE SCHEMA hge;
CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, is_registered boolean NOT NULL DEFAULT false,
  info jsonb, big bigint DEFAULT 7);
CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, content text, author_id int REFERENCES author(id),
  is_published boolean NOT NULL DEFAULT false, tags text[], UNIQUE (title));
CREATE TABLE hge.resident (id serial PRIMARY KEY, "first name" text, age int);
CREATE TABLE untracked (id int);
`;

const METADATA = {
  version: 3,
  sources: [{
    name: 'default', kind: 'postgres', configuration: {},
    tables: [
      { table: { schema: 'public', name: 'author' },
        array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'author_id' } } }],
        select_permissions: [
          { role: 'user', permission: { columns: ['id', 'name', 'is_registered'], filter: {} } },
          // A JSON literal in a filter is bound as JSON text.
          { role: 'vip', permission: { columns: ['id', 'name'], filter: { info: { _contains: { tier: 'gold' } } } } },
        ] },
      { table: { schema: 'public', name: 'article' },
        object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
        select_permissions: [
          { role: 'user', permission: { columns: ['id', 'title', 'author_id', 'is_published'],
            filter: { _or: [{ author_id: { _eq: 'X-Svc-User-Id' } }, { is_published: { _eq: true } }] } } },
          // No permission on author: the relationship is out of reach.
          { role: 'reader', permission: { columns: ['id', 'title'], filter: { is_published: { _eq: true } }, limit: 1 } },
        ] },
      // The v1 API keys by database name, never by the GraphQL field name.
      { table: { schema: 'hge', name: 'resident' }, configuration: { column_config: { 'first name': { custom_name: 'firstName' } } } },
    ],
  }],
};

let db: TestDatabase;
let driver: Driver;
let model: BundleModel;

beforeAll(async () => {
  db = await createTestDatabase('v1data', SETUP);
  driver = createPgDriver({ url: db.url, max: 2 });
  const md = parseMetadata(METADATA);
  expect(md.errors).toEqual([]);
  const resolved = resolveModel(md.value!, { engineVersion: 'test', introspection: { default: await introspectPostgres(driver) } });
  expect(resolved.inconsistencies).toEqual([]);
  // The conformance corpus runs with numbers stringified (reference/schema.md).
  model = { ...resolved.value, options: { stringifyNumeric: true } };
});

afterAll(async () => {
  await driver?.close();
  await db?.drop();
});

const run = (type: string, args: unknown, path: (string | number)[] = ['args']): Promise<Json> =>
  runV1Data(type, args, path, { model, runner: driver, source: 'default' });

/** Runs as `role` with the given session variables (keys lower-case, as the session holds them). */
const runAs = (role: string, variables: Record<string, string>, type: string, args: unknown): Promise<Json> =>
  runV1Data(type, args, ['args'], { model, runner: driver, source: 'default', session: { role, variables, isAdmin: false } });

async function errorBody(p: Promise<unknown>): Promise<{ path: string; error: string; code: string }> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return managementErrorBody(e as ApiError);
  }
  throw new Error('expected a failure');
}

async function reset(): Promise<void> {
  await db.exec(`TRUNCATE article, author, hge.resident RESTART IDENTITY CASCADE`);
  await run('insert', { table: 'author', objects: [
    { name: 'Author 1', is_registered: true }, { name: 'Author 2' }, { name: 'Author 3', is_registered: true }] });
  await run('insert', { table: 'article', objects: [
    { title: 'Article 1', content: 'c1', author_id: 1 },
    { title: 'Article 2', content: 'c2', author_id: 1, is_published: true },
    { title: 'Article 3', content: 'c3', author_id: 2, is_published: false },
    { title: 'Article 4', author_id: 3, is_published: true }] });
}

describe('insert', () => {
  beforeEach(reset);

  it('gives each object DEFAULT for the keys it lacks and answers affected_rows and returning', async () => {
    const res = await run('insert', { table: 'author', objects: [{ name: 'A', big: 12 }, { name: 'B', is_registered: true }],
      returning: ['id', 'name', 'is_registered', 'big'] });
    expect(res).toEqual({ affected_rows: 2, returning: [
      { id: 4, name: 'A', is_registered: false, big: '12' },
      { id: 5, name: 'B', is_registered: true, big: '7' }] });
    expect(await run('insert', { table: 'author', objects: [{ name: 'C' }] })).toEqual({ affected_rows: 1 });
  });

  it('stores JSON, arrays and GeoJSON-free values as given, and names in other schemas', async () => {
    const res = await run('insert', { table: 'author', objects: [{ name: 'J', info: [1, { a: 'b' }] }], returning: ['info'] });
    expect(res).toEqual({ affected_rows: 1, returning: [{ info: [1, { a: 'b' }] }] });
    const art = await run('insert', { table: 'article', objects: [{ title: 'T', tags: ['x', 'y z'] }], returning: ['tags'] });
    expect(art).toEqual({ affected_rows: 1, returning: [{ tags: ['x', 'y z'] }] });
    const r = await run('insert', { table: { schema: 'hge', name: 'resident' }, objects: [{ 'first name': 'Ann', age: 3 }], returning: ['*'] });
    expect(r).toEqual({ affected_rows: 1, returning: [{ id: 1, 'first name': 'Ann', age: 3 }] });
  });

  it('accepts no objects, answering without the database', async () => {
    expect(await run('insert', { table: 'author', objects: [], returning: ['id'] })).toEqual({ affected_rows: 0, returning: [] });
  });

  it('upserts with on_conflict', async () => {
    const up = await run('insert', { table: 'author', objects: [{ id: 1, name: 'Author 1 updated' }],
      on_conflict: { constraint_on: ['id'], action: 'update' }, returning: ['name', 'id'] });
    expect(up).toEqual({ affected_rows: 1, returning: [{ id: 1, name: 'Author 1 updated' }] });
    const ignored = await run('insert', { table: 'article', objects: [{ title: 'Article 1' }],
      on_conflict: { constraint: 'article_title_key', action: 'ignore' }, returning: ['id'] });
    expect(ignored).toEqual({ affected_rows: 0, returning: [] });
  });

  it('answers Hasura\'s errors', async () => {
    expect(await errorBody(run('insert', { table: 'authors', objects: [{ name: 'x' }] })))
      .toEqual({ path: '$.args.table', error: 'table "authors" does not exist', code: 'not-exists' });
    expect(await errorBody(run('insert', { table: 'untracked', objects: [{ id: 1 }] })))
      .toEqual({ path: '$.args.table', error: 'table "untracked" does not exist', code: 'not-exists' });
    expect(await errorBody(run('insert', { table: { schema: 'hge', name: 'nope' }, objects: [] })))
      .toEqual({ path: '$.args.table', error: 'table "hge.nope" does not exist', code: 'not-exists' });
    expect(await errorBody(run('insert', { table: 'author', objects: [{ name: 'a' }, { name: 'b', age: 23 }] })))
      .toEqual({ path: '$.args.objects[1]', error: 'column "age" does not exist', code: 'not-exists' });
    // corpus: v1/insert/onconflict/article_on_conflict_error_missing_article_constraint
    expect(await errorBody(run('insert', { table: 'article', objects: [{ id: 1 }], on_conflict: { action: 'update' }, returning: ['name', 'id'] })))
      .toEqual({ path: '$.args.returning', error: 'no such column exists : "name"', code: 'permission-denied' });
    // corpus: article_on_conflict_no_action_specified, article_unexpected_on_conflict_constraint_error
    expect(await errorBody(run('insert', { table: 'article', objects: [{ id: 1 }], on_conflict: { constraint_on: ['id'] } })))
      .toEqual({ path: '$.on_conflict', error: "the key 'action' was not present", code: 'parse-failed' });
    // The shape of on_conflict is parsed before returning is checked.
    expect(await errorBody(run('insert', { table: 'article', objects: [{ id: 1 }], on_conflict: { constraint_on: ['id'] }, returning: ['name', 'id'] })))
      .toEqual({ path: '$.on_conflict', error: "the key 'action' was not present", code: 'parse-failed' });
    expect(await errorBody(run('insert', { table: 'article', objects: [{ id: 1 }], on_conflict: { constraint_on: ['name'], action: 'update' } })))
      .toEqual({ path: '$.args.on_conflict.constraint_on[0]', error: 'column "name" does not exist', code: 'not-exists' });
    expect(await errorBody(run('insert', { table: 'author' }))).toEqual({ path: '$', error: 'key "objects" not found', code: 'parse-failed' });
    // The database's own errors come through the driver's mapping.
    const dup = await errorBody(run('insert', { table: 'author', objects: [{ id: 1, name: 'dup' }] }));
    expect([dup.code, dup.error]).toEqual(['constraint-violation', 'Uniqueness violation. duplicate key value violates unique constraint "author_pkey"']);
  });
});

describe('select', () => {
  beforeAll(reset);

  it('answers rows keyed by column name, nested relationships by name or alias (corpus: nested_select_query_article_author_rel_alias)', async () => {
    const res = await run('select', { table: 'article', columns: ['id', 'title', { name: 'author', alias: 'author_info', columns: ['id', 'name'] }], order_by: '+id', limit: 2 });
    expect(res).toEqual([
      { id: 1, title: 'Article 1', author_info: { id: 1, name: 'Author 1' } },
      { id: 2, title: 'Article 2', author_info: { id: 1, name: 'Author 1' } }]);
    const all = await run('select', { table: 'author', columns: ['*'], where: { id: 1 } });
    expect(all).toEqual([{ id: 1, name: 'Author 1', is_registered: true, info: null, big: '7' }]);
  });

  it('filters, orders and pages array relationships (corpus: select_author_article_where_lte)', async () => {
    const res = await run('select', { table: 'author', order_by: '-id', where: { id: { $lte: 2 } },
      columns: ['id', 'name', { name: 'articles', order_by: '-id', where: { id: { $gt: 1 } }, columns: ['id', 'title'] }] });
    expect(res).toEqual([
      { id: 2, name: 'Author 2', articles: [{ id: 3, title: 'Article 3' }] },
      { id: 1, name: 'Author 1', articles: [{ id: 2, title: 'Article 2' }] }]);
    const paged = await run('select', { table: 'author', where: { id: 1 },
      columns: ['id', { name: 'articles', columns: ['id'], order_by: [{ column: 'id', type: 'desc' }], limit: 1, offset: 1 }] });
    expect(paged).toEqual([{ id: 1, articles: [{ id: 1 }] }]);
    const empty = await run('select', { table: 'author', where: { name: { $neq: 'Author 1' } },
      columns: ['name', { name: 'articles', where: { is_published: { $neq: false } }, columns: ['id'] }], order_by: ['+id'] });
    expect(empty).toEqual([{ name: 'Author 2', articles: [] }, { name: 'Author 3', articles: [{ id: 4 }] }]);
  });

  it('reads boolean expressions in both spellings, through relationships', async () => {
    const ids = async (where: unknown): Promise<unknown> =>
      ((await run('select', { table: 'article', columns: ['id'], where, order_by: 'id' })) as { id: number }[]).map((r) => r.id);
    expect(await ids({ $and: [{ is_published: true }, { author: { is_registered: true } }] })).toEqual([2, 4]);
    expect(await ids({ _and: [{ is_published: { _eq: true } }, { author: { is_registered: { _eq: true } } }] })).toEqual([2, 4]);
    expect(await ids({ $or: [{ is_published: false }, { author: { is_registered: false } }] })).toEqual([1, 3]);
    expect(await ids({ $not: { id: { $lt: 2 } } })).toEqual([2, 3, 4]);
    expect(await ids({ _not: { id: { _lt: 2 } } })).toEqual([2, 3, 4]);
    expect(await ids({ id: { $in: [1, 3] } })).toEqual([1, 3]);
    expect(await ids({ id: { _nin: [1, 3] } })).toEqual([2, 4]);
    expect(await ids({ content: { $is_null: true } })).toEqual([4]);
    expect(await ids({ title: { $like: '%3' } })).toEqual([3]);
    expect(await ids({ title: { _ilike: 'article 1' } })).toEqual([1]);
    expect(await ids({ id: { $gte: 2, $lte: 3 } })).toEqual([2, 3]);
    expect(await ids({ author_id: { $ceq: 'id' } })).toEqual([1]);
    expect(await ids({ $or: [] })).toEqual([]);
    expect(await ids({})).toEqual([1, 2, 3, 4]);
  });

  it('orders through object relationships, with nulls placement', async () => {
    const res = await run('select', { table: 'article', columns: ['id'],
      order_by: [{ column: 'author.name', type: 'desc' }, { column: 'content', type: 'desc' }, '-id'] });
    expect((res as { id: number }[]).map((r) => r.id)).toEqual([4, 3, 2, 1]);
    const order = async (order_by: unknown): Promise<unknown> =>
      ((await run('select', { table: 'article', columns: ['id'], order_by })) as { id: number }[]).map((r) => r.id);
    expect(await order([{ column: 'content', type: 'asc', nulls: 'first' }])).toEqual([4, 1, 2, 3]);
    expect(await order([{ column: 'content' }])).toEqual([1, 2, 3, 4]);
    expect(await order(['author.is_registered', '+id'])).toEqual([3, 1, 2, 4]);
  });

  it('answers Hasura\'s errors (corpus: v1/select/basic, v1/select/limits)', async () => {
    expect(await errorBody(run('select', { table: 'foobar', columns: ['id'] })))
      .toEqual({ path: '$.args.table', error: 'table "foobar" does not exist', code: 'not-exists' });
    expect(await errorBody(run('select', { table: 'author', columns: ['id', 'name', 'user'] })))
      .toEqual({ path: '$.args.columns[2]', error: 'no such column exists : "user"', code: 'permission-denied' });
    expect(await errorBody(run('select', { table: 'article', columns: ['id'], order_by: '-id', limit: -1 })))
      .toEqual({ path: '$.args.limit', error: 'unexpected negative value', code: 'not-supported' });
    expect(await errorBody(run('select', { table: 'article', columns: ['id'], order_by: '-id', limit: '3' })))
      .toEqual({ path: '$.limit', error: 'parsing Int failed, expected Number, but encountered String', code: 'parse-failed' });
    expect(await errorBody(run('select', { table: 'article', columns: ['id', { name: 'writer', columns: ['id'] }] })))
      .toEqual({ path: '$.args.columns[1].name', error: 'relationship "writer" does not exist', code: 'not-exists' });
    expect(await errorBody(run('select', { table: 'article', columns: ['id'], where: { nope: 1 } })))
      .toEqual({ path: '$.args.where.nope', error: 'column "nope" does not exist', code: 'not-exists' });
    expect(await errorBody(run('select', { table: 'article', columns: ['id'], where: { id: { $near: 1 } } })))
      .toEqual({ path: "$.args.where.id['$near']", error: 'Unknown operator : $near', code: 'unexpected-payload' });
    expect(await errorBody(run('select', { table: 'article' })))
      .toEqual({ path: '$', error: "the key 'columns' was not present", code: 'parse-failed' });
  });
});

describe('count', () => {
  beforeAll(reset);

  it('counts rows, through relationships, and distinct values (corpus: v1/count/basic)', async () => {
    expect(await run('count', { table: 'author' })).toEqual({ count: 3 });
    expect(await run('count', { table: 'article', where: { author: { is_registered: true } } })).toEqual({ count: 3 });
    expect(await run('count', { table: 'article', distinct: ['author_id'], where: { is_published: false } })).toEqual({ count: 2 });
    expect(await errorBody(run('count', { table: 'article', distinct: ['author_name'], where: { is_published: true } })))
      .toEqual({ path: '$.args.distinct[0]', error: 'no such column exists : "author_name"', code: 'permission-denied' });
  });
});

describe('update and delete', () => {
  beforeEach(reset);

  it('updates with $set, $inc and $default, answering affected_rows and returning', async () => {
    const res = await run('update', { table: 'author', where: { id: 1 }, $set: { name: 'Renamed' }, $inc: { big: 2 }, returning: ['id', 'name', 'big'] });
    expect(res).toEqual({ affected_rows: 1, returning: [{ id: 1, name: 'Renamed', big: '9' }] });
    expect(await run('update', { table: 'author', where: { id: { $gt: 1 } }, $default: ['is_registered'] })).toEqual({ affected_rows: 2 });
    expect(await run('count', { table: 'author', where: { is_registered: true } })).toEqual({ count: 1 });
    expect(await errorBody(run('update', { table: 'author', where: {}, $set: { age: 1 } })))
      .toEqual({ path: "$.args['$set']", error: 'column "age" does not exist', code: 'not-exists' });
    expect(await errorBody(run('update', { table: 'author', where: {} })))
      .toEqual({ path: '$.args', error: 'atleast one of $set, $inc, $mul has to be present', code: 'unexpected-payload' });
    expect(await errorBody(run('update', { table: 'author', $set: { name: 'x' } })))
      .toEqual({ path: '$', error: 'key "where" not found', code: 'parse-failed' });
  });

  it('deletes the rows the where selects', async () => {
    const res = await run('delete', { table: 'article', where: { author: { name: 'Author 1' } }, returning: ['id'] });
    expect(res).toEqual({ affected_rows: 2, returning: [{ id: 1 }, { id: 2 }] });
    expect(await run('count', { table: 'article' })).toEqual({ count: 2 });
  });

  it('runs inside the caller\'s transaction', async () => {
    await errorBody(driver.transaction(async (tx) => {
      await runV1Data('delete', { table: 'article', where: {} }, ['args'], { model, runner: tx, source: 'default' });
      expect(await runV1Data('count', { table: 'article' }, ['args'], { model, runner: tx, source: 'default' })).toEqual({ count: 0 });
      throw new ApiError('unexpected', 'roll back');
    }));
    expect(await run('count', { table: 'article' })).toEqual({ count: 4 });
  });
});

describe('select and count under a role\'s select permission', () => {
  beforeAll(async () => {
    await reset();
    await db.exec(`UPDATE author SET info = '{"tier": "gold"}' WHERE id = 3`);
  });
  const user1 = { 'x-svc-user-id': '1' };

  it('applies the filter with its session variable, and `*` is the granted columns (corpus: sql_rename_columns_article)', async () => {
    // Article 1 is user 1's own unpublished one; 3 is someone else's; 2 and 4 are published.
    expect(await runAs('user', user1, 'select', { table: 'article', columns: ['*'], order_by: '+id' })).toEqual([
      { id: 1, title: 'Article 1', author_id: 1, is_published: false },
      { id: 2, title: 'Article 2', author_id: 1, is_published: true },
      { id: 4, title: 'Article 4', author_id: 3, is_published: true }]);
    const ids = async (vars: Record<string, string>, where?: unknown): Promise<unknown> =>
      ((await runAs('user', vars, 'select', { table: 'article', columns: ['id'], order_by: 'id', where })) as { id: number }[]).map((r) => r.id);
    expect(await ids({ 'x-svc-user-id': '2' })).toEqual([2, 3, 4]);
    // The request's where narrows the permitted rows further; it never widens them.
    expect(await ids({ 'x-svc-user-id': '2' }, { is_published: false })).toEqual([3]);
    expect(await ids(user1, { id: 3 })).toEqual([]);
    expect(await runAs('vip', {}, 'select', { table: 'author', columns: ['*'] })).toEqual([{ id: 3, name: 'Author 3' }]);
  });

  it('reads relationships through the target\'s permission, in selections, where and order_by', async () => {
    const res = await runAs('user', user1, 'select', { table: 'author', order_by: '+id',
      columns: ['name', { name: 'articles', columns: ['id', { name: 'author', columns: ['id'] }], order_by: 'id' }] });
    expect(res).toEqual([
      { name: 'Author 1', articles: [{ id: 1, author: { id: 1 } }, { id: 2, author: { id: 1 } }] },
      { name: 'Author 2', articles: [] },
      { name: 'Author 3', articles: [{ id: 4, author: { id: 3 } }] }]);
    // Author 2's only article (3) is hidden from user 1, so no visible article matches.
    const byArticle = await runAs('user', user1, 'select', { table: 'author', columns: ['id'], where: { articles: { id: 3 } } });
    expect(byArticle).toEqual([]);
    expect(await runAs('user', user1, 'select', { table: 'article', columns: ['id'], order_by: ['-author.name', '+id'] }))
      .toEqual([{ id: 4 }, { id: 1 }, { id: 2 }]);
    expect(await errorBody(runAs('user', user1, 'select', { table: 'article', columns: ['id'], order_by: 'author.info' })))
      .toEqual({ path: '$.args.order_by', error: 'role "user" does not have permission to select column "info"', code: 'permission-denied' });
  });

  it('refuses a column not granted: selected, filtered on, ordered by or counted distinct', async () => {
    expect(await errorBody(runAs('user', user1, 'select', { table: 'article', columns: ['id', 'content'] })))
      .toEqual({ path: '$.args.columns[1]', error: 'role "user" does not have permission to select column "content"', code: 'permission-denied' });
    // A column that does not exist at all reads the same to a role.
    expect(await errorBody(runAs('user', user1, 'select', { table: 'article', columns: ['nope'] })))
      .toEqual({ path: '$.args.columns[0]', error: 'role "user" does not have permission to select column "nope"', code: 'permission-denied' });
    expect(await errorBody(runAs('user', user1, 'select', { table: 'article', columns: ['id'], where: { content: 'c1' } })))
      .toEqual({ path: '$.args.where.content', error: 'role "user" does not have permission to select column "content"', code: 'permission-denied' });
    expect(await errorBody(runAs('user', user1, 'select', { table: 'article', columns: ['id'], order_by: '-content' })))
      .toEqual({ path: '$.args.order_by', error: 'role "user" does not have permission to select column "content"', code: 'permission-denied' });
    expect(await errorBody(runAs('user', user1, 'count', { table: 'article', distinct: ['tags'] })))
      .toEqual({ path: '$.args.distinct[0]', error: 'role "user" does not have permission to select column "tags"', code: 'permission-denied' });
  });

  it('refuses a relationship to a table the role cannot read (Hasura\'s fetchRelDet wording)', async () => {
    expect(await errorBody(runAs('reader', {}, 'select', { table: 'article', columns: ['id', { name: 'author', columns: ['name'] }] })))
      .toEqual({ path: '$.args.columns[1]', error: 'role "reader" does not have permission to read relationship "author"; no permission on table "author"', code: 'permission-denied' });
    expect(await errorBody(runAs('reader', {}, 'select', { table: 'article', columns: ['id'], where: { author: { id: 1 } } })))
      .toEqual({ path: '$.args.where.author', error: 'role "reader" does not have permission to read relationship "author"; no permission on table "author"', code: 'permission-denied' });
  });

  it('caps the limit at the permission\'s', async () => {
    const ids = async (limit?: number): Promise<unknown> =>
      ((await runAs('reader', {}, 'select', { table: 'article', columns: ['id'], order_by: '-id', limit })) as { id: number }[]).map((r) => r.id);
    expect(await ids()).toEqual([4]);
    expect(await ids(5)).toEqual([4]);
    expect(await ids(0)).toEqual([]);
    // The user's permission has no limit: a role is not capped by another's.
    expect(await runAs('user', user1, 'select', { table: 'article', columns: ['id'], limit: 5 })).toHaveLength(3);
  });

  it('counts the rows the filter lets the role see; count needs no aggregation grant (corpus: v1/count/permissions)', async () => {
    expect(await runAs('user', user1, 'count', { table: 'article' })).toEqual({ count: 3 });
    expect(await runAs('user', user1, 'count', { table: 'article', where: { is_published: false } })).toEqual({ count: 1 });
    expect(await runAs('user', user1, 'count', { table: 'article', distinct: ['author_id'] })).toEqual({ count: 2 });
    // Without the session variable the filter's comparison reads null: only the published rows.
    expect(await runAs('user', {}, 'count', { table: 'article' })).toEqual({ count: 2 });
  });

  it('asks a select for the session variables its table\'s filter reads (Hasura\'s validateHeaders)', async () => {
    expect(await errorBody(runAs('user', {}, 'select', { table: 'article', columns: ['id'] })))
      .toEqual({ path: '$.args', error: '"x-svc-user-id" header is expected but not found', code: 'not-found' });
  });

  it('refuses a table the role has no select permission on', async () => {
    expect(await errorBody(runAs('reader', {}, 'select', { table: 'author', columns: ['id'] })))
      .toEqual({ path: '$.args', error: 'select on "author" for role "reader" is not allowed. ', code: 'permission-denied' });
    expect(await errorBody(runAs('nobody', {}, 'count', { table: 'article', where: { is_published: false } }))).toEqual({ path: '$.args',
      error: 'select on "article" for role "nobody" is not allowed. ; "count" is only allowed if the role has "select" permissions on the table',
      code: 'permission-denied' });
    expect(await errorBody(runAs('user', user1, 'select', { table: { schema: 'hge', name: 'resident' }, columns: ['id'] })))
      .toEqual({ path: '$.args', error: 'select on "hge.resident" for role "user" is not allowed. ', code: 'permission-denied' });
    // An unknown table is still reported as unknown.
    expect(await errorBody(runAs('user', user1, 'select', { table: 'nope', columns: ['id'] })))
      .toEqual({ path: '$.args.table', error: 'table "nope" does not exist', code: 'not-exists' });
  });

  it('refuses the writes to a role, changing nothing', async () => {
    expect(await errorBody(runAs('user', user1, 'insert', { table: 'article', objects: [{ title: 'x', author_id: 1 }] })))
      .toEqual({ path: '$.args', error: 'insert on "article" for role "user" is not allowed. ', code: 'permission-denied' });
    expect(await errorBody(runAs('user', user1, 'update', { table: 'article', where: {}, $set: { title: 'x' } })))
      .toEqual({ path: '$.args', error: 'update on "article" for role "user" is not allowed. ', code: 'permission-denied' });
    expect(await errorBody(runAs('user', user1, 'delete', { table: 'article', where: {} })))
      .toEqual({ path: '$.args', error: 'delete on "article" for role "user" is not allowed. ', code: 'permission-denied' });
    expect(await run('count', { table: 'article' })).toEqual({ count: 4 });
  });
});

describe('isV1DataType', () => {
  it('knows the five operations', () => {
    expect(['insert', 'select', 'count', 'update', 'delete', 'run_sql'].map(isV1DataType)).toEqual([true, true, true, true, true, false]);
  });
});
