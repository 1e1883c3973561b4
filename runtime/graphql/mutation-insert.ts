// insert_<t> and insert_<t>_one: one statement of data-modifying CTEs, nested inserts included.
// Object-relationship parents are inserted before the row that points at them, array-relationship
// children after the row they point at; each link is a scalar subquery on the CTE that inserted
// the other side, so 1 parent + 100 children is one INSERT each and one round trip. Rows that
// carry nested inserts get an INSERT of their own (so their links are unambiguous); plain rows
// share one multi-row INSERT.

import type { ColumnModel, RelationshipModel, TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { Alias, type ReadThrough, type WriteExpr, type WrittenRows } from '../sql/index.js';
import { permissionCond } from './bool.js';
import { tableOf, type PlanContext } from './context.js';
import type { FieldSel } from './fields.js';
import { columnValueExpr, entriesOf, isNull, itemsOf, type Input } from './input.js';
import { finishReadingAfter, responseJson, rowsOf, singleRowJson, StatementBuilder, type GuardedSql, finishStatement } from './mutation-output.js';
import { onConflictClause, type ConflictPlan } from './mutation-conflict.js';
import { ifMatchedClause } from './mutation-if-matched.js';
import { mutationPermsOf, writtenTableOf, type WritePermission } from './mutation-perms.js';

type Path = readonly (string | number)[];

/** Where the inserted rows of a table went: its CTE, and whether an upsert may have updated rows instead. */
interface Written {
  readonly table: TableModel;
  readonly cte: Alias;
  readonly upsert: boolean;
}

interface InsertState {
  readonly b: StatementBuilder;
  readonly ctx: PlanContext;
  readonly written: Written[];
  /** Permission checks, lowered once every CTE is known (a check's relationships read the inserted rows too). */
  readonly checks: ((ctx: PlanContext) => void)[];
  /** Path of the permission-check error: the top-level `objects`/`object` argument. */
  readonly checkPath: Path;
}

/** Column values that come from a row inserted elsewhere in the statement (a parent's or the row's key). */
type Linked = ReadonlyMap<string, WriteExpr>;

/** Plans `insert_<t>` (`one: false`) or `insert_<t>_one`. */
export function planInsert(t: TableModel, f: FieldSel, args: ReadonlyMap<string, Input>, one: boolean, ctx: PlanContext,
  path: Path): GuardedSql {
  const argName = one ? 'object' : 'objects';
  const argPath = [...path, 'args', argName];
  const given = args.get(argName);
  const objects = given ? (one ? [given] : itemsOf(given, ctx)) : [];
  const st: InsertState = { b: new StatementBuilder(), ctx, written: [], checks: [], checkPath: argPath };
  // A source that upserts with MERGE (MSSQL) takes Hasura's `if_matched` instead of `on_conflict`.
  const upsertArg = ctx.dialect.can.upsert === 'merge' ? 'if_matched' : 'on_conflict';
  const top = insertRows(st, t, objects, args.get(upsertArg), new Map(), argPath, one ? null : 0, [...path, 'args', upsertArg]);
  // Relationships in `returning` read the rows this statement inserted too (a later statement would see them).
  const relations = new Map<string, ReadThrough>();
  for (const table of new Set(st.written.map((w) => w.table))) relations.set(table.id, readThrough(table, st.written.filter((w) => w.table === table)));
  const out: PlanContext = { ...ctx, relations };
  for (const check of st.checks) check(out);
  const rows = rowsOf(t, top);
  const affected = st.written.map((w) => w.cte);
  const respond = (c: PlanContext) => (one ? singleRowJson(t, f, rows, c, path) : responseJson(t, f, affected, rows, c, path));
  // Rows inserted through relationships are visible to Hasura's response (it inserts object by
  // object, then selects). Relationships read them here through `relations`; a function (a
  // computed field) cannot, so then the response is read in a second statement after the writes.
  const json = respond(out);
  if (st.written.length > 1 && ctx.dialect.name === 'postgres' && callsFunction(json)) {
    const split = finishReadingAfter(st.b, respond(ctx), ctx);
    if (split) return split;
  }
  return finishStatement(st.b, json, out);
}

// The table as the statement's end state shows it: its rows (minus those an upsert replaced) plus the inserted ones.
function readThrough(t: TableModel, written: readonly Written[]): ReadThrough {
  return { kind: 'read_through', table: { schema: t.schema, name: t.name }, row: new Alias(t.name), columns: t.columns.map((c) => c.name),
    primaryKey: t.primaryKey, written: written.map((w) => ({ write: w.cte, upsert: w.upsert })) };
}

/** One object of the input: its column values and the relationships it inserts through. */
interface RowInput {
  readonly columns: Map<string, Input>;
  readonly objectRels: [RelationshipModel, Input][];
  readonly arrayRels: [RelationshipModel, Input][];
  readonly path: Path;
}

function readRow(t: TableModel, obj: Input, perm: WritePermission, linked: Linked, ctx: PlanContext, path: Path): RowInput {
  const row: RowInput = { columns: new Map(), objectRels: [], arrayRels: [], path };
  for (const [key, value] of entriesOf(obj, ctx, path)) {
    const column = t.columns.find((c) => c.field === key);
    if (column && perm.columns.includes(column.name)) {
      if (linked.has(column.name)) {
        throw new ApiError('validation-failed', `cannot insert ${JSON.stringify(column.name)} columns as their values are already being determined by parent insert`, 400, path);
      }
      row.columns.set(column.name, value);
      continue;
    }
    const rel = t.relationships.find((r) => r.name === key);
    if (!rel) throw new ApiError('validation-failed', `field "${key}" not found in type: '${typeNameOf(t, '_insert_input')}'`, 400, [...path, key]);
    if (isNull(value, ctx)) continue;
    // A manual object relationship inserted after its parent links like an array relationship.
    (rel.kind === 'object' && !rel.insertAfterParent ? row.objectRels : row.arrayRels).push([rel, value]);
  }
  for (const [rel] of row.objectRels) {
    const taken = rel.mapping.find(([local]) => row.columns.has(local) || linked.has(local));
    if (taken) {
      throw new ApiError('validation-failed', `cannot insert object relationship ${JSON.stringify(rel.name)} as ${JSON.stringify(taken[0])} column values are already determined`, 400, [...path, rel.name]);
    }
  }
  return row;
}

/**
 * Inserts `objects` into `t` (each linked column taking its value from `linked`) and answers the
 * CTE of the inserted rows. `index` numbers the objects in error paths (null for a single object).
 */
function insertRows(st: InsertState, t: TableModel, objects: readonly Input[], onConflict: Input | undefined, linked: Linked,
  path: Path, index: number | null, conflictPath: Path): Alias {
  const { ctx } = st;
  const perm = mutationPermsOf(ctx, t).insert;
  if (!perm) throw new ApiError('validation-failed', `no insert permission on table "${t.name}"`, 400, path);
  const upsert = ctx.dialect.can.upsert === 'merge' ? ifMatchedClause : onConflictClause;
  const conflict = onConflict && !isNull(onConflict, ctx) ? upsert(t, onConflict, ctx, conflictPath) : null;
  const rows = objects.map((o, i) => readRow(t, o, perm, linked, ctx, index === null ? path : [...path, i + index]));
  const nested = rows.some((r) => r.objectRels.length > 0 || r.arrayRels.length > 0);
  if (!nested || rows.length <= 1) {
    const batchLinks = rows.length === 1 ? parentsOf(st, t, rows[0]!, linked) : linked;
    const cte = insertCte(st, t, rows, perm, batchLinks, conflict);
    if (rows.length === 1) childrenOf(st, t, rows[0]!, cte);
    return cte;
  }
  // Each row with nested inserts gets its own INSERT; their rows are read back together.
  const ctes = rows.map((r) => {
    const cte = insertCte(st, t, [r], perm, parentsOf(st, t, r, linked), conflict);
    childrenOf(st, t, r, cte);
    return cte;
  });
  return st.b.cte(`${t.name}_all`, { kind: 'union', parts: ctes, columns: t.columns.map((c) => c.name) });
}

// Object relationships first: each parent is inserted, and the row takes the parent's key.
function parentsOf(st: InsertState, t: TableModel, row: RowInput, linked: Linked): Linked {
  const out = new Map(linked);
  for (const [rel, value] of row.objectRels) {
    const target = tableOf(st.ctx, rel.target);
    const relPath = [...row.path, rel.name];
    const data = entriesOf(value, st.ctx, relPath);
    const dataInput = data.find(([k]) => k === 'data')?.[1];
    if (!dataInput) throw new ApiError('validation-failed', 'missing required field "data"', 400, relPath);
    const cte = insertRows(st, target, [dataInput], data.find(([k]) => k === 'on_conflict')?.[1], new Map(), [...relPath, 'data'], null, [...relPath, 'on_conflict']);
    st.b.guard({ kind: 'one_row', write: cte }, new ApiError('not-supported',
      `cannot proceed to insert object relation ${JSON.stringify(rel.name)} since insert to table ${JSON.stringify(target.name)} affects zero rows`, 400, relPath));
    for (const [local, remote] of rel.mapping) out.set(local, { kind: 'written_value', write: cte, column: remote });
  }
  return out;
}

// Array relationships after the row: every child takes the row's key.
function childrenOf(st: InsertState, t: TableModel, row: RowInput, cte: Alias): void {
  if (row.arrayRels.length === 0) return;
  st.b.guard({ kind: 'one_row', write: cte }, new ApiError('not-supported',
    `cannot proceed to insert array relations since insert to table ${JSON.stringify(t.name)} affects zero rows`, 400, row.path));
  for (const [rel, value] of row.arrayRels) {
    const target = tableOf(st.ctx, rel.target);
    const relPath = [...row.path, rel.name];
    const data = entriesOf(value, st.ctx, relPath);
    const dataInput = data.find(([k]) => k === 'data')?.[1];
    if (!dataInput) throw new ApiError('validation-failed', 'missing required field "data"', 400, relPath);
    const links = new Map<string, WriteExpr>();
    for (const [local, remote] of rel.mapping) links.set(remote, { kind: 'written_value', write: cte, column: local });
    insertRows(st, target, itemsOf(dataInput, st.ctx), data.find(([k]) => k === 'on_conflict')?.[1], links,
      [...relPath, 'data'], 0, [...relPath, 'on_conflict']);
  }
}

/** `INSERT INTO t (cols) VALUES (...), (...) [ON CONFLICT ...] RETURNING *` as a CTE, with the insert check as a guard. */
function insertCte(st: InsertState, t: TableModel, rows: readonly RowInput[], perm: WritePermission, linked: Linked,
  conflict: ConflictPlan | null): Alias {
  const { ctx } = st;
  const presets = perm.presets.keys();
  const names = new Set<string>([...linked.keys(), ...presets]);
  for (const r of rows) for (const c of r.columns.keys()) names.add(c);
  const columns = t.columns.filter((c) => names.has(c.name));
  const target = new Alias(t.name);
  const written = writtenTableOf(ctx, t);
  const cte = st.b.cte(t.name, rows.length === 0 ? { kind: 'none', table: written.table } : {
    kind: 'insert', ...written, target, columns: columns.map((c) => c.name), firstColumn: t.columns[0]!.name,
    rows: rows.map((r) => columns.map((c) => cellValue(c, r, perm, linked, ctx))), conflict: conflict ? conflict.conflict(target) : null,
    ...(columns.some((c) => c.identity) ? { identityInsert: true as const } : {}),
  });
  st.written.push({ table: t, cte, upsert: conflict !== null && rows.length > 0 });
  checkGuard(st, t, cte, perm, conflict, rows.length > 0);
  return cte;
}

// The insert check on every inserted row; rows an upsert updated instead take the update check.
function checkGuard(st: InsertState, t: TableModel, cte: Alias, perm: WritePermission, conflict: ConflictPlan | null, any: boolean): void {
  if (!any) return;
  const error = new ApiError('permission-error', 'check constraint of an insert/update permission has failed', 400, st.checkPath);
  const test = (checked: boolean, rule: 'insertCheck' | 'updateCheck', rows: WrittenRows): void => {
    if (!checked) return;
    st.checks.push((ctx) => {
      const r = new Alias(t.name);
      st.b.guard({ kind: 'all_rows', rows, row: r, check: permissionCond(ctx, t.id, rule, r) }, error);
    });
  };
  if (!conflict) { test(perm.checked, 'insertCheck', rowsOf(t, cte)); return; }
  test(perm.checked, 'insertCheck', rowsOf(t, cte, 'inserted'));
  test(conflict.updateChecked, 'updateCheck', rowsOf(t, cte, 'updated'));
}

function cellValue(c: ColumnModel, r: RowInput, perm: WritePermission, linked: Linked, ctx: PlanContext): WriteExpr {
  const preset = perm.presets.get(c.name);
  if (preset) return preset;
  const link = linked.get(c.name);
  if (link) return link;
  const v = r.columns.get(c.name);
  if (!v) return { kind: 'default' };
  return columnValueExpr(v, c.type, c.scalar, ctx, [...r.path, c.field]);
}

// True when a response calls a database function (a computed field, scalar or set-returning).
function callsFunction(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(callsFunction);
  if (v === null || typeof v !== 'object' || v instanceof Alias) return false;
  const kind = (v as { kind?: unknown }).kind;
  if (kind === 'call' || kind === 'function') return true;
  return Object.values(v).some(callsFunction);
}
