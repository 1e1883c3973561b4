// SQL Server: scalar expressions, row sources and conditions of the query IR as T-SQL fragments.
// T-SQL has no boolean values: a condition is a predicate, and `true` is written `1 = 1`. Lists of
// values (`_in`) arrive as one JSON array parameter, read with OPENJSON. What SQL Server cannot
// do (regular expressions, jsonb, PostGIS, functions taking a row) is refused by `unsupported`.

import { slotSql, unreachable } from '../../render-slots.js';
import { templateSql } from '../../template.js';
import { Alias, aliasRef, ident, join, param, raw, session, sql, variable, type Sql } from '../../fragment.js';
import { ApiError } from '../../../errors/index.js';
import { writeTable } from './write-tables.js';
import type { AggregateFn, CallExpr, CompareOp, Cond, Expr, Slot, Source } from '../../ir/index.js';

/** What the T-SQL renderer cannot write: `not-supported` with a clear message, never a statement SQL Server would reject. */
export function unsupported(what: string): never {
  throw new ApiError('not-supported', `${what} is not supported on SQL Server sources`, 400);
}

/** A scalar expression. */
export function exprSql(e: Expr): Sql {
  switch (e.kind) {
    case 'column': return sql`${aliasRef(e.row)}.${ident(e.column)}`;
    case 'param': return slotSql(e.value, e.type);
    case 'session_json': return session('*', 'nvarchar(max)');
    case 'call': return callSql(e);
    case 'text': return sql`CAST(${exprSql(e.expr)} AS nvarchar(max))`;
    case 'aggregate': return aggregateCall(e.fn, exprSql(e.arg));
    case 'count': {
      if (e.args.length === 0) return raw('COUNT(*)');
      if (e.args.length > 1) {
        // A tuple is never null, so counting tuples counts rows; distinct tuples have no COUNT form.
        return e.distinct ? unsupported('a distinct count of several columns') : raw('COUNT(*)');
      }
      return e.distinct ? sql`COUNT(DISTINCT ${exprSql(e.args[0]!)})` : sql`COUNT(${exprSql(e.args[0]!)})`;
    }
    // A column that only some of an inherited role's parents grant: null on the other rows.
    case 'when': return sql`(CASE WHEN ${condSql(e.cond)} THEN ${exprSql(e.expr)} ELSE NULL END)`;
    case 'distinct_count': {
      const cols = join(e.columns.map((c, i) => sql`${exprSql(c)} AS ${ident(`c${i}`)}`), ', ');
      const rows = sql`SELECT DISTINCT ${cols} FROM ${sourceSql(e.from)} AS ${aliasRef(e.row)} WHERE ${conjunction(withPermission(e.where, e.permission))}`;
      return sql`(SELECT COUNT(*) FROM (${rows}) AS ${aliasRef(new Alias('distinct'))})`;
    }
    case 'subquery': {
      const top = e.single ? raw('TOP (1) ') : raw('');
      return sql`(SELECT ${top}${exprSql(e.value)} FROM ${sourceSql(e.from)} AS ${aliasRef(e.row)} WHERE ${conjunction(withPermission(e.where, e.permission))})`;
    }
    case 'row': return unsupported('a function taking a table row (computed field)');
    case 'cast': return unsupported('a type cast');
    case 'json_path': return unsupported('a JSON path argument');
    case 'from_geojson': return unsupported('a GeoJSON value');
    default: return unreachable(e);
  }
}

// SQL Server's AVG of integers is an integer and its STDEV/VAR are float: every one is computed
// over float so that averages keep their fraction, as PostgreSQL's numeric result does.
const AGGREGATES: { readonly [fn in AggregateFn]: readonly [name: string, float: boolean] } = {
  avg: ['AVG', true], max: ['MAX', false], min: ['MIN', false], sum: ['SUM', false],
  stddev: ['STDEV', true], stddev_samp: ['STDEV', true], stddev_pop: ['STDEVP', true],
  variance: ['VAR', true], var_samp: ['VAR', true], var_pop: ['VARP', true],
};

/** An aggregate function applied to `arg`. */
export function aggregateCall(fn: AggregateFn, arg: Sql): Sql {
  const [name, float] = AGGREGATES[fn];
  return float ? sql`${raw(name)}(CAST(${arg} AS float))` : sql`${raw(name)}(${arg})`;
}

/** `[schema].[fn](positional, ...)`: T-SQL functions take no named arguments. */
export function callSql(c: CallExpr): Sql {
  return sql`${ident(c.fn.schema, c.fn.name)}(${callArgsSql(c.args)})`;
}

// A call's arguments, positional only.
function callArgsSql(args: CallExpr['args']): Sql {
  if (args.some((a) => a.name !== null)) unsupported('a function call with named arguments');
  return join(args.map((a) => exprSql(a.value)), ', ');
}

/** The FROM item of a row source. */
export function sourceSql(s: Source): Sql {
  switch (s.kind) {
    case 'table': return ident(s.table.schema, s.table.name);
    case 'function': return callSql(s.call);
    case 'written': {
      const only = s.only === null ? raw('') : raw(s.only === 'inserted' ? ' WHERE [__kiln_action] = N\'INSERT\'' : ' WHERE [__kiln_action] = N\'UPDATE\'');
      return sql`(SELECT ${columnList(s.columns)} FROM ${writeTable(s.write)}${only})`;
    }
    case 'read_through': return unsupported('a nested insert');
    case 'template': return templateSql(s.template, s.of.kind === 'function' ? { args: callArgsSql(s.of.call.args) } : {}, 'mssql');
    default: return unreachable(s);
  }
}

/** `[a], [b], [c]`: quoted column names. */
export function columnList(columns: readonly string[]): Sql {
  return join(columns.map((c) => ident(c)), ', ');
}

function withPermission(where: readonly Cond[], permission: Cond | null): readonly Cond[] {
  return permission ? [...where, permission] : where;
}

function existsWhere(c: Extract<Cond, { kind: 'exists' }>): readonly Cond[] {
  const guarded: Cond[] = c.permission && c.where ? [{ kind: 'and', items: [c.permission, c.where] }] : c.permission ? [c.permission] : c.where ? [c.where] : [];
  return [...c.join, ...guarded];
}

/** Conditions joined with AND (`1 = 1` for none). */
export function conjunction(items: readonly Cond[]): Sql {
  const parts = items.filter((i) => i.kind !== 'true' && i.kind !== 'no_condition');
  return parts.length ? join(parts.map(condSql), ' AND ') : raw('1 = 1');
}

const COMPARE: { readonly [op in CompareOp]?: string } = {
  eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', like: 'LIKE', nlike: 'NOT LIKE',
};

// `_ilike` compares under a case-insensitive, accent-sensitive collation whatever the column's is.
const CI = raw('COLLATE Latin1_General_100_CI_AS');

/** A condition as a predicate. */
export function condSql(c: Cond): Sql {
  switch (c.kind) {
    case 'true': case 'no_condition': return raw('1 = 1');
    case 'and': {
      const parts = c.items.filter((i) => i.kind !== 'true' && i.kind !== 'no_condition');
      if (parts.length === 0) return raw('1 = 1');
      return parts.length === 1 ? condSql(parts[0]!) : sql`(${join(parts.map(condSql), ' AND ')})`;
    }
    case 'or': return c.items.length === 0 ? raw('1 = 0') : sql`(${join(c.items.map(condSql), ' OR ')})`;
    case 'not': return sql`NOT (${condSql(c.item)})`;
    case 'equals': return sql`(${exprSql(c.left)} = ${exprSql(c.right)})`;
    case 'compare': {
      if (c.op === 'ilike' || c.op === 'nilike') {
        return sql`(${exprSql(c.left)} ${CI} ${raw(c.op === 'ilike' ? 'LIKE' : 'NOT LIKE')} ${exprSql(c.right)})`;
      }
      const op = COMPARE[c.op];
      if (!op) return unsupported(`the operator "_${c.op}"`);
      return sql`(${exprSql(c.left)} ${raw(op)} ${exprSql(c.right)})`;
    }
    case 'is_null': return sql`(${exprSql(c.expr)} ${raw(c.isNull ? 'IS NULL' : 'IS NOT NULL')})`;
    case 'is_null_is': {
      const v = exprSql(c.value);
      const e = exprSql(c.expr);
      return sql`((${v} = 1 AND ${e} IS NULL) OR (${v} = 0 AND ${e} IS NOT NULL))`;
    }
    case 'in': return sql`(${exprSql(c.left)} ${raw(c.negated ? 'NOT IN' : 'IN')} (SELECT [value] FROM OPENJSON(${exprSql(c.list)})))`;
    case 'in_list': return sql`(${exprSql(c.left)} ${raw(c.negated ? 'NOT IN' : 'IN')} (${join(c.items.map(exprSql), ', ')}))`;
    case 'exists': return sql`EXISTS (SELECT 1 FROM ${sourceSql(c.from)} AS ${aliasRef(c.row)} WHERE ${conjunction(existsWhere(c))})`;
    case 'template': return templateSql(c.template, { row: c.row, root: c.root }, 'mssql');
    case 'row_present': return unsupported('a single-row function');
    case 'in_arrays': return unsupported('"_in" on an array column');
    case 'has_key': return unsupported('a jsonb key operator');
    case 'spatial': case 'raster_intersects': return unsupported('a PostGIS operator');
    default: return unreachable(c);
  }
}

export { slotSql, unreachable };
