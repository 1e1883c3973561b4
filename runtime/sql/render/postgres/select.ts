// PostgreSQL: the selects of the query IR as one expression each, JSON built by the database
// (json_build_object, json_agg), rows read in a subquery that the planner can merge.

import { Alias, aliasRef, ident, join, jsonKey, param, raw, sql, variable, type Sql } from '../../fragment.js';
import type { RenderContext } from '../../dialect.js';
import type {
  AggregateFnField, AggregatePart, AggregateSelect, JsonField, JsonObject, JsonValue, ListSelect, ObjectSelect, OrderDir, RowSet, ScalarOutput,
} from '../../ir/index.js';
import { columnsRead } from './row-columns.js';
import { aggregateCall, conjunction, condSql, exprSql, slotSql, sourceSql, unreachable } from './scalar.js';

const ROW = ident('__kiln_row');

const DIRS: { readonly [d in OrderDir]: string } = {
  asc_nulls_last: 'ASC NULLS LAST', asc_nulls_first: 'ASC NULLS FIRST', desc_nulls_first: 'DESC NULLS FIRST', desc_nulls_last: 'DESC NULLS LAST',
};

/** A JSON value of the response. */
export function jsonSql(v: JsonValue, rc: RenderContext): Sql {
  switch (v.kind) {
    case 'scalar': return scalarOutput(exprSql(v.expr), v.output);
    case 'name': return jsonKey(v.name);
    case 'json_text': return sql`(${slotSql(v.value, 'text')})::json`;
    case 'object': return objectSql(v, rc);
    case 'one': return oneSql(v, rc);
    case 'list': return listSql(v, rc);
    case 'aggregate': return aggregateSql(v, rc);
    default: return unreachable(v);
  }
}

/** The statement whose single text value is the JSON object of `fields` (the root fields). */
export function statementSql(fields: readonly JsonField[], rc: RenderContext): Sql {
  return sql`SELECT (${objectSql({ kind: 'object', fields }, rc)})::text`;
}

// GeoJSON with 15 digits and the long CRS name, as Hasura v2 prints PostGIS values.
function scalarOutput(e: Sql, output: ScalarOutput): Sql {
  switch (output) {
    case 'json': return e;
    case 'string': return sql`(${e})::text`;
    case 'geojson': return sql`${ident('st_asgeojson')}(${e}, 15, 4)::json`;
    default: return unreachable(output);
  }
}

function objectSql(o: JsonObject, rc: RenderContext): Sql {
  return rc.dialect.jsonObject(o.fields.map((f): readonly [Sql, Sql] => [keySql(f.key), jsonSql(f.value, rc)]));
}

/** A JSON key: a GraphQL name as a literal; any other name (a column of the v1 API) as a parameter. */
export function keySql(key: string): Sql {
  return /^[_A-Za-z][_0-9A-Za-z]*$/.test(key) ? jsonKey(key) : param(key, 'text');
}

/** The statement whose single text value is one JSON value (the v1 API's answers). */
export function valueStatementSql(value: JsonValue, rc: RenderContext): Sql {
  return sql`SELECT (${jsonSql(value, rc)})::text`;
}

function oneSql(o: ObjectSelect, rc: RenderContext): Sql {
  const where = conjunction([...o.join, o.permission.filter]);
  return sql`(SELECT ${objectSql(o.shape, rc)} FROM ${sourceSql(o.from)} AS ${aliasRef(o.row)} WHERE ${where} LIMIT 1)`;
}

// The rows' JSON aggregated in the order asked. Where the row set already comes out in that order
// (its ORDER BY picks the rows: a LIMIT, an OFFSET, DISTINCT ON), json_agg takes them as they come,
// with no ORDER BY of its own: an aggregate with ORDER BY sorts its input again, one more sort per
// list (bench Q4: 7% of PostgreSQL's instructions for the statement). It is the one aggregate of
// its SELECT, over a subquery that PostgreSQL cannot merge into it (the LIMIT, OFFSET or DISTINCT
// keeps it apart) and with nothing between them, so the rows reach it in the subquery's order, as
// PostgreSQL's documentation describes for an aggregate over a sorted subquery. `<t>_aggregate`
// nodes keep their ORDER BY: beside other aggregates (count(DISTINCT ..)), PostgreSQL 16 and later
// may sort the shared input for those.
function listSql(l: ListSelect, rc: RenderContext): Sql {
  const r = new Alias('r');
  const src = rowsSql(l.rows, [sql`${objectSql(l.shape, rc)} AS ${ROW}`], rc, true);
  const order = src.sorted ? null : aggOrder(src, r);
  return sql`(SELECT coalesce(${rc.dialect.jsonArrayAgg(sql`${aliasRef(r)}.${ROW}`, order)}, ${rc.dialect.emptyJsonArray()}) FROM (${src.sql}) AS ${aliasRef(r)})`;
}

/** The rows of a row set with `outputs` and the order keys as columns, and how to order them outside. */
interface RowsSql {
  readonly sql: Sql;
  readonly order: readonly { readonly dir: Sql }[];
  readonly orderNames: readonly Sql[];
  /** The rows come out in the order asked (the ORDER BY is in `sql`); the order keys are then columns only when asked for. */
  readonly sorted: boolean;
}

function aggOrder(src: RowsSql, r: Alias): Sql | null {
  return src.order.length ? join(src.order.map((o, i) => sql`${aliasRef(r)}.${src.orderNames[i]!} ${o.dir}`), ', ') : null;
}

// SELECT <outputs>, <order keys> FROM t WHERE join AND permission AND where ORDER BY .. LIMIT .. OFFSET ..
// `keysIfUnsorted`: the order keys are columns only where the rows do not come out sorted (a list,
// which orders its aggregate by them then); otherwise always (an aggregate's nodes).
function rowsSql(rows: RowSet, outputs: readonly Sql[], rc: RenderContext, keysIfUnsorted = false): RowsSql {
  const b = rows.row;
  const filters = [...rows.join.map(condSql), condSql(rows.permission.filter)];
  if (rows.where) filters.push(condSql(rows.where));
  const order = rows.order.map((o) => ({ expr: exprSql(o.expr), dir: raw(DIRS[o.dir]) }));
  const orderNames = order.map((_, i) => ident(`__kiln_o${i}`));
  const distinct = rows.distinctOn ? sql`DISTINCT ON (${join(rows.distinctOn.map(exprSql), ', ')}) ` : null;
  const orderList = join(order.map((o) => sql`${o.expr} ${o.dir}`), ', ');
  const permLimit = rows.countsAllRows ? null : rows.permission.limit;
  const limit = limitSql(rows, permLimit);
  const offset = rows.offset ? exprSql(rows.offset) : null;
  // The rows are sorted here only when the order picks them: a LIMIT, an OFFSET or DISTINCT ON.
  // Otherwise the consumer orders its aggregate (json_agg(.. ORDER BY ..)): a sort here as well
  // would be done twice, and it keeps PostgreSQL from merging the subquery into its parent. Where
  // they are sorted here, a list takes them in that order (listSql).
  const sorted = order.length > 0 && (limit !== null || offset !== null || distinct !== null);
  const orderBy = sorted ? sql` ORDER BY ${orderList}` : raw('');
  const cols = sorted && keysIfUnsorted ? [...outputs] : [...outputs, ...order.map((o, i) => sql`${o.expr} AS ${orderNames[i]!}`)];
  const scan = sql`FROM ${sourceSql(rows.from)} AS ${aliasRef(b)} WHERE ${join(filters, ' AND ')}${orderBy}`;
  // A `where` is what makes a parameter LIMIT mislead the planner (below); without one, walking
  // the ORDER BY index is right and the plain form is cheaper.
  const filtered = rows.where !== null;
  // The picked rows keep only the columns read outside (pickedColumns), so `b` does not pass as the
  // table's row type: tables with computed fields keep the plain form.
  const bound = limit && order.length && filtered && !offset && !distinct && !rows.rowTyped ? planningBound(rows, permLimit) : null;
  if (limit && order.length && filtered) rc.hints.valueSensitive = true;
  if (limit && bound !== null) {
    // A LIMIT that is a parameter leaves PostgreSQL guessing that 10% of the rows are wanted, so
    // with a filter it often walks the ORDER BY index and throws most rows away (bench Q4: 2,900
    // rows read for 50). The rows are picked under a planning bound instead: a power of two at or
    // above the limit, never the value itself, which stays a parameter. The pick is a MATERIALIZED
    // CTE, which PostgreSQL plans on its own for all its rows (a subquery would be planned for the
    // outer LIMIT's guessed 10%), so its plan is right for the rows wanted, and kept. The outer
    // LIMIT takes the first rows of the CTE, which come in the pick's order; the row JSON is built
    // for those rows only. (It replaces numbering the rows with row_number() and cutting them with
    // `n <= $limit`: the window cost Q4's statement 7% more of PostgreSQL's CPU.)
    const outer = join(cols, ', ');
    const picked = sql`SELECT ${pickedColumns(outer, b)} ${scan}${rc.dialect.page(raw(String(bound)), null)}`;
    return { sql: sql`WITH ${aliasRef(b)} AS MATERIALIZED (${picked}) SELECT ${outer} FROM ${aliasRef(b)} LIMIT ${limit}`, order, orderNames, sorted };
  }
  const paged = sql`${scan}${rc.dialect.page(limit, offset)}`;
  if (!distinct) return { sql: sql`SELECT ${join(cols, ', ')} ${paged}`, order, orderNames, sorted };
  // DISTINCT ON: PostgreSQL computes the select list (the row's JSON, nested relationships and
  // all) for every candidate row before it keeps one per key, and does not postpone it as it does
  // for ORDER BY with LIMIT: 16 s instead of 45 ms on chinook (fuzz). So pick the rows first and
  // build their JSON outside; `b.*` keeps the table's columns in order, so `b` still passes as the
  // table's row type (computed fields).
  return { sql: sql`SELECT ${join(cols, ', ')} FROM (SELECT ${distinct}${aliasRef(b)}.* ${paged}) AS ${aliasRef(b)}`, order, orderNames, sorted };
}

// The columns the CTE of picked rows keeps: those `outer` reads, not the whole row (bench Q4:
// storing every column of track for each picked row cost PostgreSQL 102 µs of CPU per statement,
// the three columns read 95 µs). `b.*` where the outer select reads the row in a way that names no
// column (a whole-row reference), or reads none.
function pickedColumns(outer: Sql, b: Alias): Sql {
  const columns = columnsRead(outer, b);
  if (!columns?.length) return sql`${aliasRef(b)}.*`;
  return join(columns.map((c) => sql`${aliasRef(b)}.${ident(c)}`), ', ');
}

// The request's limit and the role's row limit: the smaller of both.
function limitSql(rows: RowSet, permLimit: number | null): Sql | null {
  const perm = permLimit === null ? null : param(permLimit, 'int4');
  const asked = rows.limit;
  if (!asked) return perm;
  if (asked.kind === 'variable') {
    const v = variable(asked.name, [], 'int4');
    return perm ? sql`LEAST(${v}, ${perm})` : v;
  }
  return param(permLimit === null ? asked.value : Math.min(asked.value, permLimit), 'int4');
}

/**
 * The least power of two at or above a limit known when planning (a literal, or the role's row
 * limit), for the planner only; null when the limit is a variable with no role limit, or odd.
 */
function planningBound(rows: RowSet, permLimit: number | null): number | null {
  let n = permLimit;
  if (rows.limit?.kind === 'literal') n = n === null ? rows.limit.value : Math.min(rows.limit.value, n);
  if (n === null || !Number.isSafeInteger(n) || n < 0 || n > 2 ** 30) return null;
  let bound = 1;
  while (bound < n) bound *= 2;
  return bound;
}

// `<t>_aggregate` as one grouped query over the row set: the columns the aggregates read and the
// JSON of each `nodes` row are outputs of the rows; the aggregates run over them.
function aggregateSql(a: AggregateSelect, rc: RenderContext): Sql {
  const b = a.rows.row;
  const r = new Alias('r');
  const outputs: Sql[] = [];
  const colRefs = new Map<string, Sql>();
  const colRef = (column: string): Sql => {
    let name = colRefs.get(column);
    if (!name) {
      name = ident(`__kiln_c${colRefs.size}`);
      colRefs.set(column, name);
      outputs.push(sql`${aliasRef(b)}.${ident(column)} AS ${name}`);
    }
    return sql`${aliasRef(r)}.${name}`;
  };
  let nodeRows = 0;
  const pairs: (readonly [Sql, Sql])[] = [];
  const deferred: ((src: RowsSql) => void)[] = [];
  for (const part of a.fields) {
    const key = jsonKey(part.key);
    const v = part.value;
    switch (v.kind) {
      case 'name': pairs.push([key, jsonKey(v.name)]); break;
      case 'list': pairs.push([key, listSql(v, rc)]); break;
      case 'nodes': {
        const name = ident(`__kiln_row${nodeRows++}`);
        outputs.push(sql`${objectSql(v.shape, rc)} AS ${name}`);
        const idx = pairs.length;
        pairs.push([key, raw('null')]);
        deferred.push((src) => {
          pairs[idx] = [key, sql`coalesce(${rc.dialect.jsonArrayAgg(sql`${aliasRef(r)}.${name}`, aggOrder(src, r))}, ${rc.dialect.emptyJsonArray()})`];
        });
        break;
      }
      case 'functions': pairs.push([key, functionsSql(v.fields, colRef, rc)]); break;
      default: unreachable(v);
    }
  }
  if (outputs.length === 0) outputs.push(raw('1 AS "__kiln_one"'));
  const src = rowsSql(a.rows, outputs, rc);
  for (const d of deferred) d(src);
  // Without any aggregate function (`aggregate { __typename }`, or `__typename` alone) the SELECT
  // would give one row per source row; GROUP BY () makes it exactly one row, as with aggregates.
  const grouped = nodeRows > 0 || a.fields.some(callsAggregate);
  return sql`(SELECT ${rc.dialect.jsonObject(pairs)} FROM (${src.sql}) AS ${aliasRef(r)}${grouped ? raw('') : raw(' GROUP BY ()')})`;
}

function callsAggregate(part: AggregatePart): boolean {
  return part.value.kind === 'functions' && part.value.fields.some((f) => f.value.kind === 'count'
    || (f.value.kind === 'fn' && f.value.fields.some((c) => c.value.kind === 'column')));
}

function functionsSql(fields: readonly AggregateFnField[], colRef: (column: string) => Sql, rc: RenderContext): Sql {
  const pairs = fields.map((f): readonly [Sql, Sql] => {
    const v = f.value;
    switch (v.kind) {
      case 'name': return [jsonKey(f.key), jsonKey(v.name)];
      case 'count': return [jsonKey(f.key), exprSqlOfCount(v.columns.map(colRef), v.distinct)];
      case 'fn': {
        const inner = v.fields.map((c): readonly [Sql, Sql] => {
          if (c.value.kind === 'name') return [jsonKey(c.key), jsonKey(c.value.name)];
          return [jsonKey(c.key), scalarOutput(aggregateCall(v.fn, colRef(c.value.column)), c.value.output)];
        });
        return [jsonKey(f.key), rc.dialect.jsonObject(inner)];
      }
      default: return unreachable(v);
    }
  });
  return rc.dialect.jsonObject(pairs);
}

function exprSqlOfCount(refs: readonly Sql[], distinct: boolean): Sql {
  if (refs.length === 0) return raw('count(*)');
  const target = refs.length === 1 ? refs[0]! : sql`(${join(refs, ', ')})`;
  return distinct ? sql`count(DISTINCT ${target})` : sql`count(${target})`;
}
