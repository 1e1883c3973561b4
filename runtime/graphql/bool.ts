import type { BoolIr, BundleModel, PermissionRule, TableModel, ValueIr } from '../bundle/index.js';
import { permissionRule, typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { Alias, isCompareOp, type CompareOp, type Cond, type Expr, type Sql } from '../sql/index.js';
import { computedCall } from './call.js';
import { columnByField, computedFieldOf, permissionOf, sourceOf, tableOf, type PlanContext } from './context.js';
import { entriesOf, isNull, itemsOf, valueOf, type Input } from './input.js';
import { mutationRuleOf } from './mutation-perms.js';
import { checkLtreeOperand, isLtreeOp, LTREE_LIST_OPS, ltreeCond } from './ltree.js';
import { isGeoType } from './geojson.js';
import { geoCompareCond, geoOperand, isPostgisOp, postgisCond } from './postgis.js';

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
      // `_cast: {<type>: {<operators>}}`: the operators of that type on the column cast to it.
      for (const [target, inner] of entriesOf(v, ctx, [...path, op])) {
        const type = CAST_TARGETS[target];
        if (type === undefined) throw new ApiError('validation-failed', `unknown cast target "${target}"`, 400, [...path, op, target]);
        for (const [op2, v2] of entriesOf(inner, ctx, [...path, op, target])) {
          const operand = isGeoType(type) ? geoOperand(op2, valueOf(v2, ctx), [...path, op, target, op2]) : inputValue(v2, ctx, op2);
          items.push({ kind: 'column', column: column.name, type, op: `_cast_${type}${op2}`, value: operand });
        }
      }
      continue;
    }
    // A GeoJSON operand is checked while planning, so the plan depends on it (as an inserted value does).
    const value = isGeoType(column.type) ? geoOperand(op, valueOf(v, ctx), [...path, op]) : inputValue(v, ctx, op);
    // Checked while planning, so a variable's value becomes part of the plan's cache key (valueOf).
    if (column.type === 'ltree') checkLtreeOperand(op, valueOf(v, ctx), [...path, op]);
    items.push({ kind: 'column', column: column.name, type: column.type, op, value });
  }
  // A column an inherited role reads on some rows only filters those rows only: elsewhere it is
  // hidden, and a condition on it must not reveal it.
  const guard = ctx.model.select[ctx.role]?.[t.id]?.fieldFilters?.[column.name];
  if (guard && guard.kind !== 'true') items.unshift(guard);
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

// `_cast` targets of a `where` (Hasura v2): jsonb to `String`, and between the PostGIS types.
const CAST_TARGETS: { readonly [target: string]: string } = { String: 'text', geometry: 'geometry', geography: 'geography' };

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

/** BoolIr as a predicate on `alias` (and `root` for `["$", col]` references), rendered by the dialect. */
export function lowerBool(ir: BoolIr, alias: Alias, ctx: PlanContext, root: Alias = alias): Sql {
  return ctx.dialect.render.cond(boolCond(ir, alias, ctx, root), ctx);
}

/** BoolIr as an IR condition on the row at `alias` (and `root` for `["$", col]` references). */
export function boolCond(ir: BoolIr, alias: Alias, ctx: PlanContext, root: Alias = alias): Cond {
  switch (ir.kind) {
    case 'true': return ir;
    case 'and': case 'or': return { kind: ir.kind, items: ir.items.map((i) => boolCond(i, alias, ctx, root)) };
    case 'not': return { kind: 'not', item: boolCond(ir.item, alias, ctx, root) };
    case 'column': return compareCond({ kind: 'column', row: alias, column: ir.column }, ir.type, ir.op, ir.value, alias, root);
    case 'computed': {
      // The row (and the session) go where the function declares them, not always first.
      const fn = ir.function;
      const cf = Object.values(ctx.model.tables).flatMap((t) => t.computedFields)
        .find((c) => c.name === ir.field && c.function.schema === fn.schema && c.function.name === fn.name);
      const call: Expr = cf ? computedCall(cf, alias, undefined, ctx, []) : { kind: 'call', fn, args: [{ name: null, value: { kind: 'row', row: alias } }] };
      return compareCond(call, ir.type, ir.op, ir.value, alias, root);
    }
    case 'computed_table': {
      const cf = tableOf(ctx, ir.table).computedFields.find((c) => c.name === ir.field);
      if (!cf) throw new Error(`assertion failed: unknown computed field ${ir.table}.${ir.field}`);
      const b = new Alias(tableOf(ctx, ir.target).name);
      return { kind: 'exists', from: { kind: 'function', call: computedCall(cf, alias, undefined, ctx, []) }, row: b, join: [], ...guarded(ir.where, ir.target, b, ctx, root) };
    }
    case 'relationship': {
      const target = tableOf(ctx, ir.target);
      const b = new Alias(target.name);
      return { kind: 'exists', from: sourceOf(ctx, target), row: b, join: joinConds(ir.mapping, b, alias), ...guarded(ir.where, ir.target, b, ctx, root) };
    }
    case 'exists': {
      const target = tableOf(ctx, ir.table);
      const b = new Alias(target.name);
      return { kind: 'exists', from: sourceOf(ctx, target), row: b, join: [], permission: null, where: boolCond(ir.where, b, ctx, root) };
    }
  }
}

/**
 * The role's select filter on the rows of `table` at `row` (`root` for root references): the
 * bundle's precompiled template of it, which the renderer completes. The planner lowers the
 * model's filter itself only where there is no template of the plan's dialect (a model built
 * without the compiler's templates stage) or where the plan reads tables through the rows its own
 * statement writes (nested inserts), which a template compiled for the tables cannot know.
 */
export function selectFilter(ctx: PlanContext, table: string, row: Alias, root: Alias = row): Cond {
  return permissionCond(ctx, table, 'select', row, root);
}

/**
 * The role's select filter on the rows of `table` at `row` that are tied to one row of `parent` by
 * `pairs` (parent column, column of `table`), when that parent row was read from `parent` itself
 * under the role's select filter on `parent`: the filter without the conjuncts the parent row
 * proves, or null when it proves none (the whole filter applies).
 *
 * A conjunct proved is "the relationship back to `parent`, on columns among `pairs`, reaches a row
 * that passes W" where every conjunct of W is one of the parent's filter: the parent row is such a
 * row. It is how ownership is usually written (an invoice's lines are visible through their
 * visible invoice), and the EXISTS it costs per row is the largest part of such a statement. A W
 * that names the root row (`$` columns, which mean another row here) or calls a computed field (a
 * function, which need not give the same answer twice) proves nothing. Both filters are the
 * metadata's: a template edited in a written engine.mjs does not take part (`kiln check` reports it).
 */
export function filterAfterParent(ctx: PlanContext, table: string, parent: string, pairs: readonly (readonly [string, string])[], row: Alias): Cond | null {
  // Reads through the rows the statement writes see other rows than the table's (nested inserts).
  if (ctx.relations !== undefined) return null;
  const rest = restAfterParent(ctx.model, ctx.role, table, parent, pairs);
  if (rest === null) return null;
  return rest.length === 0 ? { kind: 'true' } : boolCond(rest.length === 1 ? rest[0]! : { kind: 'and', items: rest }, row, ctx);
}

/** filterAfterParent on the model: the conjuncts of `role`'s select filter on `table` left to check (none: []), or null. */
export function restAfterParent(model: BundleModel, role: string, table: string, parent: string, pairs: readonly (readonly [string, string])[]): BoolIr[] | null {
  const own = model.select[role]?.[table]?.filter;
  const theirs = model.select[role]?.[parent]?.filter;
  // A conjunct of the parent's filter holds on the parent row whatever it names; what is left out
  // only has to mean the same on that row, which selfContained(c.where) sees to.
  if (own === undefined || theirs === undefined) return null;
  const proved = new Set(conjunctsOf(theirs).map((c) => JSON.stringify(c)));
  const all = conjunctsOf(own);
  const rest = all.filter((c) => !(c.kind === 'relationship' && c.target === parent && c.mapping.length > 0
    && c.mapping.every(([mine, its]) => pairs.some(([p, t]) => p === its && t === mine))
    && selfContained(c.where) && conjunctsOf(c.where).every((w) => proved.has(JSON.stringify(w)))));
  return rest.length === all.length ? null : rest;
}

// The conjuncts of a filter: nested `and`s flattened, `true` dropped.
function conjunctsOf(ir: BoolIr): BoolIr[] {
  if (ir.kind === 'true') return [];
  return ir.kind === 'and' ? ir.items.flatMap(conjunctsOf) : [ir];
}

// A filter whose truth on a row depends on that row (and the tables it names) alone.
function selfContained(ir: BoolIr): boolean {
  switch (ir.kind) {
    case 'true': return true;
    case 'and': case 'or': return ir.items.every(selfContained);
    case 'not': return selfContained(ir.item);
    case 'column': return !(ir.value.kind === 'column' && ir.value.root);
    case 'computed': case 'computed_table': return false;
    case 'relationship': case 'exists': return selfContained(ir.where);
  }
}

/** The role's predicate `rule` (a select or write filter, an insert or update check) on the rows of `table` at `row`, as selectFilter. */
export function permissionCond(ctx: PlanContext, table: string, rule: PermissionRule, row: Alias, root: Alias = row): Cond {
  // A mutation root field's own template first (its written table's checks and filters).
  const own = rule === 'select' ? undefined : mutationRuleOf(ctx, table, rule);
  const t = own !== undefined ? own : ctx.relations !== undefined ? undefined
    : rule === 'select' && ctx.rootTemplate?.table === table ? ctx.rootTemplate.filter
      : ctx.model.templates?.roles[ctx.role]?.[table]?.[rule];
  if (t === null) return { kind: 'true' };
  if (t !== undefined && t.dialect === ctx.dialect.name) {
    // The root matters only to a filter that names it: the same filter on the same row is the same node.
    return { kind: 'template', template: t, row, root: t.slots.some((s) => s.kind === 'root') ? root : row };
  }
  const ir = rule === 'select' ? permissionOf(ctx, table).filter : permissionRule(ctx.model, ctx.role, table, rule);
  if (ir === undefined) throw new ApiError('permission-denied', `no ${rule} permission on table "${table}" for role "${ctx.role}"`);
  return boolCond(ir, row, ctx, root);
}

/**
 * The permission and the condition of an EXISTS over `target`: a request's relationship filter is
 * `and[<the role's filter on target>, <where>]` (whereToIr puts the permission's own BoolIr
 * first); a permission filter's relationship reads what it names, with no permission of its own.
 */
function guarded(where: BoolIr, target: string, b: Alias, ctx: PlanContext, root: Alias): { permission: Cond | null; where: Cond } {
  const perm = ctx.model.select[ctx.role]?.[target]?.filter;
  if (where.kind === 'and' && where.items.length === 2 && perm !== undefined && where.items[0] === perm) {
    return { permission: selectFilter(ctx, target, b, root), where: boolCond(where.items[1]!, b, ctx, root) };
  }
  return { permission: null, where: boolCond(where, b, ctx, root) };
}

/** `b.remote = a.local` for each column pair of a relationship from the row at `a` to the row at `b`. */
export function joinConds(mapping: readonly (readonly [string, string])[], b: Alias, a: Alias): Cond[] {
  return mapping.map(([l, r]) => ({ kind: 'equals', left: { kind: 'column', row: b, column: r }, right: { kind: 'column', row: a, column: l } }));
}

const COLUMN_CMP: { readonly [op: string]: CompareOp } = { _ceq: 'eq', _cneq: 'neq', _cgt: 'gt', _cgte: 'gte', _clt: 'lt', _clte: 'lte' };
const TEXT_OPS = new Set(['_like', '_nlike', '_ilike', '_nilike', '_similar', '_nsimilar', '_regex', '_nregex', '_iregex', '_niregex']);

function valueExpr(v: ValueIr, type: string, alias: Alias, root: Alias): Expr {
  switch (v.kind) {
    case 'literal': return { kind: 'param', value: { kind: 'literal', value: v.value }, type };
    case 'variable': return { kind: 'param', value: { kind: 'variable', name: v.name, path: v.path }, type };
    case 'session': return { kind: 'param', value: { kind: 'session', name: v.name }, type };
    case 'column': return { kind: 'column', row: v.root ? root : alias, column: v.column };
  }
}

// Catalog names of array types start with `_` (`_text`, `public._mood`): PostgreSQL's typarray convention.
function isArrayType(type: string): boolean {
  return type.split('.').pop()!.startsWith('_');
}

function compareCond(lhs: Expr, type: string, rawOp: string, value: ValueIr, alias: Alias, root: Alias): Cond {
  let op = rawOp;
  let left = lhs;
  // `_cast_<type>_<op>` (whereToIr's `_cast`): `op` on the value as that type.
  const cast = /^_cast_(text|geometry|geography)(_.+)$/.exec(op);
  if (cast) {
    type = cast[1]!;
    op = cast[2]!;
    left = type === 'text' ? { kind: 'text', expr: lhs } : { kind: 'cast', expr: lhs, type };
  }
  // Hasura v2: a null operand (`_eq: null`, `_is_null: null`, a null variable) is no condition.
  if (value.kind === 'literal' && value.value === null) return { kind: 'no_condition' };
  if (op === '_is_null') {
    if (value.kind !== 'literal') return { kind: 'is_null_is', expr: left, value: valueExpr(value, 'bool', alias, root) };
    return { kind: 'is_null', expr: left, isNull: value.value === true };
  }
  const columnOp = COLUMN_CMP[op];
  if (columnOp) return { kind: 'compare', left, op: columnOp, right: valueExpr(value, type, alias, root) };
  if (isPostgisOp(op)) return postgisCond(left, type, op, value);
  const geo = geoCompareCond(left, type, op, value);
  if (geo) return geo;
  if (isLtreeOp(op)) return ltreeCond(left, op, (t) => valueExpr(value, t, alias, root));
  if ((op === '_in' || op === '_nin') && isArrayType(type) && value.kind !== 'session') {
    // An array column's `_in` is a list of arrays: each item becomes one value of the column's type (fuzz).
    return { kind: 'in_arrays', left, negated: op === '_nin', list: valueExpr(value, 'jsonb', alias, root), itemType: type };
  }
  if (op === '_in' || op === '_nin') return { kind: 'in', left, negated: op === '_nin', list: valueExpr(value, `${type}[]`, alias, root) };
  if (op === '_has_key') return { kind: 'has_key', left, mode: 'one', value: valueExpr(value, 'text', alias, root) };
  if (op === '_has_keys_any') return { kind: 'has_key', left, mode: 'any', value: valueExpr(value, 'text[]', alias, root) };
  if (op === '_has_keys_all') return { kind: 'has_key', left, mode: 'all', value: valueExpr(value, 'text[]', alias, root) };
  const cmp = op.slice(1);
  if (!op.startsWith('_') || !isCompareOp(cmp)) throw new ApiError('validation-failed', `unknown operator "${op}"`);
  // Pattern operators compare as text, except on citext: there the value is citext too, so
  // `_like`/`_regex` stay case-insensitive as PostgreSQL's citext operators make them.
  const vtype = TEXT_OPS.has(op) ? (type === 'citext' ? 'citext' : 'text') : type;
  if (TEXT_OPS.has(op) && type !== 'text' && type !== 'citext') left = { kind: 'text', expr: left };
  return { kind: 'compare', left, op: cmp, right: valueExpr(value, vtype, alias, root) };
}

/**
 * A column or scalar computed field as the role reads it: for an inherited role whose parents
 * grant it on some rows only, null on the others (Hasura v2 inherited roles).
 */
export function guardedField(t: TableModel, field: string, a: Alias, e: Expr, ctx: PlanContext): Expr {
  const filter = ctx.model.select[ctx.role]?.[t.id]?.fieldFilters?.[field];
  return filter === undefined || filter.kind === 'true' ? e : { kind: 'when', cond: boolCond(filter, a, ctx), expr: e };
}
