// BigQuery: scalar expressions, row sources and conditions of the query IR as Standard SQL
// fragments. Values are `@p` parameters (cast to the column's type where it is known); tables are
// written `` `dataset.table` ``. What BigQuery has no form for is refused with `not-supported`.

import { slotSql, unreachable } from '../../render-slots.js';
import { templateSql } from '../../template.js';
import { ApiError } from '../../../errors/index.js';
import { Alias, aliasRef, ident, join, param, raw, session, sql, variable, type Sql } from '../../fragment.js';
import type { AggregateFn, CompareOp, Cond, Expr, Slot, Source } from '../../ir/index.js';

/** Something this dialect cannot write: the planner's capabilities should have kept it out. */
export function refuse(what: string): never {
  throw new ApiError('not-supported', `${what} is not supported on a bigquery source`, 400, []);
}

/** A table as one quoted name: `` `dataset.table` `` (as Hasura writes it). */
export function tableSql(schema: string, name: string): Sql {
  return ident(`${schema}.${name}`);
}

/** A scalar expression. */
export function exprSql(e: Expr): Sql {
  switch (e.kind) {
    case 'column': return sql`${aliasRef(e.row)}.${ident(e.column)}`;
    case 'param': return slotSql(e.value, e.type);
    case 'text': return sql`CAST(${exprSql(e.expr)} AS STRING)`;
    case 'aggregate': return aggregateCall(e.fn, exprSql(e.arg));
    case 'count': {
      if (e.args.length === 0) return raw('COUNT(*)');
      if (e.args.length > 1) return refuse('count over several columns');
      return e.distinct ? sql`COUNT(DISTINCT ${exprSql(e.args[0]!)})` : sql`COUNT(${exprSql(e.args[0]!)})`;
    }
    // A column that only some of an inherited role's parents grant: null on the other rows.
    case 'when': return sql`(CASE WHEN ${condSql(e.cond)} THEN ${exprSql(e.expr)} ELSE NULL END)`;
    case 'distinct_count': {
      const rows = sql`SELECT DISTINCT ${join(e.columns.map(exprSql), ', ')} FROM ${sourceSql(e.from)} AS ${aliasRef(e.row)} WHERE ${conjunction(withPermission(e.where, e.permission))}`;
      return sql`(SELECT COUNT(*) FROM (${rows}) AS ${aliasRef(new Alias('distinct'))})`;
    }
    case 'subquery': {
      const limit = e.single ? raw(' LIMIT 1') : raw('');
      return sql`(SELECT ${exprSql(e.value)} FROM ${sourceSql(e.from)} AS ${aliasRef(e.row)} WHERE ${conjunction(withPermission(e.where, e.permission))}${limit})`;
    }
    case 'row': return refuse('a whole-row argument (computed fields)');
    case 'session_json': return refuse('a session argument');
    case 'call': return refuse('a function call');
    case 'cast': return refuse('a cast');
    case 'json_path': return refuse('a JSON path');
    case 'from_geojson': return refuse('GeoJSON');
    default: return unreachable(e);
  }
}

const AGGREGATES: { readonly [fn in AggregateFn]: string } = {
  avg: 'AVG', max: 'MAX', min: 'MIN', sum: 'SUM', stddev: 'STDDEV', stddev_pop: 'STDDEV_POP',
  stddev_samp: 'STDDEV_SAMP', var_pop: 'VAR_POP', var_samp: 'VAR_SAMP', variance: 'VARIANCE',
};

/** An aggregate function applied to `arg`. */
export function aggregateCall(fn: AggregateFn, arg: Sql): Sql {
  return sql`${raw(AGGREGATES[fn])}(${arg})`;
}

/** The FROM item of a row source. */
export function sourceSql(s: Source): Sql {
  switch (s.kind) {
    case 'table': return tableSql(s.table.schema, s.table.name);
    case 'function': return refuse('a function as a row source');
    case 'written': case 'read_through': return refuse('rows of a write');
    // A table's template: a function's (with arguments) is never made for BigQuery, which refuses functions as sources.
    case 'template': return s.of.kind === 'function' ? refuse('a function as a row source') : templateSql(s.template, {}, 'bigquery');
    default: return unreachable(s);
  }
}

function withPermission(where: readonly Cond[], permission: Cond | null): readonly Cond[] {
  return permission ? [...where, permission] : where;
}

/** Conditions joined with AND; TRUE for none. */
export function conjunction(items: readonly Cond[]): Sql {
  return items.length === 0 ? raw('TRUE') : join(items.map(condSql), ' AND ');
}

const COMPARE: { readonly [op in CompareOp]?: string } = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', like: 'LIKE', nlike: 'NOT LIKE' };

/** A condition as a predicate. */
export function condSql(c: Cond): Sql {
  switch (c.kind) {
    case 'true': case 'no_condition': return raw('TRUE');
    case 'and': {
      const parts = c.items.filter((i) => i.kind !== 'true').map(condSql);
      return parts.length === 0 ? raw('TRUE') : parts.length === 1 ? parts[0]! : sql`(${join(parts, ' AND ')})`;
    }
    case 'or': return c.items.length === 0 ? raw('FALSE') : sql`(${join(c.items.map(condSql), ' OR ')})`;
    case 'not': return sql`(NOT ${condSql(c.item)})`;
    case 'equals': return sql`${exprSql(c.left)} = ${exprSql(c.right)}`;
    case 'compare': return compareSql(c.op, exprSql(c.left), exprSql(c.right));
    case 'is_null': return c.isNull ? sql`(${exprSql(c.expr)} IS NULL)` : sql`(${exprSql(c.expr)} IS NOT NULL)`;
    case 'is_null_is': return sql`((${exprSql(c.expr)} IS NULL) = ${exprSql(c.value)})`;
    case 'in': return sql`(${exprSql(c.left)} ${raw(c.negated ? 'NOT IN' : 'IN')} UNNEST(${exprSql(c.list)}))`;
    case 'in_list': return sql`(${exprSql(c.left)} ${raw(c.negated ? 'NOT IN' : 'IN')} (${join(c.items.map(exprSql), ', ')}))`;
    case 'exists': return sql`EXISTS (SELECT 1 FROM ${sourceSql(c.from)} AS ${aliasRef(c.row)} WHERE ${conjunction(existsWhere(c))})`;
    case 'template': return templateSql(c.template, { row: c.row, root: c.root }, 'bigquery');
    case 'row_present': return refuse('a single-row function');
    case 'in_arrays': return refuse('_in on an array column');
    case 'has_key': return refuse('a JSON key operator');
    case 'spatial': case 'raster_intersects': return refuse('a spatial operator');
    default: return unreachable(c);
  }
}

// LIKE is case-sensitive; `_ilike` compares lower-cased; the regex operators are RE2 (REGEXP_CONTAINS).
function compareSql(op: CompareOp, left: Sql, right: Sql): Sql {
  const plain = COMPARE[op];
  if (plain) return sql`(${left} ${raw(plain)} ${right})`;
  switch (op) {
    case 'ilike': return sql`(LOWER(${left}) LIKE LOWER(${right}))`;
    case 'nilike': return sql`(LOWER(${left}) NOT LIKE LOWER(${right}))`;
    case 'regex': return sql`REGEXP_CONTAINS(${left}, ${right})`;
    case 'nregex': return sql`(NOT REGEXP_CONTAINS(${left}, ${right}))`;
    case 'iregex': return sql`REGEXP_CONTAINS(${left}, CONCAT('(?i)', ${right}))`;
    case 'niregex': return sql`(NOT REGEXP_CONTAINS(${left}, CONCAT('(?i)', ${right})))`;
    default: return refuse(`the operator _${op}`);
  }
}

function existsWhere(c: Extract<Cond, { kind: 'exists' }>): readonly Cond[] {
  const guarded: Cond[] = c.permission && c.where ? [{ kind: 'and', items: [c.permission, c.where] }] : c.permission ? [c.permission] : c.where ? [c.where] : [];
  return [...c.join, ...guarded];
}

export { slotSql, unreachable };
