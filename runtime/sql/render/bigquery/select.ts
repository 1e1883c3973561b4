// BigQuery: the selects of the query IR as Standard SQL that returns typed rows (BigQuery cannot
// be asked for Hasura's JSON): one row whose column `f<i>` is root field i, a STRUCT per object
// (its field `f<i>` is the shape's field i) and an ARRAY of STRUCTs per list. response.ts walks the
// same IR over that row to write the JSON.
//
// As Hasura's BigQuery backend writes it: rows are numbered with ROW_NUMBER() OVER (PARTITION BY
// <relationship keys> ORDER BY <order>), the row number cuts offset and limit, array
// relationships are ARRAY_AGG(STRUCT(...) ORDER BY row number) grouped by the keys and LEFT JOINed
// on them, object relationships are LEFT JOINs of their first row. Root fields have no keys: their
// value is a scalar subquery.

import { Alias, aliasRef, ident, join, param, raw, sql, variable, type Sql } from '../../fragment.js';
import type { RenderContext } from '../../dialect.js';
import type {
  AggregateSelect, Cond, Expr, JsonField, JsonObject, JsonValue, ListSelect, ObjectSelect, OrderDir, Permission, RowSet, Source,
} from '../../ir/index.js';
import { aggregateCall, condSql, exprSql, refuse, slotSql, sourceSql, unreachable } from './scalar.js';

const DIRS: { readonly [d in OrderDir]: string } = {
  asc_nulls_last: 'ASC NULLS LAST', asc_nulls_first: 'ASC NULLS FIRST', desc_nulls_first: 'DESC NULLS FIRST', desc_nulls_last: 'DESC NULLS LAST',
};

const V = ident('__v');
const RN = ident('__rn');
const DN = ident('__dn');
const field = (i: number): Sql => ident(`f${i}`);
const key = (i: number): Sql => ident(`__k${i}`);

/** The LEFT JOINs one FROM gathers while its select list is written. */
type Joins = Sql[];

/** The statement: one row, root field i in column `f<i>` (fields known at plan time are not selected). */
export function statementSql(fields: readonly JsonField[], rc: RenderContext): Sql {
  const joins: Joins = [];
  const cols = fields.flatMap((f, i) => (f.value.kind === 'name' ? [] : [sql`${valueSql(f.value, joins, rc)} AS ${field(i)}`]));
  if (joins.length) throw new Error('assertion failed: a root field joined to nothing');
  return sql`SELECT ${cols.length ? join(cols, ', ') : sql`1 AS ${ident('f')}`}`;
}

/** One JSON value's typed SQL value, read at the row whose FROM gathers `joins`. */
export function valueSql(v: JsonValue, joins: Joins, rc: RenderContext): Sql {
  switch (v.kind) {
    case 'scalar': return exprSql(v.expr);
    case 'name': return raw('NULL');
    case 'json_text': return slotSql(v.value, 'STRING');
    case 'object': return structSql(v, joins, rc);
    case 'one': return relation(oneRows(v), v.shape, 'one', joins, rc);
    case 'list': return relation(v.rows, v.shape, 'list', joins, rc);
    case 'aggregate': return aggregateSql(v, joins, rc);
    default: return unreachable(v);
  }
}

/** `STRUCT(<value> AS f0, ...)` of an object's fields; names are written by the engine, not selected. */
function structSql(o: JsonObject, joins: Joins, rc: RenderContext): Sql {
  const parts = o.fields.flatMap((f, i) => (f.value.kind === 'name' ? [] : [sql`${valueSql(f.value, joins, rc)} AS ${field(i)}`]));
  return sql`STRUCT(${join(parts, ', ')})`;
}

// An object relationship as a row set of at most one row, with no request arguments.
function oneRows(o: ObjectSelect): RowSet {
  return { from: o.from, row: o.row, join: o.join, permission: o.permission, where: null, order: [], distinctOn: null,
    limit: { kind: 'literal', value: 1 }, offset: null, countsAllRows: false, rowTyped: false };
}

/** Relationship join conditions split into keys (child column = parent value) and plain filters on the child. */
interface Keyed {
  readonly child: readonly Sql[];
  readonly parent: readonly Sql[];
  readonly filters: readonly Cond[];
}

function keysOf(rows: RowSet): Keyed {
  const child: Sql[] = [];
  const parent: Sql[] = [];
  const filters: Cond[] = [];
  const own = (e: Expr): boolean => e.kind === 'column' && e.row === rows.row;
  const outer = (e: Expr): boolean => e.kind === 'column' && e.row !== rows.row;
  for (const c of rows.join) {
    if (c.kind === 'equals' && own(c.left) && outer(c.right)) { child.push(exprSql(c.left)); parent.push(exprSql(c.right)); }
    else if (c.kind === 'equals' && own(c.right) && outer(c.left)) { child.push(exprSql(c.right)); parent.push(exprSql(c.left)); }
    else filters.push(c);
  }
  return { child, parent, filters };
}

/**
 * A row set's rows numbered per parent: `__k<i>` keys, `outputs`, `__rn` (the row's place in the
 * order among its parent's rows); `bounds` is the row-number condition of offset and limit.
 */
function numberedSql(rows: RowSet, keyed: Keyed, outputs: readonly Output[]): { sql: Sql; bounds: Sql | null } {
  const b = rows.row;
  const joins: Joins = [];
  const filters = [...keyed.filters.map(condSql), permissionSql(rows.permission)];
  if (rows.where) filters.push(condSql(rows.where));
  const order = rows.order.map((o, i) => ({ name: ident(`__o${i}`), expr: exprSql(o.expr), dir: raw(DIRS[o.dir]) }));
  const distinct = (rows.distinctOn ?? []).map((e, i) => ({ name: ident(`__d${i}`), expr: exprSql(e) }));
  // The select list is written before the FROM: relationship values add their joins to it.
  const cols = [...keyed.child.map((c, i) => sql`${c} AS ${key(i)}`), ...outputs.map((o) => o(joins)), ...order.map((o) => sql`${o.expr} AS ${o.name}`),
    ...distinct.map((d) => sql`${d.expr} AS ${d.name}`)];
  const base = sql`SELECT ${join(cols, ', ')} FROM ${sourceSql(rows.from as Source)} AS ${aliasRef(b)}${join(joins.map((j) => sql` ${j}`), '')} WHERE ${join(filters, ' AND ')}`;
  const keys = (a: Alias): Sql[] => keyed.child.map((_, i) => sql`${aliasRef(a)}.${key(i)}`);
  const over = (partitionBy: readonly Sql[], a: Alias): Sql => {
    const parts = [...(partitionBy.length ? [sql`PARTITION BY ${join(partitionBy, ', ')}`] : []),
      ...(order.length ? [sql`ORDER BY ${join(order.map((o) => sql`${aliasRef(a)}.${o.name} ${o.dir}`), ', ')}`] : [])];
    return sql`ROW_NUMBER() OVER (${join(parts, ' ')})`;
  };
  let rowsSql = base;
  if (distinct.length) {
    // distinct_on: the first row (in the requested order) of each parent's rows per distinct value, as PostgreSQL's DISTINCT ON.
    const all = new Alias('all');
    const firsts = new Alias('firsts');
    const numberedAll = sql`SELECT ${aliasRef(all)}.*, ${over([...keys(all), ...distinct.map((d) => sql`${aliasRef(all)}.${d.name}`)], all)} AS ${DN} FROM (${base}) AS ${aliasRef(all)}`;
    rowsSql = sql`SELECT ${aliasRef(firsts)}.* FROM (${numberedAll}) AS ${aliasRef(firsts)} WHERE ${aliasRef(firsts)}.${DN} = 1`;
  }
  const inner = new Alias('base');
  const numbered = sql`SELECT ${aliasRef(inner)}.*, ${over(keys(inner), inner)} AS ${RN} FROM (${rowsSql}) AS ${aliasRef(inner)}`;
  return { sql: numbered, bounds: boundsSql(rows) };
}

/** The role's filter, always written (`kiln check` proves it on the IR). */
function permissionSql(p: Permission): Sql {
  return condSql(p.filter);
}

// offset < __rn <= offset + limit, the limit the smaller of the request's and the role's.
function boundsSql(rows: RowSet): Sql | null {
  const permLimit = rows.countsAllRows ? null : rows.permission.limit;
  const perm = permLimit === null ? null : param(permLimit, 'INT64');
  let limit: Sql | null = perm;
  if (rows.limit?.kind === 'variable') {
    const v = variable(rows.limit.name, [], 'INT64');
    limit = perm ? sql`LEAST(${v}, ${perm})` : v;
  } else if (rows.limit?.kind === 'literal') {
    limit = param(permLimit === null ? rows.limit.value : Math.min(rows.limit.value, permLimit), 'INT64');
  }
  const offset = rows.offset ? exprSql(rows.offset) : null;
  const parts: Sql[] = [];
  if (offset) parts.push(sql`${RN} > ${offset}`);
  if (limit) parts.push(offset ? sql`${RN} <= ${offset} + ${limit}` : sql`${RN} <= ${limit}`);
  return parts.length ? join(parts, ' AND ') : null;
}

/**
 * A relationship (or a root field, when it has no keys) whose value is one column `__v` per parent:
 * LEFT JOINed on the keys into `joins`, else a scalar subquery.
 */
function relation(rows: RowSet, shape: JsonObject, kind: 'one' | 'list', joins: Joins, rc: RenderContext): Sql {
  const keyed = keysOf(rows);
  const n = numberedSql(rows, keyed, [(j) => sql`${structSql(shape, j, rc)} AS ${V}`]);
  const r = new Alias('n');
  const keys = keyed.child.map((_, i) => sql`${aliasRef(r)}.${key(i)}`);
  const where = n.bounds ? sql` WHERE ${n.bounds}` : raw('');
  const grouped = kind === 'one'
    ? sql`SELECT ${join([...keys, sql`${aliasRef(r)}.${V}`], ', ')} FROM (${n.sql}) AS ${aliasRef(r)}${where}`
    : sql`SELECT ${join([...keys, sql`ARRAY_AGG(${aliasRef(r)}.${V} ORDER BY ${aliasRef(r)}.${RN}) AS ${V}`], ', ')} FROM (${n.sql}) AS ${aliasRef(r)}${where}${keys.length ? sql` GROUP BY ${join(keys, ', ')}` : raw('')}`;
  return attach(grouped, keyed, joins);
}

function attach(grouped: Sql, keyed: Keyed, joins: Joins): Sql {
  if (keyed.child.length === 0) {
    const g = new Alias('g');
    return sql`(SELECT ${aliasRef(g)}.${V} FROM (${grouped}) AS ${aliasRef(g)})`;
  }
  const j = new Alias('j');
  joins.push(sql`LEFT JOIN (${grouped}) AS ${aliasRef(j)} ON ${join(keyed.parent.map((p, i) => sql`${aliasRef(j)}.${key(i)} = ${p}`), ' AND ')}`);
  return sql`${aliasRef(j)}.${V}`;
}

/** An output of the numbered rows, written once the FROM that gathers its joins exists. */
type Output = (joins: Joins) => Sql;

// `<t>_aggregate`: the aggregate functions and `nodes` over the numbered rows, grouped per parent;
// a `nodes` list of its own (the role's limit applies to it only) is its own relationship.
function aggregateSql(a: AggregateSelect, joins: Joins, rc: RenderContext): Sql {
  const keyed = keysOf(a.rows);
  const r = new Alias('n');
  const b = a.rows.row;
  const outputs: Output[] = [];
  const colRefs = new Map<string, Sql>();
  const colRef = (column: string): Sql => {
    let name = colRefs.get(column);
    if (!name) {
      name = ident(`__c${colRefs.size}`);
      colRefs.set(column, name);
      const out = sql`${aliasRef(b)}.${ident(column)} AS ${name}`;
      outputs.push(() => out);
    }
    return sql`${aliasRef(r)}.${name}`;
  };
  const grouped: Sql[] = [];
  const outside: { i: number; value: ListSelect }[] = [];
  a.fields.forEach((part, i) => {
    const v = part.value;
    switch (v.kind) {
      case 'name': return;
      case 'list': outside.push({ i, value: v }); return;
      case 'nodes': {
        const name = ident(`__n${i}`);
        outputs.push((j) => sql`${structSql(v.shape, j, rc)} AS ${name}`);
        grouped.push(sql`ARRAY_AGG(${aliasRef(r)}.${name} ORDER BY ${aliasRef(r)}.${RN}) AS ${field(i)}`);
        return;
      }
      case 'functions': {
        const fns = v.fields.flatMap((f, k) => {
          const fv = f.value;
          if (fv.kind === 'name') return [];
          if (fv.kind === 'count') {
            if (fv.columns.length > 1) return refuse('count over several columns');
            const target = fv.columns.length ? colRef(fv.columns[0]!) : null;
            const call = target === null ? raw('COUNT(*)') : fv.distinct ? sql`COUNT(DISTINCT ${target})` : sql`COUNT(${target})`;
            return [sql`${call} AS ${field(k)}`];
          }
          const cols = fv.fields.flatMap((c, m) => (c.value.kind === 'name' ? [] : [sql`${aggregateCall(fv.fn, colRef(c.value.column))} AS ${field(m)}`]));
          return [sql`STRUCT(${join(cols, ', ')}) AS ${field(k)}`];
        });
        grouped.push(sql`STRUCT(${join(fns, ', ')}) AS ${field(i)}`);
        return;
      }
      default: unreachable(v);
    }
  });
  if (outputs.length === 0) outputs.push(() => sql`1 AS ${ident('__one')}`);
  const n = numberedSql(a.rows, keyed, outputs);
  const keys = keyed.child.map((_, i) => sql`${aliasRef(r)}.${key(i)}`);
  const where = n.bounds ? sql` WHERE ${n.bounds}` : raw('');
  const value = sql`STRUCT(${grouped.length ? join(grouped, ', ') : sql`1 AS ${ident('__one')}`}) AS ${V}`;
  const q = sql`SELECT ${join([...keys, value], ', ')} FROM (${n.sql}) AS ${aliasRef(r)}${where}${keys.length ? sql` GROUP BY ${join(keys, ', ')}` : raw('')}`;
  const main = attach(q, keyed, joins);
  if (outside.length === 0) return main;
  // The aggregate's STRUCT put together at the parent: its grouped parts, and the lists beside them.
  const parts = a.fields.flatMap((part, i) => {
    if (part.value.kind === 'name') return [];
    const list = outside.find((o) => o.i === i);
    return [list ? sql`${relation(list.value.rows, list.value.shape, 'list', joins, rc)} AS ${field(i)}` : sql`${main}.${field(i)} AS ${field(i)}`];
  });
  return sql`STRUCT(${join(parts, ', ')})`;
}
