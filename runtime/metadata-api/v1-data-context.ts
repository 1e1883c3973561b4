// What every v1 data operation shares: the model, the table named by `table`, columns by
// database name, how a request value is bound and how a column is printed in the answer.

import type { BundleModel, ColumnModel, RelationshipModel, Session, TableModel } from '../bundle/index.js';
import { ApiError, parseFailed, type ErrorCode, type JsonPath } from '../errors/index.js';
import type { PlanContext } from '../graphql/index.js';
import { binaryNumericText, scalarOutputOf, type Alias, type Cond, type Dialect, type Expr, type JsonValue, type Source } from '../sql/index.js';
import { readTableName } from './v1-data-args.js';

/** One operation being planned. Paths in it are relative to `args`; errors about meaning get `base` in front. */
export interface DataContext {
  readonly model: BundleModel;
  readonly source: string;
  readonly dialect: Dialect;
  readonly stringifyNumeric: boolean;
  /** Where `args` sits in the request (`['args']`). */
  readonly base: JsonPath;
  /** Who asks: admin sees everything; a role sees what its select permissions grant. */
  readonly access: Access;
}

/**
 * The caller. A role carries its session (for the filters' session variables) and the planning
 * context the GraphQL engine's BoolIr lowering reads.
 */
export type Access =
  | { readonly kind: 'admin' }
  | { readonly kind: 'role'; readonly session: Session; readonly plan: PlanContext };

/**
 * An error about what the arguments mean (an unknown table or column), at `at` under `base`.
 * Errors about their shape are thrown by the readers at the bare path, as Hasura's aeson
 * parsers report them (corpus: v1/select/limits: "$.limit", v1/insert/onconflict: "$.on_conflict").
 */
export function fail(ctx: DataContext, code: ErrorCode, message: string, at: JsonPath): ApiError {
  return new ApiError(code, message, 400, [...ctx.base, ...at]);
}

/** The tracked table named by `table` (a name in schema public, or `{schema, name}`). */
export function tableArg(ctx: DataContext, value: unknown, at: JsonPath): TableModel {
  // Hasura reads the key with `.:` (DMLQuery, `_exists`): a missing one is aeson's `key "table" not found`.
  if (value === undefined) throw parseFailed(at.slice(0, -1), `key ${JSON.stringify(String(at[at.length - 1]))} not found`);
  const name = readTableName(value, at);
  const t = ctx.model.tables[`${ctx.source}:${name.schema}.${name.name}`];
  if (!t) throw fail(ctx, 'not-exists', `table ${JSON.stringify(shownName(name))} does not exist`, at);
  return t;
}

/** A column by its database name, or undefined. */
export function columnOf(t: TableModel, name: string): ColumnModel | undefined {
  return t.columns.find((c) => c.name === name);
}

/** A column that must exist: 400 `not-exists` `column "x" does not exist` (Hasura's askColInfo). */
export function requireColumn(ctx: DataContext, t: TableModel, name: string, at: JsonPath): ColumnModel {
  const c = columnOf(t, name);
  if (!c) throw fail(ctx, 'not-exists', `column ${JSON.stringify(name)} does not exist`, at);
  return c;
}

/**
 * A column an answer may show (Hasura's checkPermOnCol): for admin one that exists, for a role one
 * its select permission on `t` grants, whether or not it exists.
 */
export function selectableColumn(ctx: DataContext, t: TableModel, name: string, at: JsonPath): ColumnModel {
  const c = columnOf(t, name);
  if (ctx.access.kind === 'role') {
    const role = ctx.access.session.role;
    if (!c || !ctx.model.select[role]?.[t.id]?.columns.includes(c.name)) {
      throw fail(ctx, 'permission-denied', `role ${JSON.stringify(role)} does not have permission to select column ${JSON.stringify(name)}`, at);
    }
    return c;
  }
  if (!c) throw fail(ctx, 'permission-denied', `no such column exists : ${JSON.stringify(name)}`, at);
  return c;
}

/** The columns `*` stands for: every column for admin, the granted ones (in table order) for a role. */
export function starColumns(ctx: DataContext, t: TableModel): ColumnModel[] {
  if (ctx.access.kind === 'admin') return [...t.columns];
  const granted = ctx.model.select[ctx.access.session.role]?.[t.id]?.columns ?? [];
  return t.columns.filter((c) => granted.includes(c.name));
}

/** How a table is named in messages: bare in schema public, `schema.name` elsewhere (Hasura's QualifiedTable). */
export function shownName(t: { readonly schema: string; readonly name: string }): string {
  return t.schema === 'public' ? t.name : `${t.schema}.${t.name}`;
}

/** A relationship of `t` by name. */
export function relationshipOf(t: TableModel, name: string): RelationshipModel | undefined {
  return t.relationships.find((r) => r.name === name);
}

/** The target table of a relationship. */
export function targetOf(ctx: DataContext, rel: RelationshipModel): TableModel {
  const t = ctx.model.tables[rel.target];
  if (!t) throw new Error(`assertion failed: relationship ${rel.name} points at unknown table ${rel.target}`);
  return t;
}

/** `b.r = a.l AND ...`: the join of a relationship from alias `a` to alias `b`. */
export function joinOn(rel: RelationshipModel, a: Alias, b: Alias): Cond[] {
  return rel.mapping.map(([l, r]) => ({ kind: 'equals', left: { kind: 'column', row: b, column: r }, right: { kind: 'column', row: a, column: l } }));
}

/** A table as a row source. */
export function tableRef(t: TableModel): Source {
  return { kind: 'table', table: { schema: t.schema, name: t.name } };
}

/** Column `c` of the row at `a`. */
export function columnRef(a: Alias, c: ColumnModel): Expr {
  return { kind: 'column', row: a, column: c.name };
}

/** A request value bound as a parameter of `type`. */
export function paramOf(value: unknown, type: string): Expr {
  return { kind: 'param', value: { kind: 'literal', value }, type };
}

function baseType(c: ColumnModel): string {
  return c.type.split('.').pop()!;
}

function isGeo(c: ColumnModel): boolean {
  const b = baseType(c);
  return b === 'geometry' || b === 'geography';
}

/**
 * A request value for column `c`, always a parameter cast to the column's type. JSON columns
 * take the value as is: the binder prints every json/jsonb slot as JSON text (pg would print a JS
 * array as a PostgreSQL array); PostGIS columns take GeoJSON, as Hasura's do.
 */
export function valueFor(c: ColumnModel, v: unknown): Expr {
  if (v === null || v === undefined) return paramOf(null, c.type);
  const b = baseType(c);
  if (b === 'json' || b === 'jsonb') return paramOf(v, c.type);
  if (isGeo(c) && typeof v === 'object') return { kind: 'from_geojson', geojson: paramOf(JSON.stringify(v), 'text'), type: c.type };
  if (typeof v === 'object' && !Array.isArray(v)) return paramOf(JSON.stringify(v), c.type);
  // Hasura binds these values as binary parameters: a JSON number for a numeric column keeps a
  // scale rounded up to a multiple of 4 (`12345.67` is stored as `12345.6700`; numeric-text.ts).
  if (b === 'numeric' && typeof v === 'number') return paramOf(binaryNumericText(v), c.type);
  return paramOf(v, c.type);
}

/** Column `c` of alias `a` as the answer shows it. */
export function columnJson(ctx: DataContext, c: ColumnModel, a: Alias): JsonValue {
  const output = isGeo(c) ? 'geojson' : scalarOutputOf(c.scalar, ctx.stringifyNumeric);
  return { kind: 'scalar', expr: columnRef(a, c), output };
}
