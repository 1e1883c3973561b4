// SQL Server: the selects of the query IR as T-SQL in the shape Hasura's MSSQL backend writes.
// The database builds the JSON: a list is `SELECT <cols> ... FOR JSON PATH, INCLUDE_NULL_VALUES`
// (`ISNULL(.., '[]')` when no row), one row adds WITHOUT_ARRAY_WRAPPER, relationships of a row are
// `OUTER APPLY` subqueries, nested JSON is wrapped in JSON_QUERY so it is not escaped as a string.
// Column aliases are the response keys (GraphQL names: no dot, which FOR JSON PATH would nest).

import { Alias, aliasRef, ident, join, jsonKey, param, raw, sql, variable, type Sql } from '../../fragment.js';
import type { RenderContext } from '../../dialect.js';
import type {
  AggregateFnField, AggregateSelect, Expr, JsonField, JsonObject, JsonValue, ListSelect, ObjectSelect, OrderDir, RowSet, ScalarOutput,
} from '../../ir/index.js';
import { aggregateCall, conjunction, exprSql, slotSql, sourceSql, unreachable, unsupported } from './scalar.js';

const ARRAY = raw(' FOR JSON PATH, INCLUDE_NULL_VALUES');
const OBJECT = raw(' FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES');
const JSON_COL = ident('json');

/** The OUTER APPLY subqueries a row's JSON needs; null where no row is in scope (the root). */
type Applies = Sql[] | null;

/** A response key as a column alias. */
function keyAlias(key: string): Sql {
  if (key.includes('.')) unsupported(`the response key "${key}" (FOR JSON PATH reads a dot as nesting)`);
  return ident(key);
}

/** A JSON value of the response, as a column of a FOR JSON select (nested JSON through JSON_QUERY). */
export function jsonSql(v: JsonValue, rc: RenderContext, applies: Applies = null): Sql {
  switch (v.kind) {
    case 'scalar': return scalarOutput(exprSql(v.expr), v.output);
    case 'name': return jsonKey(v.name);
    case 'json_text': return sql`JSON_QUERY(${slotSql(v.value, 'nvarchar(max)')})`;
    case 'object': return sql`JSON_QUERY(${objectSql(v, rc, applies)})`;
    case 'one': return nested(oneSql(v, rc), null, applies);
    case 'list': return nested(listSql(v, rc), raw(`N'[]'`), applies);
    case 'aggregate': return nested(aggregateSql(v, rc), null, applies);
    default: return unreachable(v);
  }
}

// A subquery's JSON in a row: an OUTER APPLY of the row when there is one, else the subquery itself.
function nested(sub: Sql, empty: Sql | null, applies: Applies): Sql {
  let value = sub;
  if (applies) {
    const a = new Alias('rel');
    applies.push(sql` OUTER APPLY (SELECT ${sub} AS ${JSON_COL}) AS ${aliasRef(a)}`);
    value = sql`${aliasRef(a)}.${JSON_COL}`;
  }
  return empty ? sql`JSON_QUERY(ISNULL(${value}, ${empty}))` : sql`JSON_QUERY(${value})`;
}

function scalarOutput(e: Sql, output: ScalarOutput): Sql {
  switch (output) {
    case 'json': return e;
    case 'string': return sql`CAST(${e} AS nvarchar(max))`;
    case 'geojson': return unsupported('GeoJSON output');
    default: return unreachable(output);
  }
}

/** `value AS [key], ...` of an object's fields, in order. */
function columns(fields: readonly JsonField[], rc: RenderContext, applies: Applies): Sql {
  return join(fields.map((f) => sql`${jsonSql(f.value, rc, applies)} AS ${keyAlias(f.key)}`), ', ');
}

// An object of values over the row in scope: a FOR JSON select with no FROM of its own (or one of
// a single row when its own relationships need OUTER APPLY).
function objectSql(o: JsonObject, rc: RenderContext, applies: Applies): Sql {
  if (o.fields.length === 0) return raw(`N'{}'`);
  const own: Sql[] = [];
  const cols = columns(o.fields, rc, applies ?? own);
  if (own.length === 0) return sql`(SELECT ${cols}${OBJECT})`;
  return sql`(SELECT ${cols} FROM (SELECT 1 AS [one]) AS ${aliasRef(new Alias('one'))}${join(own, '')}${OBJECT})`;
}

/** The statement whose single value is the JSON object of the root fields. */
export function statementSql(fields: readonly JsonField[], rc: RenderContext): Sql {
  return sql`SELECT (${rootObject(fields, rc)}) AS [data]`;
}

function rootObject(fields: readonly JsonField[], rc: RenderContext): Sql {
  if (fields.length === 0) return raw(`N'{}'`);
  return sql`SELECT ${columns(fields, rc, null)}${OBJECT}`;
}

/** The statement whose single value is one JSON value (the v1 API's answers). */
export function valueStatementSql(value: JsonValue, rc: RenderContext): Sql {
  switch (value.kind) {
    case 'list': return sql`SELECT ISNULL(${listSql(value, rc)}, N'[]') AS [data]`;
    case 'one': return sql`SELECT ISNULL(${oneSql(value, rc)}, N'null') AS [data]`;
    case 'aggregate': return sql`SELECT ${aggregateSql(value, rc)} AS [data]`;
    case 'object': return sql`SELECT ${objectSql(value, rc, null)} AS [data]`;
    default: return sql`SELECT (SELECT ${jsonSql(value, rc)} AS [v] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [data]`;
  }
}

function oneSql(o: ObjectSelect, rc: RenderContext): Sql {
  const applies: Sql[] = [];
  const cols = o.shape.fields.length ? columns(o.shape.fields, rc, applies) : raw('1 AS [__kiln_empty]');
  const where = conjunction([...o.join, o.permission.filter]);
  return sql`(SELECT TOP (1) ${cols} FROM ${sourceSql(o.from)} AS ${aliasRef(o.row)}${join(applies, '')} WHERE ${where}${OBJECT})`;
}

function listSql(l: ListSelect, rc: RenderContext): Sql {
  const applies: Sql[] = [];
  const cols = l.shape.fields.length ? columns(l.shape.fields, rc, applies) : null;
  if (cols === null) unsupported('a list of empty objects');
  return sql`(${rowsSql(l.rows, cols, applies, true)}${ARRAY})`;
}

// SQL Server sorts nulls first ascending and last descending, with no NULLS FIRST/LAST: the
// other placement is a leading key `CASE WHEN e IS NULL THEN 1 ELSE 0 END`.
function orderItem(e: Expr, dir: OrderDir): Sql {
  const x = exprSql(e);
  switch (dir) {
    case 'asc_nulls_first': return sql`${x} ASC`;
    case 'desc_nulls_last': return sql`${x} DESC`;
    case 'asc_nulls_last': return sql`CASE WHEN ${x} IS NULL THEN 1 ELSE 0 END, ${x} ASC`;
    case 'desc_nulls_first': return sql`CASE WHEN ${x} IS NULL THEN 0 ELSE 1 END, ${x} DESC`;
    default: return unreachable(dir);
  }
}

/**
 * SELECT <cols> FROM <source> AS <row> <applies> WHERE <join, permission, where> with the order
 * and paging: TOP (n) without an offset, else ORDER BY .. OFFSET .. ROWS FETCH NEXT .. ROWS ONLY
 * (ORDER BY (SELECT NULL) when no order is asked). `ordered`: the ORDER BY is kept without paging
 * too (a FOR JSON list keeps the row order); a derived table may only order to page.
 */
function rowsSql(rows: RowSet, cols: Sql, applies: readonly Sql[], ordered: boolean): Sql {
  if (rows.distinctOn) unsupported('"distinct_on"');
  const filters = [...rows.join, rows.permission.filter, ...(rows.where ? [rows.where] : [])];
  const limit = limitSql(rows, rows.countsAllRows ? null : rows.permission.limit);
  const offset = rows.offset ? exprSql(rows.offset) : null;
  const order = rows.order.length ? join(rows.order.map((o) => orderItem(o.expr, o.dir)), ', ') : null;
  const from = sql`FROM ${sourceSql(rows.from)} AS ${aliasRef(rows.row)}${join(applies, '')} WHERE ${conjunction(filters)}`;
  if (offset) {
    const fetch = limit ? sql` FETCH NEXT ${limit} ROWS ONLY` : raw('');
    return sql`SELECT ${cols} ${from} ORDER BY ${order ?? raw('(SELECT NULL)')} OFFSET ${offset} ROWS${fetch}`;
  }
  const top = limit ? sql`TOP (${limit}) ` : raw('');
  const orderBy = order && (ordered || limit) ? sql` ORDER BY ${order}` : raw('');
  return sql`SELECT ${top}${cols} ${from}${orderBy}`;
}

// The request's limit and the role's row limit: the smaller of both.
function limitSql(rows: RowSet, permLimit: number | null): Sql | null {
  const perm = permLimit === null ? null : param(permLimit, 'int');
  const asked = rows.limit;
  if (!asked) return perm;
  if (asked.kind === 'variable') {
    const v = variable(asked.name, [], 'int');
    return perm ? sql`CASE WHEN ${v} < ${perm} THEN ${v} ELSE ${perm} END` : v;
  }
  return param(permLimit === null ? asked.value : Math.min(asked.value, permLimit), 'int');
}

// `<t>_aggregate`: one JSON object of its parts. The aggregate functions run over the row set as
// a derived table (its columns named __kiln_c<n>), nested objects as dotted FOR JSON PATH aliases;
// `nodes` is a list of its own over the same rows.
function aggregateSql(a: AggregateSelect, rc: RenderContext): Sql {
  const parts = a.fields.map((part): Sql => {
    const v = part.value;
    switch (v.kind) {
      case 'name': return sql`${jsonKey(v.name)} AS ${keyAlias(part.key)}`;
      case 'list': return sql`JSON_QUERY(ISNULL(${listSql(v, rc)}, N'[]')) AS ${keyAlias(part.key)}`;
      case 'nodes': return sql`JSON_QUERY(ISNULL(${listSql({ kind: 'list', rows: a.rows, shape: v.shape }, rc)}, N'[]')) AS ${keyAlias(part.key)}`;
      case 'functions': return sql`JSON_QUERY(${functionsSql(a.rows, v.fields)}) AS ${keyAlias(part.key)}`;
      default: return unreachable(v);
    }
  });
  return sql`(SELECT ${join(parts, ', ')}${OBJECT})`;
}

function functionsSql(rows: RowSet, fields: readonly AggregateFnField[]): Sql {
  const r = new Alias('r');
  const inner: Sql[] = [];
  const names = new Map<string, Sql>();
  const colRef = (column: string): Sql => {
    let name = names.get(column);
    if (!name) {
      name = ident(`__kiln_c${names.size}`);
      names.set(column, name);
      inner.push(sql`${aliasRef(rows.row)}.${ident(column)} AS ${name}`);
    }
    return sql`${aliasRef(r)}.${name}`;
  };
  const out: Sql[] = [];
  for (const f of fields) {
    const v = f.value;
    switch (v.kind) {
      case 'name': out.push(sql`${jsonKey(v.name)} AS ${keyAlias(f.key)}`); break;
      case 'count': {
        const refs = v.columns.map(colRef);
        const count = refs.length === 0 ? raw('COUNT(*)')
          : refs.length > 1 ? (v.distinct ? unsupported('a distinct count of several columns') : raw('COUNT(*)'))
          : v.distinct ? sql`COUNT(DISTINCT ${refs[0]!})` : sql`COUNT(${refs[0]!})`;
        out.push(sql`${count} AS ${keyAlias(f.key)}`);
        break;
      }
      case 'fn': {
        if (v.fields.length === 0) { out.push(sql`JSON_QUERY(N'{}') AS ${keyAlias(f.key)}`); break; }
        for (const c of v.fields) {
          if (f.key.includes('.') || c.key.includes('.')) unsupported(`the response key "${f.key}.${c.key}"`);
          const path = ident(`${f.key}.${c.key}`);
          out.push(c.value.kind === 'name' ? sql`${jsonKey(c.value.name)} AS ${path}`
            : sql`${scalarOutput(aggregateCall(v.fn, colRef(c.value.column)), c.value.output)} AS ${path}`);
        }
        break;
      }
      default: unreachable(v);
    }
  }
  if (inner.length === 0) inner.push(raw('1 AS [__kiln_one]'));
  return sql`(SELECT ${join(out, ', ')} FROM (${rowsSql(rows, join(inner, ', '), [], false)}) AS ${aliasRef(r)}${OBJECT})`;
}

/** A JSON key of the v1 API, which may be any column name: bound as a parameter where not a GraphQL name. */
export function keySql(key: string): Sql {
  return /^[_A-Za-z][_0-9A-Za-z]*$/.test(key) ? jsonKey(key) : param(key, 'nvarchar(max)');
}
