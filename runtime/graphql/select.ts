// The JSON shape of a selection on a table's rows, as IR: columns, computed fields, object and
// array relationships, aggregates. Errors name the GraphQL path of what they reject.

import type { ColumnModel, ComputedFieldModel, TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { Alias, type AggregateSelect, type JsonObject, type JsonValue, type ListSelect, type ObjectSelect, type Source } from '../sql/index.js';
import { aggregateSelect } from './aggregate.js';
import { joinConds, guardedField, selectFilter } from './bool.js';
import { computedCall } from './call.js';
import { columnByField, computedFieldOf, permissionOf, sourceOf, tableOf, type PlanContext } from './context.js';
import { argsOf, collectFields, scalarOutput, type FieldSel } from './fields.js';
import { isNull, valueOf, type Input } from './input.js';
import { remoteJoinPlaceholder } from './remote-join-site.js';
import { readsTable, rowSet, type JoinCond, type ParentRow } from './rows.js';

type Path = readonly (string | number)[];

/**
 * The selected fields of one row of `t` at alias `a`, as a JSON object. `tableRows`: the row was
 * read from the table itself under the role's select filter (what its relationships may rely on).
 */
export function rowShape(t: TableModel, a: Alias, fields: readonly FieldSel[], ctx: PlanContext, path: Path, tableRows = false): JsonObject {
  const shape: JsonObject = { kind: 'object', fields: fields.map((f) => ({ key: f.key, value: fieldValue(t, a, f, ctx, [...path, f.name], tableRows) })) };
  if (shape.fields.length === 0) throw new ApiError('validation-failed', 'a selection set must not be empty', 400, path);
  return shape;
}

function fieldValue(t: TableModel, a: Alias, f: FieldSel, ctx: PlanContext, path: Path, tableRows: boolean): JsonValue {
  if (f.name === '__typename') return { kind: 'name', name: typeNameOf(t) };
  const column = columnByField(ctx, t, f.name);
  if (column) return columnField(t, column, a, f, ctx, path);
  const cf = computedFieldOf(ctx, t, f.name);
  if (cf) return computedField(t, cf, a, f, ctx, path);
  const rel = t.relationships.find((r) => (r.name === f.name || (r.kind === 'array' && `${r.name}_aggregate` === f.name))
    && ctx.model.select[ctx.role]?.[r.target]);
  if (!rel) {
    const remote = t.remoteRelationships?.find((r) => r.name === f.name);
    if (remote) return remoteJoinPlaceholder(t, a, remote, f, ctx, path);
    throw new ApiError('validation-failed', `field "${f.name}" not found in type: '${typeNameOf(t)}'`, 400, path);
  }
  const target = tableOf(ctx, rel.target);
  const from = sourceOf(ctx, target);
  const on: JoinCond[] = [(b) => joinConds(rel.mapping, b, a)];
  const args = argsOf(f.node);
  if (rel.kind === 'object') return objectSelect(target, from, f, ctx, path, on);
  const parent: ParentRow | null = tableRows ? { row: a, table: t.id, pairs: rel.mapping } : null;
  if (f.name !== rel.name) return aggregateSelect(target, from, args, f, ctx, path, on, rowShape, parent);
  return listSelect(target, from, args, f, ctx, path, on, parent);
}

function columnField(t: TableModel, c: ColumnModel, a: Alias, f: FieldSel, ctx: PlanContext, path: Path): JsonValue {
  const ref = guardedField(t, c.name, a, { kind: 'column', row: a, column: c.name }, ctx);
  const jsonPath = argsOf(f.node).get('path');
  if (jsonPath && !isNull(jsonPath, ctx)) {
    const parts = parseJsonPath(String(valueOf(jsonPath, ctx)), [...path, 'args', 'path']);
    return { kind: 'scalar', expr: { kind: 'json_path', expr: ref, path: { kind: 'param', value: { kind: 'literal', value: parts }, type: 'text[]' } }, output: 'json' };
  }
  return { kind: 'scalar', expr: ref, output: scalarOutput(c, ctx) };
}

/** `$.a.b[0]`, `a.b`, `a['x y']`, `a.[0].["x"]` (a dot before a bracket is allowed) to the key list of `#>`. */
export function parseJsonPath(text: string, path: Path): string[] {
  const out: string[] = [];
  let s = text.startsWith('$') ? text.slice(1) : text;
  if (s && !s.startsWith('.') && !s.startsWith('[')) s = `.${s}`;
  const re = /^(?:\.([^.[\]]+)|\.?\[(\d+)\]|\.?\[(?:'([^']*)'|"([^"]*)")\])/;
  while (s.length) {
    const m = re.exec(s);
    if (!m) throw new ApiError('validation-failed', `parse json path error: unexpected "${s}"`, 400, path);
    out.push(m[1] ?? m[2] ?? m[3] ?? m[4]!);
    s = s.slice(m[0].length);
  }
  return out;
}

function computedField(t: TableModel, cf: ComputedFieldModel, a: Alias, f: FieldSel, ctx: PlanContext, path: Path): JsonValue {
  const args = argsOf(f.node);
  const call = computedCall(cf, a, args.get('args'), ctx, path);
  if (cf.returns.kind === 'scalar') return { kind: 'scalar', expr: guardedField(t, cf.name, a, call, ctx), output: scalarOutput(cf.returns, ctx) };
  const target = tableOf(ctx, cf.returns.table);
  const from: Source = { kind: 'function', call };
  // A function returning one row gives a row of nulls for "no row"; that is JSON null.
  if (!cf.returns.set) return objectSelect(target, from, f, ctx, path, [(b) => [{ kind: 'row_present', row: b }]]);
  return listSelect(target, from, args, f, ctx, path, []);
}

/** A single row (object relationship, `_by_pk`, single-row function) or JSON null. */
export function objectSelect(t: TableModel, from: Source, f: FieldSel, ctx: PlanContext, path: Path, joins: readonly JoinCond[]): ObjectSelect {
  const b = new Alias(t.name);
  const perm = permissionOf(ctx, t.id);
  const join = joins.flatMap((c) => c(b));
  const permission = { filter: selectFilter(ctx, t.id, b), limit: perm.limit };
  const shape = rowShape(t, b, collectFields(f.node.selectionSet, typeNameOf(t), ctx), ctx, [...path, 'selectionSet'], readsTable(from));
  return { kind: 'one', from, row: b, join, permission, shape };
}

/** A JSON array of rows (a relationship's of `parent`). */
export function listSelect(t: TableModel, from: Source, args: ReadonlyMap<string, Input>, f: FieldSel, ctx: PlanContext,
  path: Path, joins: readonly JoinCond[], parent: ParentRow | null = null): ListSelect {
  const b = new Alias(t.name);
  const shape = rowShape(t, b, collectFields(f.node.selectionSet, typeNameOf(t), ctx), ctx, [...path, 'selectionSet'], readsTable(from));
  return { kind: 'list', shape, rows: rowSet(t, from, args, b, ctx, path, joins, false, parent) };
}

/** The aggregate of an array relationship from an action's output (`<name>_aggregate`), as a table relationship's is planned. */
export function relationshipAggregateSelect(t: TableModel, from: Source, f: FieldSel, ctx: PlanContext, path: Path, joins: readonly JoinCond[]): AggregateSelect {
  return aggregateSelect(t, from, argsOf(f.node), f, ctx, path, joins, rowShape);
}
