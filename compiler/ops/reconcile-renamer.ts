// The renames of one source as lookups over the document's (old) names: a table's new name, a
// column's new name, and where a relationship leads (so that a filter reaching another table
// through a relationship renames that table's columns).

import type { Introspection } from '../introspect/index.js';
import type { Json, QualifiedTable, Relationship, Source, TableEntry } from '../metadata/index.js';
import { tableKey, type CatalogRenames } from './reconcile-detect.js';

export interface Renamer {
  readonly source: string;
  /** The new name of a table (the same object when it was not renamed). */
  table(t: QualifiedTable): QualifiedTable;
  /** The new name of a column of the table called `t` before the change. */
  column(t: QualifiedTable, column: string): string;
  /** The table a relationship of `t` leads to, by the names before the change. */
  target(t: QualifiedTable, relationship: string): QualifiedTable | undefined;
  /** The new name of a relationship of the table called `t` before the change. */
  relationship(t: QualifiedTable, relationship: string): string;
}

/** The table a relationship leads to: by its manual configuration, or its foreign key in the catalog. */
function relationshipTarget(owner: QualifiedTable, rel: Relationship, before: Introspection): QualifiedTable | undefined {
  const manual = rel.using.manual_configuration;
  if (manual) return manual.remote_table;
  const fk = rel.using.foreign_key_constraint_on;
  if (fk === undefined) return undefined;
  if (typeof fk === 'string' || Array.isArray(fk)) {
    const cols: readonly string[] = typeof fk === 'string' ? [fk] : fk;
    const t = before.tables.find((x) => x.schema === owner.schema && x.name === owner.name);
    const c = t?.foreignKeys.find((k) => k.columns.length === cols.length && cols.every((col) => k.columns.includes(col)));
    return c ? { schema: c.refSchema, name: c.refTable } : undefined;
  }
  return (fk as { readonly table: QualifiedTable }).table;
}

function relationshipsOf(entry: TableEntry, before: Introspection): Map<string, QualifiedTable> {
  const out = new Map<string, QualifiedTable>();
  for (const rel of [...(entry.object_relationships ?? []), ...(entry.array_relationships ?? [])]) {
    const target = relationshipTarget(entry.table, rel, before);
    if (target) out.set(rel.name, target);
  }
  return out;
}

export function makeRenamer(source: Source, renames: CatalogRenames, before: Introspection): Renamer {
  const targets = new Map(source.tables.map((e) => [tableKey(e.table), relationshipsOf(e, before)]));
  return {
    source: source.name,
    table: (t) => renames.tables.get(tableKey(t)) ?? t,
    column: (t, c) => renames.columns.get(tableKey(t))?.get(c) ?? c,
    target: (t, rel) => targets.get(tableKey(t))?.get(rel),
    relationship: (t, rel) => renames.relationships?.get(tableKey(t))?.get(rel) ?? rel,
  };
}

/** A JSON object (not an array), or null. */
export function asObject(v: Json | undefined): { readonly [k: string]: Json } | null {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : null;
}

/** Renames the keys of an object that name columns of `t`. */
export function renameKeys<V>(o: { readonly [k: string]: V }, t: QualifiedTable, r: Renamer): { [k: string]: V } {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [r.column(t, k), v]));
}

/** A column list, or `*`, of `t` renamed. */
export function renameColumnList<L extends Json | undefined>(list: L, t: QualifiedTable, r: Renamer): L {
  return (Array.isArray(list) ? list.map((c) => (typeof c === 'string' ? r.column(t, c) : c)) : list) as L;
}
