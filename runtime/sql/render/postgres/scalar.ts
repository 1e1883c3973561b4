// PostgreSQL: scalar expressions, row sources and conditions of the query IR as fragments.
// Expressions and conditions nest in each other (subqueries, EXISTS), so they share this file.

import { slotSql, unreachable } from '../../render-slots.js';
import { templateSql } from '../../template.js';
import { Alias, aliasRef, ident, join, param, raw, session, sql, variable, type Sql } from '../../fragment.js';
import type { AggregateFn, ReadThrough, CallExpr, CompareOp, Cond, Expr, Slot, Source, SpatialOp } from '../../ir/index.js';

/** A scalar expression. */
export function exprSql(e: Expr): Sql {
  switch (e.kind) {
    case 'column': return sql`${aliasRef(e.row)}.${ident(e.column)}`;
    case 'row': return aliasRef(e.row);
    case 'param': return slotSql(e.value, e.type);
    case 'session_json': return sql`(${session('*', 'text')})::json`;
    case 'call': return callSql(e);
    case 'text': return sql`(${exprSql(e.expr)})::text`;
    case 'cast': return sql`(${exprSql(e.expr)})::${ident(...e.type.split('.'))}`;
    case 'json_path': return sql`(${exprSql(e.expr)} #> ${exprSql(e.path)})`;
    case 'aggregate': return aggregateCall(e.fn, exprSql(e.arg));
    case 'count': {
      if (e.args.length === 0) return raw('count(*)');
      const args = e.args.map(exprSql);
      const target = args.length === 1 ? args[0]! : sql`(${join(args, ', ')})`;
      return e.distinct ? sql`count(DISTINCT ${target})` : sql`count(${target})`;
    }
    case 'from_geojson': return sql`(${ident('st_geomfromgeojson')}(${exprSql(e.geojson)}))::${ident(...e.type.split('.'))}`;
    case 'when': return sql`(CASE WHEN ${condSql(e.cond)} THEN ${exprSql(e.expr)} ELSE NULL END)`;
    case 'distinct_count': {
      const rows = sql`SELECT DISTINCT ${join(e.columns.map(exprSql), ', ')} FROM ${sourceSql(e.from)} AS ${aliasRef(e.row)} WHERE ${conjunction(withPermission(e.where, e.permission))}`;
      return sql`(SELECT count(*) FROM (${rows}) AS ${aliasRef(new Alias('distinct'))})`;
    }
    case 'subquery': {
      const limit = e.single ? raw(' LIMIT 1') : raw('');
      return sql`(SELECT ${exprSql(e.value)} FROM ${sourceSql(e.from)} AS ${aliasRef(e.row)} WHERE ${conjunction(withPermission(e.where, e.permission))}${limit})`;
    }
    default: return unreachable(e);
  }
}

const AGGREGATES: { readonly [fn in AggregateFn]: string } = {
  avg: 'avg', max: 'max', min: 'min', sum: 'sum', stddev: 'stddev', stddev_pop: 'stddev_pop',
  stddev_samp: 'stddev_samp', var_pop: 'var_pop', var_samp: 'var_samp', variance: 'variance',
};

/** An aggregate function applied to `arg`. */
export function aggregateCall(fn: AggregateFn, arg: Sql): Sql {
  return sql`${raw(AGGREGATES[fn])}(${arg})`;
}

/** `schema.fn(positional, name => value)`. */
export function callSql(c: CallExpr): Sql {
  return sql`${ident(c.fn.schema, c.fn.name)}(${callArgsSql(c.args)})`;
}

// `positional, name => value`: a call's arguments.
function callArgsSql(args: CallExpr['args']): Sql {
  return join(args.map((a) => (a.name === null ? exprSql(a.value) : sql`${ident(a.name)} => ${exprSql(a.value)}`)), ', ');
}

/** The FROM item of a row source. */
export function sourceSql(s: Source): Sql {
  switch (s.kind) {
    case 'table': return ident(s.table.schema, s.table.name);
    case 'function': return callSql(s.call);
    case 'written': {
      const only = s.only === null ? raw('') : raw(s.only === 'inserted' ? ' WHERE "__kiln_inserted"' : ' WHERE NOT "__kiln_inserted"');
      return sql`(SELECT ${columnList(s.columns)} FROM ${aliasRef(s.write)}${only})`;
    }
    case 'read_through': return readThroughSql(s);
    case 'template': return templateSql(s.template, s.of.kind === 'function' ? { args: callArgsSql(s.of.call.args) } : {}, 'postgres');
    default: return unreachable(s);
  }
}

/** `a, b, c`: quoted column names. */
export function columnList(columns: readonly string[]): Sql {
  return join(columns.map((c) => ident(c)), ', ');
}

// The table's rows less those an upsert replaced (matched by primary key), plus the rows written.
function readThroughSql(s: ReadThrough): Sql {
  const cols = columnList(s.columns);
  const replaced = s.written.filter((w) => w.upsert);
  let where: Sql = raw('true');
  if (replaced.length && s.primaryKey.length) {
    const key = columnList(s.primaryKey);
    const pkRef = join(s.primaryKey.map((c) => sql`${aliasRef(s.row)}.${ident(c)}`), ', ');
    where = join(replaced.map((w) => sql`(${pkRef}) NOT IN (SELECT ${key} FROM ${aliasRef(w.write)})`), ' AND ');
  }
  const parts = [sql`SELECT ${cols} FROM ${ident(s.table.schema, s.table.name)} AS ${aliasRef(s.row)} WHERE ${where}`,
    ...s.written.map((w) => sql`SELECT ${cols} FROM ${aliasRef(w.write)}`)];
  return sql`(${join(parts, ' UNION ALL ')})`;
}

function withPermission(where: readonly Cond[], permission: Cond | null): readonly Cond[] {
  return permission ? [...where, permission] : where;
}

// The join, then the permission and the request's condition together.
function existsWhere(c: Extract<Cond, { kind: 'exists' }>): readonly Cond[] {
  const guarded: Cond[] = c.permission && c.where ? [{ kind: 'and', items: [c.permission, c.where] }] : c.permission ? [c.permission] : c.where ? [c.where] : [];
  return [...c.join, ...guarded];
}

/** Conditions joined with AND, as a WHERE clause lists them (no parentheses around the list). */
export function conjunction(items: readonly Cond[]): Sql {
  return join(items.map(condSql), ' AND ');
}

const COMPARE: { readonly [op in CompareOp]: string } = {
  eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=',
  like: 'LIKE', nlike: 'NOT LIKE', ilike: 'ILIKE', nilike: 'NOT ILIKE', similar: 'SIMILAR TO',
  nsimilar: 'NOT SIMILAR TO', regex: '~', nregex: '!~', iregex: '~*', niregex: '!~*',
  contains: '@>', contained_in: '<@', ancestor: '@>', descendant: '<@', matches: '~',
  ancestor_any: '@>', descendant_any: '<@', matches_any: '?', matches_fulltext: '@',
};

const HAS_KEY = { one: '?', any: '?|', all: '?&' } as const;

/** A condition as a predicate. */
export function condSql(c: Cond): Sql {
  switch (c.kind) {
    case 'true': case 'no_condition': return raw('true');
    case 'and': {
      const parts = c.items.filter((i) => i.kind !== 'true').map(condSql);
      return parts.length === 0 ? raw('true') : parts.length === 1 ? parts[0]! : sql`(${join(parts, ' AND ')})`;
    }
    case 'or': return c.items.length === 0 ? raw('false') : sql`(${join(c.items.map(condSql), ' OR ')})`;
    case 'not': return sql`(NOT ${condSql(c.item)})`;
    case 'equals': return sql`${exprSql(c.left)} = ${exprSql(c.right)}`;
    case 'compare': return sql`(${exprSql(c.left)} ${raw(COMPARE[c.op])} ${exprSql(c.right)})`;
    case 'is_null': return c.isNull ? sql`(${exprSql(c.expr)} IS NULL)` : sql`(${exprSql(c.expr)} IS NOT NULL)`;
    case 'row_present': return sql`NOT (${aliasRef(c.row)} IS NULL)`;
    case 'is_null_is': return sql`((${exprSql(c.expr)} IS NULL) = ${exprSql(c.value)})`;
    case 'in': return c.negated ? sql`(${exprSql(c.left)} <> ALL(${exprSql(c.list)}))` : sql`(${exprSql(c.left)} = ANY(${exprSql(c.list)}))`;
    case 'in_list': return sql`(${exprSql(c.left)} ${raw(c.negated ? 'NOT IN' : 'IN')} (${join(c.items.map(exprSql), ', ')}))`;
    case 'in_arrays': {
      // `_text[]` is no type, and ANY() over a 2-D array would compare elements: the list goes as
      // JSON, and each item (a JSON array, or an array literal like "{a,b}") becomes one value.
      const items = sql`SELECT (CASE WHEN jsonb_typeof(e) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(e))::text ELSE e #>> '{}' END)::${ident(...c.itemType.split('.'))} FROM jsonb_array_elements(${exprSql(c.list)}) AS e`;
      return sql`(${exprSql(c.left)} ${raw(c.negated ? 'NOT IN' : 'IN')} (${items}))`;
    }
    case 'has_key': return sql`(${exprSql(c.left)} ${raw(HAS_KEY[c.mode])} ${exprSql(c.value)})`;
    case 'spatial': return spatialSql(c.op, c.left, c.operand, c.distance, c.spheroid);
    case 'raster_intersects': return sql`${ident('st_intersects')}(${join([c.left, ...c.args].map(exprSql), ', ')})`;
    case 'exists': return sql`EXISTS (SELECT 1 FROM ${sourceSql(c.from)} AS ${aliasRef(c.row)} WHERE ${conjunction(existsWhere(c))})`;
    case 'template': return templateSql(c.template, { row: c.row, root: c.root }, 'postgres');
    default: return unreachable(c);
  }
}

const SPATIAL: { readonly [op in Exclude<SpatialOp, 'd_within' | '3d_d_within'>]: string } = {
  contains: 'st_contains', crosses: 'st_crosses', equals: 'st_equals', intersects: 'st_intersects',
  overlaps: 'st_overlaps', touches: 'st_touches', within: 'st_within', '3d_intersects': 'st_3dintersects',
};

// PostGIS: ST_DWithin and ST_3DDWithin take a distance, and ST_DWithin on geography whether to
// measure on the spheroid.
function spatialSql(op: SpatialOp, left: Expr, operand: Expr, distance: Expr | null, spheroid: Expr | null): Sql {
  const geo = exprSql(operand);
  if (op !== 'd_within' && op !== '3d_d_within') return sql`${ident(SPATIAL[op])}(${exprSql(left)}, ${geo})`;
  if (distance === null) throw new Error(`assertion failed: ${op} without a distance`);
  const fn = ident(op === 'd_within' ? 'st_dwithin' : 'st_3ddwithin');
  if (spheroid === null) return sql`${fn}(${exprSql(left)}, ${geo}, ${exprSql(distance)})`;
  return sql`${fn}(${exprSql(left)}, ${geo}, ${exprSql(distance)}, ${exprSql(spheroid)})`;
}

export { slotSql, unreachable };
