// Writes of the query IR: one statement of data-modifying parts (CTEs), guards the database
// evaluates on the written rows, and the response JSON built from those rows.

import type { Alias } from '../fragment.js';
import type { Cond, Expr, QualifiedName, Slot, WrittenRows } from './scalar.js';
import type { JsonObject, JsonValue } from './select.js';
import type { SqlTemplate } from './template.js';

/** A new column value of an update: an operator applied to the current value (or a plain value for `_set`). */
export type UpdateOp = 'inc' | 'mul' | 'append' | 'prepend' | 'delete_key' | 'delete_elem' | 'delete_at_path';

/** `column = value`. */
export interface Assignment {
  readonly column: string;
  readonly value: WriteExpr;
}

/** Values a write may use besides scalar expressions. */
export type WriteExpr =
  | Expr
  /** A column of the row a named write part produced (a nested insert's parent or child key). */
  | { readonly kind: 'written_value'; readonly write: Alias; readonly column: string }
  /** The value the conflicting insert proposed (`EXCLUDED.col`). */
  | { readonly kind: 'excluded'; readonly column: string }
  | { readonly kind: 'update_op'; readonly op: UpdateOp; readonly current: WriteExpr; readonly value: Expr }
  /** The column's default (an insert cell the input leaves out). */
  | { readonly kind: 'default' };

/** An upsert: on a conflict (with a named constraint, on columns, or any), nothing, or an update of the conflicting row. */
export interface Conflict {
  readonly target: { readonly kind: 'constraint'; readonly name: string } | { readonly kind: 'columns'; readonly columns: readonly string[] } | null;
  /**
   * Null: DO NOTHING. Else the update, where the role's update filter (null for admin) and the
   * request's `where` must hold.
   */
  readonly update: { readonly set: readonly Assignment[]; readonly permission: Cond | null; readonly where: Cond | null } | null;
}

/**
 * The table an insert, update or delete writes as the mutation root field's precompiled template
 * renders it (runtime/bundle MutationTemplate.target): a renderer names it in place of `table`, so
 * the table engine.mjs holds is the one written. `table` stays the table it was made from (what
 * proofs read, and the row type of kept rows). Absent: a statement planned without a template.
 */
export interface WrittenTable {
  readonly template?: SqlTemplate;
}

/** A data-modifying part; every one but `none` and `union` returns the rows it wrote with all their columns. */
export type WriteBody =
  /**
   * INSERT of `rows` (cells in `columns` order); `columns` empty inserts defaults. With a conflict
   * the rows say whether they were inserted (else updated).
   */
  | { readonly kind: 'insert'; readonly table: QualifiedName; readonly target: Alias; readonly columns: readonly string[];
      readonly rows: readonly (readonly WriteExpr[])[]; readonly conflict: Conflict | null; readonly firstColumn: string;
      /** A column of `columns` is an IDENTITY that takes a value only under IDENTITY_INSERT (SQL Server). */
      readonly identityInsert?: true } & WrittenTable
  /** UPDATE of the rows where the role's filter and the selector hold. */
  | { readonly kind: 'update'; readonly table: QualifiedName; readonly row: Alias; readonly set: readonly Assignment[]; readonly permission: Cond; readonly selector: Cond } & WrittenTable
  | { readonly kind: 'delete'; readonly table: QualifiedName; readonly row: Alias; readonly permission: Cond; readonly selector: Cond } & WrittenTable
  /** Writes nothing: no row of `table` (an insert of no object, an update that sets nothing). */
  | { readonly kind: 'none'; readonly table: QualifiedName }
  /** The rows of several earlier parts together. */
  | { readonly kind: 'union'; readonly parts: readonly Alias[]; readonly columns: readonly string[] }
  /**
   * Rows an earlier statement wrote, given back (`value`: the JSON array `kept_rows` answered for
   * this part): a statement that reads after the writes (kept.ts). `flagged`: the rows say whether
   * an upsert inserted them.
   */
  | { readonly kind: 'restored'; readonly table: QualifiedName; readonly flagged: boolean; readonly value: Slot };

/** A write part whose rows a statement answers as `kept_rows`: its table's columns, in order. */
export interface KeptWrite {
  readonly write: Alias;
  readonly table: QualifiedName;
  readonly columns: readonly string[];
  readonly flagged: boolean;
}

export interface Write {
  readonly name: Alias;
  readonly body: WriteBody;
}

/** What must hold for the statement to commit (its error is the planner's, in the same order). */
export type Guard =
  /** The write part wrote exactly one row (a nested insert's parent or row). */
  | { readonly kind: 'one_row'; readonly write: Alias }
  /** `check` holds on every row of `rows` (at `row`): an insert or update check. */
  | { readonly kind: 'all_rows'; readonly rows: WrittenRows; readonly row: Alias; readonly check: Cond };

/** JSON values of a mutation response besides the selects. */
export type MutationJson =
  | JsonValue
  /** The number of rows the write parts wrote, summed. */
  | { readonly kind: 'affected'; readonly writes: readonly Alias[] }
  /** The written rows as a JSON array (`returning`), or the first as an object (`_one`, `_by_pk`); no permission filter: they are the rows the role wrote. */
  | { readonly kind: 'returning'; readonly rows: WrittenRows; readonly row: Alias; readonly shape: JsonObject; readonly single: boolean }
  | { readonly kind: 'response'; readonly fields: readonly { readonly key: string; readonly value: MutationJson }[] }
  /** A JSON array with, for each part, the rows it wrote as text of the table's row type (and the upsert flag): what `restored` reads. */
  | { readonly kind: 'kept_rows'; readonly writes: readonly KeptWrite[] };

/** One statement: the writes in order, the guards, and the response. */
export interface MutationStatement {
  readonly writes: readonly Write[];
  readonly guards: readonly Guard[];
  readonly result: MutationJson;
}
