// `insert`, `update` and `delete` of the v1 query API as IR: one statement each, the rows changed
// in a write part, answered as `{affected_rows, returning?}` with the returned rows keyed by column name.
// A role writes through its permission (v1-data-write-perms.ts): its columns, presets, filter and check.

import type { BoolIr, ColumnModel, TableModel } from '../bundle/index.js';
import { type ApiError, asArray, asObject, asString, optional, parseFailed, required, requiredField } from '../errors/index.js';
import { Alias, type Assignment, type Conflict, type Guard, type MutationJson, type MutationStatement, type WriteBody, type WriteExpr } from '../sql/index.js';
import { readTableName, type Obj } from './v1-data-args.js';
import {
  columnJson, columnRef, fail, requireColumn, selectableColumn, starColumns, tableArg, valueFor, type DataContext,
} from './v1-data-context.js';
import { checkFailed, checkWritable, permissionRows, presets, rowCheck, writePermission } from './v1-data-write-perms.js';
import { whereCond } from './v1-data-where.js';

/**
 * A statement, or the answer when there is nothing to run (an insert of no objects). A statement
 * with guards (a role's check) fails with `failure` when a written row fails the check: the caller
 * throws it, inside the transaction the write runs in.
 */
export type WriteStatement = { readonly kind: 'write'; readonly statement: MutationStatement; readonly failure?: ApiError }
  | { readonly kind: 'answer'; readonly body: { readonly [k: string]: unknown } };

/** `{table, objects, returning?, on_conflict?}`: objects with different keys each get DEFAULT for the ones they lack. */
export function insertStatement(ctx: DataContext, args: unknown): WriteStatement {
  const o = asObject(args, [], 'InsertQuery');
  // Hasura parses the whole object before it looks anything up (DML/Types.hs, InsertQuery: `table`
  // and `objects` with `.:`, then `on_conflict`): so are they here (corpus:
  // article_on_conflict_no_action_specified); then `returning`, before the objects' columns
  // (corpus: v1/insert/onconflict, missing constraint).
  parsedTable(o);
  const raw0 = requiredField(o, 'objects', [], (v) => v);
  const conflictArgs = has(o, 'on_conflict') ? readOnConflict(o['on_conflict']) : null;
  const t = tableArg(ctx, o['table'], ['table']);
  const perm = writePermission(ctx, 'insert', t);
  const returning = returningColumns(ctx, t, o);
  const objects = (Array.isArray(raw0) ? raw0 : [raw0]).map((x, i) => asObject(x, ['objects', i]));
  if (objects.length === 0) return { kind: 'answer', body: { affected_rows: 0, ...(returning ? { returning: [] } : {}) } };
  // Every key of every object, in table order; each must be a column.
  const used = new Set<string>();
  objects.forEach((obj, i) => {
    // Hasura's convObj looks the column up outside the key's path: the error is at the object.
    for (const key of Object.keys(obj)) {
      const c = requireColumn(ctx, t, key, ['objects', i]);
      checkWritable(ctx, 'insert', perm, c, ['objects', i]);
      used.add(c.name);
    }
  });
  const preset = new Map(presets(perm, t).map(([c, v]) => [c.name, v]));
  const cols = t.columns.filter((c) => used.has(c.name) || preset.has(c.name));
  const target = cols.length > 0 ? cols : t.columns.slice(0, 1);
  const cell = (obj: Obj, c: ColumnModel): WriteExpr => preset.get(c.name) ?? (Object.hasOwn(obj, c.name) ? valueFor(c, obj[c.name]) : { kind: 'default' });
  const rows = objects.map((obj) => target.map((c) => cell(obj, c)));
  const a = new Alias(t.name);
  const conflict = conflictArgs ? onConflict(ctx, t, conflictArgs, cols.filter((c) => used.has(c.name)), a) : null;
  const write: WriteBody = { kind: 'insert', table: { schema: t.schema, name: t.name }, target: a,
    columns: target.map((c) => c.name), firstColumn: t.columns[0]!.name, rows, conflict,
    ...(target.some((c) => c.identity) ? { identityInsert: true as const } : {}) };
  return answer(ctx, t, write, returning, perm?.check, 'insertCheck');
}

/** `{table, where, $set, $inc, $mul, $default, returning?}` (`values` is an old name of `$set`). */
export function updateStatement(ctx: DataContext, args: unknown): WriteStatement {
  const o = asObject(args, [], 'UpdateQuery');
  // Parsed before anything is looked up, in Hasura's order (DML/Types.hs: `table`, then `where`, with `.:`).
  parsedTable(o);
  const whereArg = requiredField(o, 'where', [], (v) => v);
  const t = tableArg(ctx, o['table'], ['table']);
  const perm = writePermission(ctx, 'update', t);
  const a = new Alias(t.name);
  const where = whereCond(ctx, whereArg, t, a, ['where']);
  const sets: Assignment[] = [];
  const setKey = has(o, '$set') ? '$set' : 'values';
  const writable = (key: string) => entries(ctx, t, o, key).map((e) => { checkWritable(ctx, 'update', perm, e[2], [key]); return e; });
  for (const [, v, c] of writable(setKey)) sets.push({ column: c.name, value: valueFor(c, v) });
  for (const [, v, c] of writable('$inc')) sets.push({ column: c.name, value: { kind: 'update_op', op: 'inc', current: columnRef(a, c), value: valueFor(c, v) } });
  for (const [, v, c] of writable('$mul')) sets.push({ column: c.name, value: { kind: 'update_op', op: 'mul', current: columnRef(a, c), value: valueFor(c, v) } });
  const defaults = optional(o, '$default', [], asArray) ?? [];
  defaults.forEach((d, i) => {
    const c = requireColumn(ctx, t, asString(d, ['$default', i]), ['$default', i]);
    checkWritable(ctx, 'update', perm, c, ['$default', i]);
    sets.push({ column: c.name, value: { kind: 'default' } });
  });
  // A role's presets are set on every update, even one that gives no operator.
  const preset = presets(perm, t);
  if (sets.length === 0 && preset.length === 0) throw fail(ctx, 'unexpected-payload', 'atleast one of $set, $inc, $mul has to be present', []);
  for (const [c, v] of preset) sets.push({ column: c.name, value: v });
  const returning = returningColumns(ctx, t, o);
  const permission = permissionRows(ctx, perm?.filter, t, 'updateFilter', a) ?? { kind: 'true' };
  return answer(ctx, t, { kind: 'update', table: { schema: t.schema, name: t.name }, row: a, set: sets, permission, selector: where }, returning, perm?.check, 'updateCheck');
}

/** `{table, where, returning?}`. */
export function deleteStatement(ctx: DataContext, args: unknown): WriteStatement {
  const o = asObject(args, [], 'DeleteQuery');
  // Parsed before anything is looked up, in Hasura's order (DML/Types.hs: `table`, then `where`, with `.:`).
  parsedTable(o);
  const whereArg = requiredField(o, 'where', [], (v) => v);
  const t = tableArg(ctx, o['table'], ['table']);
  const perm = writePermission(ctx, 'delete', t);
  const a = new Alias(t.name);
  const where = whereCond(ctx, whereArg, t, a, ['where']);
  const returning = returningColumns(ctx, t, o);
  const permission = permissionRows(ctx, perm?.filter, t, 'deleteFilter', a) ?? { kind: 'true' };
  return answer(ctx, t, { kind: 'delete', table: { schema: t.schema, name: t.name }, row: a, permission, selector: where }, returning, undefined, 'updateCheck');
}

function has(o: Obj, key: string): boolean {
  return o[key] !== undefined && o[key] !== null;
}

// The pairs of a `{column: value}` object, each column checked (errors at the operator's key, as Hasura's convOp).
function entries(ctx: DataContext, t: TableModel, o: Obj, key: string): (readonly [string, unknown, ColumnModel])[] {
  if (!has(o, key)) return [];
  const m = asObject(o[key], [key]);
  return Object.entries(m).map(([col, v]) => [col, v, requireColumn(ctx, t, col, [key])] as const);
}

// `returning`: column names; an unknown one is Hasura's admin wording at `$.args.returning`.
function returningColumns(ctx: DataContext, t: TableModel, o: Obj): ColumnModel[] | null {
  const list = optional(o, 'returning', [], asArray);
  if (list === undefined) return null;
  return list.flatMap((v, i) => {
    const name = asString(v, ['returning', i]);
    return name === '*' ? starColumns(ctx, t) : [selectableColumn(ctx, t, name, ['returning'])];
  });
}

/** `{action: ignore|update, constraint?, constraint_on?}` as parsed. */
interface OnConflictArgs {
  readonly action: 'ignore' | 'update';
  readonly constraint: string | undefined;
  readonly constraintOn: readonly string[] | undefined;
}

function readOnConflict(value: unknown): OnConflictArgs {
  const at = ['on_conflict'];
  const o = asObject(value, at, 'OnConflict');
  const action = required(o, 'action', at, asString);
  if (action !== 'ignore' && action !== 'update') {
    throw parseFailed([...at, 'action'], `expecting "ignore" or "update" for action, found ${JSON.stringify(action)}`);
  }
  const constraint = optional(o, 'constraint', at, asString);
  const list = optional(o, 'constraint_on', at, asArray);
  const constraintOn = list?.map((v, i) => asString(v, [...at, 'constraint_on', i]));
  return { action, constraint, constraintOn };
}

// `update` sets every inserted column from EXCLUDED.
function onConflict(ctx: DataContext, t: TableModel, args: OnConflictArgs, cols: readonly ColumnModel[], a: Alias): Conflict {
  const at = ['on_conflict'];
  const { action } = args;
  let target: Conflict['target'] = null;
  if (args.constraint !== undefined) {
    target = { kind: 'constraint', name: args.constraint };
  } else if (args.constraintOn !== undefined) {
    target = { kind: 'columns', columns: args.constraintOn.map((name, i) => requireColumn(ctx, t, name, [...at, 'constraint_on', i]).name) };
  } else if (action === 'update') {
    throw fail(ctx, 'unexpected-payload', "Expecting 'constraint' or 'constraint_on' when the 'action' is 'update'", at);
  }
  if (action === 'ignore' || cols.length === 0) return { target, update: null };
  // A role updates the conflicting row through its update permission: its columns, and only a row its filter admits.
  const perm = writePermission(ctx, 'update', t);
  const set = cols.filter((c) => perm === null || perm.columns.includes(c.name)).map((c): Assignment => ({ column: c.name, value: { kind: 'excluded', column: c.name } }));
  if (set.length === 0) return { target, update: null };
  return { target, update: { set, permission: permissionRows(ctx, perm?.filter, t, 'updateFilter', a), where: null } };
}

// `{affected_rows, returning?}` built by the database from the written rows.
// With a role's `check`, a guard holds it on every written row.
function answer(ctx: DataContext, t: TableModel, body: WriteBody, returning: readonly ColumnModel[] | null, check: BoolIr | undefined,
  rule: 'insertCheck' | 'updateCheck'): WriteStatement {
  const w = new Alias('changed');
  const written = { kind: 'written' as const, write: w, columns: t.columns.map((c) => c.name), only: null };
  const checked = new Alias('checked');
  const cond = rowCheck(ctx, check, t, rule, checked);
  const guards: Guard[] = cond ? [{ kind: 'all_rows', rows: written, row: checked, check: cond }] : [];
  const fields: { key: string; value: MutationJson }[] = [{ key: 'affected_rows', value: { kind: 'affected', writes: [w] } }];
  if (returning) {
    const r = new Alias('row');
    const shape = { kind: 'object' as const, fields: returning.map((c) => ({ key: c.name, value: columnJson(ctx, c, r) })) };
    fields.push({ key: 'returning', value: { kind: 'returning', rows: { kind: 'written', write: w, columns: t.columns.map((c) => c.name), only: null }, row: r, shape, single: false } });
  }
  const statement: MutationStatement = { writes: [{ name: w, body }], guards, result: { kind: 'response', fields } };
  return guards.length ? { kind: 'write', statement, failure: checkFailed(ctx) } : { kind: 'write', statement };
}

// The table name's shape (`.:` into a QualifiedTable), read as Hasura's parser reads it, before the
// table is looked up.
function parsedTable(o: Obj): void {
  requiredField(o, 'table', [], readTableName);
}
