// `order_by` to IR order items; relationships and aggregates become correlated subqueries that
// carry the target's permission filter.

import type { TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { Alias, isAggregateFn, type Cond, type Expr, type OrderDir, type Source } from '../sql/index.js';
import { guardedField, joinConds, selectFilter } from './bool.js';
import { computedCall } from './call.js';
import { columnByField, computedFieldOf, permissionOf, tableOf, tableSource, type PlanContext } from './context.js';
import { entriesOf, isNull, itemsOf, valueOf, type Input } from './input.js';

/** One ORDER BY item: an expression over the row alias and its direction. */
export interface OrderItem {
  readonly expr: Expr;
  readonly dir: OrderDir;
  /** The column, when the item orders by a plain column (for the distinct_on rule). */
  readonly column: string | null;
}

const DIRS: { readonly [k: string]: OrderDir } = {
  asc: 'asc_nulls_last', asc_nulls_last: 'asc_nulls_last', asc_nulls_first: 'asc_nulls_first',
  desc: 'desc_nulls_first', desc_nulls_first: 'desc_nulls_first', desc_nulls_last: 'desc_nulls_last',
};

type Path = readonly (string | number)[];
type Wrap = (inner: Expr) => Expr;
/** Rows of `target` at `row` where `where` and the role's permission hold: what an aggregate or an object relationship reads. */
interface Rows { readonly from: Source; readonly row: Alias; readonly where: readonly Cond[]; readonly permission: Cond }

/** `order_by` to ORDER BY items; relationships become correlated scalar subqueries with the target's permission. */
export function orderItems(input: Input, t: TableModel, a: Alias, ctx: PlanContext, path: Path): OrderItem[] {
  const out: OrderItem[] = [];
  itemsOf(input, ctx).forEach((item, i) => collect(item, t, a, (x) => x, true, ctx, [...path, i], out));
  return out;
}

function direction(v: Input, ctx: PlanContext, path: Path): OrderDir | null {
  if (isNull(v, ctx)) return null;
  const d = DIRS[String(valueOf(v, ctx))];
  if (!d) throw new ApiError('validation-failed', `unexpected value for type "order_by"`, 400, path);
  return d;
}

function collect(input: Input, t: TableModel, a: Alias, wrap: Wrap, top: boolean, ctx: PlanContext, path: Path, out: OrderItem[]): void {
  for (const [key, v] of entriesOf(input, ctx, path)) {
    const p = [...path, key];
    const column = columnByField(ctx, t, key);
    if (column) {
      const dir = direction(v, ctx, p);
      if (dir) out.push({ expr: wrap(guardedField(t, column.name, a, { kind: 'column', row: a, column: column.name }, ctx)), dir, column: top ? column.name : null });
      continue;
    }
    // Argument-less scalar computed fields are in `<t>_order_by` too (compiler/schema/order-by.ts).
    const cf = computedFieldOf(ctx, t, key);
    if (cf && cf.returns.kind === 'scalar' && cf.args.length === 0) {
      const dir = direction(v, ctx, p);
      if (dir) out.push({ expr: wrap(computedCall(cf, a, undefined, ctx, p)), dir, column: null });
      continue;
    }
    // `<cf>_aggregate` of an argument-less set-returning computed field: aggregates of its rows.
    const setCf = key.endsWith('_aggregate') ? computedFieldOf(ctx, t, key.slice(0, -'_aggregate'.length)) : undefined;
    if (setCf && setCf.returns.kind === 'table' && setCf.returns.set && setCf.args.length === 0
      && permissionOf(ctx, setCf.returns.table).allowAggregations) {
      if (isNull(v, ctx)) continue;
      const target = tableOf(ctx, setCf.returns.table);
      const b = new Alias(target.name);
      const rows: Rows = { from: { kind: 'function', call: computedCall(setCf, a, undefined, ctx, p) }, row: b,
        where: [], permission: selectFilter(ctx, target.id, b) };
      aggregateItems(v, target, rows, wrap, ctx, p, out);
      continue;
    }
    const rel = t.relationships.find((r) => r.name === key || (r.kind === 'array' && `${r.name}_aggregate` === key));
    if (!rel || !ctx.model.select[ctx.role]?.[rel.target]) {
      throw new ApiError('validation-failed', `field "${key}" not found in type: '${typeNameOf(t, '_order_by')}'`, 400, p);
    }
    if (isNull(v, ctx)) continue;
    const target = tableOf(ctx, rel.target);
    const b = new Alias(target.name);
    const rows: Rows = { from: tableSource(target), row: b, where: joinConds(rel.mapping, b, a), permission: selectFilter(ctx, rel.target, b) };
    if (rel.kind === 'object') {
      collect(v, target, b, (inner) => wrap({ kind: 'subquery', ...rows, value: inner, single: true }), false, ctx, p, out);
      continue;
    }
    aggregateItems(v, target, rows, wrap, ctx, p, out);
  }
}

/** `<t>_aggregate_order_by` over `rows` of `target`. */
function aggregateItems(v: Input, target: TableModel, rows: Rows, wrap: Wrap, ctx: PlanContext, p: Path, out: OrderItem[]): void {
  for (const [fn, spec] of entriesOf(v, ctx, p)) {
    if (fn === 'count') {
      const dir = direction(spec, ctx, [...p, fn]);
      if (dir) out.push({ expr: wrap({ kind: 'subquery', ...rows, value: { kind: 'count', args: [], distinct: false }, single: false }), dir, column: null });
    } else if (isAggregateFn(fn)) {
      for (const [col, d] of entriesOf(spec, ctx, [...p, fn])) {
        const c = columnByField(ctx, target, col);
        if (!c) throw new ApiError('validation-failed', `field "${col}" not found in type: '${typeNameOf(target, `_${fn}_order_by`)}'`, 400, [...p, fn, col]);
        const dir = direction(d, ctx, [...p, fn, col]);
        const value: Expr = { kind: 'aggregate', fn, arg: { kind: 'column', row: rows.row, column: c.name } };
        if (dir) out.push({ expr: wrap({ kind: 'subquery', ...rows, value, single: false }), dir, column: null });
      }
    } else {
      throw new ApiError('validation-failed', `field "${fn}" not found in type: '${typeNameOf(target, '_aggregate_order_by')}'`, 400, [...p, fn]);
    }
  }
}
