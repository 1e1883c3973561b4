// Shared setup of the metadata operation tests: a real database with the corpus' author/article
// schema, its catalog snapshot, and helpers to apply operations and compile the result.
import { introspectPostgres, type Introspection } from '../../compiler/introspect/index.js';
import type { Json, Metadata } from '../../compiler/metadata/index.js';
import { resolveModel } from '../../compiler/model/index.js';
import { applyOperation, emptyMetadata, type OpOutput } from '../../compiler/ops/index.js';
import { createPgDriver } from '../../runtime/drivers/index.js';
import { ApiError, formatPath } from '../../runtime/errors/index.js';
import type { InconsistentObject } from '../../runtime/metadata-api/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

export const SCHEMA = `
create table author (id serial primary key, name text unique, first_name text, last_name text);
create table article (id serial primary key, title text, content text, author_id integer references author(id), is_published boolean);
create function search_articles(search text) returns setof article as $$ select * from article where title ilike ('%' || search || '%') $$ language sql stable;
create function fetch_articles(search text, author_row author) returns setof article as $$ select * from article where author_id = author_row.id $$ language sql stable;
create function full_name(author_row author) returns text as $$ select author_row.first_name || ' ' || author_row.last_name $$ language sql stable;
create table text_result (result text);
create function get_session_var_value(hasura_session json, session_var text) returns setof text_result as $$ select q.* from (values (hasura_session ->> session_var)) q $$ language sql stable;
create table colors (value text primary key, comment text);
insert into colors values ('red', '#f00'), ('green', '#0f0');
create table test1 (id int primary key);
create function test1() returns setof test1 as $$ select * from test1 $$ language sql stable;
create schema hge_tests;
create table hge_tests.resident (id int primary key, name text);
`;

export interface OpsFixture {
  readonly db: TestDatabase;
  readonly catalog: Introspection;
}

export async function openFixture(prefix: string): Promise<OpsFixture> {
  const db = await createTestDatabase(prefix, SCHEMA);
  const driver = createPgDriver({ url: db.url, max: 1 });
  try {
    return { db, catalog: await introspectPostgres(driver) };
  } finally {
    await driver.close();
  }
}

export type Api = 'metadata' | 'query';

/** Applies one operation against the fixture's catalog (as source `default`). */
export function apply(f: OpsFixture, md: Metadata, type: string, args: Json, api: Api = 'metadata', version?: number): OpOutput {
  return applyOperation(md, { type, args, api, ...(version !== undefined ? { version } : {}) }, { default: f.catalog });
}

/** Applies a list of operations, each on the previous document. */
export function applyAll(f: OpsFixture, ops: readonly [string, Json, Api?][], md: Metadata = emptyMetadata()): Metadata {
  return ops.reduce<Metadata>((m, [type, args, api]) => apply(f, m, type, args, api ?? 'query').metadata ?? m, md);
}

export function inconsistencies(f: OpsFixture, md: Metadata): readonly InconsistentObject[] {
  return resolveModel(md, { engineVersion: 'test', introspection: { default: f.catalog } }).inconsistencies;
}

/** The objects inconsistent in `after` but not in `before`. */
export function newInconsistencies(f: OpsFixture, before: Metadata, after: Metadata): readonly InconsistentObject[] {
  const old = new Set(inconsistencies(f, before).map((i) => `${i.type}\u0000${i.name}`));
  return inconsistencies(f, after).filter((i) => !old.has(`${i.type}\u0000${i.name}`));
}

/** The wire error `{path, error, code}` an operation fails with. */
export function failure(run: () => unknown): { path: string; error: string; code: string } {
  try {
    run();
  } catch (e) {
    if (e instanceof ApiError) return { path: formatPath(e.path), error: e.message, code: e.code };
    throw e;
  }
  throw new Error('expected the operation to fail');
}

/** The author/article setup of the corpus (v1/metadata/setup.json), through /v1/query. */
export function blogSetup(f: OpsFixture): Metadata {
  return applyAll(f, [
    ['track_table', { schema: 'public', name: 'author' }],
    ['track_table', { schema: 'public', name: 'article' }],
    ['create_object_relationship', { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
    ['create_array_relationship', { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } }],
  ]);
}
