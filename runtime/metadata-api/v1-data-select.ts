// `select` and `count` of the v1 query API, as IR. The database builds the answer: a JSON array
// of objects keyed by column name (relationships by their name or `alias`), nested object and
// array relationships as sub-selects, each with its own where, order_by, limit and offset.
// For a role, every table reached is read through the role's select permission on it.

import type { SelectPermissionModel, TableModel } from '../bundle/index.js';
import { asArray, asInt, asObject, asString, isObject, type JsonPath, optional, parseFailed, required, requiredField } from '../errors/index.js';
import { Alias, type Cond, type Expr, type JsonField, type JsonValue, type ListSelect, type OrderDir, type OrderItem, type Permission } from '../sql/index.js';
import { type Obj } from './v1-data-args.js';
import { permissionFilter, relationshipPermission, requireSessionVariables, tablePermission } from './v1-data-access.js';
import {
  columnJson, columnRef, fail, joinOn, relationshipOf, requireColumn, selectableColumn, starColumns, tableArg, tableRef, targetOf,
  type DataContext,
} from './v1-data-context.js';
import { whereCond } from './v1-data-where.js';

/** An ORDER BY item for whichever alias the rows are read through. */
type OrderOf = (a: Alias) => OrderItem;

/** The answer of a `select`: the JSON array of the rows. */
export function selectValue(ctx: DataContext, args: unknown): JsonValue {
  const o = asObject(args, [], 'SelectQuery');
  const t = tableArg(ctx, o['table'], ['table']);
  const perm = tablePermission(ctx, t, 'select');
  requireSessionVariables(ctx, perm);
  return listSelect(ctx, t, perm, o, [], []);
}

/** The answer of a `count`: `{count: n}`; `distinct` counts distinct values of those columns (a null one too). */
export function countValue(ctx: DataContext, args: unknown): JsonValue {
  const o = asObject(args, [], 'CountQuery');
  const t = tableArg(ctx, o['table'], ['table']);
  const perm = tablePermission(ctx, t, 'count');
  const a = new Alias(t.name);
  const permission = permissionFilter(ctx, perm, t, a);
  const where: Cond[] = has(o, 'where') ? [whereCond(ctx, o['where'], t, a, ['where'])] : permission ? [] : [{ kind: 'true' }];
  const distinct = optional(o, 'distinct', [], asArray);
  let count: Expr;
  if (distinct === undefined || distinct.length === 0) {
    count = { kind: 'subquery', from: tableRef(t), row: a, where, permission, value: { kind: 'count', args: [], distinct: false }, single: false };
  } else {
    const columns = distinct.map((d, i) => columnRef(a, selectableColumn(ctx, t, asString(d, ['distinct', i]), ['distinct', i])));
    count = { kind: 'distinct_count', from: tableRef(t), row: a, where, permission, columns };
  }
  return { kind: 'object', fields: [{ key: 'count', value: { kind: 'scalar', expr: count, output: 'json' } }] };
}

function has(o: Obj, key: string): boolean {
  return o[key] !== undefined && o[key] !== null;
}

// The role's filter and row limit on the rows read (none for admin).
function permissionOf(ctx: DataContext, perm: SelectPermissionModel | null, t: TableModel, b: Alias): Permission {
  return { filter: permissionFilter(ctx, perm, t, b) ?? { kind: 'true' }, limit: perm?.limit ?? null };
}

/**
 * The rows of `t` that pass `where` (and `joins`, the join to the parent row, and the role's
 * filter) as a JSON array, ordered, limited and offset as `o` asks; the role's limit caps the limit.
 */
function listSelect(ctx: DataContext, t: TableModel, perm: SelectPermissionModel | null, o: Obj, at: JsonPath, joins: readonly ((b: Alias) => Cond[])[]): ListSelect {
  const b = new Alias(t.name);
  const join = joins.flatMap((j) => j(b));
  const where = has(o, 'where') ? whereCond(ctx, o['where'], t, b, [...at, 'where']) : null;
  const permission = permissionOf(ctx, perm, t, b);
  const order = has(o, 'order_by') ? orderBy(ctx, t, o['order_by'], [...at, 'order_by']).map((item) => item(b)) : [];
  const limit = pageValue(ctx, o, 'limit', at);
  const offset = pageValue(ctx, o, 'offset', at);
  const shape = rowShape(ctx, t, o, at, b);
  return {
    kind: 'list', shape,
    rows: {
      from: tableRef(t), row: b, join, permission, where, order, distinctOn: null,
      limit: limit === undefined ? null : { kind: 'literal', value: limit },
      offset: offset === undefined ? null : { kind: 'param', value: { kind: 'literal', value: offset }, type: 'int8' },
      countsAllRows: false, rowTyped: t.computedFields.length > 0,
    },
  };
}

function pageValue(ctx: DataContext, o: Obj, key: 'limit' | 'offset', at: JsonPath): number | undefined {
  const n = optional(o, key, at, asInt);
  if (n !== undefined && n < 0) throw fail(ctx, 'not-supported', 'unexpected negative value', [...at, key]);
  return n;
}

/** The JSON object of one row of `t` at alias `a`: the columns and relationships `o.columns` names. */
function rowShape(ctx: DataContext, t: TableModel, o: Obj, at: JsonPath, a: Alias): { kind: 'object'; fields: JsonField[] } {
  const columns = required(o, 'columns', at, asArray);
  const fields: JsonField[] = [];
  columns.forEach((col, i) => {
    const p = [...at, 'columns', i];
    if (col === '*') {
      for (const c of starColumns(ctx, t)) fields.push({ key: c.name, value: columnJson(ctx, c, a) });
    } else if (typeof col === 'string') {
      const c = selectableColumn(ctx, t, col, p);
      fields.push({ key: c.name, value: columnJson(ctx, c, a) });
    } else if (isObject(col)) {
      fields.push(relationshipField(ctx, t, col, p, a));
    } else {
      asObject(col, p, 'SelCol');
    }
  });
  return { kind: 'object', fields };
}

function relationshipField(ctx: DataContext, t: TableModel, o: Obj, at: JsonPath, a: Alias): JsonField {
  const name = requiredField(o, 'name', at, asString);
  const alias = optional(o, 'alias', at, asString) ?? name;
  const rel = relationshipOf(t, name);
  if (!rel) throw fail(ctx, 'not-exists', `relationship ${JSON.stringify(name)} does not exist`, [...at, 'name']);
  const target = targetOf(ctx, rel);
  const perm = relationshipPermission(ctx, rel, target, at);
  const on = (b: Alias): Cond[] => joinOn(rel, a, b);
  if (rel.kind === 'array') return { key: alias, value: listSelect(ctx, target, perm, o, at, [on]) };
  const b = new Alias(target.name);
  const join = [...on(b), ...(has(o, 'where') ? [whereCond(ctx, o['where'], target, b, [...at, 'where'])] : [])];
  const permission = permissionOf(ctx, perm, target, b);
  return { key: alias, value: { kind: 'one', from: tableRef(target), row: b, join, permission, shape: rowShape(ctx, target, o, at, b) } };
}

/**
 * `order_by`: `"+name"`, `"-id"`, a list of those, or `{column, type: asc|desc, nulls: first|last}`
 * items. A column may be reached through object relationships: `"author.name"`.
 */
function orderBy(ctx: DataContext, t: TableModel, value: unknown, at: JsonPath): OrderOf[] {
  const items = Array.isArray(value) ? value.map((v, i) => [v, [...at, i]] as const) : [[value, at] as const];
  return items.map(([v, p]) => orderItem(ctx, t, v, p));
}

function orderItem(ctx: DataContext, t: TableModel, v: unknown, at: JsonPath): OrderOf {
  if (typeof v === 'string') {
    const m = /^([+-]?)(.*)$/s.exec(v)!;
    return orderColumn(ctx, t, m[2]!, m[1] === '-' ? 'desc' : 'asc', null, at);
  }
  const o = asObject(v, at, 'OrderByItem');
  const column = requiredField(o, 'column', at, asString);
  const type = optional(o, 'type', at, asString) ?? 'asc';
  if (type !== 'asc' && type !== 'desc') throw parseFailed([...at, 'type'], `expecting "asc" or "desc" for type, found ${JSON.stringify(type)}`);
  const nulls = optional(o, 'nulls', at, asString);
  if (nulls !== undefined && nulls !== 'first' && nulls !== 'last') {
    throw parseFailed([...at, 'nulls'], `expecting "first" or "last" for nulls, found ${JSON.stringify(nulls)}`);
  }
  return orderColumn(ctx, t, column, type, nulls ?? null, at);
}

// PostgreSQL's default: ascending puts nulls last, descending first.
function orderColumn(ctx: DataContext, t: TableModel, path: string, dir: 'asc' | 'desc', nulls: 'first' | 'last' | null, at: JsonPath): OrderOf {
  const d: OrderDir = `${dir}_nulls_${nulls ?? (dir === 'asc' ? 'last' : 'first')}`;
  const value = valueThrough(ctx, t, path.split('.'), at);
  return (a) => ({ expr: value(a), dir: d });
}

// The value of `parts` (object relationships, then a column) from a row at the given alias. A
// role orders only by columns it may select, through rows of the target its filter lets it see.
function valueThrough(ctx: DataContext, t: TableModel, parts: readonly string[], at: JsonPath): (a: Alias) => Expr {
  const [first, ...rest] = parts;
  if (rest.length === 0) {
    const c = requireColumn(ctx, t, first!, at);
    if (ctx.access.kind === 'role') selectableColumn(ctx, t, c.name, at);
    return (a) => columnRef(a, c);
  }
  const rel = relationshipOf(t, first!);
  if (!rel || rel.kind !== 'object') throw fail(ctx, 'not-exists', `relationship ${JSON.stringify(first)} does not exist`, at);
  const target = targetOf(ctx, rel);
  const perm = relationshipPermission(ctx, rel, target, at);
  const inner = valueThrough(ctx, target, rest, at);
  return (a) => {
    const b = new Alias(target.name);
    const filter = permissionFilter(ctx, perm, target, b);
    return { kind: 'subquery', from: tableRef(target), row: b, where: joinOn(rel, a, b), permission: filter, value: inner(b), single: true };
  };
}
