// Permission filters and checks after a rename: column keys of the table the expression is on,
// relationship keys (a rename_relationship),
// the tables and columns reached through relationships and `_exists`, and the operands of the
// column comparison operators (`_ceq: "col"` on the same table, `["$", "col"]` on the root table).

import type { Json, QualifiedTable } from '../metadata/index.js';
import { asObject, type Renamer } from './reconcile-renamer.js';

interface Where {
  /** The table the expression is evaluated on, by its name before the change. */
  readonly table: QualifiedTable;
  /** The table of the permission, for `["$", column]` operands. */
  readonly root: QualifiedTable;
}

const normal = (key: string): string => (key.startsWith('$') ? `_${key.slice(1)}` : key);

const isColumnComparison = (op: string): boolean => /^_c(eq|neq?|gte?|lte?)$/.test(normal(op));

/** The boolean expression with the renames applied. */
export function renameBoolExp(exp: Json, table: QualifiedTable, r: Renamer): Json {
  return rename(exp, { table, root: table }, r);
}

function rename(exp: Json, at: Where, r: Renamer): Json {
  const o = asObject(exp);
  if (!o) return exp;
  return Object.fromEntries(Object.entries(o).map(([key, value]) => renameEntry(key, value, at, r)));
}

function renameEntry(key: string, value: Json, at: Where, r: Renamer): [string, Json] {
  const k = normal(key);
  if (k === '_and' || k === '_or') {
    return [key, Array.isArray(value) ? value.map((v) => rename(v, at, r)) : rename(value, at, r)];
  }
  if (k === '_not') return [key, rename(value, at, r)];
  if (k === '_exists') return [key, renameExists(value, at, r)];
  const target = r.target(at.table, key);
  if (target) return [r.relationship(at.table, key), rename(value, { table: target, root: at.root }, r)];
  return [r.column(at.table, key), renameOperands(value, at, r)];
}

function renameExists(value: Json, at: Where, r: Renamer): Json {
  const o = asObject(value);
  if (!o) return value;
  const raw = o['_table'];
  const named = asObject(raw);
  const old: QualifiedTable | null = typeof raw === 'string' ? { schema: 'public', name: raw }
    : named && typeof named['name'] === 'string' ? { schema: typeof named['schema'] === 'string' ? named['schema'] : 'public', name: named['name'] }
      : null;
  if (!old) return value;
  const now = r.table(old);
  const table: Json = now === old ? raw! : typeof raw === 'string' && now.schema === 'public' ? now.name : { ...named, schema: now.schema, name: now.name };
  const out: { [k: string]: Json } = { ...o, _table: table };
  if ('_where' in o) out['_where'] = rename(o['_where']!, { table: old, root: at.root }, r);
  return out;
}

function renameOperands(value: Json, at: Where, r: Renamer): Json {
  const o = asObject(value);
  if (!o) return value;
  return Object.fromEntries(Object.entries(o).map(([op, v]) => {
    if (!isColumnComparison(op)) return [op, v];
    if (typeof v === 'string') return [op, r.column(at.table, v)];
    if (Array.isArray(v) && v.length === 2 && v[0] === '$' && typeof v[1] === 'string') return [op, ['$', r.column(at.root, v[1])]];
    return [op, v];
  }));
}
