import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dependentLabel, dropObjects, emptyMetadata } from '../../compiler/ops/index.js';
import { apply, applyAll, blogSetup, failure, inconsistencies, newInconsistencies, openFixture, type OpsFixture } from './helpers.js';

let f: OpsFixture;
beforeAll(async () => { f = await openFixture('ops_tables'); });
afterAll(async () => { await f.db.drop(); });

describe('track_table', () => {
  it('tracks a table in each accepted spelling', () => {
    const forms: [string, unknown, 'metadata' | 'query'][] = [
      ['pg_track_table', { table: 'author' }, 'metadata'],
      ['pg_track_table', { table: { schema: 'public', name: 'author' }, source: 'default' }, 'metadata'],
      ['track_table', { schema: 'public', name: 'author' }, 'query'],
      ['track_table', { table: 'author' }, 'query'],
      ['add_existing_table_or_view', 'author', 'query'],
    ];
    for (const [type, args, api] of forms) {
      const r = apply(f, emptyMetadata(), type, args as never, api);
      expect(r.metadata!.sources[0]!.tables).toEqual([{ table: { schema: 'public', name: 'author' } }]);
      expect(r.effect).toEqual({ kind: 'create', object: { type: 'table', name: 'table author in source default' } });
    }
  });

  it('keeps is_enum and a version 2 configuration', () => {
    const md = applyAll(f, [['track_table', { table: 'colors', is_enum: true }]]);
    expect(md.sources[0]!.tables).toEqual([{ table: { schema: 'public', name: 'colors' }, is_enum: true }]);
    const v2 = apply(f, emptyMetadata(), 'track_table', { table: 'author', configuration: { custom_name: 'writer', custom_column_names: { first_name: 'firstName' } } }, 'query', 2);
    expect(v2.metadata!.sources[0]!.tables[0]!.configuration).toEqual({
      custom_name: 'writer', custom_column_names: { first_name: 'firstName' }, column_config: { first_name: { custom_name: 'firstName' } },
    });
  });

  it('names a table outside public with its schema', () => {
    const r = apply(f, emptyMetadata(), 'pg_track_table', { table: { schema: 'hge_tests', name: 'resident' } });
    expect(r.effect).toEqual({ kind: 'create', object: { type: 'table', name: 'table hge_tests.resident in source default' } });
    expect(inconsistencies(f, r.metadata!)).toEqual([]);
  });

  it('refuses a tracked table, a table named like a tracked function, an unknown source', () => {
    const md = blogSetup(f);
    expect(failure(() => apply(f, md, 'track_table', { schema: 'public', name: 'author' }, 'query')))
      .toEqual({ path: '$.args', error: 'view/table already tracked : "author"', code: 'already-tracked' });
    const withFn = applyAll(f, [['track_function', { schema: 'public', name: 'test1' }]]);
    expect(failure(() => apply(f, withFn, 'track_table', { schema: 'public', name: 'test1' }, 'query')))
      .toEqual({ path: '$.args', error: 'function with name "test1" already exists', code: 'not-supported' });
    expect(failure(() => apply(f, md, 'pg_track_table', { table: 'author', source: 'pg1' })))
      .toEqual({ path: '$.args', error: 'source with name "pg1" does not exist', code: 'not-exists' });
  });

  it('leaves a table missing from the database to the compile, which reports it as Hasura does', () => {
    const r = apply(f, emptyMetadata(), 'pg_track_table', { table: 'foobar' });
    expect(inconsistencies(f, r.metadata!)).toEqual([{
      definition: { schema: 'public', name: 'foobar' }, reason: 'Inconsistent object: no such table/view exists in source: "foobar"',
      name: 'table foobar in source default', type: 'table',
    }]);
  });

  it('reports argument problems with paths relative to args on /v1/query', () => {
    expect(failure(() => apply(f, emptyMetadata(), 'track_table', { table: '' }, 'query')))
      .toEqual({ path: '$.table', error: 'empty string not allowed', code: 'parse-failed' });
    expect(failure(() => apply(f, emptyMetadata(), 'pg_track_table', { table: '' })))
      .toEqual({ path: '$.args.table', error: 'empty string not allowed', code: 'parse-failed' });
  });

  it('tracks several tables with pg_track_tables', () => {
    const r = apply(f, emptyMetadata(), 'pg_track_tables', { tables: [{ table: 'author' }, { table: 'article' }] });
    expect(r.metadata!.sources[0]!.tables.map((t) => t.table.name)).toEqual(['author', 'article']);
    expect(failure(() => apply(f, r.metadata!, 'pg_track_tables', { tables: [{ table: 'colors' }, { table: 'author' }] })))
      .toEqual({ path: '$.args.tables[1]', error: 'view/table already tracked : "author"', code: 'already-tracked' });
  });
});

describe('untrack_table', () => {
  it('refuses a table that is not tracked', () => {
    expect(failure(() => apply(f, emptyMetadata(), 'untrack_table', { table: { schema: 'public', name: 'author' } }, 'query')))
      .toEqual({ path: '$.args', error: 'view/table already untracked : "author"', code: 'already-untracked' });
  });

  it('makes the relationships into it dependents, which a cascade drops', () => {
    const md = blogSetup(f);
    const r = apply(f, md, 'untrack_table', { table: 'author' }, 'query');
    expect(r.effect).toEqual({ kind: 'drop', cascade: false });
    const deps = newInconsistencies(f, md, r.metadata!);
    expect(deps).toEqual([{
      type: 'object_relation', name: 'object_relation author in table article in source default',
      definition: { using: { foreign_key_constraint_on: 'author_id' }, name: 'author', source: 'default', comment: null, table: { schema: 'public', name: 'article' } },
      reason: 'Inconsistent object: table "author" is not tracked',
    }]);
    expect(deps.map(dependentLabel)).toEqual(['relationship article.author in source "default"']);
    expect(apply(f, md, 'pg_untrack_table', { table: 'author', cascade: true }).effect).toEqual({ kind: 'drop', cascade: true });
    const cascaded = dropObjects(r.metadata!, deps);
    expect(inconsistencies(f, cascaded)).toEqual([]);
    expect(cascaded.sources[0]!.tables).toEqual([{ table: { schema: 'public', name: 'article' } }]);
  });

  it('makes a function returning the table a dependent', () => {
    const md = applyAll(f, [['track_function', { schema: 'public', name: 'search_articles' }]], blogSetup(f));
    const r = apply(f, md, 'untrack_table', { table: 'article' }, 'query');
    const labels = newInconsistencies(f, md, r.metadata!).map(dependentLabel);
    expect(labels).toContain('relationship author.articles in source "default"');
    expect(labels).toContain('function search_articles in source "default"');
  });
});

describe('table settings', () => {
  it('sets is_enum, and a table that cannot be an enum is inconsistent under its own name', () => {
    const md = applyAll(f, [['track_table', { table: 'colors' }]]);
    const r = apply(f, md, 'set_table_is_enum', { table: 'colors', is_enum: true }, 'query');
    expect(r.metadata!.sources[0]!.tables[0]!.is_enum).toBe(true);
    expect(r.effect).toEqual({ kind: 'create', object: { type: 'table', name: 'table colors in source default' } });
    const off = apply(f, r.metadata!, 'pg_set_table_is_enum', { table: 'colors', is_enum: false });
    expect(off.metadata!.sources[0]!.tables[0]).toEqual({ table: { schema: 'public', name: 'colors' } });
    const bad = apply(f, applyAll(f, [['track_table', { table: 'author' }]]), 'set_table_is_enum', { table: 'author', is_enum: true }, 'query');
    expect(inconsistencies(f, bad.metadata!).map((i) => [i.type, i.name])).toEqual([['table', 'table author in source default']]);
  });

  it('refuses customizing a table that is not tracked', () => {
    expect(failure(() => apply(f, blogSetup(f), 'set_table_customization', { table: 'author1', configuration: {} }, 'query')))
      .toEqual({ path: '$.args', error: 'table "author1" does not exist in source: default', code: 'not-exists' });
    expect(failure(() => apply(f, blogSetup(f), 'set_table_custom_fields', { table: 'author1', custom_root_fields: {} }, 'query', 2)))
      .toEqual({ path: '$.args', error: 'table "author1" does not exist in source: default', code: 'not-exists' });
  });

  it('a custom column name that collides with a relationship makes the relationship inconsistent (corpus conflict_with_relationship)', () => {
    const md = blogSetup(f);
    const r = apply(f, md, 'set_table_customization', { table: 'author', configuration: { custom_column_names: { name: 'articles' } } }, 'query');
    // The operation names the table (Hasura's buildSchemaCacheFor): the relationship made inconsistent is another object,
    // so the metadata API answers "cannot continue due to new inconsistent metadata".
    expect(r.effect).toEqual({ kind: 'create', object: { type: 'table', name: 'table author in source default' } });
    expect(newInconsistencies(f, md, r.metadata!)).toEqual([{
      type: 'array_relation', name: 'array_relation articles in table author in source default',
      definition: {
        using: { foreign_key_constraint_on: { column: 'author_id', table: { schema: 'public', name: 'article' } } },
        name: 'articles', source: 'default', comment: null, table: { schema: 'public', name: 'author' },
      },
      reason: 'Inconsistent object: field definition conflicts with custom field name for postgres column "name"',
    }]);
    const v2 = apply(f, md, 'set_table_custom_fields', { table: 'author', custom_column_names: { name: 'articles' } }, 'query', 2);
    expect(newInconsistencies(f, md, v2.metadata!).map((i) => i.name)).toEqual(['array_relation articles in table author in source default']);
  });
});
