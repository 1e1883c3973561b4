import type { ColumnModel, TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { Alias, aggregateFunction, aliasRef, ident, join, jsonKey, raw, sql, type Sql } from '../sql/index.js';
import { columnByField, permissionOf, type PlanContext } from './context.js';
import { argsOf, collectFields, type FieldSel } from './fields.js';
import { isNull, valueOf, type Input } from './input.js';
import { columnValue, listQuery, rowJson, rowSource, type Cond } from './select.js';

type Path = readonly (string | number)[];
const NUMERIC_FNS = new Set(['avg', 'stddev', 'stddev_pop', 'stddev_samp', 'var_pop', 'var_samp', 'variance']);

/** `<t>_aggregate { aggregate { count sum {..} .. } nodes {..} }` as one grouped query over the row source. */
export function aggregateQuery(t: TableModel, from: Sql, args: ReadonlyMap<string, Input>, f: FieldSel, ctx: PlanContext,
  path: Path, conds: readonly Cond[]): Sql {
  const b = new Alias(t.name);
  const r = new Alias('r');
  const outputs: Sql[] = [];
  const colRefs = new Map<string, Sql>();
  const colRef = (c: ColumnModel): Sql => {
    let name = colRefs.get(c.name);
    if (!name) {
      name = ident(`__kiln_c${colRefs.size}`);
      colRefs.set(c.name, name);
      outputs.push(sql`${aliasRef(b)}.${ident(c.name)} AS ${name}`);
    }
    return sql`${aliasRef(r)}.${name}`;
  };
  const nodeRows: { key: string; name: Sql }[] = [];
  const pairs: (readonly [Sql, Sql])[] = [];
  const fields = collectFields(f.node.selectionSet, typeNameOf(t, '_aggregate'), ctx);
  const deferred: (() => void)[] = [];
  // Hasura applies the role's row limit to `nodes` only: the aggregates see every permitted row
  // (corpus: agg_perm). With both, the nodes become their own limited list.
  const permLimitOnNodes = permissionOf(ctx, t.id).limit !== null && fields.some((sel) => sel.name === 'aggregate');
  for (const sel of fields) {
    const p = [...path, 'selectionSet', sel.key];
    if (sel.name === '__typename') pairs.push([jsonKey(sel.key), jsonKey(typeNameOf(t, '_aggregate'))]);
    else if (sel.name === 'nodes' && permLimitOnNodes) {
      const idx = pairs.length;
      pairs.push([jsonKey(sel.key), raw('null')]);
      deferred.push(() => { pairs[idx] = [jsonKey(sel.key), listQuery(t, from, args, sel, ctx, p, conds)]; });
    } else if (sel.name === 'nodes') {
      const name = ident(`__kiln_row${nodeRows.length}`);
      const row = rowJson(t, b, collectFields(sel.node.selectionSet, typeNameOf(t), ctx), ctx, [...p, 'selectionSet']);
      outputs.push(sql`${row} AS ${name}`);
      nodeRows.push({ key: sel.key, name });
      const idx = pairs.length;
      pairs.push([jsonKey(sel.key), raw('null')]);
      deferred.push(() => { pairs[idx] = [jsonKey(sel.key), nodesAgg(name, r, src.order.length ? src : null, ctx)]; });
    } else if (sel.name === 'aggregate') {
      pairs.push([jsonKey(sel.key), aggregateFields(t, sel, colRef, ctx, p)]);
    } else throw new ApiError('validation-failed', `field "${sel.name}" not found in type: '${typeNameOf(t, '_aggregate')}'`, 400, p);
  }
  if (outputs.length === 0) outputs.push(raw('1 AS "__kiln_one"'));
  const src = rowSource(t, from, args, b, outputs, ctx, path, conds, !permLimitOnNodes);
  for (const d of deferred) d();
  // Without any aggregate function (`aggregate { __typename }`, or `__typename` alone) the SELECT
  // would give one row per source row; GROUP BY () makes it exactly one row, as with aggregates.
  const calls = (sel: FieldSel): boolean => collectFields(sel.node.selectionSet, typeNameOf(t, '_aggregate_fields'), ctx)
    .some((a) => a.name === 'count' || (a.name !== '__typename' && collectFields(a.node.selectionSet, typeNameOf(t, `_${a.name}_fields`), ctx)
      .some((c) => c.name !== '__typename')));
  const grouped = nodeRows.length > 0 || fields.some((sel) => sel.name === 'aggregate' && calls(sel));
  return sql`(SELECT ${ctx.dialect.jsonObject(pairs)} FROM (${src.sql}) AS ${aliasRef(r)}${grouped ? raw('') : raw(' GROUP BY ()')})`;
}

function nodesAgg(name: Sql, r: Alias, src: { order: readonly { dir: Sql }[]; orderNames: readonly Sql[] } | null, ctx: PlanContext): Sql {
  const order = src ? join(src.order.map((o, i) => sql`${aliasRef(r)}.${src.orderNames[i]!} ${o.dir}`), ', ') : null;
  return sql`coalesce(${ctx.dialect.jsonArrayAgg(sql`${aliasRef(r)}.${name}`, order)}, ${ctx.dialect.emptyJsonArray()})`;
}

function aggregateFields(t: TableModel, sel: FieldSel, colRef: (c: ColumnModel) => Sql, ctx: PlanContext, path: Path): Sql {
  const typeName = typeNameOf(t, '_aggregate_fields');
  const pairs: (readonly [Sql, Sql])[] = [];
  for (const agg of collectFields(sel.node.selectionSet, typeName, ctx)) {
    const p = [...path, 'selectionSet', agg.key];
    if (agg.name === '__typename') { pairs.push([jsonKey(agg.key), jsonKey(typeName)]); continue; }
    if (agg.name === 'count') { pairs.push([jsonKey(agg.key), countExpr(t, agg, colRef, ctx, p)]); continue; }
    const fnType = typeNameOf(t, `_${agg.name}_fields`);
    const isNumeric = NUMERIC_FNS.has(agg.name) || agg.name === 'sum';
    if (!isNumeric && agg.name !== 'max' && agg.name !== 'min') {
      throw new ApiError('validation-failed', `field "${agg.name}" not found in type: '${typeName}'`, 400, p);
    }
    const inner: (readonly [Sql, Sql])[] = [];
    for (const c of collectFields(agg.node.selectionSet, fnType, ctx)) {
      if (c.name === '__typename') { inner.push([jsonKey(c.key), jsonKey(fnType)]); continue; }
      const col = columnByField(ctx, t, c.name);
      if (!col || (isNumeric ? !col.numeric : !col.comparable)) {
        throw new ApiError('validation-failed', `field "${c.name}" not found in type: '${fnType}'`, 400, [...p, 'selectionSet', c.key]);
      }
      const call = sql`${aggregateFunction(agg.name)!}(${colRef(col)})`;
      inner.push([jsonKey(c.key), NUMERIC_FNS.has(agg.name) ? call : columnValue(col, call, ctx)]);
    }
    pairs.push([jsonKey(agg.key), ctx.dialect.jsonObject(inner)]);
  }
  return ctx.dialect.jsonObject(pairs);
}

function countExpr(t: TableModel, agg: FieldSel, colRef: (c: ColumnModel) => Sql, ctx: PlanContext, path: Path): Sql {
  const args = argsOf(agg.node);
  const colsIn = args.get('columns');
  const distinctIn = args.get('distinct');
  const distinct = distinctIn && !isNull(distinctIn, ctx) && valueOf(distinctIn, ctx) === true;
  if (!colsIn || isNull(colsIn, ctx)) return raw('count(*)');
  const v = valueOf(colsIn, ctx);
  const names = (Array.isArray(v) ? v : [v]).map(String);
  const refs = names.map((n) => {
    const c = columnByField(ctx, t, n);
    if (!c) throw new ApiError('validation-failed', `unexpected value "${n}" for enum: '${typeNameOf(t, '_select_column')}'`, 400, [...path, 'args', 'columns']);
    return colRef(c);
  });
  if (refs.length === 0) return raw('count(*)');
  const target = refs.length === 1 ? refs[0]! : sql`(${join(refs, ', ')})`;
  return distinct ? sql`count(DISTINCT ${target})` : sql`count(${target})`;
}
