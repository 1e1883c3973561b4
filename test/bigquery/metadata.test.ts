// BigQuery sources through the metadata operations (`bigquery_add_source`, `bigquery_track_table`,
// `bigquery_create_*_relationship`, `bigquery_create_select_permission`) against the committed
// Chinook-on-BigQuery snapshot: root fields `<dataset>_<table>`, no `_by_pk`, global_select_limit
// inlined into every role's row limit, and writes, event triggers and bad configurations refused
// with a clear reason.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import type { Json, Metadata } from '../../compiler/metadata/index.js';
import { resolveModel } from '../../compiler/model/index.js';
import { applyOperation, emptyMetadata } from '../../compiler/ops/index.js';
import { ApiError } from '../../runtime/errors/index.js';

const catalog = introspectionFromJson(JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/chinook-bigquery/introspection.json'), 'utf8')));

function run(ops: readonly [string, Json][], md: Metadata = emptyMetadata()): Metadata {
  return ops.reduce<Metadata>((m, [type, args]) => {
    const out = applyOperation(m, { type, args, api: 'metadata' }, { bq: catalog });
    if (!out.metadata) throw new Error(`${type} changed nothing`);
    return out.metadata;
  }, md);
}

const resolve = (md: Metadata) => resolveModel(md, { engineVersion: 'test', introspection: { bq: catalog } });

const CONFIG = { service_account: { from_env: 'BQ_KEY' }, project_id: 'kiln-local', datasets: ['chinook'], global_select_limit: 100 };

const setup = (): Metadata => run([
  ['bigquery_add_source', { name: 'bq', configuration: CONFIG }],
  ['bigquery_track_table', { source: 'bq', table: { dataset: 'chinook', name: 'album' } }],
  ['bigquery_track_table', { source: 'bq', table: { dataset: 'chinook', name: 'artist' } }],
  ['bigquery_create_object_relationship', { source: 'bq', table: { dataset: 'chinook', name: 'album' }, name: 'artist',
    using: { manual_configuration: { remote_table: { dataset: 'chinook', name: 'artist' }, column_mapping: { artist_id: 'artist_id' } } } }],
  ['bigquery_create_array_relationship', { source: 'bq', table: { dataset: 'chinook', name: 'artist' }, name: 'albums',
    using: { manual_configuration: { remote_table: { dataset: 'chinook', name: 'album' }, column_mapping: { artist_id: 'artist_id' } } } }],
  ['bigquery_create_select_permission', { source: 'bq', table: { dataset: 'chinook', name: 'album' }, role: 'user',
    permission: { columns: ['album_id', 'title'], filter: { artist_id: { _eq: 'X-Svc-Artist-Id' } }, limit: 10 } }],
  ['bigquery_create_select_permission', { source: 'bq', table: { dataset: 'chinook', name: 'artist' }, role: 'user',
    permission: { columns: ['name'], filter: {}, limit: 500 } }],
]);

describe('BigQuery metadata operations', () => {
  it('adds a source and tracks tables: kind bigquery, {dataset, name}, manual relationships', () => {
    const md = setup();
    const source = md.sources.find((s) => s.name === 'bq')!;
    expect(source.kind).toBe('bigquery');
    expect(source.tables.map((t) => t.table)).toEqual([{ schema: 'chinook', name: 'album' }, { schema: 'chinook', name: 'artist' }]);
    const r = resolve(md);
    expect(r.inconsistencies.filter((i) => !('name' in i) || i.name !== 'source default')).toEqual([]);
    expect(r.value.sources.find((s) => s.name === 'bq')).toMatchObject({ name: 'bq', dialect: 'bigquery',
      bigquery: { projectId: { kind: 'literal', value: 'kiln-local' }, serviceAccount: { kind: 'env', name: 'BQ_KEY' }, datasets: ['chinook'], globalSelectLimit: 100 } });
  });

  it('names root fields <dataset>_<table> and gives no _by_pk, subscription or mutation fields', () => {
    const r = resolve(setup());
    expect(Object.keys(r.value.roots['admin']!.query).sort()).toEqual(['chinook_album', 'chinook_album_aggregate', 'chinook_artist', 'chinook_artist_aggregate']);
    expect(Object.keys(r.value.roots['user']!.query).sort()).toEqual(['chinook_album', 'chinook_artist']);
    expect(r.value.roots['admin']!.subscription).toEqual({});
    expect(r.value.roots['admin']!.mutation ?? {}).toEqual({});
  });

  it('inlines global_select_limit into every row limit: the smaller of it and the role\'s', () => {
    const r = resolve(setup());
    const album = Object.keys(r.value.tables).find((id) => r.value.tables[id]!.name === 'album')!;
    const artist = Object.keys(r.value.tables).find((id) => r.value.tables[id]!.name === 'artist')!;
    expect(r.value.select['user']![album]!.limit).toBe(10);
    expect(r.value.select['user']![artist]!.limit).toBe(100);
    expect(r.value.select['admin']![album]!.limit).toBe(100);
  });

  it('refuses insert, update and delete permissions and event triggers on a BigQuery table, with a clear reason', () => {
    const md = run([
      ['bigquery_create_insert_permission', { source: 'bq', table: { dataset: 'chinook', name: 'album' }, role: 'user', permission: { columns: ['title'], check: {} } }],
      ['bigquery_create_delete_permission', { source: 'bq', table: { dataset: 'chinook', name: 'album' }, role: 'user', permission: { filter: {} } }],
    ], setup());
    const issues = resolve(md).inconsistencies.filter((i) => i.type !== 'source');
    expect(issues.map((i) => [i.type, 'name' in i ? i.name : '', i.reason])).toEqual([
      ['insert_permission', 'insert_permission user in table chinook.album in source bq',
        'Inconsistent object: insert permissions are not supported on BigQuery source "bq": BigQuery sources serve queries only (no mutations)'],
      ['delete_permission', 'delete_permission user in table chinook.album in source bq',
        'Inconsistent object: delete permissions are not supported on BigQuery source "bq": BigQuery sources serve queries only (no mutations)'],
    ]);
    const withTrigger = structuredClone(md) as unknown as { sources: { name: string; tables: { event_triggers?: unknown[] }[] }[] };
    withTrigger.sources.find((s) => s.name === 'bq')!.tables[0]!.event_triggers = [{ name: 'on_album', definition: { insert: { columns: '*' } }, webhook: 'http://127.0.0.1:1' }];
    const reasons = resolve(withTrigger as unknown as Metadata).inconsistencies.map((i) => i.reason);
    expect(reasons).toContain('Inconsistent object: event triggers are not supported on BigQuery source "bq" (table chinook.album)');
  });

  it('refuses a configuration without a project or with a bad global_select_limit', () => {
    for (const [configuration, words] of [
      [{ datasets: ['chinook'] }, 'configuration.project_id'],
      [{ project_id: 'p', datasets: 'chinook' }, 'configuration.datasets'],
      [{ project_id: 'p', datasets: ['chinook'], global_select_limit: -1 }, 'configuration.global_select_limit'],
    ] as const) {
      const md = run([['bigquery_add_source', { name: 'bq', configuration: configuration as unknown as Json }]]);
      const issues = resolve(md).inconsistencies.filter((i) => 'name' in i && i.name === 'source bq');
      expect(issues).toHaveLength(1);
      expect(issues[0]!.reason).toContain(words);
    }
  });

  it('refuses computed fields and functions on BigQuery, by operation and in a document, with the reason', () => {
    const md = setup();
    // Hasura's BigQuery computed field definition (a table-valued function); refused before its arguments are read.
    for (const [type, args, what] of [
      ['bigquery_add_computed_field', { source: 'bq', table: { dataset: 'chinook', name: 'album' }, name: 'top_tracks',
        definition: { function: { dataset: 'chinook', name: 'top_tracks' }, argument_mapping: { album_id: 'album_id' }, return_table: { dataset: 'chinook', name: 'track' } } }, 'computed fields'],
      ['bigquery_track_function', { source: 'bq', function: { dataset: 'chinook', name: 'top_tracks' } }, 'functions'],
    ] as const) {
      let error: unknown;
      try {
        applyOperation(md, { type, args: args as unknown as Json, api: 'metadata' }, { bq: catalog });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: 'not-supported', path: ['type'] });
      expect((error as ApiError).message).toBe(`${what} are not supported on BigQuery sources: Kiln serves no functions on BigQuery sources (Hasura's BigQuery backend has no function root fields, and its table-valued-function computed fields are not implemented)`);
    }
    // The same objects written into a document are inconsistent objects, each named, and the rest is served.
    const doc = structuredClone(md) as unknown as { sources: { name: string; functions?: unknown[]; tables: { table: { name: string }; computed_fields?: unknown[] }[] }[] };
    const bq = doc.sources.find((s) => s.name === 'bq')!;
    bq.tables.find((t) => t.table.name === 'album')!.computed_fields = [{ name: 'top_tracks', definition: { function: { schema: 'chinook', name: 'top_tracks' } } }];
    bq.functions = [{ function: { schema: 'chinook', name: 'top_tracks' } }];
    const r = resolve(doc as unknown as Metadata);
    const issues = r.inconsistencies.filter((i) => i.type === 'computed_field' || i.type === 'function');
    expect(issues.map((i) => [i.type, 'name' in i ? i.name : ''])).toEqual([
      ['computed_field', 'computed_field top_tracks in table chinook.album in source bq'],
      ['function', 'function chinook.top_tracks in source bq'],
    ]);
    for (const i of issues) expect(i.reason).toContain('not supported on BigQuery source "bq"');
    expect(Object.keys(r.value.roots['admin']!.query)).toContain('chinook_album');
  });
});
