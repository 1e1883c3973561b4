// The management endpoints over a real socket: envelope errors, /v2/query's limits, bulk results,
// run_sql's result shapes and read-only mode, the v1 data operations, dependency errors and
// cascades, reload, clear, and the answers of the deprecated API's own shapes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('metadata and query API operations', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers },
    });
    return { status: res.status, body: await res.json() };
  };
  const gql = async (query: string, headers: Record<string, string> = {}) => (await post('/v1/graphql', { query }, headers)).body;
  const version = async () => (await post('/v1/metadata', { type: 'export_metadata', version: 2, args: {} })).body.resource_version as number;

  beforeAll(async () => {
    server = await serveDatabase('mdops');
    db = server.db;
  });
  afterAll(() => server?.close());

  it('reads the envelope strictly: a non-object body and a missing type are parse-failed at $', async () => {
    expect(await post('/v1/query', '"type: count"')).toEqual({ status: 400, body: { path: '$', error: 'parsing Object failed, expected Object, but encountered String', code: 'parse-failed' } });
    expect(await post('/v1/metadata', { args: {} })).toEqual({ status: 400, body: { path: '$', error: "the key 'type' was not present", code: 'parse-failed' } });
    const unknown = await post('/v1/metadata', { type: 'pg_frobnicate', args: {} });
    expect(unknown.status).toBe(400);
    // Hasura fails the whole request's parse (a `fail` in RQLMetadataV1's parser, no key): path $.
    expect(unknown.body).toEqual({ path: '$', error: 'unknown metadata command "frobnicate" for backend postgres', code: 'parse-failed' });
  });

  it('runs SQL with run_sql: a header row then text values, CommandOk without rows', async () => {
    const r = await post('/v1/query', { type: 'run_sql', args: { sql: `
      CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, active boolean NOT NULL DEFAULT true);
      CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, author_id int NOT NULL REFERENCES author (id));
      INSERT INTO author (name, active) VALUES ('ann', true), ('bob', false);
      SELECT id, name, active, NULL::text AS nothing FROM author ORDER BY id` } });
    expect(r).toEqual({ status: 200, body: { result_type: 'TuplesOk', result: [['id', 'name', 'active', 'nothing'], ['1', 'ann', 't', null], ['2', 'bob', 'f', null]] } });
    expect((await post('/v2/query', { type: 'run_sql', args: { sql: 'UPDATE author SET name = name' } })).body).toEqual({ result_type: 'CommandOk', result: null });
  });

  it('refuses DDL in a read_only run_sql with postgres-error and runs its SELECTs', async () => {
    const ok = await post('/v1/query', { type: 'run_sql', args: { sql: 'SELECT count(*) FROM author', read_only: true } });
    expect(ok.body).toEqual({ result_type: 'TuplesOk', result: [['count'], ['2']] });
    const refused = await post('/v1/query', { type: 'run_sql', args: { sql: 'CREATE TABLE nope (id int)', read_only: true } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('postgres-error');
    expect(await db.query("SELECT to_regclass('public.nope') AS t")).toEqual([{ t: null }]);
  });

  it('refuses a metadata operation on /v2/query', async () => {
    const r = await post('/v2/query', { type: 'track_table', args: { table: 'author' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('parse-failed');
  });

  it('answers bulk with one result per operation, in order', async () => {
    const r = await post('/v1/query', { type: 'bulk', args: [
      { type: 'track_table', args: { table: 'author' } },
      { type: 'track_table', args: { schema: 'public', name: 'article' } },
      { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
      { type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
      { type: 'insert', args: { table: 'article', objects: [{ title: 't1', author_id: 1 }, { title: 't2', author_id: 2 }] } },
      { type: 'count', args: { table: 'article' } },
    ] });
    expect(r).toEqual({ status: 200, body: [
      { message: 'success' }, { message: 'success' }, { message: 'success' }, { message: 'success' }, { affected_rows: 2 }, { count: 2 },
    ] });
    expect(await gql('{ author(order_by: {id: asc}) { name articles { title } } }')).toEqual({ data: { author: [
      { name: 'ann', articles: [{ title: 't1' }] }, { name: 'bob', articles: [{ title: 't2' }] }] } });
  });

  it('dumps the internal state (dump_internal_state): the served document, its version, inconsistencies and what each role reads', async () => {
    await post('/v1/metadata', { type: 'pg_create_select_permission', args: { table: 'article', role: 'reader', permission: { columns: ['title'], filter: {} } } });
    const exported = (await post('/v1/metadata', { type: 'export_metadata', version: 2, args: {} })).body;
    const dump = await post('/v1/metadata', { type: 'dump_internal_state', args: {} });
    expect(dump.status).toBe(200);
    expect(dump.body.resource_version).toBe(exported.resource_version);
    expect(dump.body.metadata).toEqual(exported.metadata);
    expect(dump.body.inconsistent_objects).toEqual([]);
    expect(dump.body.roles).toEqual(['admin', 'reader']);
    const tables = dump.body.sources.find((src: { name: string }) => src.name === 'default').tables;
    expect(tables).toContainEqual({ table: { schema: 'public', name: 'article' }, select_roles: ['admin', 'reader'] });
    expect(tables).toContainEqual({ table: { schema: 'public', name: 'author' }, select_roles: ['admin'] });
    // The deprecated API has it too, alone or in a bulk; it reads only, so the version stays.
    expect((await post('/v1/query', { type: 'dump_internal_state', args: {} })).body.resource_version).toBe(exported.resource_version);
    const bulk = await post('/v1/metadata', { type: 'bulk', args: [{ type: 'dump_internal_state', args: {} }] });
    expect(bulk.body[0].roles).toEqual(['admin', 'reader']);
    expect(await version()).toBe(exported.resource_version);
    // It takes no arguments, and a role that is not admin may not read it.
    expect((await post('/v1/metadata', { type: 'dump_internal_state', args: { verbose: true } })).body.code).toBe('parse-failed');
    const asRole = await post('/v1/metadata', { type: 'dump_internal_state', args: {} }, { 'x-svc-role': 'reader' });
    expect(asRole.status).toBe(400);
    expect(asRole.body.code).toBe('access-denied');
    await post('/v1/metadata', { type: 'pg_drop_select_permission', args: { table: 'article', role: 'reader' } });
  });

  it('selects with the v1 select: nested relationships, where, order_by', async () => {
    const r = await post('/v1/query', { type: 'select', args: {
      table: 'article', columns: ['title', { name: 'author', columns: ['name'] }], where: { author: { active: true } }, order_by: ['-id'] } });
    expect(r).toEqual({ status: 200, body: [{ title: 't1', author: { name: 'ann' } }] });
  });

  it('refuses to drop a relationship a permission uses (dependency-error), and drops both with cascade', async () => {
    expect((await post('/v1/query', { type: 'create_select_permission', args: {
      table: 'article', role: 'reader', permission: { columns: ['title'], filter: { author: { active: { _eq: true } } } } } })).status).toBe(200);
    expect(await gql('{ article { title } }', { 'x-svc-role': 'reader' })).toEqual({ data: { article: [{ title: 't1' }] } });
    const before = await version();
    const refused = await post('/v1/query', { type: 'drop_relationship', args: { table: 'article', relationship: 'author' } });
    expect(refused).toEqual({ status: 400, body: {
      path: '$.args', code: 'dependency-error',
      error: 'cannot drop due to the following dependent objects : permission article.reader.select in source "default"' } });
    expect(await version()).toBe(before);
    const cascaded = await post('/v1/query', { type: 'drop_relationship', args: { table: 'article', relationship: 'author', cascade: true } });
    expect(cascaded).toEqual({ status: 200, body: { message: 'success' } });
    const q = await gql('{ article { title } }', { 'x-svc-role': 'reader' });
    expect(q.errors?.[0]?.extensions?.code).toBe('validation-failed');
  });

  it('keeps run_sql from dropping a column a permission uses unless cascade', async () => {
    await post('/v1/query', { type: 'create_select_permission', args: { table: 'author', role: 'reader', permission: { columns: ['name'], filter: { active: { _eq: true } } } } });
    const refused = await post('/v1/query', { type: 'run_sql', args: { sql: 'ALTER TABLE author DROP COLUMN active' } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('dependency-error');
    expect(refused.body.error).toContain('permission author.reader.select');
    expect(await db.query("SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'author' AND column_name = 'active'")).toEqual([{ n: 1 }]);
    const cascaded = await post('/v1/query', { type: 'run_sql', args: { sql: 'ALTER TABLE author DROP COLUMN active', cascade: true } });
    expect(cascaded.status).toBe(200);
    const md = (await post('/v1/metadata', { type: 'export_metadata', args: {} })).body;
    const author = md.sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'author');
    expect(author.select_permissions ?? []).toEqual([]);
  });

  it('untracks a table a DROP TABLE removed, with what hung off it', async () => {
    await post('/v1/query', { type: 'run_sql', args: { sql: 'CREATE TABLE scratch (id int PRIMARY KEY)' } });
    await post('/v1/query', { type: 'track_table', args: { table: 'scratch' } });
    expect((await gql('{ scratch { id } }')).data).toEqual({ scratch: [] });
    expect((await post('/v1/query', { type: 'run_sql', args: { sql: 'DROP TABLE scratch' } })).status).toBe(200);
    expect((await post('/v1/query', { type: 'get_inconsistent_metadata', args: {} })).body).toEqual([]);
    const md = (await post('/v1/metadata', { type: 'export_metadata', args: {} })).body;
    expect(md.sources[0].tables.map((t: { table: { name: string } }) => t.table.name).sort()).toEqual(['article', 'author']);
  });

  it('reports a table dropped behind its back as inconsistent on reload, and keeps serving the rest', async () => {
    await post('/v1/query', { type: 'run_sql', args: { sql: 'CREATE TABLE shadow (id int PRIMARY KEY)' } });
    await post('/v1/query', { type: 'track_table', args: { table: 'shadow' } });
    await db.exec('DROP TABLE shadow');
    const r = await post('/v1/metadata', { type: 'reload_metadata', args: {} });
    expect(r.status).toBe(200);
    expect(r.body.is_consistent).toBe(false);
    expect(r.body.inconsistent_objects.map((o: { type: string; name: string }) => [o.type, o.name])).toEqual([['table', 'table shadow in source default']]);
    expect((await gql('{ author(order_by: {id: asc}) { name } }')).data.author).toHaveLength(2);
    expect((await post('/v1/metadata', { type: 'drop_inconsistent_metadata', args: {} })).body).toEqual({ message: 'success' });
    expect((await post('/v1/metadata', { type: 'reload_metadata', args: {} })).body).toEqual({ is_consistent: true, message: 'success' });
  });

  it('refuses a remote relationship whose definition names no target', async () => {
    const r = await post('/v1/metadata', { type: 'pg_create_remote_relationship', args: { name: 'x', table: 'author', definition: {} } });
    expect(r.body).toEqual({ path: '$.args.definition', code: 'parse-failed', error: 'expected "to_source" or "to_remote_schema" in the definition' });
  });

  it('forgets everything with clear_metadata but keeps the default source', async () => {
    expect((await post('/v1/metadata', { type: 'clear_metadata', args: {} })).body).toEqual({ message: 'success' });
    const md = (await post('/v1/metadata', { type: 'export_metadata', args: {} })).body;
    expect(md.sources.map((s: { name: string; tables: unknown[] }) => [s.name, s.tables.length])).toEqual([['default', 0]]);
    const q = await gql('{ author { name } }');
    expect(q.errors?.[0]?.extensions?.code).toBe('validation-failed');
  });
});
