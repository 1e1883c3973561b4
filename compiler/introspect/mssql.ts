// The SQL Server catalog reader: one catalog query (mssql-query.ts) answered as JSON text, turned
// into the same deterministic Introspection the PostgreSQL reader produces. Built-in types keep
// SQL Server's names with their length or precision (`nvarchar(160)`, `numeric(10,2)`), schema `sys`.

import { MSSQL_CATALOG_QUERY } from './mssql-query.js';
import type { IntrospectedColumn, IntrospectedTable, Introspection } from './types.js';

/** The part of a driver the reader needs: one statement whose single value is text. */
export interface MssqlCatalogConnection {
  queryText(text: string, params: readonly unknown[]): Promise<string>;
}

/** The catalog as the query answers it. */
export interface RawMssqlCatalog {
  readonly version: string | null;
  readonly schemas: readonly { readonly name: string }[];
  readonly tables: readonly RawMssqlTable[];
}

interface RawMssqlTable {
  readonly schema: string;
  readonly name: string;
  readonly kind: 'table' | 'view';
  readonly comment: string | null;
  readonly columns: readonly RawMssqlColumn[];
  readonly keys: readonly { readonly name: string; readonly type: string; readonly columns: readonly { readonly name: string }[] }[];
  readonly foreignKeys: readonly {
    readonly name: string; readonly refSchema: string; readonly refTable: string;
    readonly columns: readonly { readonly column: string; readonly refColumn: string }[];
  }[];
}

interface RawMssqlColumn {
  readonly position: number;
  readonly name: string;
  readonly type: string;
  readonly baseType: string | null;
  readonly typeSchema: string;
  readonly maxLength: number;
  readonly precision: number;
  readonly scale: number;
  readonly nullable: boolean | 0 | 1;
  readonly identity: boolean | 0 | 1;
  readonly computed: boolean | 0 | 1;
  readonly default: string | null;
  readonly comment: string | null;
}

/** Reads a live SQL Server catalog (every user schema) into an Introspection snapshot. */
export async function introspectMssql(db: MssqlCatalogConnection): Promise<Introspection> {
  const text = await db.queryText(MSSQL_CATALOG_QUERY, []);
  return introspectionFromMssqlCatalog(JSON.parse(text) as RawMssqlCatalog);
}

/** The snapshot of a catalog as the catalog query answers it (pure; tested without a server). */
export function introspectionFromMssqlCatalog(raw: RawMssqlCatalog): Introspection {
  const tables = raw.tables.map(toTable).sort((a, b) => compare(a.schema, b.schema) || compare(a.name, b.name));
  return {
    dialect: 'mssql',
    ...(raw.version ? { serverVersion: raw.version } : {}),
    schemas: raw.schemas.map((s) => s.name).sort(compare),
    tables,
    // Hasura's MSSQL backend tracks no functions and no enum tables.
    functions: [],
    types: [],
    enumValues: [],
  };
}

function toTable(t: RawMssqlTable): IntrospectedTable {
  const pk = t.keys.find((k) => k.type === 'PK');
  const writable = t.kind === 'table';
  return {
    schema: t.schema, name: t.name, kind: t.kind, comment: t.comment ?? null,
    columns: [...t.columns].sort((a, b) => a.position - b.position).map(toColumn),
    primaryKey: pk ? { name: pk.name, columns: pk.columns.map((c) => c.name) } : null,
    uniqueConstraints: t.keys.filter((k) => k.type === 'UQ').map((k) => ({ name: k.name, columns: k.columns.map((c) => c.name) })),
    foreignKeys: t.foreignKeys.map((fk) => ({
      name: fk.name, columns: fk.columns.map((c) => c.column), refSchema: fk.refSchema, refTable: fk.refTable,
      refColumns: fk.columns.map((c) => c.refColumn),
    })),
    // Views are read-only here: SQL Server's rules for writing through a view are not read.
    mutable: { insertable: writable, updatable: writable, deletable: writable },
  };
}

function toColumn(c: RawMssqlColumn): IntrospectedColumn {
  return {
    name: c.name, position: c.position, type: mssqlTypeName(c.baseType ?? c.type, c.maxLength, c.precision, c.scale),
    typeSchema: 'sys', typeKind: 'base', elementType: null, nullable: !!c.nullable,
    default: c.computed ? null : c.default ?? null,
    // An IDENTITY column takes an explicit value only under IDENTITY_INSERT: written as by-default.
    generated: c.identity ? 'by_default' : c.computed ? 'stored' : null,
    comment: c.comment ?? null,
  };
}

const BYTE_LENGTH = new Set(['char', 'varchar', 'binary', 'varbinary']);
const CHAR_LENGTH = new Set(['nchar', 'nvarchar']);

/** `nvarchar(160)`, `varchar(max)`, `numeric(10,2)`, `int`: a type as SQL Server declares it. */
export function mssqlTypeName(base: string, maxLength: number, precision: number, scale: number): string {
  if (BYTE_LENGTH.has(base)) return `${base}(${maxLength === -1 ? 'max' : maxLength})`;
  if (CHAR_LENGTH.has(base)) return `${base}(${maxLength === -1 ? 'max' : maxLength / 2})`;
  if (base === 'decimal' || base === 'numeric') return `${base}(${precision},${scale})`;
  return base;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
