import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dependentLabel, dropObjects, emptyMetadata, knowsOperation } from '../../compiler/ops/index.js';
import { apply, applyAll, blogSetup, failure, inconsistencies, openFixture, type OpsFixture } from './helpers.js';

let f: OpsFixture;
beforeAll(async () => { f = await openFixture('ops_sources'); });
afterAll(async () => { await f.db.drop(); });

const pg1 = { name: 'pg1', configuration: { connection_info: { database_url: { from_env: 'PG1_URL' } } } };

describe('sources', () => {
  it('adds, refuses a second one, replaces its configuration, drops and renames (corpus pg_add_source)', () => {
    const md = apply(f, emptyMetadata(), 'pg_add_source', pg1).metadata!;
    expect(md.sources.map((s) => [s.name, s.kind])).toEqual([['default', 'postgres'], ['pg1', 'postgres']]);
    expect(failure(() => apply(f, md, 'pg_add_source', pg1)))
      .toEqual({ path: '$.args', error: 'source with name "pg1" already exists', code: 'already-exists' });
    const replaced = apply(f, md, 'pg_add_source', { ...pg1, configuration: { connection_info: { database_url: 'postgres://x/y' } }, replace_configuration: true });
    expect(replaced.metadata!.sources[1]!.configuration).toEqual({ connection_info: { database_url: 'postgres://x/y' } });
    const dropped = apply(f, md, 'pg_drop_source', { name: 'pg1' });
    expect(dropped.metadata!.sources.map((s) => s.name)).toEqual(['default']);
    expect(dropped.effect).toEqual({ kind: 'drop', cascade: false });
    expect(failure(() => apply(f, dropped.metadata!, 'pg_drop_source', { name: 'pg1' })))
      .toEqual({ path: '$.args', error: 'source with name "pg1" does not exist', code: 'not-exists' });
    const renamed = apply(f, md, 'rename_source', { name: 'pg1', new_name: 'pg2' });
    expect(renamed.metadata!.sources.map((s) => s.name)).toEqual(['default', 'pg2']);
    expect(failure(() => apply(f, md, 'rename_source', { name: 'pg1', new_name: 'default' })).code).toBe('already-exists');
    const ms = apply(f, md, 'mssql_add_source', { name: 'ms1', configuration: { connection_info: { connection_string: { from_env: 'MS' } } } });
    expect(ms.metadata!.sources[2]!.kind).toBe('mssql');
    expect(apply(f, md, 'pg_update_source', { name: 'pg1', customization: { root_fields: { prefix: 'p_' } } }).metadata!.sources[1]!.customization)
      .toEqual({ root_fields: { prefix: 'p_' } });
  });

  it('clear_metadata keeps the default source and nothing in it', () => {
    const md = apply(f, blogSetup(f), 'pg_add_source', pg1).metadata!;
    const cleared = apply(f, md, 'clear_metadata', {}).metadata!;
    expect(cleared).toEqual(emptyMetadata());
  });

  it('dropObjects removes a whole source and an inconsistent table', () => {
    const md = apply(f, blogSetup(f), 'pg_add_source', pg1).metadata!;
    expect(dropObjects(md, [{ type: 'source', name: 'source pg1', definition: null, reason: '' }]).sources.map((s) => s.name)).toEqual(['default']);
    const withMissing = apply(f, md, 'pg_track_table', { table: 'foobar' }).metadata!;
    const issues = inconsistencies(f, withMissing).filter((i) => i.type === 'table');
    expect(issues.map(dependentLabel)).toEqual(['table foobar in source "default"']);
    expect(dropObjects(withMissing, issues)).toEqual(md);
  });
});

describe('the registry', () => {
  it('knows both spellings on their own API only', () => {
    expect(knowsOperation('pg_track_table', 'metadata')).toBe(true);
    expect(knowsOperation('mssql_track_table', 'metadata')).toBe(true);
    expect(knowsOperation('track_table', 'query')).toBe(true);
    expect(knowsOperation('track_table', 'metadata')).toBe(false);
    expect(knowsOperation('pg_track_table', 'query')).toBe(false);
    expect(knowsOperation('clear_metadata', 'query')).toBe(true);
    expect(knowsOperation('mssql_set_table_is_enum', 'metadata')).toBe(false);
  });

  it('refuses an unknown type at $, as Hasura\'s parser does', () => {
    expect(failure(() => apply(f, emptyMetadata(), 'foo', {}))).toEqual({ path: '$', error: 'unknown metadata command "foo"; "foo" was not recognized as a valid backend name', code: 'parse-failed' });
    expect(failure(() => apply(f, emptyMetadata(), 'foo_bar', {})).error).toBe('unknown metadata command "foo_bar"; "foo" was not recognized as a valid backend name');
    expect(failure(() => apply(f, emptyMetadata(), 'pg_frobnicate', {})).error).toBe('unknown metadata command "frobnicate" for backend postgres');
  });

  it('runs the corpus setup of v1/metadata through /v1/query consistently', () => {
    const md = applyAll(f, [
      ['track_table', { schema: 'public', name: 'author' }],
      ['track_table', { schema: 'public', name: 'article' }],
      ['create_object_relationship', { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
      ['create_array_relationship', { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } }, comment: 'List all articles of the author' }],
      ['track_function', { name: 'search_articles', schema: 'public' }],
      ['add_computed_field', { table: 'author', name: 'get_articles', definition: { function: 'fetch_articles', table_argument: 'author_row' } }],
    ]);
    expect(inconsistencies(f, md)).toEqual([]);
  });
});
