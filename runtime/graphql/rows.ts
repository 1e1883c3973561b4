// The rows a list or an aggregate reads: the role's filter and row limit, the request's `where`,
// `order_by`, `distinct_on`, `limit` and `offset`, as one IR row set.

import type { TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { Alias, Cond, Expr, Limit, RowSet, Source } from '../sql/index.js';
import { boolCond, filterAfterParent, selectFilter, whereToIr } from './bool.js';
import { columnByField, permissionOf, type PlanContext } from './context.js';
import { isNull, leafExpr, valueOf, type Input } from './input.js';
import { orderItems, type OrderItem } from './order.js';

type Path = readonly (string | number)[];
/** Conditions on the row alias of a select (relationship joins, primary-key lookups). */
export type JoinCond = (b: Alias) => readonly Cond[];

/**
 * The one row a relationship's rows are tied to, by `pairs` (its column, theirs), when that row was
 * read from `table` itself under the role's select filter: what it proves of their filter is not
 * checked again (filterAfterParent).
 */
export interface ParentRow {
  readonly row: Alias;
  readonly table: string;
  readonly pairs: readonly (readonly [string, string])[];
}

/** True when `from` reads the rows of a table itself (not a function's rows, not rows being written). */
export function readsTable(from: Source): boolean {
  return from.kind === 'table' || (from.kind === 'template' && from.of.kind === 'table');
}

/**
 * The rows of `t` read from `from` at alias `b` for the field at `path`. `countsAllRows` leaves the
 * role's row limit out (aggregates count every row the role may see). `parent`: the row they are a
 * relationship of, when it may prove part of their filter.
 */
export function rowSet(t: TableModel, from: Source, args: ReadonlyMap<string, Input>, b: Alias, ctx: PlanContext, path: Path,
  joins: readonly JoinCond[], countsAllRows = false, parent: ParentRow | null = null): RowSet {
  const perm = permissionOf(ctx, t.id);
  const argPath = [...path, 'args'];
  const join = joins.flatMap((c) => c(b));
  const afterParent = parent && filterAfterParent(ctx, t.id, parent.table, parent.pairs, b);
  const filter = afterParent ?? selectFilter(ctx, t.id, b);
  const whereIn = args.get('where');
  const where = whereIn && !isNull(whereIn, ctx) ? boolCond(whereToIr(whereIn, t, ctx, [...argPath, 'where']), b, ctx) : null;
  const orderArg = args.get('order_by');
  const order = orderArg && !isNull(orderArg, ctx) ? orderItems(orderArg, t, b, ctx, [...argPath, 'order_by']) : [];
  const distinctOn = distinctOf(t, b, args.get('distinct_on'), order, ctx, argPath);
  const offsetIn = args.get('offset');
  return {
    from, row: b, join, where,
    permission: afterParent && parent ? { filter, limit: perm.limit, afterParent: parent.row } : { filter, limit: perm.limit },
    order: order.map((o) => ({ expr: o.expr, dir: o.dir })), distinctOn,
    limit: limitOf(args.get('limit'), ctx),
    offset: offsetIn && !isNull(offsetIn, ctx) ? leafExpr(offsetIn, 'int8', ctx) : null,
    countsAllRows,
    rowTyped: t.computedFields.length > 0,
  };
}

function distinctOf(t: TableModel, b: Alias, input: Input | undefined, order: readonly OrderItem[], ctx: PlanContext, path: Path): Expr[] | null {
  if (!input || isNull(input, ctx)) return null;
  if (!ctx.dialect.can.distinctOn) throw new ApiError('not-supported', `"distinct_on" is not supported on a ${ctx.dialect.name} source`, 400, [...path, 'distinct_on']);
  const raw = valueOf(input, ctx);
  const names = (Array.isArray(raw) ? raw : [raw]).map(String);
  const cols = names.map((n) => {
    const c = columnByField(ctx, t, n);
    if (!c) throw new ApiError('validation-failed', `unexpected value "${n}" for enum: '${typeNameOf(t, '_select_column')}'`, 400, [...path, 'distinct_on']);
    return c.name;
  });
  // Hasura checks the distinct_on columns against the first as many order_by items as a set
  // (`[b, a]` fits `order_by: [{a}, {b}]`); PostgreSQL accepts any order of them too (fuzz).
  const lead = order.slice(0, cols.length);
  if (order.length && !(lead.length === cols.length && cols.every((c) => lead.some((o) => o.column === c)))) {
    throw new ApiError('validation-failed', '"distinct_on" columns must match initial "order_by" columns', 400, path);
  }
  return cols.map((c, i) => lead[i]?.expr ?? { kind: 'column', row: b, column: c });
}

// The request's limit: a variable stays a slot; a literal is known now (the renderer takes the
// smaller of it and the role's row limit, and may plan with it).
function limitOf(input: Input | undefined, ctx: PlanContext): Limit | null {
  if (!input || isNull(input, ctx)) return null;
  if (input.kind === 'ast' && input.node.kind === 'Variable') return { kind: 'variable', name: input.node.name.value };
  return { kind: 'literal', value: Number(valueOf(input, ctx)) };
}
