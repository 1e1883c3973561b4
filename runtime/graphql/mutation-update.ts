// update_<t>, update_<t>_by_pk and one entry of update_<t>_many: UPDATE ... SET from the
// operators (`_set`, `_inc`, and the jsonb ones) plus the permission's presets, on the rows the
// update filter and `where` select, with the update check as a guard on the updated rows.

import { Kind } from 'graphql';
import type { BoolIr, ColumnModel, TableModel, ValueIr } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { Alias, type Assignment, type UpdateOp, type WriteExpr } from '../sql/index.js';
import { boolCond, permissionCond, whereToIr } from './bool.js';
import type { PlanContext } from './context.js';
import type { FieldSel } from './fields.js';
import { columnValueExpr, entriesOf, isNull, valueOf, type Input } from './input.js';
import { finishStatement, responseJson, rowsOf, singleRowJson, StatementBuilder, type GuardedSql } from './mutation-output.js';
import { mutationPermsOf, writtenTableOf, type WritePermission } from './mutation-perms.js';

type Path = readonly (string | number)[];

/** The operators in the order Hasura applies them; each maps a column and a value to the new value. */
// `_set` replaces the value; the others apply an update operator to it (the IR's UpdateOp).
const OPERATORS: readonly (readonly [string, UpdateOp | null, (c: ColumnModel) => string])[] = [
  ['_set', null, (c) => c.type],
  ['_inc', 'inc', (c) => c.type],
  ['_append', 'append', () => 'jsonb'],
  ['_prepend', 'prepend', () => 'jsonb'],
  ['_delete_key', 'delete_key', () => 'text'],
  ['_delete_elem', 'delete_elem', () => 'int4'],
  ['_delete_at_path', 'delete_at_path', () => 'text[]'],
];

const NO_OPERATOR = `at least any one of ${OPERATORS.map(([op]) => op).join(', ')} is expected`;

/** What selects the rows to update: `where` (update_<t>, update_many) or primary-key values (update_by_pk). */
export type RowSelector = { readonly kind: 'where'; readonly input: Input | undefined } | { readonly kind: 'pk'; readonly input: Input | undefined };

/** Plans one UPDATE; `single` answers the row (update_by_pk) instead of the mutation response. */
export function planUpdate(t: TableModel, f: FieldSel, args: ReadonlyMap<string, Input>, selector: RowSelector, single: boolean,
  ctx: PlanContext, path: Path): GuardedSql {
  const perm = mutationPermsOf(ctx, t).update;
  if (!perm) throw new ApiError('validation-failed', `no update permission on table "${t.name}"`, 400, path);
  const argPath = [...path, 'args'];
  const a = new Alias(t.name);
  const sets = setList(t, args, perm, a, ctx, argPath);
  const b = new StatementBuilder();
  const permission = permissionCond(ctx, t.id, 'updateFilter', a);
  const selectorCond = boolCond(selectorIr(t, selector, ctx, argPath), a, ctx);
  const written = writtenTableOf(ctx, t);
  // Nothing to set (`_set: {}`): no row changes, as Hasura answers it (corpus: update/basic/author_empty_set).
  const cte = b.cte(t.name, sets.length === 0 ? { kind: 'none', table: written.table } : { kind: 'update', ...written, row: a, set: sets, permission, selector: selectorCond });
  if (perm.checked && sets.length > 0) {
    // Hasura reports a failed update check at `$` (corpus: update/permissions/user_cannot_publish).
    const r = new Alias(t.name);
    b.guard({ kind: 'all_rows', rows: rowsOf(t, cte), row: r, check: permissionCond(ctx, t.id, 'updateCheck', r) },
      new ApiError('permission-error', 'check constraint of an insert/update permission has failed', 400, []));
  }
  const rows = rowsOf(t, cte);
  const json = single ? singleRowJson(t, f, rows, ctx, path) : responseJson(t, f, [cte], rows, ctx, path);
  return finishStatement(b, json, ctx);
}

function selectorIr(t: TableModel, selector: RowSelector, ctx: PlanContext, path: Path): BoolIr {
  if (selector.kind === 'where') {
    return selector.input && !isNull(selector.input, ctx) ? whereToIr(selector.input, t, ctx, [...path, 'where']) : { kind: 'true' };
  }
  const pkPath = [...path, 'pk_columns'];
  return pkIr(t, new Map(selector.input ? entriesOf(selector.input, ctx, pkPath) : []), ctx, pkPath);
}

/** Primary-key equalities from `{id: 1}` (the pk_columns input, or delete_by_pk's arguments). */
export function pkIr(t: TableModel, given: ReadonlyMap<string, Input>, ctx: PlanContext, path: Path): BoolIr {
  return { kind: 'and', items: t.primaryKey.map((name): BoolIr => {
    const c = t.columns.find((x) => x.name === name)!;
    const v = given.get(c.field);
    if (!v) throw new ApiError('validation-failed', `missing required field "${c.field}"`, 400, path);
    return { kind: 'column', column: c.name, type: c.type, op: '_eq', value: pkValue(v, ctx) };
  }) };
}

function pkValue(v: Input, ctx: PlanContext): ValueIr {
  if (v.kind === 'ast' && v.node.kind === 'Variable') return { kind: 'variable', name: v.node.name.value, path: [] };
  return { kind: 'literal', value: valueOf(v, ctx) as never };
}

// `col = <new value>` for every column an operator names, then the presets (which win).
function setList(t: TableModel, args: ReadonlyMap<string, Input>, perm: WritePermission, a: Alias, ctx: PlanContext, path: Path): Assignment[] {
  const assigned = new Map<string, WriteExpr>();
  // Hasura refuses a column named by more than one operator (`_set` and `_inc`, `_append` and
  // `_delete_key`, ...) instead of combining them: one assignment per column.
  const opsOf = new Map<string, string[]>();
  let anyOperator = false;
  for (const [op, updateOp, typeOf] of OPERATORS) {
    const input = args.get(op);
    if (!input) continue;
    anyOperator = true;
    if (isNull(input, ctx)) continue;
    for (const [field, value] of entriesOf(input, ctx, [...path, op])) {
      const c = t.columns.find((x) => x.field === field);
      if (!c || !perm.columns.includes(c.name)) {
        throw new ApiError('validation-failed', `field "${field}" not found in type: '${typeNameOf(t, op === '_set' ? '_set_input' : `${op}_input`)}'`, 400, [...path, op, field]);
      }
      opsOf.set(c.name, [...opsOf.get(c.name) ?? [], op]);
      if (assigned.has(c.name)) continue;
      const v = columnValueExpr(listOfOne(value, updateOp, ctx), typeOf(c), c.scalar, ctx, [...path, op, field]);
      assigned.set(c.name, updateOp ? { kind: 'update_op', op: updateOp, current: { kind: 'column', row: a, column: c.name }, value: v } : v);
    }
  }
  // Hasura v2's words (before update_many): each column with its operators, columns in the order
  // of the first operator naming them, then in the table's order.
  const twice = [...opsOf].filter(([, ops]) => ops.length > 1);
  if (twice.length > 0) {
    const rank = (op: string): number => OPERATORS.findIndex(([o]) => o === op);
    const place = (column: string): number => t.columns.findIndex((c) => c.name === column);
    twice.sort(([a, x], [b, y]) => rank(x[0]!) - rank(y[0]!) || place(a) - place(b));
    const listed = twice.map(([column, ops]) => `${JSON.stringify(column)} in ${ops.join(', ')}`).join('. ');
    throw new ApiError('validation-failed', `column found in multiple operators; ${listed}`, 400, path);
  }
  const presets = perm.presets.size > 0;
  if (!anyOperator && !presets) throw new ApiError('validation-failed', NO_OPERATOR, 400, path);
  if (assigned.size === 0 && !(presets && !anyOperator)) return [];
  for (const [name, preset] of perm.presets) assigned.set(name, preset);
  return [...assigned.entries()].map(([column, value]) => ({ column, value }));
}

// GraphQL input coercion: a single path element where `_delete_at_path` takes a list is a list of
// one (`details: "a"` is `details: ["a"]`), as Hasura's list parser reads it; variables are coerced
// with the request's values (variable-values.ts).
function listOfOne(value: Input, op: UpdateOp | null, ctx: PlanContext): Input {
  if (op !== 'delete_at_path' || value.kind !== 'ast' || value.node.kind === Kind.LIST || value.node.kind === Kind.VARIABLE || value.node.kind === Kind.NULL) return value;
  return { kind: 'js', value: [valueOf(value, ctx)] };
}
