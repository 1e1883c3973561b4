// The `where` of the v1 data operations: Hasura's boolean expression with both spellings of
// every operator (`_eq` and `$eq`, `_and` and `$and`), a bare value meaning equality
// (`{"id": 2}`), and relationships followed with EXISTS. Built as IR conditions.

import type { ColumnModel, TableModel } from '../bundle/index.js';
import { asArray, asBool, asObject, asString, isObject, type JsonPath, optional, required } from '../errors/index.js';
import { Alias, type CompareOp, type Cond, type Expr, type SpatialOp } from '../sql/index.js';
import { permissionFilter, relationshipPermission, tablePermission } from './v1-data-access.js';
import {
  columnOf, columnRef, fail, joinOn, paramOf, relationshipOf, requireColumn, selectableColumn, tableArg, tableRef, targetOf, valueFor,
  type DataContext,
} from './v1-data-context.js';

const COMPARE: { readonly [op: string]: CompareOp } = {
  eq: 'eq', ne: 'neq', neq: 'neq', gt: 'gt', lt: 'lt', gte: 'gte', lte: 'lte',
};
const PATTERN: { readonly [op: string]: CompareOp } = {
  like: 'like', nlike: 'nlike', ilike: 'ilike', nilike: 'nilike', similar: 'similar', nsimilar: 'nsimilar',
  regex: 'regex', nregex: 'nregex', iregex: 'iregex', niregex: 'niregex',
};
const COLUMN_COMPARE: { readonly [op: string]: CompareOp } = {
  ceq: 'eq', cne: 'neq', cneq: 'neq', cgt: 'gt', clt: 'lt', cgte: 'gte', clte: 'lte',
};
const SPATIAL: { readonly [op: string]: SpatialOp } = {
  st_contains: 'contains', st_crosses: 'crosses', st_equals: 'equals', st_intersects: 'intersects',
  st_overlaps: 'overlaps', st_touches: 'touches', st_within: 'within', st_3d_intersects: '3d_intersects',
};

/** Where a predicate is evaluated: the row alias, and the root row for `["$", col]` references. */
interface Scope {
  readonly table: TableModel;
  readonly alias: Alias;
  readonly rootTable: TableModel;
  readonly root: Alias;
}

/** The condition of a boolean expression on rows of `t` at alias `a`; `at` is where it sits in `args`. */
export function whereCond(ctx: DataContext, value: unknown, t: TableModel, a: Alias, at: JsonPath): Cond {
  return boolExp(ctx, value, { table: t, alias: a, rootTable: t, root: a }, at);
}

function all(items: readonly Cond[]): Cond {
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

function boolExp(ctx: DataContext, value: unknown, scope: Scope, at: JsonPath): Cond {
  const o = asObject(value, at);
  const parts: Cond[] = [];
  for (const [key, v] of Object.entries(o)) {
    const p = [...at, key];
    const name = key.replace(/^[$_]/, '');
    if ((key.startsWith('$') || key.startsWith('_')) && (name === 'and' || name === 'or')) {
      const items = asArray(v, p).map((item, i) => boolExp(ctx, item, scope, [...p, i]));
      parts.push({ kind: name, items });
    } else if ((key === '$not' || key === '_not')) {
      parts.push({ kind: 'not', item: boolExp(ctx, v, scope, p) });
    } else if (key === '$exists' || key === '_exists') {
      parts.push(existsCond(ctx, v, scope, p));
    } else {
      parts.push(fieldCond(ctx, key, v, scope, p));
    }
  }
  return all(parts);
}

function existsCond(ctx: DataContext, value: unknown, scope: Scope, at: JsonPath): Cond {
  const o = asObject(value, at);
  const t = tableArg(ctx, o['_table'], [...at, '_table']);
  const perm = tablePermission(ctx, t, 'select', [...at, '_table']);
  const b = new Alias(t.name);
  const inner = boolExp(ctx, o['_where'] ?? {}, { ...scope, table: t, alias: b }, [...at, '_where']);
  const filter = permissionFilter(ctx, perm, t, b);
  return { kind: 'exists', from: tableRef(t), row: b, join: [], permission: filter, where: inner };
}

function fieldCond(ctx: DataContext, key: string, value: unknown, scope: Scope, at: JsonPath): Cond {
  const column = columnOf(scope.table, key);
  if (column) {
    // A role filters only by the columns it may select (Hasura's checkOnColExp).
    if (ctx.access.kind === 'role') selectableColumn(ctx, scope.table, key, at);
    return columnCond(ctx, column, value, scope, at);
  }
  const rel = relationshipOf(scope.table, key);
  if (!rel) throw fail(ctx, 'not-exists', `column ${JSON.stringify(key)} does not exist`, at);
  const target = targetOf(ctx, rel);
  const perm = relationshipPermission(ctx, rel, target, at);
  const b = new Alias(target.name);
  const inner = boolExp(ctx, value, { ...scope, table: target, alias: b }, at);
  const filter = permissionFilter(ctx, perm, target, b);
  return { kind: 'exists', from: tableRef(target), row: b, join: joinOn(rel, scope.alias, b), permission: filter, where: inner };
}

function columnCond(ctx: DataContext, c: ColumnModel, value: unknown, scope: Scope, at: JsonPath): Cond {
  const ref = columnRef(scope.alias, c);
  // A bare value (or a list, or any value of a JSON column that is not an operator object) is equality.
  if (!isObject(value) || !Object.keys(value).every((k) => /^[$_]/.test(k))) {
    return value === null ? { kind: 'is_null', expr: ref, isNull: true } : { kind: 'compare', left: ref, op: 'eq', right: valueFor(c, value) };
  }
  return all(Object.entries(value).map(([op, v]) => operatorCond(ctx, c, ref, op, v, scope, [...at, op])));
}

function operatorCond(ctx: DataContext, c: ColumnModel, ref: Expr, op: string, v: unknown, scope: Scope, at: JsonPath): Cond {
  const name = op.slice(1);
  const compare = COMPARE[name];
  if (compare) return { kind: 'compare', left: ref, op: compare, right: valueFor(c, v) };
  if (name === 'in' || name === 'nin') {
    const list = asArray(v, at);
    // An empty list: nothing is in it.
    if (list.length === 0) return name === 'in' ? { kind: 'or', items: [] } : { kind: 'and', items: [] };
    return { kind: 'in_list', left: ref, negated: name === 'nin', items: list.map((x) => valueFor(c, x)) };
  }
  if (name === 'is_null') return { kind: 'is_null', expr: ref, isNull: asBool(v, at) };
  const pattern = PATTERN[name];
  if (pattern) {
    const left: Expr = c.type === 'text' || c.type === 'citext' ? ref : { kind: 'text', expr: ref };
    return { kind: 'compare', left, op: pattern, right: paramOf(asString(v, at), c.type === 'citext' ? 'citext' : 'text') };
  }
  const columnCompare = COLUMN_COMPARE[name];
  if (columnCompare) return { kind: 'compare', left: ref, op: columnCompare, right: otherColumn(ctx, v, scope, at) };
  if (name === 'contains' || name === 'contained_in') return { kind: 'compare', left: ref, op: name, right: paramOf(v, 'jsonb') };
  if (name === 'has_key') return { kind: 'has_key', left: ref, mode: 'one', value: paramOf(v, 'text') };
  if (name === 'has_keys_any' || name === 'has_keys_all') return { kind: 'has_key', left: ref, mode: name === 'has_keys_any' ? 'any' : 'all', value: paramOf(v, 'text[]') };
  const spatial = SPATIAL[name];
  if (spatial) return { kind: 'spatial', op: spatial, left: ref, operand: valueFor(c, v), distance: null, spheroid: null };
  if (name === 'st_d_within' || name === 'st_3d_d_within') return dWithin(c, ref, v, at, name === 'st_d_within' ? 'd_within' : '3d_d_within');
  if (name === 'cast') return castCond(ctx, c, ref, v, scope, at);
  throw fail(ctx, 'unexpected-payload', `Unknown operator : ${op}`, at);
}

// The casts `$cast` allows (Hasura's v1 boolean expressions): between the PostGIS types, and jsonb to text.
const CASTS: { readonly [from: string]: readonly string[] } = { geometry: ['geography'], geography: ['geometry'], jsonb: ['text'] };

// `{$cast: {<type>: {<operators>}}}`: the operators apply to the column cast to that type.
function castCond(ctx: DataContext, c: ColumnModel, ref: Expr, v: unknown, scope: Scope, at: JsonPath): Cond {
  return all(Object.entries(asObject(v, at)).map(([type, ops]) => {
    const from = c.type.split('.').pop()!;
    if (!CASTS[from]?.includes(type)) {
      throw fail(ctx, 'unexpected-payload', `cannot cast column of type ${JSON.stringify(from)} to type ${JSON.stringify(type)}`, at);
    }
    const cast: ColumnModel = { ...c, type };
    const castRef: Expr = { kind: 'cast', expr: ref, type };
    return all(Object.entries(asObject(ops, [...at, type])).map(([op, x]) => operatorCond(ctx, cast, castRef, op, x, scope, [...at, type, op])));
  }));
}

// `["$", "col"]` names a column of the root table; a plain name one of the current table.
function otherColumn(ctx: DataContext, v: unknown, scope: Scope, at: JsonPath): Expr {
  if (Array.isArray(v) && v.length === 2 && v[0] === '$') {
    return columnRef(scope.root, requireColumn(ctx, scope.rootTable, asString(v[1], [...at, 1]), [...at, 1]));
  }
  return columnRef(scope.alias, requireColumn(ctx, scope.table, asString(v, at), at));
}

// `{distance, from, use_spheroid?}` (use_spheroid only means something for geography).
function dWithin(c: ColumnModel, ref: Expr, v: unknown, at: JsonPath, op: 'd_within' | '3d_d_within'): Cond {
  const o = asObject(v, at);
  const distance = paramOf(required(o, 'distance', at, (x) => x), 'float8');
  const from = valueFor(c, required(o, 'from', at, (x) => x));
  const spheroid = optional(o, 'use_spheroid', at, asBool);
  return { kind: 'spatial', op, left: ref, operand: from, distance, spheroid: spheroid === undefined || op !== 'd_within' ? null : paramOf(spheroid, 'bool') };
}
