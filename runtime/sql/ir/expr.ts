// Scalar expressions and value slots of the query IR. Nothing here is SQL text: a renderer per
// dialect turns these nodes into fragments (runtime/sql/render/<dialect>).

import type { Alias } from '../fragment.js';
import type { Cond } from './cond.js';

/**
 * Where a value comes from. A variable (or a part of one) and a session value are bound per
 * request; a literal is fixed when the plan is made. The type a slot is bound with is the type of
 * what it meets (a column, an argument), so it sits on the `param` expression, not here.
 */
export type Slot =
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'variable'; readonly name: string; readonly path: readonly (string | number)[] }
  | { readonly kind: 'session'; readonly name: string };

/** A schema-qualified database name (a table, a view, a function). */
export interface QualifiedName {
  readonly schema: string;
  readonly name: string;
}

/** The aggregate functions a GraphQL aggregate field may name (Hasura's words). */
export type AggregateFn = 'avg' | 'max' | 'min' | 'sum' | 'stddev' | 'stddev_pop' | 'stddev_samp' | 'var_pop' | 'var_samp' | 'variance';

const AGGREGATE_FNS: ReadonlySet<string> = new Set<AggregateFn>(['avg', 'max', 'min', 'sum', 'stddev', 'stddev_pop', 'stddev_samp', 'var_pop', 'var_samp', 'variance']);

/** True when a GraphQL field name is one of the aggregate functions. */
export function isAggregateFn(name: string): name is AggregateFn {
  return AGGREGATE_FNS.has(name);
}

/** One argument of a function call: by position (`name` null) or by name. */
export interface CallArg {
  readonly name: string | null;
  readonly value: Expr;
}

/** A call of a database function. */
export interface CallExpr {
  readonly kind: 'call';
  readonly fn: QualifiedName;
  readonly args: readonly CallArg[];
}

/** A scalar value computed for one row. */
export type Expr =
  /** A column of the row at `row`. */
  | { readonly kind: 'column'; readonly row: Alias; readonly column: string }
  /** The whole row at `row` (the table argument of a computed field). */
  | { readonly kind: 'row'; readonly row: Alias }
  /** A value slot bound as a parameter of `type` (a catalog type name; null: untyped). */
  | { readonly kind: 'param'; readonly value: Slot; readonly type: string | null }
  /** Every session value of the request as one JSON object (a function's session argument). */
  | { readonly kind: 'session_json' }
  | CallExpr
  /** The value as text (`_cast: {String}`, text operators on other types, stringified numbers). */
  | { readonly kind: 'text'; readonly expr: Expr }
  /** The JSON value at a key path (the `path` argument of a json/jsonb column); `path` is a text[]. */
  | { readonly kind: 'json_path'; readonly expr: Expr; readonly path: Expr }
  | { readonly kind: 'aggregate'; readonly fn: AggregateFn; readonly arg: Expr }
  /** count(*) when `args` is empty, else count of the (tuple of) args, optionally distinct. */
  | { readonly kind: 'count'; readonly args: readonly Expr[]; readonly distinct: boolean }
  /** A spatial value of `type` (`geometry`, `geography`) from GeoJSON text. */
  | { readonly kind: 'from_geojson'; readonly geojson: Expr; readonly type: string }
  /** The number of distinct tuples of `columns` over the rows of `from` at `row` where every `where` holds (nulls count as values). */
  | { readonly kind: 'distinct_count'; readonly from: Source; readonly row: Alias; readonly where: readonly Cond[]; readonly permission: Cond | null; readonly columns: readonly Expr[] }
  /**
   * One value read from other rows: `value` over the rows of `from` at `row` where every `where`
   * and the role's `permission` (null for admin in the v1 API) hold; `single` takes the first row
   * (object relationships), else `value` aggregates them.
   */
  | { readonly kind: 'subquery'; readonly from: Source; readonly row: Alias; readonly where: readonly Cond[]; readonly permission: Cond | null; readonly value: Expr; readonly single: boolean };

/** The rows a select or a subquery reads. */
export type Source =
  | { readonly kind: 'table'; readonly table: QualifiedName }
  /** A set-returning (or single-row) function. */
  | { readonly kind: 'function'; readonly call: CallExpr }
  | WrittenRows
  | ReadThrough;

/** Rows a write part of the statement returned, with the table's columns; `only` keeps those an upsert inserted or updated. */
export interface WrittenRows {
  readonly kind: 'written';
  readonly write: Alias;
  readonly columns: readonly string[];
  readonly only: 'inserted' | 'updated' | null;
}

/**
 * A table as the statement's end state shows it (relationships and checks of nested inserts): its
 * rows at `row`, less those an upsert replaced (by primary key), plus the rows written.
 */
export interface ReadThrough {
  readonly kind: 'read_through';
  readonly table: QualifiedName;
  readonly row: Alias;
  readonly columns: readonly string[];
  readonly primaryKey: readonly string[];
  readonly written: readonly { readonly write: Alias; readonly upsert: boolean }[];
}
