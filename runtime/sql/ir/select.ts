// Selects of the query IR: the JSON shape a GraphQL selection asks for, over rows read under the
// role's permission. A renderer turns them into one SQL expression per root field.

import type { Alias } from '../fragment.js';
import type { AggregateFn, Cond, Expr, Slot, Source } from './scalar.js';

/**
 * The role's select permission on the rows read: its filter and its row limit. Every read of a
 * table carries one, and every renderer writes both (`kiln check` proves it on the IR).
 */
export interface Permission {
  readonly filter: Cond;
  readonly limit: number | null;
  /**
   * Set on the rows of a relationship when `filter` is the role's filter without the conjuncts the
   * parent row at this alias proves (it passed its own filter and the conjunct only asks for it).
   */
  readonly afterParent?: Alias;
}

/** ORDER BY directions; plain `asc` is nulls last and `desc` nulls first, as PostgreSQL and Hasura order. */
export type OrderDir = 'asc_nulls_last' | 'asc_nulls_first' | 'desc_nulls_first' | 'desc_nulls_last';

export interface OrderItem {
  readonly expr: Expr;
  readonly dir: OrderDir;
}

/** The `limit` argument: known when planning, or a variable bound per request. */
export type Limit =
  | { readonly kind: 'literal'; readonly value: number }
  | { readonly kind: 'variable'; readonly name: string };

/** The rows of a list or an aggregate: permitted, filtered, ordered, limited. */
export interface RowSet {
  readonly from: Source;
  /** The alias of one row (every expression over the rows refers to it). */
  readonly row: Alias;
  /** Conditions that tie the rows to their parent (relationship keys) or pick them (primary key). */
  readonly join: readonly Cond[];
  readonly permission: Permission;
  /** The request's `where`, or null. */
  readonly where: Cond | null;
  readonly order: readonly OrderItem[];
  /** DISTINCT ON expressions (checked against the leading order items), or null. */
  readonly distinctOn: readonly Expr[] | null;
  readonly limit: Limit | null;
  readonly offset: Expr | null;
  /**
   * The role's row limit is not applied to these rows: aggregates count every row the role may
   * see (Hasura applies the limit to `nodes` only).
   */
  readonly countsAllRows: boolean;
  /** The table has computed fields, which take the row as the table's row type: no extra columns on it. */
  readonly rowTyped: boolean;
}

/** How a scalar is written into the response JSON. */
export type ScalarOutput = 'json' | 'string' | 'geojson';

export type JsonValue =
  /** A scalar of the row: as JSON, as a JSON string (stringified numbers), as GeoJSON. */
  | { readonly kind: 'scalar'; readonly expr: Expr; readonly output: ScalarOutput }
  /** A constant string that is a GraphQL name (`__typename`). */
  | { readonly kind: 'name'; readonly name: string }
  /** JSON text computed by the engine (introspection), bound as a parameter. */
  | { readonly kind: 'json_text'; readonly value: Slot }
  | JsonObject
  | ObjectSelect
  | ListSelect
  | AggregateSelect;

export interface JsonField {
  readonly key: string;
  readonly value: JsonValue;
}

/** A JSON object of fields, in the order asked. */
export interface JsonObject {
  readonly kind: 'object';
  readonly fields: readonly JsonField[];
}

/** One row as `shape` (object relationship, `_by_pk`, single-row function), or JSON null. */
export interface ObjectSelect {
  readonly kind: 'one';
  readonly from: Source;
  readonly row: Alias;
  readonly join: readonly Cond[];
  readonly permission: Permission;
  readonly shape: JsonObject;
}

/** A JSON array of the rows of `rows`, each as `shape`; `[]` for none. */
export interface ListSelect {
  readonly kind: 'list';
  readonly rows: RowSet;
  readonly shape: JsonObject;
}

/** `<t>_aggregate`: one JSON object over the rows of `rows`. */
export interface AggregateSelect {
  readonly kind: 'aggregate';
  readonly rows: RowSet;
  readonly fields: readonly AggregatePart[];
}

export interface AggregatePart {
  readonly key: string;
  readonly value:
    | { readonly kind: 'name'; readonly name: string }
    /** `nodes`: the rows as `shape`, in the row set's order. */
    | { readonly kind: 'nodes'; readonly shape: JsonObject }
    /** `nodes` as a list of its own (when the role's row limit applies to nodes but not to aggregates). */
    | ListSelect
    /** `aggregate { count sum {..} .. }`. */
    | { readonly kind: 'functions'; readonly fields: readonly AggregateFnField[] };
}

export interface AggregateFnField {
  readonly key: string;
  readonly value:
    | { readonly kind: 'name'; readonly name: string }
    /** count(*) with no columns, else of the columns (distinct or not). */
    | { readonly kind: 'count'; readonly columns: readonly string[]; readonly distinct: boolean }
    | { readonly kind: 'fn'; readonly fn: AggregateFn; readonly fields: readonly AggregateColumn[] };
}

export interface AggregateColumn {
  readonly key: string;
  readonly value: { readonly kind: 'name'; readonly name: string } | { readonly kind: 'column'; readonly column: string; readonly output: ScalarOutput };
}
