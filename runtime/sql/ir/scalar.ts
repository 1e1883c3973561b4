// Scalar expressions, value slots, row sources and boolean conditions of the query IR, in one file
// because they nest in each other (subqueries, EXISTS). Nothing here is SQL text: a renderer per
// dialect turns these nodes into fragments (runtime/sql/render/<dialect>).

import type { Alias } from '../fragment.js';
import type { SqlTemplate } from './template.js';

/**
 * Where a value comes from. A variable (or a part of one) and a session value are bound per
 * request; a literal is fixed when the plan is made. The type a slot is bound with is the type of
 * what it meets (a column, an argument), so it sits on the `param` expression, not here.
 */
export type Slot =
  | { readonly kind: 'literal'; readonly value: unknown }
  // `shown`: a number is sent as Haskell shows it (a numeric column's value in a mutation, numeric-text.ts).
  | { readonly kind: 'variable'; readonly name: string; readonly path: readonly (string | number)[]; readonly shown?: true }
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
  /** The value as another type (the v1 API's `$cast`: geometry<->geography, jsonb to text). */
  | { readonly kind: 'cast'; readonly expr: Expr; readonly type: string }
  /** The JSON value at a key path (the `path` argument of a json/jsonb column); `path` is a text[]. */
  | { readonly kind: 'json_path'; readonly expr: Expr; readonly path: Expr }
  | { readonly kind: 'aggregate'; readonly fn: AggregateFn; readonly arg: Expr }
  /** count(*) when `args` is empty, else count of the (tuple of) args, optionally distinct. */
  | { readonly kind: 'count'; readonly args: readonly Expr[]; readonly distinct: boolean }
  /** A spatial value of `type` (`geometry`, `geography`) from GeoJSON text. */
  | { readonly kind: 'from_geojson'; readonly geojson: Expr; readonly type: string }
  /** `expr` where `cond` holds, else NULL (a column an inherited role sees only on some rows). */
  | { readonly kind: 'when'; readonly cond: Cond; readonly expr: Expr }
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
  | TableSource
  | FunctionSource
  | WrittenRows
  | ReadThrough
  /**
   * A root field's precompiled source (runtime/bundle RootTemplate): the table, view or function
   * as its dialect's text, which a renderer completes with the call's arguments; `of` is the
   * source it was made from (what proofs and live-query refetches read).
   */
  | { readonly kind: 'template'; readonly template: SqlTemplate; readonly of: TableSource | FunctionSource };

/** A table or view as a row source. */
export interface TableSource { readonly kind: 'table'; readonly table: QualifiedName }
/** A set-returning (or single-row) function as a row source. */
export interface FunctionSource { readonly kind: 'function'; readonly call: CallExpr }

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

// Boolean conditions: the role's permission filters, a request's `where`, relationship joins and
// `_exists`, already resolved against the model (tables, columns, functions and row aliases are
// known; values are slots).

/** A comparison of a value with another (Hasura's operator names, without the underscore). */
export type CompareOp =
  | 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte'
  | 'like' | 'nlike' | 'ilike' | 'nilike' | 'similar' | 'nsimilar' | 'regex' | 'nregex' | 'iregex' | 'niregex'
  | 'contains' | 'contained_in' | 'ancestor' | 'descendant' | 'matches'
  /** ltree's list and full-text forms (`_ancestor_any`, `_descendant_any`, `_matches_any`, `_matches_fulltext`). */
  | 'ancestor_any' | 'descendant_any' | 'matches_any' | 'matches_fulltext';

const COMPARE_OPS: ReadonlySet<string> = new Set<CompareOp>(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'nlike', 'ilike',
  'nilike', 'similar', 'nsimilar', 'regex', 'nregex', 'iregex', 'niregex', 'contains', 'contained_in', 'ancestor', 'descendant', 'matches',
  'ancestor_any', 'descendant_any', 'matches_any', 'matches_fulltext']);

/** True when `op` names a comparison. */
export function isCompareOp(op: string): op is CompareOp {
  return COMPARE_OPS.has(op);
}

/** The PostGIS predicates of boolean expressions (`_st_intersects` is `intersects`). */
export type SpatialOp = 'contains' | 'crosses' | 'equals' | 'intersects' | 'overlaps' | 'touches' | 'within' | 'd_within'
  /** `_st_3d_intersects`, `_st_3d_d_within` (geometry only). */
  | '3d_intersects' | '3d_d_within';


export type Cond =
  /** No condition; dropped from an `and`. */
  | { readonly kind: 'true' }
  /** A comparison whose operand is null: Hasura v2 treats it as no condition, written where it stands. */
  | { readonly kind: 'no_condition' }
  | { readonly kind: 'and'; readonly items: readonly Cond[] }
  | { readonly kind: 'or'; readonly items: readonly Cond[] }
  | { readonly kind: 'not'; readonly item: Cond }
  /** A join key or a primary-key lookup: `left = right`. */
  | { readonly kind: 'equals'; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'compare'; readonly left: Expr; readonly op: CompareOp; readonly right: Expr }
  | { readonly kind: 'is_null'; readonly expr: Expr; readonly isNull: boolean }
  /** The row at `row` is not a row of nulls (what a single-row function gives for "no row"). */
  | { readonly kind: 'row_present'; readonly row: Alias }
  /** `_is_null` with a value known per request only (a variable or a session value). */
  | { readonly kind: 'is_null_is'; readonly expr: Expr; readonly value: Expr }
  /** `left` in (or not in) the array `list`. */
  | { readonly kind: 'in'; readonly left: Expr; readonly negated: boolean; readonly list: Expr }
  /** `left` in (or not in) a list of values, each its own expression (never empty). */
  | { readonly kind: 'in_list'; readonly left: Expr; readonly negated: boolean; readonly items: readonly Expr[] }
  /** `_in` on an array column: `list` is a JSON array whose items are arrays of `itemType`. */
  | { readonly kind: 'in_arrays'; readonly left: Expr; readonly negated: boolean; readonly list: Expr; readonly itemType: string }
  /** jsonb `_has_key` (one), `_has_keys_any`, `_has_keys_all`. */
  | { readonly kind: 'has_key'; readonly left: Expr; readonly mode: 'one' | 'any' | 'all'; readonly value: Expr }
  /** `_st_d_within` (with `distance`, and `spheroid` when given) or another PostGIS predicate of `left` and `operand`. */
  | { readonly kind: 'spatial'; readonly op: SpatialOp; readonly left: Expr; readonly operand: Expr; readonly distance: Expr | null; readonly spheroid: Expr | null }
  /** Raster `ST_Intersects(left, args...)`: with a raster, or a geometry and a band in either order. */
  | { readonly kind: 'raster_intersects'; readonly left: Expr; readonly args: readonly Expr[] }
  /**
   * Some row of `from` at `row` satisfies the `join` conditions, the role's `permission` on those
   * rows (null inside a permission filter, which reads what it names) and `where` (relationships,
   * `_exists`, computed tables).
   */
  | { readonly kind: 'exists'; readonly from: Source; readonly row: Alias; readonly join: readonly Cond[]; readonly permission: Cond | null; readonly where: Cond | null }
  /**
   * A role's permission predicate precompiled for the source's dialect (the bundle's template),
   * on the row at `row` (and `root` for root references): the renderer only fills its slots in.
   */
  | { readonly kind: 'template'; readonly template: SqlTemplate; readonly row: Alias; readonly root: Alias };
