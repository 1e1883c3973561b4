// The MSSQL catalog reader without a server: the catalog answer of fixtures/chinook-mssql (what
// the catalog query returns for Chinook in dbo) read into the snapshot that `kiln compile
// --introspection fixtures/chinook-mssql/introspection.json` uses. `-u` rewrites the snapshot.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { introspectionFromMssqlCatalog, introspectMssql, mssqlTypeName, type RawMssqlCatalog } from '../../compiler/introspect/mssql.js';
import { MSSQL_CATALOG_QUERY } from '../../compiler/introspect/mssql-query.js';
import { validateTsql } from './tsql.js';

const fixture = join(import.meta.dirname, '../../fixtures/chinook-mssql');
const catalog = JSON.parse(readFileSync(join(fixture, 'catalog.json'), 'utf8')) as RawMssqlCatalog;

describe('MSSQL introspection', () => {
  it('reads the Chinook catalog into the shipped snapshot', async () => {
    const snapshot = introspectionFromMssqlCatalog(catalog);
    await expect(JSON.stringify(snapshot, null, 1) + '\n').toMatchFileSnapshot(join(fixture, 'introspection.json'));
    expect(introspectionFromJson(JSON.parse(JSON.stringify(snapshot)))).toEqual(snapshot);
  });

  it('keeps SQL Server types with their length or precision, identity as by-default, keys and foreign keys', () => {
    const s = introspectionFromMssqlCatalog(catalog);
    expect(s.dialect).toBe('mssql');
    expect(s.tables.every((t) => t.schema === 'dbo')).toBe(true);
    const invoice = s.tables.find((t) => t.name === 'invoice')!;
    const col = (n: string) => invoice.columns.find((c) => c.name === n)!;
    expect(col('invoice_id')).toMatchObject({ type: 'int', typeSchema: 'sys', nullable: false, generated: 'by_default' });
    expect(col('billing_city')).toMatchObject({ type: 'nvarchar(40)', nullable: true, generated: null });
    expect(col('total')).toMatchObject({ type: 'numeric(10,2)' });
    expect(col('invoice_date')).toMatchObject({ type: 'datetime2' });
    expect(invoice.primaryKey).toEqual({ name: 'invoice_pkey', columns: ['invoice_id'] });
    expect(invoice.foreignKeys).toEqual([{ name: 'invoice_customer_id_fkey', columns: ['customer_id'], refSchema: 'dbo', refTable: 'customer', refColumns: ['customer_id'] }]);
    expect(s.tables.find((t) => t.name === 'playlist_track')!.primaryKey!.columns).toEqual(['playlist_id', 'track_id']);
  });

  it('writes type names as SQL Server declares them', () => {
    expect(mssqlTypeName('nvarchar', -1, 0, 0)).toBe('nvarchar(max)');
    expect(mssqlTypeName('nvarchar', 320, 0, 0)).toBe('nvarchar(160)');
    expect(mssqlTypeName('varbinary', 16, 0, 0)).toBe('varbinary(16)');
    expect(mssqlTypeName('decimal', 9, 12, 4)).toBe('decimal(12,4)');
    expect(mssqlTypeName('uniqueidentifier', 16, 0, 0)).toBe('uniqueidentifier');
  });

  it('maps unique keys, views (read-only), defaults, computed columns and comments', () => {
    const s = introspectionFromMssqlCatalog({
      version: '16.0.1000.6', schemas: [{ name: 'sales' }, { name: 'dbo' }],
      tables: [{
        schema: 'sales', name: 'v_orders', kind: 'view', comment: 'orders view', keys: [], foreignKeys: [],
        columns: [{ position: 1, name: 'id', type: 'int', baseType: 'int', typeSchema: 'sys', maxLength: 4, precision: 10, scale: 0, nullable: 0, identity: 0, computed: 0, default: null, comment: null }],
      }, {
        schema: 'dbo', name: 'orders', kind: 'table', comment: null, foreignKeys: [],
        keys: [{ name: 'PK_orders', type: 'PK', columns: [{ name: 'id' }] }, { name: 'UQ_orders_code', type: 'UQ', columns: [{ name: 'code' }] }],
        columns: [
          { position: 2, name: 'code', type: 'code_t', baseType: 'varchar', typeSchema: 'dbo', maxLength: 12, precision: 0, scale: 0, nullable: 1, identity: 0, computed: 0, default: "('x')", comment: 'the code' },
          { position: 1, name: 'id', type: 'bigint', baseType: 'bigint', typeSchema: 'sys', maxLength: 8, precision: 19, scale: 0, nullable: 0, identity: 1, computed: 0, default: null, comment: null },
          { position: 3, name: 'twice', type: 'bigint', baseType: 'bigint', typeSchema: 'sys', maxLength: 8, precision: 19, scale: 0, nullable: 1, identity: 0, computed: 1, default: null, comment: null },
        ],
      }],
    });
    expect(s.schemas).toEqual(['dbo', 'sales']);
    expect(s.serverVersion).toBe('16.0.1000.6');
    expect(s.tables.map((t) => `${t.schema}.${t.name}`)).toEqual(['dbo.orders', 'sales.v_orders']);
    const [orders, view] = s.tables;
    expect(orders!.columns.map((c) => [c.name, c.type, c.default, c.generated, c.comment])).toEqual([
      ['id', 'bigint', null, 'by_default', null], ['code', 'varchar(12)', "('x')", null, 'the code'], ['twice', 'bigint', null, 'stored', null],
    ]);
    expect(orders!.uniqueConstraints).toEqual([{ name: 'UQ_orders_code', columns: ['code'] }]);
    expect(view).toMatchObject({ kind: 'view', comment: 'orders view', mutable: { insertable: false, updatable: false, deletable: false } });
  });

  it('runs one catalog query, a statement the T-SQL parser accepts', async () => {
    const seen: string[] = [];
    const s = await introspectMssql({ queryText: async (text) => { seen.push(text); return JSON.stringify(catalog); } });
    expect(seen).toEqual([MSSQL_CATALOG_QUERY]);
    expect(s.tables).toHaveLength(11);
    for (const view of ['sys.tables', 'sys.views', 'sys.columns', 'sys.types', 'sys.foreign_keys', 'sys.key_constraints', 'sys.index_columns']) {
      expect(MSSQL_CATALOG_QUERY).toContain(view);
    }
    expect(await validateTsql(MSSQL_CATALOG_QUERY)).toEqual([]);
  });
});

describe('Chinook for SQL Server (the live lane loads it)', async () => {
  const { chinookTsql } = await import('./chinook-tsql.js');
  const batches = chinookTsql();

  it('holds every table, the rows in batches of at most 1000, identities and foreign keys, and parses as T-SQL', async () => {
    expect(batches.filter((b) => b.startsWith('CREATE TABLE'))).toHaveLength(11);
    expect(batches.join('\n')).toContain('album_id INT IDENTITY(1,1) NOT NULL');
    expect(batches.join('\n')).not.toMatch(/\bTIMESTAMP\b|[^N]VARCHAR\(/);
    const inserts = batches.filter((b) => b.includes('INSERT INTO'));
    const rows = inserts.reduce((n, b) => n + b.split('\n').filter((l) => l.startsWith('(')).length, 0);
    expect(rows).toBe(15607);
    for (const b of inserts) expect(b.split('\n').filter((l) => l.startsWith('(')).length).toBeLessThanOrEqual(1000);
    expect(batches.filter((b) => b.includes('FOREIGN KEY'))).toHaveLength(11);
    const failures: string[] = [];
    for (const b of batches.filter((x) => !x.includes('INSERT INTO'))) failures.push(...(await validateTsql(b)).map((e) => `${b.slice(0, 40)}: ${e}`));
    expect(failures).toEqual([]);
    expect(await validateTsql(inserts[0]!)).toEqual([]);
  });
});
