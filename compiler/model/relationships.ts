import type { RelationshipModel, TableModel } from '../../runtime/bundle/index.js';
import type { Relationship, Json } from '../metadata/index.js';
import type { Issues } from './issues.js';
import { columnClash } from './functions.js';
import { qualifiedText, relationshipDefinition, tableChildName } from './names.js';
import { notAName, tableId, type TableDraft } from './tables.js';

type Mapping = (readonly [string, string])[];

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** Resolves every object and array relationship against the foreign keys of the catalog. */
export function resolveRelationships(source: string, drafts: readonly TableDraft[], issues: Issues): Map<string, RelationshipModel[]> {
  const byId = new Map(drafts.map((d) => [d.model.id, d]));
  const out = new Map<string, RelationshipModel[]>();
  for (const d of drafts) {
    const rels: RelationshipModel[] = [];
    // Names the relationships have taken so far.
    const seen = new Set<string>();
    const all = [
      ...(d.entry.object_relationships ?? []).map((r) => ['object', r] as const),
      ...(d.entry.array_relationships ?? []).map((r) => ['array', r] as const),
    ];
    for (const [kind, rel] of all) {
      const type = kind === 'object' ? 'object_relation' : 'array_relation';
      const fail = (reason: string): void => issues.add({
        type, name: tableChildName(type, rel.name, source, d.entry.table),
        definition: relationshipDefinition(source, d.entry.table, rel) as Json, reason,
      });
      // Hasura keeps any non-empty name and refuses it when it builds the field (textToName): a
      // relationship whose name is not a GraphQL name is not served, in its words.
      if (!GRAPHQL_NAME.test(rel.name)) { fail(notAName(rel.name)); continue; }
      const r = resolveOne(source, d, kind, rel, byId);
      if (typeof r === 'string') { fail(r); continue; }
      const clash = columnClash(d.model, rel.name);
      if (clash) { fail(clash); continue; }
      if (seen.has(rel.name)) { fail(`conflicting definitions for field ${JSON.stringify(rel.name)}`); continue; }
      seen.add(rel.name);
      rels.push(r);
    }
    out.set(d.model.id, rels);
  }
  return out;
}

/**
 * One relationship, with Hasura's reasons when it cannot be built. Hasura finds them in two
 * passes, and words them apart:
 * - building it (objRelP2Setup, arrRelP2Setup in RQL/DDL/Relationship.hs), under the context
 *   `in table "t": in relationship "r": ` (buildRelationship's addTableContext and
 *   addRelationshipContext): no foreign key on the given columns (getRequiredFkey: "no foreign
 *   constraint exists on the given column", "more than one foreign key constraint exists on the
 *   given column"), or the table a foreign key is looked up on not tracked (findTable: "table "x"
 *   does not exist");
 * - then resolving what the built relationship depends on (Schema/Cache/Dependencies.hs,
 *   resolveDependency), without context: the table it points to ("table "x" is not tracked"), the
 *   columns of a manual mapping ("table "t" has no field named "c"").
 */
function resolveOne(source: string, d: TableDraft, kind: 'object' | 'array', rel: Relationship,
  byId: ReadonlyMap<string, TableDraft>): RelationshipModel | string {
  const using = rel.using;
  const base = { name: rel.name, kind, comment: rel.comment ?? null };
  const building = (reason: string): string => `in table ${JSON.stringify(qualifiedText(d.entry.table))}: in relationship ${JSON.stringify(rel.name)}: ${reason}`;
  const oneKey = <K>(keys: readonly K[]): K | string => {
    if (keys.length === 0) return building('no foreign constraint exists on the given column');
    if (keys.length > 1) return building('more than one foreign key constraint exists on the given column');
    return keys[0]!;
  };
  if (using.manual_configuration) {
    const m = using.manual_configuration;
    const target = byId.get(tableId(source, m.remote_table.schema, m.remote_table.name));
    const mapping: Mapping = Object.entries(m.column_mapping).map(([a, b]) => [a, b] as const);
    // The dependencies in Hasura's order: the columns of this table, then the remote table's.
    for (const [a] of mapping) if (!hasColumn(d.model, a)) return noField(d.model, a);
    if (!target) return `table ${JSON.stringify(qualifiedText(m.remote_table))} is not tracked`;
    for (const [, b] of mapping) if (!hasColumn(target.model, b)) return noField(target.model, b);
    return { ...base, target: target.model.id, mapping, nullable: true, ...(m.insertion_order === 'after_parent' ? { insertAfterParent: true } : {}) };
  }
  const fk = using.foreign_key_constraint_on;
  if (fk === undefined) return 'relationship has neither foreign_key_constraint_on nor manual_configuration';
  if (typeof fk === 'string' || Array.isArray(fk)) {
    if (kind === 'array') return 'an array relationship needs {table, column} in foreign_key_constraint_on';
    const cols = typeof fk === 'string' ? [fk] : (fk as readonly string[]);
    const c = oneKey(d.db.foreignKeys.filter((k) => sameSet(k.columns, cols)));
    if (typeof c === 'string') return c;
    const target = byId.get(tableId(source, c.refSchema, c.refTable));
    if (!target) return `table ${JSON.stringify(qualifiedText({ schema: c.refSchema, name: c.refTable }))} is not tracked`;
    const mapping: Mapping = c.columns.map((col, i) => [col, c.refColumns[i]!] as const);
    const nullable = mapping.some(([col]) => d.model.columns.find((x) => x.name === col)?.nullable ?? true);
    return { ...base, target: target.model.id, mapping, nullable };
  }
  const remote = fk as { table: { schema: string; name: string }; column?: string; columns?: readonly string[] };
  const target = byId.get(tableId(source, remote.table.schema, remote.table.name));
  if (!target) return building(`table ${JSON.stringify(qualifiedText(remote.table))} does not exist`);
  const cols = remote.columns ?? (remote.column ? [remote.column] : []);
  const c = oneKey(target.db.foreignKeys.filter((k) => sameSet(k.columns, cols) && k.refSchema === d.model.schema && k.refTable === d.model.name));
  if (typeof c === 'string') return c;
  const mapping: Mapping = c.refColumns.map((col, i) => [col, c.columns[i]!] as const);
  // The key is on the other table: its row needs this one's columns, so a nested insert writes it
  // after this row, as Hasura's objRelP2Setup makes every such object relationship (AfterParent).
  return { ...base, target: target.model.id, mapping, nullable: true, ...(kind === 'object' ? { insertAfterParent: true } : {}) };
}

/** Hasura's reason for a dependency on a field the table does not have (resolveField). */
function noField(t: TableModel, field: string): string {
  return `table ${JSON.stringify(qualifiedText(t))} has no field named ${JSON.stringify(field)}`;
}

function hasColumn(t: TableModel, name: string): boolean {
  return t.columns.some((c) => c.name === name);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
