// The PostgreSQL catalog reader: three catalog queries (types and version, relations, functions)
// plus one statement reading every enum-shaped table, all answered as JSON text and turned into
// one deterministic, plain-JSON Introspection.
import { compileSql, ident, join, param, postgres, raw, sql, type Sql } from '../../runtime/sql/index.js';
import { assert } from '../../runtime/errors/index.js';
import { FUNCTIONS_QUERY, RELATIONS_QUERY, TYPES_QUERY } from './postgres-queries.js';
import {
  bySchemaName, compareText, toFunctions, toTable, toType, type RawFunction, type RawMeta, type RawRelation,
} from './postgres-map.js';
import type { EnumTableValues, IntrospectedColumn, IntrospectedTable, Introspection } from './types.js';

/** The part of a driver the reader needs: run a statement, get rows as arrays. */
export interface CatalogConnection {
  query(text: string, params?: readonly unknown[]): Promise<{ readonly rows: readonly unknown[][] }>;
}

/** Hasura reads at most this many rows of an enum table; the snapshot keeps the same bound. */
export const ENUM_TABLE_ROW_LIMIT = 10_000;

/** Reads the catalog of every user schema (all but the system ones and `svc_catalog`). */
export async function introspectPostgres(db: CatalogConnection): Promise<Introspection> {
  const meta = (await queryJson(db, TYPES_QUERY)) as RawMeta;
  const relations = (await queryJson(db, RELATIONS_QUERY)) as readonly RawRelation[];
  const functions = (await queryJson(db, FUNCTIONS_QUERY)) as readonly RawFunction[];

  const tables = relations.map(toTable).sort(bySchemaName);
  const readable = new Set(relations.filter((r) => r.selectable).map((r) => JSON.stringify([r.schema, r.name])));
  const enumTables = tables.filter((t) => readable.has(JSON.stringify([t.schema, t.name])) && isEnumShaped(t));
  return {
    dialect: 'postgres',
    serverVersion: meta.version,
    schemas: [...meta.schemas].sort(compareText),
    tables,
    functions: toFunctions(functions),
    types: meta.types.map(toType).sort(bySchemaName),
    enumValues: await readEnumTables(db, enumTables),
  };
}

/** Runs a statement answering one row with one JSON cell (text, or already parsed by the driver). */
async function queryJson(db: CatalogConnection, text: string, params: readonly unknown[] = []): Promise<unknown> {
  const { rows } = await db.query(text, params);
  const cell = rows[0]?.[0];
  assert(cell !== undefined && cell !== null, 'catalog query answered no JSON');
  return typeof cell === 'string' ? JSON.parse(cell) : cell;
}

function isTextColumn(c: IntrospectedColumn): boolean {
  return c.typeSchema === 'pg_catalog' && (c.type === 'text' || c.type === 'varchar');
}

/** A table Hasura could use as an enum: a one-column text primary key, at most one more column,
 *  of a text type too (its comment, conventionally named `comment`). */
export function isEnumShaped(t: IntrospectedTable): boolean {
  return t.kind === 'table'
    && t.primaryKey !== null
    && t.primaryKey.columns.length === 1
    && t.columns.length <= 2
    && t.columns.every(isTextColumn);
}

interface RawEnumRows {
  readonly i: number;
  readonly rows: readonly (readonly [string, string | null])[];
}

/** Reads every enum-shaped table in one statement, each capped and sorted by value in byte order. */
async function readEnumTables(db: CatalogConnection, tables: readonly IntrospectedTable[]): Promise<EnumTableValues[]> {
  if (tables.length === 0) return [];
  const entries = tables.map((t, i) => sql`(${param(i, 'int4')}, (${enumRowsQuery(t)}))`);
  const statement = sql`SELECT coalesce(json_agg(json_build_object('i', e.i, 'rows', e.rows) ORDER BY e.i), '[]')::text
FROM (VALUES ${join(entries, ',\n  ')}) AS e(i, rows)`;
  const { text, params } = compileSql(statement, postgres);
  const values = params.map((p) => {
    assert(p.source.kind === 'value', 'enum table query takes only fixed values');
    return p.source.value;
  });
  const answers = (await queryJson(db, text, values)) as readonly RawEnumRows[];
  return answers.map(({ i, rows }) => {
    const t = tables[i];
    assert(t !== undefined, 'enum table answer out of range');
    const sorted = [...rows].sort((a, b) => compareText(a[0], b[0]));
    return { schema: t.schema, name: t.name, values: sorted.map(([value, comment]) => ({ value, comment })) };
  });
}

function enumRowsQuery(t: IntrospectedTable): Sql {
  const keyName = t.primaryKey?.columns[0];
  assert(keyName !== undefined, 'enum-shaped table has a key column');
  const key = ident(keyName);
  const other = t.columns.find((c) => c.name !== keyName);
  const comment = other ? sql`${ident(other.name)}::text` : raw('NULL::text');
  return sql`SELECT coalesce(json_agg(json_build_array(s.v, s.c) ORDER BY s.v COLLATE "C"), '[]')
  FROM (SELECT ${key}::text AS v, ${comment} AS c FROM ${ident(t.schema, t.name)}
        ORDER BY ${key}::text COLLATE "C" LIMIT ${param(ENUM_TABLE_ROW_LIMIT, 'int4')}) AS s`;
}
