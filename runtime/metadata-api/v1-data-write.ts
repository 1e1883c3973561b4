// `insert`, `update` and `delete` of the v1 query API: one statement each, the rows changed in a
// CTE, answered as `{affected_rows, returning?}` with the returned rows keyed by column name.
// A role writes through its permission (v1-data-write-perms.ts): its columns, presets, filter and check.

import type { BoolIr, ColumnModel, TableModel } from '../bundle/index.js';
import type { ApiError, JsonPath } from '../errors/index.js';
import { Alias, aliasRef, ident, join, jsonKey, raw, sql, type Sql } from '../sql/index.js';
import { optional, parseFailed, readArray, readObject, readString, required, type Obj } from './v1-data-args.js';
import {
  columnJson, fail, keyOf, requireColumn, selectableColumn, starColumns, tableArg, tableRef, valueFor, type DataContext,
} from './v1-data-context.js';
import { checkFailed, checkWritable, permissionRows, presets, rowsPass, writePermission } from './v1-data-write-perms.js';
import { whereSql } from './v1-data-where.js';

/**
 * A statement, or the answer when there is nothing to run (an insert of no objects). With
 * `failure`, the statement answers null when a written row fails the role's check: the caller
 * throws it, inside the transaction the write runs in.
 */
export type WriteStatement = { readonly kind: 'sql'; readonly sql: Sql; readonly failure?: ApiError }
  | { readonly kind: 'answer'; readonly body: { readonly [k: string]: unknown } };

/** `{table, objects, returning?, on_conflict?}`: objects with different keys each get DEFAULT for the ones they lack. */
export function insertStatement(ctx: DataContext, args: unknown): WriteStatement {
  const o = readObject(args, [], 'InsertQuery');
  const t = tableArg(ctx, o['table'], ['table']);
  const perm = writePermission(ctx, 'insert', t);
  // `on_conflict`'s shape is part of parsing the arguments, so it is checked first (corpus:
  // article_on_conflict_no_action_specified); then `returning`, before the objects (corpus:
  // v1/insert/onconflict, missing constraint).
  const conflictArgs = has(o, 'on_conflict') ? readOnConflict(o['on_conflict']) : null;
  const returning = returningColumns(ctx, t, o);
  const raw0 = required(o, 'objects', [], (v) => v);
  const objects = (Array.isArray(raw0) ? raw0 : [raw0]).map((x, i) => readObject(x, ['objects', i]));
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
  const cell = (obj: Obj, c: ColumnModel): Sql => preset.get(c.name) ?? (Object.hasOwn(obj, c.name) ? valueFor(c, obj[c.name]) : raw('DEFAULT'));
  const rows = objects.map((obj) => sql`(${join(target.map((c) => cell(obj, c)), ', ')})`);
  const a = new Alias(t.name);
  const conflict = conflictArgs ? onConflict(ctx, t, conflictArgs, cols.filter((c) => used.has(c.name)), a) : raw('');
  const names = join(target.map((c) => ident(c.name)), ', ');
  const write = sql`INSERT INTO ${tableRef(t)} AS ${aliasRef(a)} (${names}) VALUES ${join(rows, ', ')}${conflict} RETURNING *`;
  return guarded(ctx, write, returning, perm?.check);
}

/** `{table, where, $set, $inc, $mul, $default, returning?}` (`values` is an old name of `$set`). */
export function updateStatement(ctx: DataContext, args: unknown): WriteStatement {
  const o = readObject(args, [], 'UpdateQuery');
  const t = tableArg(ctx, o['table'], ['table']);
  const perm = writePermission(ctx, 'update', t);
  const a = new Alias(t.name);
  const where = whereSql(ctx, required(o, 'where', [], (v) => v), t, a, ['where']);
  const sets: Sql[] = [];
  const setKey = has(o, '$set') ? '$set' : 'values';
  const writable = (key: string) => entries(ctx, t, o, key).map((e) => { checkWritable(ctx, 'update', perm, e[2], [key]); return e; });
  for (const [, v, c] of writable(setKey)) sets.push(sql`${ident(c.name)} = ${valueFor(c, v)}`);
  for (const [, v, c] of writable('$inc')) sets.push(sql`${ident(c.name)} = ${aliasRef(a)}.${ident(c.name)} + ${valueFor(c, v)}`);
  for (const [, v, c] of writable('$mul')) sets.push(sql`${ident(c.name)} = ${aliasRef(a)}.${ident(c.name)} * ${valueFor(c, v)}`);
  const defaults = optional(o, '$default', [], readArray) ?? [];
  defaults.forEach((d, i) => {
    const c = requireColumn(ctx, t, readString(d, ['$default', i]), ['$default', i]);
    checkWritable(ctx, 'update', perm, c, ['$default', i]);
    sets.push(sql`${ident(c.name)} = DEFAULT`);
  });
  // A role's presets are set on every update, even one that gives no operator.
  const preset = presets(perm, t);
  if (sets.length === 0 && preset.length === 0) throw fail(ctx, 'unexpected-payload', 'atleast one of $set, $inc, $mul has to be present', []);
  for (const [c, v] of preset) sets.push(sql`${ident(c.name)} = ${v}`);
  const returning = returningColumns(ctx, t, o);
  const rows = permissionRows(ctx, perm?.filter, a);
  const write = sql`UPDATE ${tableRef(t)} AS ${aliasRef(a)} SET ${join(sets, ', ')} WHERE ${where}${rows ? sql` AND ${rows}` : raw('')} RETURNING *`;
  return guarded(ctx, write, returning, perm?.check);
}

/** `{table, where, returning?}`. */
export function deleteStatement(ctx: DataContext, args: unknown): WriteStatement {
  const o = readObject(args, [], 'DeleteQuery');
  const t = tableArg(ctx, o['table'], ['table']);
  const perm = writePermission(ctx, 'delete', t);
  const a = new Alias(t.name);
  const where = whereSql(ctx, required(o, 'where', [], (v) => v), t, a, ['where']);
  const returning = returningColumns(ctx, t, o);
  const rows = permissionRows(ctx, perm?.filter, a);
  const write = sql`DELETE FROM ${tableRef(t)} AS ${aliasRef(a)} WHERE ${where}${rows ? sql` AND ${rows}` : raw('')} RETURNING *`;
  return { kind: 'sql', sql: answer(ctx, write, returning) };
}

function has(o: Obj, key: string): boolean {
  return o[key] !== undefined && o[key] !== null;
}

// The pairs of a `{column: value}` object, each column checked (errors at the operator's key, as Hasura's convOp).
function entries(ctx: DataContext, t: TableModel, o: Obj, key: string): (readonly [string, unknown, ColumnModel])[] {
  if (!has(o, key)) return [];
  const m = readObject(o[key], [key]);
  return Object.entries(m).map(([col, v]) => [col, v, requireColumn(ctx, t, col, [key])] as const);
}

// `returning`: column names; an unknown one is Hasura's admin wording at `$.args.returning`.
function returningColumns(ctx: DataContext, t: TableModel, o: Obj): ColumnModel[] | null {
  const list = optional(o, 'returning', [], readArray);
  if (list === undefined) return null;
  return list.flatMap((v, i) => {
    const name = readString(v, ['returning', i]);
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
  const o = readObject(value, at, 'OnConflict');
  const action = required(o, 'action', at, readString);
  if (action !== 'ignore' && action !== 'update') {
    throw parseFailed([...at, 'action'], `expecting "ignore" or "update" for action, found ${JSON.stringify(action)}`);
  }
  const constraint = optional(o, 'constraint', at, readString);
  const list = optional(o, 'constraint_on', at, readArray);
  const constraintOn = list?.map((v, i) => readString(v, [...at, 'constraint_on', i]));
  return { action, constraint, constraintOn };
}

// `update` sets every inserted column from EXCLUDED.
function onConflict(ctx: DataContext, t: TableModel, args: OnConflictArgs, cols: readonly ColumnModel[], a: Alias): Sql {
  const at = ['on_conflict'];
  const { action } = args;
  let target: Sql = raw('');
  if (args.constraint !== undefined) {
    target = sql` ON CONSTRAINT ${ident(args.constraint)}`;
  } else if (args.constraintOn !== undefined) {
    const on = args.constraintOn.map((name, i) => ident(requireColumn(ctx, t, name, [...at, 'constraint_on', i]).name));
    target = sql` (${join(on, ', ')})`;
  } else if (action === 'update') {
    throw fail(ctx, 'unexpected-payload', "Expecting 'constraint' or 'constraint_on' when the 'action' is 'update'", at);
  }
  if (action === 'ignore' || cols.length === 0) return sql` ON CONFLICT${target} DO NOTHING`;
  // A role updates the conflicting row through its update permission: its columns, and only a row its filter admits.
  const perm = writePermission(ctx, 'update', t);
  const sets = cols.filter((c) => perm === null || perm.columns.includes(c.name)).map((c) => sql`${ident(c.name)} = EXCLUDED.${ident(c.name)}`);
  if (sets.length === 0) return sql` ON CONFLICT${target} DO NOTHING`;
  const rows = permissionRows(ctx, perm?.filter, a);
  return sql` ON CONFLICT${target} DO UPDATE SET ${join(sets, ', ')}${rows ? sql` WHERE ${rows}` : raw('')}`;
}

// The statement answering `{affected_rows, returning?}`, or null when a row fails the role's check.
function guarded(ctx: DataContext, write: Sql, returning: readonly ColumnModel[] | null, check: BoolIr | undefined): WriteStatement {
  const w = new Alias('changed');
  const pass = rowsPass(ctx, check, w);
  return pass ? { kind: 'sql', sql: answer(ctx, write, returning, w, pass), failure: checkFailed(ctx) } : { kind: 'sql', sql: answer(ctx, write, returning, w, null) };
}

// `{affected_rows, returning?}` built by the database from the CTE's rows.
function answer(ctx: DataContext, write: Sql, returning: readonly ColumnModel[] | null, w = new Alias('changed'), pass: Sql | null = null): Sql {
  const count = sql`(SELECT count(*) FROM ${aliasRef(w)})`;
  const pairs: (readonly [Sql, Sql])[] = [[jsonKey('affected_rows'), count]];
  if (returning) {
    const r = new Alias('row');
    const row = returning.length === 0
      ? sql`'{}'::json`
      : ctx.dialect.jsonObject(returning.map((c) => [keyOf(c.name), columnJson(ctx, c, r)] as const));
    pairs.push([jsonKey('returning'), sql`(SELECT coalesce(${ctx.dialect.jsonArrayAgg(row, null)}, ${ctx.dialect.emptyJsonArray()}) FROM ${aliasRef(w)} AS ${aliasRef(r)})`]);
  }
  const body = sql`(${ctx.dialect.jsonObject(pairs)})::text`;
  return sql`WITH ${aliasRef(w)} AS (${write}) SELECT ${pass ? sql`CASE WHEN ${pass} THEN ${body} END` : body}`;
}
