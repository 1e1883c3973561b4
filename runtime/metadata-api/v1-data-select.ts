// `select` and `count` of the v1 query API. The database builds the answer: a JSON array of
// objects keyed by column name (relationships by their name or `alias`), nested object and
// array relationships as sub-selects, each with its own where, order_by, limit and offset.
// For a role, every table reached is read through the role's select permission on it.

import type { SelectPermissionModel, TableModel } from '../bundle/index.js';
import { asArray, asInt, asObject, asString, isObject, type JsonPath, optional, parseFailed, required } from '../errors/index.js';
import { Alias, aliasRef, ident, join, jsonKey, param, raw, sql, type Sql } from '../sql/index.js';
import { type Obj } from './v1-data-args.js';
import { cappedLimit, permissionFilter, relationshipPermission, requireSessionVariables, tablePermission } from './v1-data-access.js';
import {
  columnJson, fail, joinOn, keyOf, relationshipOf, requireColumn, selectableColumn, starColumns, tableArg, tableRef, targetOf,
  type DataContext,
} from './v1-data-context.js';
import { whereSql } from './v1-data-where.js';

/** An ORDER BY item, printed for whichever alias the rows are read through. */
type OrderItem = (a: Alias) => Sql;

/** The statement of a `select`: one row, one column, the JSON array as text. */
export function selectStatement(ctx: DataContext, args: unknown): Sql {
  const o = asObject(args, [], 'SelectQuery');
  const t = tableArg(ctx, o['table'], ['table']);
  const perm = tablePermission(ctx, t, 'select');
  requireSessionVariables(ctx, perm);
  const a = new Alias(t.name);
  const rows = listQuery(ctx, t, perm, o, [], a, []);
  return sql`SELECT (${rows})::text`;
}

/** The statement of a `count`: `{"count": n}` as text; `distinct` counts distinct values of those columns. */
export function countStatement(ctx: DataContext, args: unknown): Sql {
  const o = asObject(args, [], 'CountQuery');
  const t = tableArg(ctx, o['table'], ['table']);
  const perm = tablePermission(ctx, t, 'count');
  const a = new Alias(t.name);
  const filters = [permissionFilter(ctx, perm, a), has(o, 'where') ? whereSql(ctx, o['where'], t, a, ['where']) : null]
    .filter((f): f is Sql => f !== null);
  const where = filters.length === 0 ? raw('true') : join(filters, ' AND ');
  const distinct = optional(o, 'distinct', [], asArray);
  const from = sql`${tableRef(t)} AS ${aliasRef(a)} WHERE ${where}`;
  if (distinct === undefined || distinct.length === 0) {
    return sql`SELECT json_build_object(${jsonKey('count')}, count(*))::text FROM ${from}`;
  }
  const cols = distinct.map((d, i) => {
    const c = selectableColumn(ctx, t, asString(d, ['distinct', i]), ['distinct', i]);
    return sql`${aliasRef(a)}.${ident(c.name)}`;
  });
  const d = new Alias('distinct');
  return sql`SELECT json_build_object(${jsonKey('count')}, count(*))::text FROM (SELECT DISTINCT ${join(cols, ', ')} FROM ${from}) AS ${aliasRef(d)}`;
}

function has(o: Obj, key: string): boolean {
  return o[key] !== undefined && o[key] !== null;
}

/**
 * `coalesce(json_agg(row ORDER BY ...), '[]')` over the rows of `t` that pass `where` (and
 * `conds`, the join to the parent row, and the role's filter), ordered, limited and offset as
 * `o` asks; the role's limit caps the limit.
 */
function listQuery(ctx: DataContext, t: TableModel, perm: SelectPermissionModel | null, o: Obj, at: JsonPath, a: Alias, conds: readonly ((b: Alias) => Sql)[]): Sql {
  const b = new Alias(t.name);
  const filters = [
    ...conds.map((c) => c(b)),
    ...(has(o, 'where') ? [whereSql(ctx, o['where'], t, b, [...at, 'where'])] : []),
    ...optionalSql(permissionFilter(ctx, perm, b)),
  ];
  const order = has(o, 'order_by') ? orderBy(ctx, t, o['order_by'], [...at, 'order_by']) : [];
  const requested = pageValue(ctx, o, 'limit', at);
  const capped = cappedLimit(requested, perm);
  const limit = capped === undefined ? null : param(capped, 'int8');
  const offset = pageSql(pageValue(ctx, o, 'offset', at));
  const row = rowJson(ctx, t, o, at, a);
  const where = filters.length === 0 ? raw('') : sql` WHERE ${join(filters, ' AND ')}`;
  const orderClause = (x: Alias): Sql | null => (order.length === 0 ? null : join(order.map((item) => item(x)), ', '));
  const innerOrder = orderClause(b);
  const inner = sql`SELECT * FROM ${tableRef(t)} AS ${aliasRef(b)}${where}${innerOrder ? sql` ORDER BY ${innerOrder}` : raw('')}${ctx.dialect.page(limit, offset)}`;
  return sql`(SELECT coalesce(${ctx.dialect.jsonArrayAgg(row, orderClause(a))}, ${ctx.dialect.emptyJsonArray()}) FROM (${inner}) AS ${aliasRef(a)})`;
}

function pageValue(ctx: DataContext, o: Obj, key: 'limit' | 'offset', at: JsonPath): number | undefined {
  const n = optional(o, key, at, asInt);
  if (n !== undefined && n < 0) throw fail(ctx, 'not-supported', 'unexpected negative value', [...at, key]);
  return n;
}

function pageSql(n: number | undefined): Sql | null {
  return n === undefined ? null : param(n, 'int8');
}

function optionalSql(s: Sql | null): Sql[] {
  return s === null ? [] : [s];
}

/** The JSON object of one row of `t` at alias `a`: the columns and relationships `o.columns` names. */
function rowJson(ctx: DataContext, t: TableModel, o: Obj, at: JsonPath, a: Alias): Sql {
  const columns = required(o, 'columns', at, asArray);
  const pairs: (readonly [Sql, Sql])[] = [];
  columns.forEach((col, i) => {
    const p = [...at, 'columns', i];
    if (col === '*') {
      for (const c of starColumns(ctx, t)) pairs.push([keyOf(c.name), columnJson(ctx, c, a)]);
    } else if (typeof col === 'string') {
      const c = selectableColumn(ctx, t, col, p);
      pairs.push([keyOf(c.name), columnJson(ctx, c, a)]);
    } else if (isObject(col)) {
      pairs.push(relationshipPair(ctx, t, col, p, a));
    } else {
      asObject(col, p, 'SelCol');
    }
  });
  if (pairs.length === 0) return sql`'{}'::json`;
  return ctx.dialect.jsonObject(pairs);
}

function relationshipPair(ctx: DataContext, t: TableModel, o: Obj, at: JsonPath, a: Alias): readonly [Sql, Sql] {
  const name = required(o, 'name', at, asString);
  const alias = optional(o, 'alias', at, asString) ?? name;
  const rel = relationshipOf(t, name);
  if (!rel) throw fail(ctx, 'not-exists', `relationship ${JSON.stringify(name)} does not exist`, [...at, 'name']);
  const target = targetOf(ctx, rel);
  const perm = relationshipPermission(ctx, rel, target, at);
  const on = (b: Alias): Sql => join(joinOn(rel, a, b), ' AND ');
  if (rel.kind === 'array') return [keyOf(alias), listQuery(ctx, target, perm, o, at, new Alias(target.name), [on])];
  const b = new Alias(target.name);
  const filters = [
    on(b),
    ...(has(o, 'where') ? [whereSql(ctx, o['where'], target, b, [...at, 'where'])] : []),
    ...optionalSql(permissionFilter(ctx, perm, b)),
  ];
  const row = rowJson(ctx, target, o, at, b);
  return [keyOf(alias), sql`(SELECT ${row} FROM ${tableRef(target)} AS ${aliasRef(b)} WHERE ${join(filters, ' AND ')} LIMIT 1)`];
}

/**
 * `order_by`: `"+name"`, `"-id"`, a list of those, or `{column, type: asc|desc, nulls: first|last}`
 * items. A column may be reached through object relationships: `"author.name"`.
 */
function orderBy(ctx: DataContext, t: TableModel, value: unknown, at: JsonPath): OrderItem[] {
  const items = Array.isArray(value) ? value.map((v, i) => [v, [...at, i]] as const) : [[value, at] as const];
  return items.map(([v, p]) => orderItem(ctx, t, v, p));
}

function orderItem(ctx: DataContext, t: TableModel, v: unknown, at: JsonPath): OrderItem {
  if (typeof v === 'string') {
    const m = /^([+-]?)(.*)$/s.exec(v)!;
    return orderColumn(ctx, t, m[2]!, m[1] === '-' ? 'DESC' : 'ASC', null, at);
  }
  const o = asObject(v, at, 'OrderByItem');
  const column = required(o, 'column', at, asString);
  const type = optional(o, 'type', at, asString) ?? 'asc';
  if (type !== 'asc' && type !== 'desc') throw parseFailed([...at, 'type'], `expecting "asc" or "desc" for type, found ${JSON.stringify(type)}`);
  const nulls = optional(o, 'nulls', at, asString);
  if (nulls !== undefined && nulls !== 'first' && nulls !== 'last') {
    throw parseFailed([...at, 'nulls'], `expecting "first" or "last" for nulls, found ${JSON.stringify(nulls)}`);
  }
  return orderColumn(ctx, t, column, type === 'desc' ? 'DESC' : 'ASC', nulls === undefined ? null : nulls === 'first' ? 'FIRST' : 'LAST', at);
}

function orderColumn(ctx: DataContext, t: TableModel, path: string, dir: 'ASC' | 'DESC', nulls: 'FIRST' | 'LAST' | null, at: JsonPath): OrderItem {
  const parts = path.split('.');
  const tail = raw(` ${dir}${nulls ? ` NULLS ${nulls}` : ''}`);
  const value = valueThrough(ctx, t, parts, at);
  return (a) => sql`${value(a)}${tail}`;
}

// The value of `parts` (object relationships, then a column) from a row at the given alias. A
// role orders only by columns it may select, through rows of the target its filter lets it see.
function valueThrough(ctx: DataContext, t: TableModel, parts: readonly string[], at: JsonPath): (a: Alias) => Sql {
  const [first, ...rest] = parts;
  if (rest.length === 0) {
    const c = requireColumn(ctx, t, first!, at);
    if (ctx.access.kind === 'role') selectableColumn(ctx, t, c.name, at);
    return (a) => sql`${aliasRef(a)}.${ident(c.name)}`;
  }
  const rel = relationshipOf(t, first!);
  if (!rel || rel.kind !== 'object') throw fail(ctx, 'not-exists', `relationship ${JSON.stringify(first)} does not exist`, at);
  const target = targetOf(ctx, rel);
  const perm = relationshipPermission(ctx, rel, target, at);
  const inner = valueThrough(ctx, target, rest, at);
  return (a) => {
    const b = new Alias(target.name);
    const conds = [...joinOn(rel, a, b), ...optionalSql(permissionFilter(ctx, perm, b))];
    return sql`(SELECT ${inner(b)} FROM ${tableRef(target)} AS ${aliasRef(b)} WHERE ${join(conds, ' AND ')} LIMIT 1)`;
  };
}
