import type { ColumnModel, ComputedFieldModel, TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { Alias, aliasRef, ident, join, jsonKey, param, raw, session, sql, variable, type Sql } from '../sql/index.js';
import { lowerBool, whereToIr } from './bool.js';
import { columnByField, computedFieldOf, permissionOf, relationFrom, tableOf, type PlanContext } from './context.js';
import { argsOf, collectFields, type FieldSel } from './fields.js';
import { entriesOf, isNull, leafParam, valueOf, type Input } from './input.js';
import { orderItems, type OrderItem } from './order.js';
import { aggregateQuery } from './aggregate.js';

type Path = readonly (string | number)[];
/** Extra conditions on the row alias (relationship joins, primary-key lookups). */
export type Cond = (b: Alias) => Sql;

const ROW = ident('__kiln_row');
const STRINGIFIED = new Set(['bigint', 'numeric', 'float8', 'money']);

/**
 * A column's value in the response: numbers beyond JSON doubles as strings when configured;
 * PostGIS values as GeoJSON with 15 digits and the long CRS name (`urn:ogc:def:crs:EPSG::4326`),
 * as Hasura v2 prints them (corpus: graphql_query/computed_fields/locations).
 */
export function columnValue(c: { scalar: string }, expr: Sql, ctx: PlanContext): Sql {
  if (c.scalar === 'geometry' || c.scalar === 'geography') return sql`${ident('st_asgeojson')}(${expr}, 15, 4)::json`;
  return ctx.stringifyNumeric && STRINGIFIED.has(c.scalar) ? sql`(${expr})::text` : expr;
}

/** The FROM item of a table, or of a function returning rows of it. */
export function tableFrom(t: TableModel): Sql {
  return ident(t.schema, t.name);
}

/** json_build_object of the selected fields of one row of `t` at alias `a`. */
export function rowJson(t: TableModel, a: Alias, fields: readonly FieldSel[], ctx: PlanContext, path: Path): Sql {
  const pairs = fields.map((f): readonly [Sql, Sql] => [jsonKey(f.key), fieldValue(t, a, f, ctx, [...path, f.key])]);
  if (pairs.length === 0) throw new ApiError('validation-failed', 'a selection set must not be empty', 400, path);
  return ctx.dialect.jsonObject(pairs);
}

function fieldValue(t: TableModel, a: Alias, f: FieldSel, ctx: PlanContext, path: Path): Sql {
  if (f.name === '__typename') return jsonKey(typeNameOf(t));
  const column = columnByField(ctx, t, f.name);
  if (column) return columnField(column, a, f, ctx, path);
  const cf = computedFieldOf(ctx, t, f.name);
  if (cf) return computedField(cf, a, f, ctx, path);
  const rel = t.relationships.find((r) => (r.name === f.name || (r.kind === 'array' && `${r.name}_aggregate` === f.name))
    && ctx.model.select[ctx.role]?.[r.target]);
  if (!rel) throw new ApiError('validation-failed', `field "${f.name}" not found in type: '${typeNameOf(t)}'`, 400, path);
  const target = tableOf(ctx, rel.target);
  const from = relationFrom(ctx, target);
  const on: Cond = (b) => join(rel.mapping.map(([l, r]) => sql`${aliasRef(b)}.${ident(r)} = ${aliasRef(a)}.${ident(l)}`), ' AND ');
  const args = argsOf(f.node);
  if (rel.kind === 'object') return objectQuery(target, from, f, ctx, path, [on]);
  if (f.name !== rel.name) return aggregateQuery(target, from, args, f, ctx, path, [on]);
  return listQuery(target, from, args, f, ctx, path, [on]);
}

function columnField(c: ColumnModel, a: Alias, f: FieldSel, ctx: PlanContext, path: Path): Sql {
  const ref = sql`${aliasRef(a)}.${ident(c.name)}`;
  const jsonPath = argsOf(f.node).get('path');
  if (jsonPath && !isNull(jsonPath, ctx)) {
    const parts = parseJsonPath(String(valueOf(jsonPath, ctx)), [...path, 'args', 'path']);
    return sql`(${ref} #> ${param(parts, 'text[]')})`;
  }
  return columnValue(c, ref, ctx);
}

/** `$.a.b[0]`, `a.b`, `a['x y']`, `a.[0].["x"]` (a dot before a bracket is allowed) to the key list of `#>`. */
export function parseJsonPath(text: string, path: Path): string[] {
  const out: string[] = [];
  let s = text.startsWith('$') ? text.slice(1) : text;
  if (s && !s.startsWith('.') && !s.startsWith('[')) s = `.${s}`;
  const re = /^(?:\.([^.[\]]+)|\.?\[(\d+)\]|\.?\[(?:'([^']*)'|"([^"]*)")\])/;
  while (s.length) {
    const m = re.exec(s);
    if (!m) throw new ApiError('validation-failed', `parse json path error: unexpected "${s}"`, 400, path);
    out.push(m[1] ?? m[2] ?? m[3] ?? m[4]!);
    s = s.slice(m[0].length);
  }
  return out;
}

// The name the model gives an argument the function declares without one (compiler/model userArgs).
const UNNAMED_ARG = /^arg_\d+$/;

/**
 * The argument list of a function call: `fixed` (the row of a computed field, at `rowPosition`),
 * the session (at `sessionArg`) and the user's `args`. The row and the session have no name to
 * pass them by, so every argument up to the last of them goes by position, the rest by name.
 * (Putting the row and session first broke functions whose table or session argument is not first.)
 */
export function functionArgs(fnArgs: ComputedFieldModel['args'], sessionArg: number | null, argsInput: Input | undefined,
  ctx: PlanContext, path: Path, fixed: Sql[], rowPosition = 0): Sql {
  const given = new Map(argsInput && !isNull(argsInput, ctx) ? entriesOf(argsInput, ctx, [...path, 'args', 'args']) : []);
  const own = new Map<number, Sql>();
  if (fixed[0]) own.set(rowPosition, fixed[0]);
  if (sessionArg !== null) own.set(sessionArg, sql`(${session('*', 'text')})::json`);
  // As Hasura does: the longest run of leading arguments that have a value goes by position
  // (unnamed `arg_N` ones can go no other way), the rest by name.
  let lastPositional = Math.max(-1, ...own.keys());
  for (let i = lastPositional + 1; ; i++) {
    const arg = fnArgs.find((a) => a.position === i);
    if (!own.has(i) && !(arg && given.has(arg.name))) break;
    lastPositional = i;
  }
  const positional: Sql[] = [];
  for (let i = 0; i <= lastPositional; i++) {
    const mine = own.get(i);
    const arg = fnArgs.find((a) => a.position === i);
    const v = arg ? given.get(arg.name) : undefined;
    if (mine) positional.push(mine);
    else if (arg && v) positional.push(leafParam(v, arg.type, ctx));
    else throw new ApiError('not-supported', 'Only last set of positional arguments can be omitted', 400, [...path, 'args', 'args']);
  }
  const named: Sql[] = [];
  for (const arg of [...fnArgs].sort((x, y) => x.position - y.position)) {
    if (arg.position <= lastPositional) continue;
    const v = given.get(arg.name);
    if (!v) {
      if (!arg.hasDefault) throw new ApiError('not-supported', 'Non default arguments cannot be omitted', 400, [...path, 'args', 'args']);
      continue;
    }
    if (UNNAMED_ARG.test(arg.name)) throw new ApiError('not-supported', 'Only last set of positional arguments can be omitted', 400, [...path, 'args', 'args']);
    named.push(sql`${ident(arg.name)} => ${leafParam(v, arg.type, ctx)}`);
  }
  return join([...positional, ...named], ', ');
}

/** `fn(<row of a>, session, args...)`: the call of a computed field on the row at alias `a`. */
export function computedCall(cf: ComputedFieldModel, a: Alias, argsInput: Input | undefined, ctx: PlanContext, path: Path): Sql {
  return sql`${ident(cf.function.schema, cf.function.name)}(${functionArgs(cf.args, cf.sessionArgument, argsInput, ctx, path, [aliasRef(a)], cf.tableArgument)})`;
}

function computedField(cf: ComputedFieldModel, a: Alias, f: FieldSel, ctx: PlanContext, path: Path): Sql {
  const args = argsOf(f.node);
  const call = computedCall(cf, a, args.get('args'), ctx, path);
  if (cf.returns.kind === 'scalar') return columnValue(cf.returns, call, ctx);
  const target = tableOf(ctx, cf.returns.table);
  // A function returning one row gives a row of nulls for "no row"; that is JSON null.
  if (!cf.returns.set) return objectQuery(target, call, f, ctx, path, [(b) => sql`NOT (${aliasRef(b)} IS NULL)`]);
  return listQuery(target, call, args, f, ctx, path, []);
}

/** A single row (object relationship, `_by_pk`, single-row function) or JSON null. */
export function objectQuery(t: TableModel, from: Sql, f: FieldSel, ctx: PlanContext, path: Path, conds: readonly Cond[]): Sql {
  const b = new Alias(t.name);
  const perm = permissionOf(ctx, t.id);
  const where = join([...conds.map((c) => c(b)), lowerBool(perm.filter, b, ctx)], ' AND ');
  const row = rowJson(t, b, collectFields(f.node.selectionSet, typeNameOf(t), ctx), ctx, [...path, 'selectionSet']);
  return sql`(SELECT ${row} FROM ${from} AS ${aliasRef(b)} WHERE ${where} LIMIT 1)`;
}

/** The filtered, ordered, limited rows of `t` with extra output columns; shared by lists and aggregates. */
export interface RowSource {
  readonly sql: Sql;
  readonly order: readonly OrderItem[];
  readonly orderNames: readonly Sql[];
}

/**
 * SELECT <outputs>, <order keys> FROM t WHERE perm AND where AND conds ORDER BY .. LIMIT .. OFFSET ..
 * `permLimit: false` leaves out the role's row limit (aggregates count every row the role may see).
 */
export function rowSource(t: TableModel, from: Sql, args: ReadonlyMap<string, Input>, b: Alias, outputs: readonly Sql[],
  ctx: PlanContext, path: Path, conds: readonly Cond[], permLimit = true): RowSource {
  const perm = permissionOf(ctx, t.id);
  const argPath = [...path, 'args'];
  const filters = [...conds.map((c) => c(b)), lowerBool(perm.filter, b, ctx)];
  const where = args.get('where');
  if (where && !isNull(where, ctx)) filters.push(lowerBool(whereToIr(where, t, ctx, [...argPath, 'where']), b, ctx));
  const orderArg = args.get('order_by');
  const order = orderArg && !isNull(orderArg, ctx) ? orderItems(orderArg, t, b, ctx, [...argPath, 'order_by']) : [];
  const orderNames = order.map((_, i) => ident(`__kiln_o${i}`));
  const distinct = distinctOn(t, b, args.get('distinct_on'), order, ctx, argPath);
  const cols = [...outputs, ...order.map((o, i) => sql`${o.expr} AS ${orderNames[i]!}`)];
  const orderList = join(order.map((o) => sql`${o.expr} ${o.dir}`), ', ');
  const limit = limitOf(args.get('limit'), permLimit ? perm.limit : null, ctx);
  const offset = offsetOf(args.get('offset'), ctx);
  // Every consumer orders its aggregate itself (json_agg(.. ORDER BY ..)), so the rows are sorted
  // here only when the order picks them: a LIMIT, an OFFSET or DISTINCT ON. A sort with nothing to
  // pick would be done twice, and it keeps PostgreSQL from merging the subquery into its parent.
  const orderBy = order.length && (limit || offset || distinct) ? sql` ORDER BY ${orderList}` : raw('');
  const scan = sql`FROM ${from} AS ${aliasRef(b)} WHERE ${join(filters, ' AND ')}${orderBy}`;
  // A `where` is what makes a parameter LIMIT mislead the planner (below); without one, walking
  // the ORDER BY index is right and the plain form is cheaper.
  const filtered = filters.length > conds.length + 1;
  // The numbered rows carry one more column, so `b` no longer passes as the table's row type:
  // tables with computed fields keep the plain form.
  const bound = limit && order.length && filtered && !offset && !distinct && t.computedFields.length === 0
    ? planningBound(args.get('limit'), permLimit ? perm.limit : null, ctx) : null;
  if (limit && order.length && filtered) ctx.hints.valueSensitive = true;
  if (limit && bound !== null) {
    // A LIMIT that is a parameter leaves PostgreSQL guessing that 10% of the rows are wanted, so
    // with a filter it often walks the ORDER BY index and throws most rows away (bench Q4: 2,900
    // rows read for 50). The inner LIMIT is a planning bound instead: a power of two at or above
    // the limit, never the value itself, which stays a parameter and cuts the numbered rows. The
    // plan is then right for the rows wanted, and kept; the row JSON is built for those rows only.
    const n = ident('__kiln_n');
    const numbered = sql`SELECT ${aliasRef(b)}.*, row_number() OVER (ORDER BY ${orderList}) AS ${n} ${scan}${ctx.dialect.page(raw(String(bound)), null)}`;
    return {
      sql: sql`SELECT ${join([...outputs, sql`${aliasRef(b)}.${n} AS ${orderNames[0]!}`], ', ')} FROM (${numbered}) AS ${aliasRef(b)} WHERE ${aliasRef(b)}.${n} <= ${limit}`,
      order: [{ expr: sql`${aliasRef(b)}.${n}`, dir: raw('ASC'), column: null }],
      orderNames: [orderNames[0]!],
    };
  }
  const paged = sql`${scan}${ctx.dialect.page(limit, offset)}`;
  if (!distinct) return { sql: sql`SELECT ${join(cols, ', ')} ${paged}`, order, orderNames };
  // DISTINCT ON: PostgreSQL computes the select list (the row's JSON, nested relationships and
  // all) for every candidate row before it keeps one per key, and does not postpone it as it does
  // for ORDER BY with LIMIT: 16 s instead of 45 ms on chinook (fuzz). So pick the rows first and
  // build their JSON outside; `b.*` keeps the table's columns in order, so `b` still passes as the
  // table's row type (computed fields).
  return { sql: sql`SELECT ${join(cols, ', ')} FROM (SELECT ${distinct}${aliasRef(b)}.* ${paged}) AS ${aliasRef(b)}`, order, orderNames };
}

function distinctOn(t: TableModel, b: Alias, input: Input | undefined, order: readonly OrderItem[], ctx: PlanContext, path: Path): Sql | null {
  if (!input || isNull(input, ctx)) return null;
  const raw_ = valueOf(input, ctx);
  const names = (Array.isArray(raw_) ? raw_ : [raw_]).map(String);
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
  return sql`DISTINCT ON (${join(cols.map((c, i) => lead[i]?.expr ?? sql`${aliasRef(b)}.${ident(c)}`), ', ')}) `;
}

function limitOf(input: Input | undefined, permLimit: number | null, ctx: PlanContext): Sql | null {
  const perm = permLimit === null ? null : param(permLimit, 'int4');
  if (!input || isNull(input, ctx)) return perm;
  if (input.kind === 'ast' && input.node.kind === 'Variable') {
    const v = variable(input.node.name.value, [], 'int4');
    return perm ? sql`LEAST(${v}, ${perm})` : v;
  }
  const n = Number(valueOf(input, ctx));
  return param(permLimit === null ? n : Math.min(n, permLimit), 'int4');
}

/**
 * The least power of two at or above a limit known when planning (a literal, or the role's row
 * limit), for the planner only; null when the limit is a variable with no role limit, or odd.
 */
function planningBound(input: Input | undefined, permLimit: number | null, ctx: PlanContext): number | null {
  let n = permLimit;
  if (input && !isNull(input, ctx) && !(input.kind === 'ast' && input.node.kind === 'Variable')) {
    const v = Number(valueOf(input, ctx));
    n = n === null ? v : Math.min(v, n);
  }
  if (n === null || !Number.isSafeInteger(n) || n < 0 || n > 2 ** 30) return null;
  let bound = 1;
  while (bound < n) bound *= 2;
  return bound;
}

function offsetOf(input: Input | undefined, ctx: PlanContext): Sql | null {
  if (!input || isNull(input, ctx)) return null;
  return leafParam(input, 'int8', ctx);
}

/** A JSON array of rows. */
export function listQuery(t: TableModel, from: Sql, args: ReadonlyMap<string, Input>, f: FieldSel, ctx: PlanContext,
  path: Path, conds: readonly Cond[]): Sql {
  const b = new Alias(t.name);
  const r = new Alias('r');
  const row = rowJson(t, b, collectFields(f.node.selectionSet, typeNameOf(t), ctx), ctx, [...path, 'selectionSet']);
  const src = rowSource(t, from, args, b, [sql`${row} AS ${ROW}`], ctx, path, conds);
  const aggOrder = src.order.length
    ? join(src.order.map((o, i) => sql`${aliasRef(r)}.${src.orderNames[i]!} ${o.dir}`), ', ') : null;
  return sql`(SELECT coalesce(${ctx.dialect.jsonArrayAgg(sql`${aliasRef(r)}.${ROW}`, aggOrder)}, ${ctx.dialect.emptyJsonArray()}) FROM (${src.sql}) AS ${aliasRef(r)})`;
}
