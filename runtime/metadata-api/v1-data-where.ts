// The `where` of the v1 data operations: Hasura's boolean expression with both spellings of
// every operator (`_eq` and `$eq`, `_and` and `$and`), a bare value meaning equality
// (`{"id": 2}`), and relationships followed with EXISTS.

import type { ColumnModel, TableModel } from '../bundle/index.js';
import type { JsonPath } from '../errors/index.js';
import { Alias, aliasRef, ident, join, param, raw, sql, type Sql } from '../sql/index.js';
import { isObject, optional, readArray, readBool, readObject, readString, required } from './v1-data-args.js';
import { permissionFilter, relationshipPermission, tablePermission } from './v1-data-access.js';
import {
  columnOf, fail, joinOn, relationshipOf, requireColumn, selectableColumn, tableArg, tableRef, targetOf, valueFor,
  type DataContext,
} from './v1-data-context.js';

const COMPARE: { readonly [op: string]: string } = {
  eq: '=', ne: '<>', neq: '<>', gt: '>', lt: '<', gte: '>=', lte: '<=',
};
const PATTERN: { readonly [op: string]: string } = {
  like: 'LIKE', nlike: 'NOT LIKE', ilike: 'ILIKE', nilike: 'NOT ILIKE', similar: 'SIMILAR TO', nsimilar: 'NOT SIMILAR TO',
  regex: '~', nregex: '!~', iregex: '~*', niregex: '!~*',
};
const COLUMN_COMPARE: { readonly [op: string]: string } = {
  ceq: '=', cne: '<>', cneq: '<>', cgt: '>', clt: '<', cgte: '>=', clte: '<=',
};
const JSONB: { readonly [op: string]: readonly [string, string] } = {
  contains: ['@>', 'jsonb'], contained_in: ['<@', 'jsonb'], has_key: ['?', 'text'], has_keys_any: ['?|', 'text[]'], has_keys_all: ['?&', 'text[]'],
};
const SPATIAL: { readonly [op: string]: string } = {
  st_contains: 'ST_Contains', st_crosses: 'ST_Crosses', st_equals: 'ST_Equals', st_intersects: 'ST_Intersects',
  st_overlaps: 'ST_Overlaps', st_touches: 'ST_Touches', st_within: 'ST_Within',
};

/** Where a predicate is evaluated: the row alias, and the root row for `["$", col]` references. */
interface Scope {
  readonly table: TableModel;
  readonly alias: Alias;
  readonly rootTable: TableModel;
  readonly root: Alias;
}

/** The predicate of a boolean expression on rows of `t` at alias `a`; `at` is where it sits in `args`. */
export function whereSql(ctx: DataContext, value: unknown, t: TableModel, a: Alias, at: JsonPath): Sql {
  return boolExp(ctx, value, { table: t, alias: a, rootTable: t, root: a }, at);
}

function boolExp(ctx: DataContext, value: unknown, scope: Scope, at: JsonPath): Sql {
  const o = readObject(value, at);
  const parts: Sql[] = [];
  for (const [key, v] of Object.entries(o)) {
    const p = [...at, key];
    const name = key.replace(/^[$_]/, '');
    if ((key.startsWith('$') || key.startsWith('_')) && (name === 'and' || name === 'or')) {
      const items = readArray(v, p).map((item, i) => boolExp(ctx, item, scope, [...p, i]));
      if (name === 'and') parts.push(items.length === 0 ? raw('true') : sql`(${join(items, ' AND ')})`);
      else parts.push(items.length === 0 ? raw('false') : sql`(${join(items, ' OR ')})`);
    } else if ((key === '$not' || key === '_not')) {
      parts.push(sql`(NOT ${boolExp(ctx, v, scope, p)})`);
    } else if (key === '$exists' || key === '_exists') {
      parts.push(existsSql(ctx, v, scope, p));
    } else {
      parts.push(fieldSql(ctx, key, v, scope, p));
    }
  }
  return parts.length === 0 ? raw('true') : parts.length === 1 ? parts[0]! : sql`(${join(parts, ' AND ')})`;
}

function existsSql(ctx: DataContext, value: unknown, scope: Scope, at: JsonPath): Sql {
  const o = readObject(value, at);
  const t = tableArg(ctx, o['_table'], [...at, '_table']);
  const perm = tablePermission(ctx, t, 'select', [...at, '_table']);
  const b = new Alias(t.name);
  const inner = boolExp(ctx, o['_where'] ?? {}, { ...scope, table: t, alias: b }, [...at, '_where']);
  const filter = permissionFilter(ctx, perm, b);
  return sql`EXISTS (SELECT 1 FROM ${tableRef(t)} AS ${aliasRef(b)} WHERE ${filter ? sql`${inner} AND ${filter}` : inner})`;
}

function fieldSql(ctx: DataContext, key: string, value: unknown, scope: Scope, at: JsonPath): Sql {
  const column = columnOf(scope.table, key);
  if (column) {
    // A role filters only by the columns it may select (Hasura's checkOnColExp).
    if (ctx.access.kind === 'role') selectableColumn(ctx, scope.table, key, at);
    return columnSql(ctx, column, value, scope, at);
  }
  const rel = relationshipOf(scope.table, key);
  if (!rel) throw fail(ctx, 'not-exists', `column ${JSON.stringify(key)} does not exist`, at);
  const target = targetOf(ctx, rel);
  const perm = relationshipPermission(ctx, rel, target, at);
  const b = new Alias(target.name);
  const inner = boolExp(ctx, value, { ...scope, table: target, alias: b }, at);
  const filter = permissionFilter(ctx, perm, b);
  const conds = [...joinOn(rel, scope.alias, b), inner, ...(filter ? [filter] : [])];
  return sql`EXISTS (SELECT 1 FROM ${tableRef(target)} AS ${aliasRef(b)} WHERE ${join(conds, ' AND ')})`;
}

function columnSql(ctx: DataContext, c: ColumnModel, value: unknown, scope: Scope, at: JsonPath): Sql {
  const ref = sql`${aliasRef(scope.alias)}.${ident(c.name)}`;
  // A bare value (or a list, or any value of a JSON column that is not an operator object) is equality.
  if (!isObject(value) || !Object.keys(value).every((k) => /^[$_]/.test(k))) {
    return value === null ? sql`(${ref} IS NULL)` : sql`(${ref} = ${valueFor(c, value)})`;
  }
  const parts = Object.entries(value).map(([op, v]) => operatorSql(ctx, c, ref, op, v, scope, [...at, op]));
  return parts.length === 0 ? raw('true') : parts.length === 1 ? parts[0]! : sql`(${join(parts, ' AND ')})`;
}

function operatorSql(ctx: DataContext, c: ColumnModel, ref: Sql, op: string, v: unknown, scope: Scope, at: JsonPath): Sql {
  const name = op.slice(1);
  if (COMPARE[name]) return sql`(${ref} ${raw(COMPARE[name]!)} ${valueFor(c, v)})`;
  if (name === 'in' || name === 'nin') {
    const list = readArray(v, at);
    if (list.length === 0) return raw(name === 'in' ? 'false' : 'true');
    const items = join(list.map((x) => valueFor(c, x)), ', ');
    return sql`(${ref} ${raw(name === 'in' ? 'IN' : 'NOT IN')} (${items}))`;
  }
  if (name === 'is_null') {
    return readBool(v, at) ? sql`(${ref} IS NULL)` : sql`(${ref} IS NOT NULL)`;
  }
  if (PATTERN[name]) {
    const left = c.type === 'text' || c.type === 'citext' ? ref : sql`(${ref})::text`;
    return sql`(${left} ${raw(PATTERN[name]!)} ${param(readString(v, at), c.type === 'citext' ? 'citext' : 'text')})`;
  }
  if (COLUMN_COMPARE[name]) return sql`(${ref} ${raw(COLUMN_COMPARE[name]!)} ${otherColumn(ctx, v, scope, at)})`;
  const jsonb = JSONB[name];
  if (jsonb) {
    const [sym, type] = jsonb;
    const arg = param(v, type);
    return sql`(${ref} ${raw(sym)} ${arg})`;
  }
  if (SPATIAL[name]) return sql`${raw(SPATIAL[name]!)}(${ref}, ${valueFor(c, v)})`;
  if (name === 'st_d_within') return dWithin(c, ref, v, at);
  if (name === 'cast') return castSql(ctx, c, ref, v, scope, at);
  throw fail(ctx, 'unexpected-payload', `Unknown operator : ${op}`, at);
}

// The casts `$cast` allows (Hasura's v1 boolean expressions): between the PostGIS types, and jsonb to text.
const CASTS: { readonly [from: string]: readonly string[] } = { geometry: ['geography'], geography: ['geometry'], jsonb: ['text'] };

// `{$cast: {<type>: {<operators>}}}`: the operators apply to the column cast to that type.
function castSql(ctx: DataContext, c: ColumnModel, ref: Sql, v: unknown, scope: Scope, at: JsonPath): Sql {
  const parts = Object.entries(readObject(v, at)).map(([type, ops]) => {
    const from = c.type.split('.').pop()!;
    if (!CASTS[from]?.includes(type)) {
      throw fail(ctx, 'unexpected-payload', `cannot cast column of type ${JSON.stringify(from)} to type ${JSON.stringify(type)}`, at);
    }
    const cast: ColumnModel = { ...c, type };
    const castRef = sql`(${ref})::${ident(type)}`;
    const inner = Object.entries(readObject(ops, [...at, type])).map(([op, x]) => operatorSql(ctx, cast, castRef, op, x, scope, [...at, type, op]));
    return inner.length === 0 ? raw('true') : inner.length === 1 ? inner[0]! : sql`(${join(inner, ' AND ')})`;
  });
  return parts.length === 0 ? raw('true') : parts.length === 1 ? parts[0]! : sql`(${join(parts, ' AND ')})`;
}

// `["$", "col"]` names a column of the root table; a plain name one of the current table.
function otherColumn(ctx: DataContext, v: unknown, scope: Scope, at: JsonPath): Sql {
  if (Array.isArray(v) && v.length === 2 && v[0] === '$') {
    const c = requireColumn(ctx, scope.rootTable, readString(v[1], [...at, 1]), [...at, 1]);
    return sql`${aliasRef(scope.root)}.${ident(c.name)}`;
  }
  const c = requireColumn(ctx, scope.table, readString(v, at), at);
  return sql`${aliasRef(scope.alias)}.${ident(c.name)}`;
}

// `{distance, from, use_spheroid?}` (use_spheroid only means something for geography).
function dWithin(c: ColumnModel, ref: Sql, v: unknown, at: JsonPath): Sql {
  const o = readObject(v, at);
  const distance = param(required(o, 'distance', at, (x) => x), 'float8');
  const from = valueFor(c, required(o, 'from', at, (x) => x));
  const spheroid = optional(o, 'use_spheroid', at, readBool);
  if (spheroid !== undefined) return sql`ST_DWithin(${ref}, ${from}, ${distance}, ${param(spheroid, 'bool')})`;
  return sql`ST_DWithin(${ref}, ${from}, ${distance})`;
}
