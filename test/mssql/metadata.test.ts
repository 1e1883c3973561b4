// MSSQL sources through the metadata operations, with Hasura's `mssql_` names: add a source
// (connection string as a string or {from_env}, pool settings), track tables of dbo and of another
// schema, relationships and permissions; the names the schema gets (dbo tables keep theirs,
// others are <schema>_<table>) and the scalars (SQL Server types as Hasura's MSSQL backend names them).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBundle } from '../../compiler/emit/index.js';
import { introspectionFromJson, type Introspection } from '../../compiler/introspect/index.js';
import type { Json, Metadata } from '../../compiler/metadata/index.js';
import { resolveModel } from '../../compiler/model/index.js';
import { applyOperation, emptyMetadata } from '../../compiler/ops/index.js';
import { ApiError } from '../../runtime/errors/index.js';

const chinook = introspectionFromJson(JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/chinook-mssql/introspection.json'), 'utf8')));
// One more table, in schema `sales`, with the types Hasura's MSSQL mapping names.
const catalog: Introspection = {
  ...chinook,
  schemas: ['dbo', 'sales'],
  tables: [...chinook.tables, {
    schema: 'sales', name: 'orders', kind: 'table', comment: null, primaryKey: { name: 'PK_orders', columns: ['id'] }, uniqueConstraints: [], foreignKeys: [],
    mutable: { insertable: true, updatable: true, deletable: true },
    columns: [
      ['id', 'bigint'], ['code', 'varchar(12)'], ['paid', 'bit'], ['ratio', 'float'], ['weight', 'real'], ['amount', 'money'], ['ref', 'uniqueidentifier'],
      ['at', 'datetimeoffset'], ['day', 'date'], ['note', 'ntext'], ['raw', 'varbinary(max)'], ['n', 'smallint'], ['price', 'decimal(12,4)'],
    ].map(([name, type], i) => ({ name: name!, position: i + 1, type: type!, typeSchema: 'sys', typeKind: 'base' as const, elementType: null,
      nullable: name !== 'id', default: null, generated: null, comment: null })),
  }],
};

function run(md: Metadata, type: string, args: unknown): Metadata {
  return applyOperation(md, { type, args: args as Json, api: 'metadata' }, { ms: catalog }).metadata ?? md;
}

function fails(md: Metadata, type: string, args: unknown): { code: string; message: string; path: readonly (string | number)[] } {
  try {
    applyOperation(md, { type, args: args as Json, api: 'metadata' }, { ms: catalog });
  } catch (e) {
    if (e instanceof ApiError) return { code: e.code, message: e.message, path: e.path };
    throw e;
  }
  throw new Error(`${type} did not fail`);
}

function setup(connection: unknown): Metadata {
  let md = run(emptyMetadata(), 'mssql_add_source', { name: 'ms', configuration: { connection_info: { connection_string: connection, pool_settings: { max_connections: 7, idle_timeout: 60 } } } });
  md = run(md, 'mssql_track_table', { source: 'ms', table: { schema: 'dbo', name: 'album' } });
  md = run(md, 'mssql_track_table', { source: 'ms', table: { schema: 'dbo', name: 'artist' } });
  md = run(md, 'mssql_track_table', { source: 'ms', table: { schema: 'sales', name: 'orders' } });
  md = run(md, 'mssql_create_object_relationship', { source: 'ms', table: { schema: 'dbo', name: 'album' }, name: 'artist', using: { foreign_key_constraint_on: 'artist_id' } });
  md = run(md, 'mssql_create_array_relationship', { source: 'ms', table: { schema: 'dbo', name: 'artist' }, name: 'albums', using: { foreign_key_constraint_on: { table: { schema: 'dbo', name: 'album' }, column: 'artist_id' } } });
  md = run(md, 'mssql_create_select_permission', { source: 'ms', table: { schema: 'dbo', name: 'album' }, role: 'fan',
    permission: { columns: ['album_id', 'title'], filter: { artist: { name: { _like: 'A%' } } }, limit: 10 } });
  return md;
}

describe('MSSQL sources in metadata', () => {
  it('adds a source with a connection string given as text or from the environment, and pool settings', () => {
    for (const connection of ['Server=127.0.0.1,1433;Database=chinook;Uid=sa;Pwd=secret;Encrypt=false', { from_env: 'KILN_MSSQL_URL' }]) {
      const md = setup(connection);
      const ms = md.sources.find((s) => s.name === 'ms')!;
      expect(ms.kind).toBe('mssql');
      expect(ms.configuration).toEqual({ connection_info: { connection_string: connection, pool_settings: { max_connections: 7, idle_timeout: 60 } } });
      expect(ms.tables.map((t) => `${t.table.schema}.${t.table.name}`)).toEqual(['dbo.album', 'dbo.artist', 'sales.orders']);
    }
    expect(fails(emptyMetadata(), 'mssql_add_source', { name: 'ms' })).toMatchObject({ code: 'parse-failed', path: ['args'] });
  });

  it('names dbo tables bare and others <schema>_<table>, maps SQL Server types as Hasura does, and keeps the permission', () => {
    const md = setup({ from_env: 'KILN_MSSQL_URL' });
    const { value: model, inconsistencies } = resolveModel(md, { engineVersion: 'test', introspection: { ms: catalog, default: chinook } });
    expect(inconsistencies.filter((i) => !i.name.includes('default'))).toEqual([]);
    expect(model.sources.find((s) => s.name === 'ms')).toMatchObject({ dialect: 'mssql', databaseUrl: { kind: 'env', name: 'KILN_MSSQL_URL' } });
    const admin = model.roots['admin']!.query;
    for (const f of ['album', 'album_by_pk', 'album_aggregate', 'artist', 'sales_orders', 'sales_orders_by_pk']) expect(admin[f], f).toBeDefined();
    const orders = model.tables['ms:sales.orders']!;
    expect(Object.fromEntries(orders.columns.map((c) => [c.name, c.scalar]))).toEqual({
      id: 'bigint', code: 'String', paid: 'Boolean', ratio: 'Float', weight: 'real', amount: 'decimal', ref: 'uniqueidentifier',
      at: 'datetimeoffset', day: 'date', note: 'String', raw: 'varbinary', n: 'smallint', price: 'decimal',
    });
    expect(orders.columns.filter((c) => !c.comparable).map((c) => c.name)).toEqual(['paid', 'ref', 'raw']);
    expect(model.tables['ms:dbo.album']!.columns.map((c) => [c.name, c.scalar, c.type])).toEqual([['album_id', 'Int', 'int'], ['title', 'String', 'nvarchar(160)'], ['artist_id', 'Int', 'int']]);
    expect(model.select['fan']!['ms:dbo.album']).toMatchObject({ columns: ['album_id', 'title'], limit: 10 });
  });

  it('compiles the role\'s statement with its filter and row limit in T-SQL', async () => {
    const md = setup({ from_env: 'KILN_MSSQL_URL' });
    const only: Metadata = { ...md, sources: md.sources.filter((s) => s.name === 'ms') };
    const bundle = await buildBundle({ metadata: only, introspection: { ms: catalog }, engineVersion: 'test' });
    expect(bundle.inconsistencies).toEqual([]);
    const sql = bundle.files.get('sql/fan/album.sql')!;
    expect(sql).toContain('-- @p1 = constant 10 :: int');
    expect(sql).toContain('-- @p2 = constant "A%"');
    expect(sql).toMatch(/SELECT TOP \(@p1\) \[_album_1\]\.\[album_id\] AS \[album_id\]/);
    expect(sql).toMatch(/WHERE EXISTS \(\s*SELECT 1\s*FROM \[dbo\]\.\[artist\] AS \[_artist_1\]\s*WHERE \(\[_artist_1\]\.\[artist_id\] = \[_album_1\]\.\[artist_id\]\) AND \(CAST\(\[_artist_1\]\.\[name\] AS nvarchar\(max\)\) LIKE @p2\)\)/);
  });

  it('drops what it made, and knows no PostgreSQL-only operation under the mssql_ prefix', () => {
    let md = setup('Server=x;Database=y');
    md = run(md, 'mssql_drop_select_permission', { source: 'ms', table: { schema: 'dbo', name: 'album' }, role: 'fan' });
    md = run(md, 'mssql_drop_relationship', { source: 'ms', table: { schema: 'dbo', name: 'album' }, relationship: 'artist' });
    md = run(md, 'mssql_untrack_table', { source: 'ms', table: { schema: 'sales', name: 'orders' }, cascade: true });
    const ms = md.sources.find((s) => s.name === 'ms')!;
    expect(ms.tables.map((t) => t.table.name)).toEqual(['album', 'artist']);
    expect(ms.tables[0]!.select_permissions ?? []).toEqual([]);
    expect(fails(md, 'mssql_set_table_is_enum', { source: 'ms', table: { schema: 'dbo', name: 'album' }, is_enum: true }).code).not.toBe('');
    expect(fails(md, 'mssql_track_table', { source: 'ms', table: { schema: 'dbo', name: 'album' } })).toMatchObject({ code: 'already-tracked' });
  });
});
