// Which tables and columns a run_sql renamed, read from the catalog snapshots before and after it.
//
// The snapshot carries no oids (they differ between databases, and the snapshot is meant to be
// deterministic), so identity is inferred the way Hasura v2 infers it where it can:
// - a column keeps its `position` (pg_attribute.attnum) for the life of its table, and attnums are
//   never reused (a dropped column leaves a gap), so within one table a column that vanished and one
//   that appeared at the same position are the same column, renamed. The type must match too: a
//   table dropped and created again under the same name restarts its positions, and a wrong rename
//   would silently rewrite permissions, while a missed one only surfaces as a dependency error;
// - a table that vanished and one that appeared are the same table, renamed, when they have the
//   same kind, the same column positions and types (names may differ: one statement can rename the
//   table and its columns) and the same constraint names and comment. PostgreSQL does not rename
//   constraints with their table (`article_pkey` stays), so a table dropped and created under a new
//   name usually differs there. Only a one-to-one match counts; anything ambiguous is left as a drop
//   and a create, for the dependency judge.

import type { IntrospectedTable, Introspection } from '../introspect/index.js';
import type { QualifiedTable } from '../metadata/index.js';

/** `schema\u0000name`: the key of a table in the rename maps. */
export function tableKey(t: QualifiedTable): string {
  return `${t.schema}\u0000${t.name}`;
}

/** What a catalog change renamed, keyed by the names BEFORE it (the names the document uses). */
export interface CatalogRenames {
  /** Old table → its new name. */
  readonly tables: ReadonlyMap<string, QualifiedTable>;
  /** Old table → (old column name → new column name). */
  readonly columns: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Table → (old relationship name → new name): a rename_relationship carried into the permissions. */
  readonly relationships?: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

function shapeOf(t: IntrospectedTable): string {
  return JSON.stringify([
    t.kind,
    t.comment,
    t.columns.map((c) => [c.position, c.typeSchema, c.type]),
    t.primaryKey?.name ?? null,
    t.uniqueConstraints.map((u) => u.name).sort(),
    t.foreignKeys.map((k) => k.name).sort(),
  ]);
}

function groupByShape(tables: readonly IntrospectedTable[]): Map<string, IntrospectedTable[]> {
  const out = new Map<string, IntrospectedTable[]>();
  for (const t of tables) {
    const shape = shapeOf(t);
    out.set(shape, [...(out.get(shape) ?? []), t]);
  }
  return out;
}

/** Pairs (before, after) of the same table, renamed or not. */
function sameTables(before: Introspection, after: Introspection): (readonly [IntrospectedTable, IntrospectedTable])[] {
  const afterByKey = new Map(after.tables.map((t) => [tableKey(t), t]));
  const beforeKeys = new Set(before.tables.map(tableKey));
  const pairs: (readonly [IntrospectedTable, IntrospectedTable])[] = [];
  const vanished: IntrospectedTable[] = [];
  for (const t of before.tables) {
    const now = afterByKey.get(tableKey(t));
    if (now) pairs.push([t, now]);
    else vanished.push(t);
  }
  const appeared = groupByShape(after.tables.filter((t) => !beforeKeys.has(tableKey(t))));
  for (const [shape, olds] of groupByShape(vanished)) {
    const news = appeared.get(shape) ?? [];
    if (olds.length === 1 && news.length === 1) pairs.push([olds[0]!, news[0]!]);
  }
  return pairs;
}

function columnRenames(old: IntrospectedTable, now: IntrospectedTable): Map<string, string> {
  const byPosition = new Map(now.columns.map((c) => [c.position, c]));
  const out = new Map<string, string>();
  for (const c of old.columns) {
    const n = byPosition.get(c.position);
    if (n && n.name !== c.name && n.type === c.type && n.typeSchema === c.typeSchema) out.set(c.name, n.name);
  }
  return out;
}

/** The renames between two snapshots of one source (none when there is no snapshot before). */
export function detectRenames(before: Introspection | null, after: Introspection): CatalogRenames {
  const tables = new Map<string, QualifiedTable>();
  const columns = new Map<string, ReadonlyMap<string, string>>();
  if (!before) return { tables, columns };
  for (const [old, now] of sameTables(before, after)) {
    if (tableKey(old) !== tableKey(now)) tables.set(tableKey(old), { schema: now.schema, name: now.name });
    const cols = columnRenames(old, now);
    if (cols.size > 0) columns.set(tableKey(old), cols);
  }
  return { tables, columns };
}

export function hasRenames(r: CatalogRenames): boolean {
  return r.tables.size > 0 || r.columns.size > 0;
}
