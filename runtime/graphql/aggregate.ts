// `<t>_aggregate { aggregate { count sum {..} .. } nodes {..} }` as an IR aggregate select.

import type { TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { Alias, isAggregateFn, type AggregateColumn, type AggregateFnField, type AggregatePart, type AggregateSelect, type JsonObject, type Source } from '../sql/index.js';
import { columnByField, permissionOf, type PlanContext } from './context.js';
import { argsOf, collectFields, scalarOutput, type FieldSel } from './fields.js';
import { isNull, valueOf, type Input } from './input.js';
import { readsTable, rowSet, type JoinCond, type ParentRow } from './rows.js';

type Path = readonly (string | number)[];
/** How the rows of `nodes` are shaped (select.ts's rowShape, passed in: select.ts plans aggregates). */
export type ShapeOf = (t: TableModel, a: Alias, fields: readonly FieldSel[], ctx: PlanContext, path: Path, tableRows: boolean) => JsonObject;

// Aggregates whose result is a number whatever the column's type (no stringifying, no GeoJSON).
const NUMERIC_FNS = new Set(['avg', 'stddev', 'stddev_pop', 'stddev_samp', 'var_pop', 'var_samp', 'variance']);

/** The aggregate field `f` over the rows of `t` read from `from` (a relationship's of `parent`). */
export function aggregateSelect(t: TableModel, from: Source, args: ReadonlyMap<string, Input>, f: FieldSel, ctx: PlanContext,
  path: Path, joins: readonly JoinCond[], shapeOf: ShapeOf, parent: ParentRow | null = null): AggregateSelect {
  const b = new Alias(t.name);
  const fields = collectFields(f.node.selectionSet, typeNameOf(t, '_aggregate'), ctx);
  // Hasura applies the role's row limit to `nodes` only: the aggregates see every permitted row
  // (corpus: agg_perm). With both, the nodes become their own limited list.
  const permLimitOnNodes = permissionOf(ctx, t.id).limit !== null && fields.some((sel) => sel.name === 'aggregate');
  const parts: AggregatePart[] = [];
  const deferred: (() => void)[] = [];
  for (const sel of fields) {
    const p = [...path, 'selectionSet', sel.name];
    if (sel.name === '__typename') parts.push({ key: sel.key, value: { kind: 'name', name: typeNameOf(t, '_aggregate') } });
    else if (sel.name === 'nodes' && permLimitOnNodes) {
      // Planned after the aggregate's rows, so errors come in the order the rows are read.
      const idx = parts.push({ key: sel.key, value: { kind: 'name', name: 'pending' } }) - 1;
      deferred.push(() => {
        const nb = new Alias(t.name);
        const shape = shapeOf(t, nb, collectFields(sel.node.selectionSet, typeNameOf(t), ctx), ctx, [...p, 'selectionSet'], readsTable(from));
        parts[idx] = { key: sel.key, value: { kind: 'list', shape, rows: rowSet(t, from, args, nb, ctx, p, joins, false, parent) } };
      });
    } else if (sel.name === 'nodes') {
      parts.push({ key: sel.key, value: { kind: 'nodes', shape: shapeOf(t, b, collectFields(sel.node.selectionSet, typeNameOf(t), ctx), ctx, [...p, 'selectionSet'], readsTable(from)) } });
    } else if (sel.name === 'aggregate') {
      parts.push({ key: sel.key, value: { kind: 'functions', fields: aggregateFields(t, sel, ctx, p) } });
    } else throw new ApiError('validation-failed', `field "${sel.name}" not found in type: '${typeNameOf(t, '_aggregate')}'`, 400, p);
  }
  const rows = rowSet(t, from, args, b, ctx, path, joins, permLimitOnNodes, parent);
  for (const d of deferred) d();
  return { kind: 'aggregate', rows, fields: parts };
}

function aggregateFields(t: TableModel, sel: FieldSel, ctx: PlanContext, path: Path): AggregateFnField[] {
  const typeName = typeNameOf(t, '_aggregate_fields');
  const out: AggregateFnField[] = [];
  for (const agg of collectFields(sel.node.selectionSet, typeName, ctx)) {
    const p = [...path, 'selectionSet', agg.name];
    if (agg.name === '__typename') { out.push({ key: agg.key, value: { kind: 'name', name: typeName } }); continue; }
    if (agg.name === 'count') { out.push({ key: agg.key, value: countOf(t, agg, ctx, p) }); continue; }
    const fnType = typeNameOf(t, `_${agg.name}_fields`);
    const fn = agg.name;
    const isNumeric = NUMERIC_FNS.has(fn) || fn === 'sum';
    if (!isAggregateFn(fn) || (!isNumeric && fn !== 'max' && fn !== 'min')) {
      throw new ApiError('validation-failed', `field "${agg.name}" not found in type: '${typeName}'`, 400, p);
    }
    const columns: AggregateColumn[] = [];
    for (const c of collectFields(agg.node.selectionSet, fnType, ctx)) {
      if (c.name === '__typename') { columns.push({ key: c.key, value: { kind: 'name', name: fnType } }); continue; }
      const col = columnByField(ctx, t, c.name);
      if (!col || (isNumeric ? !col.numeric : !col.comparable)) {
        throw new ApiError('validation-failed', `field "${c.name}" not found in type: '${fnType}'`, 400, [...p, 'selectionSet', c.name]);
      }
      // Hasura aggregates an inherited role's partly granted column over every row the role may
      // see (corpus: inherited_roles, sum of salary): no per-row guard here, unlike `nodes`.
      // Hasura stringifies an aggregate by the column's type, whatever the function returns
      // (avg of an int column stays a JSON number; corpus: order_by/album_order_by_tracks_duration_avg).
      columns.push({ key: c.key, value: { kind: 'column', column: col.name, output: scalarOutput(col, ctx) } });
    }
    out.push({ key: agg.key, value: { kind: 'fn', fn, fields: columns } });
  }
  return out;
}

function countOf(t: TableModel, agg: FieldSel, ctx: PlanContext, path: Path): AggregateFnField['value'] {
  const args = argsOf(agg.node);
  const colsIn = args.get('columns');
  const distinctIn = args.get('distinct');
  const distinct = !!distinctIn && !isNull(distinctIn, ctx) && valueOf(distinctIn, ctx) === true;
  if (!colsIn || isNull(colsIn, ctx)) return { kind: 'count', columns: [], distinct };
  const v = valueOf(colsIn, ctx);
  const names = (Array.isArray(v) ? v : [v]).map(String);
  const columns = names.map((n) => {
    const c = columnByField(ctx, t, n);
    if (!c) throw new ApiError('validation-failed', `unexpected value "${n}" for enum: '${typeNameOf(t, '_select_column')}'`, 400, [...path, 'args', 'columns']);
    return c.name;
  });
  return { kind: 'count', columns, distinct };
}
