// A run_sql that changes the type of a column some permission compares with a literal value is
// refused, as Hasura v2 refuses it after the statement (Hasura.RQL.DDL.Schema.Table,
// `procAlteredCols`: a column whose type changed while objects depend on it "on type"). A
// permission's boolean expression depends on a column's type when it compares that column with a
// value written in the permission (`{"age": {"_gt": 3}}`): the value was read as the old type.
// An insert or update permission's column preset (`set`) with a static value depends on the
// column's type the same way (Hasura.RQL.DDL.Permission, `procSetObj`: a static value is
// `DROnType`, a session variable `DRSessionVariable`). A comparison with a session variable,
// `_is_null`, or another column does not, and neither does a column that is only listed.
// The error is 400 `dependency-error` at `$.args`, whatever `cascade` says; the dependent objects
// are listed sorted by their text, as Hasura's `reportSchemaObjs` lists them.

import { ApiError } from '../../runtime/errors/index.js';
import type { IntrospectedTable, Introspection } from '../introspect/index.js';
import type { Json, QualifiedTable, Source, TableEntry } from '../metadata/index.js';
import { qualifiedText } from '../model/index.js';
import { tableKey } from './reconcile-detect.js';
import { asObject, makeRenamer, type Renamer } from './reconcile-renamer.js';

const PERMISSION_KINDS = ['select', 'insert', 'update', 'delete'] as const;

const normal = (key: string): string => (key.startsWith('$') ? `_${key.slice(1)}` : key);
const isColumnComparison = (op: string): boolean => /^_c(eq|neq?|gte?|lte?)$/.test(normal(op));
const isSessionVariable = (v: Json): boolean => typeof v === 'string' && /^x-(svc|hasura)-/i.test(v);

/** A column's key in the change map: table key, then the column name. */
const columnKey = (t: QualifiedTable, column: string): string => `${tableKey(t)}\u0000${column}`;

/** Columns (same table, same name, same position) whose type differs after the change. */
function retypedColumns(before: Introspection, after: Introspection): Map<string, string> {
  const afterTables = new Map(after.tables.map((t) => [tableKey(t), t] as const));
  const out = new Map<string, string>();
  for (const t of before.tables) {
    const now: IntrospectedTable | undefined = afterTables.get(tableKey(t));
    if (!now) continue;
    for (const c of t.columns) {
      const d = now.columns.find((x) => x.name === c.name && x.position === c.position);
      if (d && (d.type !== c.type || d.typeSchema !== c.typeSchema)) out.set(columnKey(t, c.name), c.name);
    }
  }
  return out;
}

/** Does an operator object (`{"_gt": 3}`, or a bare value meaning `_eq`) compare with a literal? */
function comparesWithLiteral(value: Json): boolean {
  const ops = asObject(value);
  if (!ops) return !isSessionVariable(value);
  return Object.entries(ops).some(([op, v]) => {
    const k = normal(op);
    if (isColumnComparison(k) || k === '_is_null') return false;
    if (Array.isArray(v)) return v.some((x) => !isSessionVariable(x));
    return !isSessionVariable(v);
  });
}

/** Every (table, column) the expression on `table` compares with a literal value. */
function typedColumns(exp: Json, table: QualifiedTable, r: Renamer, out: Set<string>): void {
  const o = asObject(exp);
  if (!o) return;
  for (const [key, value] of Object.entries(o)) {
    const k = normal(key);
    if (k === '_and' || k === '_or') {
      for (const v of Array.isArray(value) ? value : [value]) typedColumns(v, table, r, out);
    } else if (k === '_not') {
      typedColumns(value, table, r, out);
    } else if (k === '_exists') {
      const e = asObject(value);
      const raw = e?.['_table'];
      const named = asObject(raw);
      const target: QualifiedTable | null = typeof raw === 'string' ? { schema: 'public', name: raw }
        : named && typeof named['name'] === 'string' ? { schema: typeof named['schema'] === 'string' ? named['schema'] : 'public', name: named['name'] } : null;
      if (target && e?.['_where'] !== undefined) typedColumns(e['_where']!, target, r, out);
    } else {
      const target = r.target(table, key);
      if (target) typedColumns(value, target, r, out);
      else if (comparesWithLiteral(value)) out.add(columnKey(table, key));
    }
  }
}

/** The columns a permission's `set` presets to a static value (not a session variable). */
function presetColumns(set: Json | undefined): string[] {
  const o = asObject(set);
  return o ? Object.entries(o).filter(([, v]) => !isSessionVariable(v)).map(([col]) => col) : [];
}

/** `permission pa.user.select in source "default"` for each permission of the entry that depends on a retyped column. */
function dependentPermissions(entry: TableEntry, source: string, r: Renamer, retyped: ReadonlyMap<string, string>): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const kind of PERMISSION_KINDS) {
    for (const p of (entry[`${kind}_permissions`] ?? []) as readonly { role: string; permission: Json }[]) {
      const body = asObject(p.permission);
      if (!body) continue;
      const used = new Set<string>();
      for (const part of ['filter', 'check'] as const) if (body[part] !== undefined) typedColumns(body[part]!, entry.table, r, used);
      for (const col of presetColumns(body['set'])) used.add(columnKey(entry.table, col));
      for (const col of used) {
        if (!retyped.has(col)) continue;
        const label = `permission ${qualifiedText(entry.table)}.${p.role}.${kind} in source ${JSON.stringify(source)}`;
        found.set(col, [...(found.get(col) ?? []), label]);
      }
    }
  }
  return found;
}

/** Throws `dependency-error` when the change retyped a column a permission of `source` compares with a literal. */
export function checkColumnTypes(source: Source, before: Introspection | null, after: Introspection): void {
  if (!before) return;
  const retyped = retypedColumns(before, after);
  if (retyped.size === 0) return;
  const r = makeRenamer(source, { tables: new Map(), columns: new Map() }, before);
  const byColumn = new Map<string, string[]>();
  for (const entry of source.tables) {
    for (const [col, labels] of dependentPermissions(entry, source.name, r, retyped)) byColumn.set(col, [...(byColumn.get(col) ?? []), ...labels]);
  }
  const first = [...byColumn.entries()][0];
  if (!first) return;
  const [key, labels] = first;
  const [schema, name] = key.split('\u0000') as [string, string];
  const column = retyped.get(key)!;
  throw new ApiError('dependency-error', `cannot change type of column ${JSON.stringify(column)} in table ${JSON.stringify(qualifiedText({ schema, name }))} `
    + `because of the following dependencies : ${[...labels].sort().join(', ')}`, 400, ['args']);
}
