import type { BoolIr, TableModel, ValueIr } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { Alias, aliasRef, ident, join, param, raw, session, sql, variable, type Sql } from '../sql/index.js';
import { columnByField, computedFieldOf, permissionOf, relationFrom, tableOf, type PlanContext } from './context.js';
import { entriesOf, isNull, itemsOf, valueOf, type Input } from './input.js';
import { checkLtreeOperand, isLtreeOp, LTREE_LIST_OPS, lowerLtree } from './ltree.js';
import { isPostgisOp, lowerPostgis } from './postgis.js';
import { computedCall } from './select.js';

type Path = readonly (string | number)[];

/** A `where` argument to BoolIr, against the role's view of the table; relationship filters carry the target's permission. */
export function whereToIr(input: Input, t: TableModel, ctx: PlanContext, path: Path): BoolIr {
  const items: BoolIr[] = [];
  for (const [key, value] of entriesOf(input, ctx, path)) {
    const p = [...path, key];
    if (key === '_and' || key === '_or') {
      if (isNull(value, ctx)) continue;
      const list = itemsOf(value, ctx).map((v, i) => whereToIr(v, t, ctx, [...p, i]));
      items.push({ kind: key === '_and' ? 'and' : 'or', items: list });
    } else if (key === '_not') {
      if (!isNull(value, ctx)) items.push({ kind: 'not', item: whereToIr(value, t, ctx, p) });
    } else {
      items.push(fieldToIr(key, value, t, ctx, p));
    }
  }
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

function fieldToIr(key: string, value: Input, t: TableModel, ctx: PlanContext, path: Path): BoolIr {
  const rel = t.relationships.find((r) => r.name === key);
  if (rel && ctx.model.select[ctx.role]?.[rel.target]) {
    if (isNull(value, ctx)) return { kind: 'true' };
    const target = tableOf(ctx, rel.target);
    const where = whereToIr(value, target, ctx, path);
    const perm = permissionOf(ctx, rel.target).filter;
    return { kind: 'relationship', target: rel.target, mapping: rel.mapping, where: { kind: 'and', items: [perm, where] } };
  }
  const column = columnByField(ctx, t, key);
  // Computed fields with user arguments are not in `<t>_bool_exp` (compiler/schema/bool-exp.ts).
  const cf = column ? undefined : computedFieldOf(ctx, t, key);
  const computed = cf && cf.args.length === 0 ? cf : undefined;
  if (computed && computed.returns.kind === 'table') {
    // Like an array relationship: some row the function returns, and the role may see, matches.
    if (isNull(value, ctx)) return { kind: 'true' };
    const target = tableOf(ctx, computed.returns.table);
    const where = whereToIr(value, target, ctx, path);
    const perm = permissionOf(ctx, target.id).filter;
    return { kind: 'computed_table', table: t.id, field: computed.name, target: target.id, where: { kind: 'and', items: [perm, where] } };
  }
  if (computed && computed.returns.kind === 'scalar') {
    const fn = computed.function;
    const type = computed.returns.type;
    const ops = entriesOf(value, ctx, path).map(([op, v]): BoolIr => ({ kind: 'computed', field: key, function: fn, type, op, value: inputValue(v, ctx, op) }));
    return ops.length === 1 ? ops[0]! : { kind: 'and', items: ops };
  }
  if (!column) throw new ApiError('validation-failed', `field "${key}" not found in type: '${typeNameOf(t, '_bool_exp')}'`, 400, path);
  const items: BoolIr[] = [];
  for (const [op, v] of entriesOf(value, ctx, path)) {
    if (op === '_cast') {
      for (const [, inner] of entriesOf(v, ctx, [...path, op])) {
        for (const [op2, v2] of entriesOf(inner, ctx, [...path, op])) {
          items.push({ kind: 'column', column: column.name, type: 'text', op: `_cast_text${op2}`, value: inputValue(v2, ctx, op2) });
        }
      }
      continue;
    }
    const value = inputValue(v, ctx, op);
    // Checked while planning, so a variable's value becomes part of the plan's cache key (valueOf).
    if (column.type === 'ltree') checkLtreeOperand(op, valueOf(v, ctx), [...path, op]);
    items.push({ kind: 'column', column: column.name, type: column.type, op, value });
  }
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

// Operators whose GraphQL argument is a list (`_in: [Int!]`).
const LIST_OPS = new Set(['_in', '_nin', '_has_keys_any', '_has_keys_all']);

// A leaf of a `where` as a ValueIr: plan-time literal, or a whole variable bound per request.
function inputValue(input: Input, ctx: PlanContext, op: string): ValueIr {
  if (input.kind === 'ast' && input.node.kind === 'Variable') {
    const name = input.node.name.value;
    return ctx.variables[name] == null ? { kind: 'literal', value: null } : { kind: 'variable', name, path: [] };
  }
  const value = valueOf(input, ctx);
  // GraphQL input coercion: a single literal where a list is expected is a list of one
  // (`_in: 3` is `_in: [3]`); bound as is, PostgreSQL rejected it as a malformed array (fuzz).
  if ((LIST_OPS.has(op) || LTREE_LIST_OPS.has(op)) && value !== null && !Array.isArray(value)) return { kind: 'literal', value: [value] as never };
  return { kind: 'literal', value: value as never };
}

/** Lowers BoolIr to a predicate on `alias` (and `root` for `["$", col]` references). */
export function lowerBool(ir: BoolIr, alias: Alias, ctx: PlanContext, root: Alias = alias): Sql {
  switch (ir.kind) {
    case 'true': return raw('true');
    case 'and': {
      const parts = ir.items.filter((i) => i.kind !== 'true').map((i) => lowerBool(i, alias, ctx, root));
      return parts.length === 0 ? raw('true') : parts.length === 1 ? parts[0]! : sql`(${join(parts, ' AND ')})`;
    }
    case 'or': {
      if (ir.items.length === 0) return raw('false');
      return sql`(${join(ir.items.map((i) => lowerBool(i, alias, ctx, root)), ' OR ')})`;
    }
    case 'not': return sql`(NOT ${lowerBool(ir.item, alias, ctx, root)})`;
    case 'column': return lowerCompare(sql`${aliasRef(alias)}.${ident(ir.column)}`, ir.type, ir.op, ir.value, alias, root);
    case 'computed': {
      // The row (and the session) go where the function declares them, not always first.
      const fn = ir.function;
      const cf = Object.values(ctx.model.tables).flatMap((t) => t.computedFields)
        .find((c) => c.name === ir.field && c.function.schema === fn.schema && c.function.name === fn.name);
      const call = cf ? computedCall(cf, alias, undefined, ctx, []) : sql`${ident(fn.schema, fn.name)}(${aliasRef(alias)})`;
      return lowerCompare(call, ir.type, ir.op, ir.value, alias, root);
    }
    case 'computed_table': {
      const cf = tableOf(ctx, ir.table).computedFields.find((c) => c.name === ir.field);
      if (!cf) throw new Error(`assertion failed: unknown computed field ${ir.table}.${ir.field}`);
      const target = tableOf(ctx, ir.target);
      const b = new Alias(target.name);
      return sql`EXISTS (SELECT 1 FROM ${computedCall(cf, alias, undefined, ctx, [])} AS ${aliasRef(b)} WHERE ${lowerBool(ir.where, b, ctx, root)})`;
    }
    case 'relationship': {
      const target = tableOf(ctx, ir.target);
      const b = new Alias(target.name);
      const on = ir.mapping.map(([l, r]) => sql`${aliasRef(b)}.${ident(r)} = ${aliasRef(alias)}.${ident(l)}`);
      return sql`EXISTS (SELECT 1 FROM ${relationFrom(ctx, target)} AS ${aliasRef(b)} WHERE ${join([...on, lowerBool(ir.where, b, ctx, root)], ' AND ')})`;
    }
    case 'exists': {
      const target = tableOf(ctx, ir.table);
      const b = new Alias(target.name);
      return sql`EXISTS (SELECT 1 FROM ${relationFrom(ctx, target)} AS ${aliasRef(b)} WHERE ${lowerBool(ir.where, b, ctx, root)})`;
    }
  }
}

const SIMPLE: { readonly [op: string]: string } = {
  _eq: '=', _neq: '<>', _gt: '>', _gte: '>=', _lt: '<', _lte: '<=',
  _like: 'LIKE', _nlike: 'NOT LIKE', _ilike: 'ILIKE', _nilike: 'NOT ILIKE', _similar: 'SIMILAR TO',
  _nsimilar: 'NOT SIMILAR TO', _regex: '~', _nregex: '!~', _iregex: '~*', _niregex: '!~*',
  _contains: '@>', _contained_in: '<@',
};
const COLUMN_CMP: { readonly [op: string]: string } = { _ceq: '=', _cneq: '<>', _cgt: '>', _cgte: '>=', _clt: '<', _clte: '<=' };
const TEXT_OPS = new Set(['_like', '_nlike', '_ilike', '_nilike', '_similar', '_nsimilar', '_regex', '_nregex', '_iregex', '_niregex']);

function valueSql(v: ValueIr, type: string, alias: Alias, root: Alias): Sql {
  switch (v.kind) {
    case 'literal': return param(v.value, type);
    case 'variable': return variable(v.name, v.path, type);
    case 'session': return session(v.name, type);
    case 'column': return sql`${aliasRef(v.root ? root : alias)}.${ident(v.column)}`;
  }
}

// Catalog names of array types start with `_` (`_text`, `public._mood`): PostgreSQL's typarray convention.
function isArrayType(type: string): boolean {
  return type.split('.').pop()!.startsWith('_');
}

function lowerCompare(lhs: Sql, type: string, rawOp: string, value: ValueIr, alias: Alias, root: Alias): Sql {
  let op = rawOp;
  let left = lhs;
  if (op.startsWith('_cast_text')) { op = op.slice('_cast_text'.length); left = sql`(${lhs})::text`; type = 'text'; }
  // Hasura v2: a null operand (`_eq: null`, `_is_null: null`, a null variable) is no condition.
  if (value.kind === 'literal' && value.value === null) return raw('true');
  if (op === '_is_null') {
    if (value.kind !== 'literal') return sql`((${left} IS NULL) = ${valueSql(value, 'bool', alias, root)})`;
    return value.value === true ? sql`(${left} IS NULL)` : sql`(${left} IS NOT NULL)`;
  }
  if (COLUMN_CMP[op]) return sql`(${left} ${raw(COLUMN_CMP[op]!)} ${valueSql(value, type, alias, root)})`;
  if (isPostgisOp(op)) return lowerPostgis(left, type, op, value);
  if (isLtreeOp(op)) return lowerLtree(left, op, value, (v, t) => valueSql(v, t, alias, root));
  if ((op === '_in' || op === '_nin') && isArrayType(type) && value.kind !== 'session') {
    // An array column's `_in` is a list of arrays: `_text[]` is no type, and ANY() over a 2-D
    // array would compare elements. The list goes as JSON; each item (a JSON array, or an array
    // literal string like "{a,b}") becomes one value of the column's type (fuzz).
    const items = sql`SELECT (CASE WHEN jsonb_typeof(e) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(e))::text ELSE e #>> '{}' END)::${ident(...type.split('.'))} FROM jsonb_array_elements(${valueSql(value, 'jsonb', alias, root)}) AS e`;
    return sql`(${left} ${raw(op === '_in' ? 'IN' : 'NOT IN')} (${items}))`;
  }
  if (op === '_in') return sql`(${left} = ANY(${valueSql(value, `${type}[]`, alias, root)}))`;
  if (op === '_nin') return sql`(${left} <> ALL(${valueSql(value, `${type}[]`, alias, root)}))`;
  if (op === '_has_key') return sql`(${left} ? ${valueSql(value, 'text', alias, root)})`;
  if (op === '_has_keys_any') return sql`(${left} ?| ${valueSql(value, 'text[]', alias, root)})`;
  if (op === '_has_keys_all') return sql`(${left} ?& ${valueSql(value, 'text[]', alias, root)})`;
  const sym = SIMPLE[op];
  if (!sym) throw new ApiError('validation-failed', `unknown operator "${op}"`);
  // Pattern operators compare as text, except on citext: there the value is citext too, so
  // `_like`/`_regex` stay case-insensitive as PostgreSQL's citext operators make them.
  const vtype = TEXT_OPS.has(op) ? (type === 'citext' ? 'citext' : 'text') : type;
  if (TEXT_OPS.has(op) && type !== 'text' && type !== 'citext') left = sql`(${left})::text`;
  return sql`(${left} ${raw(sym)} ${valueSql(value, vtype, alias, root)})`;
}
