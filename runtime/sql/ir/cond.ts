// Boolean conditions of the query IR: the role's permission filters, a request's `where`,
// relationship joins and `_exists`, already resolved against the model (tables, columns,
// functions and row aliases are known; values are slots).

import type { Alias } from '../fragment.js';
import type { Expr, Source } from './expr.js';

/** A comparison of a value with another (Hasura's operator names, without the underscore). */
export type CompareOp =
  | 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte'
  | 'like' | 'nlike' | 'ilike' | 'nilike' | 'similar' | 'nsimilar' | 'regex' | 'nregex' | 'iregex' | 'niregex'
  | 'contains' | 'contained_in' | 'ancestor' | 'descendant' | 'matches';

const COMPARE_OPS: ReadonlySet<string> = new Set<CompareOp>(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'nlike', 'ilike',
  'nilike', 'similar', 'nsimilar', 'regex', 'nregex', 'iregex', 'niregex', 'contains', 'contained_in', 'ancestor', 'descendant', 'matches']);

/** True when `op` names a comparison. */
export function isCompareOp(op: string): op is CompareOp {
  return COMPARE_OPS.has(op);
}

/** The PostGIS predicates of boolean expressions (`_st_intersects` is `intersects`). */
export type SpatialOp = 'contains' | 'crosses' | 'equals' | 'intersects' | 'overlaps' | 'touches' | 'within' | 'd_within';


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
  /**
   * Some row of `from` at `row` satisfies the `join` conditions, the role's `permission` on those
   * rows (null inside a permission filter, which reads what it names) and `where` (relationships,
   * `_exists`, computed tables).
   */
  | { readonly kind: 'exists'; readonly from: Source; readonly row: Alias; readonly join: readonly Cond[]; readonly permission: Cond | null; readonly where: Cond | null };
