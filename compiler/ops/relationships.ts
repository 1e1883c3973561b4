// Object and array relationships: create, drop (with cascade), rename, comment.

import { ApiError } from '../../runtime/errors/index.js';
import type { Json, Relationship, TableEntry } from '../metadata/index.js';
import { notAName, relationshipDefinition, tableChildName } from '../model/index.js';
import { argsObject, boolAt, commentAt, has, nameAt, readTablePart, sourceOf, tableAt } from './args.js';
import { catalogTable, quoted, replaceSource, replaceTable, requireTable } from './document.js';
import { tableKey } from './reconcile-detect.js';
import { makeRenamer } from './reconcile-renamer.js';
import { renamePermissionsOfEntry } from './reconcile-tables.js';
import type { OpHandler } from './types.js';

type Kind = 'object' | 'array';

function listKey(kind: Kind): 'object_relationships' | 'array_relationships' {
  return kind === 'object' ? 'object_relationships' : 'array_relationships';
}

/** The relationship of this name on the table, and its kind. */
export function findRelationship(entry: TableEntry, name: string): { kind: Kind; rel: Relationship } | undefined {
  const obj = (entry.object_relationships ?? []).find((r) => r.name === name);
  if (obj) return { kind: 'object', rel: obj };
  const arr = (entry.array_relationships ?? []).find((r) => r.name === name);
  return arr ? { kind: 'array', rel: arr } : undefined;
}

/** Relationships and computed fields share one namespace per table. */
function nameTaken(entry: TableEntry, name: string): boolean {
  return findRelationship(entry, name) !== undefined || (entry.computed_fields ?? []).some((c) => c.name === name);
}

/** Hasura takes `{table, columns: "author_id"}` for one column: stored as `column`. */
function singleColumn(using: Json): Json {
  if (!using || typeof using !== 'object' || Array.isArray(using)) return using;
  const fk = using['foreign_key_constraint_on'];
  if (!fk || typeof fk !== 'object' || Array.isArray(fk) || typeof fk['columns'] !== 'string' || has(fk, 'column')) return using;
  const { columns, ...rest } = fk;
  return { ...using, foreign_key_constraint_on: { ...rest, column: columns } };
}

function createRelationship(kind: Kind): OpHandler {
  return (input) => {
    const o = argsObject(input.args);
    const table = tableAt(o, 'table');
    const name = nameAt(o, 'name');
    const sourceName = sourceOf(input, o);
    const entry = requireTable(input.metadata, sourceName, table);
    if (!has(o, 'using')) throw new ApiError('parse-failed', "the key 'using' was not present", 400, ['args']);
    const raw: { [k: string]: Json } = { name, using: singleColumn(o['using']!) };
    if (has(o, 'comment')) raw['comment'] = o['comment']!;
    const key = listKey(kind);
    const rel = readTablePart(table, key, raw, ['args'])[key]![0]!;
    const column = catalogTable(input.introspection, sourceName, table)?.columns.some((c) => c.name === name) ?? false;
    if (column || nameTaken(entry, name)) {
      throw new ApiError('already-exists', `field with name ${JSON.stringify(name)} already exists in table ${quoted(table)}`, 400, ['args']);
    }
    const stored: Relationship = { ...rel, comment: rel.comment ?? null };
    const next = replaceTable(input.metadata, sourceName, table, (t) => ({ ...t, [key]: [...(t[key] ?? []), stored] }));
    const type = kind === 'object' ? 'object_relation' : 'array_relation';
    return { metadata: next, effect: { kind: 'create', object: { type, name: tableChildName(type, name, sourceName, table) } } };
  };
}

export const createObjectRelationship = createRelationship('object');
export const createArrayRelationship = createRelationship('array');

function requireRelationship(entry: TableEntry, name: string, table: string): { kind: Kind; rel: Relationship } {
  const found = findRelationship(entry, name);
  if (!found) throw new ApiError('not-exists', `relationship ${JSON.stringify(name)} does not exist in table ${table}`, 400, ['args', 'relationship']);
  return found;
}

/** The relationship an operation names under `key`, in its table of its source. */
function namedRelationship(input: Parameters<OpHandler>[0], key: 'relationship' | 'name') {
  const o = argsObject(input.args);
  const table = tableAt(o, 'table');
  const name = nameAt(o, key);
  const sourceName = sourceOf(input, o);
  const entry = requireTable(input.metadata, sourceName, table);
  const { kind } = requireRelationship(entry, name, quoted(table));
  return { o, table, name, sourceName, entry, key: listKey(kind) };
}

export const dropRelationship: OpHandler = (input) => {
  const { o, table, name, sourceName, key } = namedRelationship(input, 'relationship');
  const next = replaceTable(input.metadata, sourceName, table, (t) => ({ ...t, [key]: (t[key] ?? []).filter((r) => r.name !== name) }));
  return { metadata: next, effect: { kind: 'drop', cascade: boolAt(o, 'cascade', false) } };
};

/** Renaming is a drop of the old name (dependents must follow) and the creation of the new one. */
export const renameRelationship: OpHandler = (input) => {
  const { o, table, name, sourceName, entry, key } = namedRelationship(input, 'name');
  const newName = nameAt(o, 'new_name');
  if (name === newName) return { metadata: null, effect: { kind: 'other' } };
  if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(newName)) {
    // The relationship under its new name cannot be served (Hasura's textToName): refused as its
    // creation would be, not read as a drop of the old name.
    const type = key === 'object_relationships' ? 'object_relation' : 'array_relation';
    const rel = (entry[key] ?? []).find((r) => r.name === name)!;
    const reason = `Inconsistent object: ${notAName(newName)}`;
    throw new ApiError('invalid-configuration', reason, 400, ['args'], [{ type, name: tableChildName(type, newName, sourceName, table),
      definition: relationshipDefinition(sourceName, table, { ...rel, name: newName }), reason }] as unknown as Json);
  }
  const column = catalogTable(input.introspection, sourceName, table)?.columns.some((c) => c.name === newName) ?? false;
  if (column || nameTaken(entry, newName)) {
    throw new ApiError('already-exists', `cannot rename relationship ${JSON.stringify(name)} to ${JSON.stringify(newName)} in table ${quoted(table)} as a column/relationship with the name already exists`, 400, ['args']);
  }
  // Hasura renames the relationship in the permissions that reach it (Schema/Rename.hs,
  // renameRelationshipInMetadata), on its own table and through other tables' relationships.
  const before = input.introspection[sourceName];
  const renamed = before ? replaceSource(input.metadata, sourceName, (s) => {
    const r = makeRenamer(s, { tables: new Map(), columns: new Map(), relationships: new Map([[tableKey(table), new Map([[name, newName]])]]) }, before);
    return { ...s, tables: s.tables.map((e) => renamePermissionsOfEntry(e, r)) };
  }) : input.metadata;
  const next = replaceTable(renamed, sourceName, table, (t) => ({
    ...t, [key]: (t[key] ?? []).map((r) => (r.name === name ? { ...r, name: newName } : r)),
  }));
  return { metadata: next, effect: { kind: 'drop', cascade: false } };
};

export const setRelationshipComment: OpHandler = (input) => {
  const { o, table, name, sourceName, key } = namedRelationship(input, 'relationship');
  const comment = commentAt(o, 'comment');
  const next = replaceTable(input.metadata, sourceName, table, (t) => ({
    ...t, [key]: (t[key] ?? []).map((r) => (r.name === name ? { ...r, comment } : r)),
  }));
  return { metadata: next, effect: { kind: 'other' } };
};
