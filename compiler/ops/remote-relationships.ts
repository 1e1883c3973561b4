// Remote relationships of tables: `<backend>_create_remote_relationship` / `_update_` / `_delete_`
// (definition `to_remote_schema` or `to_source`) and the legacy form of part B (`hasura_fields`,
// `remote_schema`, `remote_field` beside `name` and `table`). Stored in the table entry as
// `{name, definition: {to_remote_schema | to_source}}`; the legacy form is stored in the new shape.

import { ApiError, asArray, asObject, asString } from '../../runtime/errors/index.js';
import type { Json, TableEntry } from '../metadata/index.js';
import { tableChildName } from '../model/index.js';
import { argsObject, has, nameAt, sourceOf, tableAt, type Obj } from './args.js';
import { catalogTable, quoted, replaceTable, requireTable } from './document.js';
import type { OpHandler, OpInput } from './types.js';

const q = JSON.stringify;

function entryName(r: Json): string | null {
  return r !== null && typeof r === 'object' && !Array.isArray(r) && typeof r['name'] === 'string' ? r['name'] : null;
}

/** The definition an operation gives, in the stored shape (checked for its required keys). */
function readDefinition(o: Obj): Json {
  if (!has(o, 'definition')) {
    // Legacy form: hasura_fields, remote_schema, remote_field beside name and table.
    for (const k of ['hasura_fields', 'remote_schema', 'remote_field']) {
      if (!has(o, k)) throw new ApiError('parse-failed', `the key '${k}' was not present`, 400, ['args']);
    }
    const lhs = asArray(o['hasura_fields']!, ['args', 'hasura_fields']).map((c, i) => asString(c, ['args', 'hasura_fields', i]));
    return { to_remote_schema: { remote_schema: asString(o['remote_schema']!, ['args', 'remote_schema']), lhs_fields: lhs,
      remote_field: asObject(o['remote_field']!, ['args', 'remote_field']) } };
  }
  const d = asObject(o['definition']!, ['args', 'definition']);
  const at = ['args', 'definition'];
  if (has(d, 'to_source')) {
    const s = asObject(d['to_source']!, [...at, 'to_source']);
    const p = [...at, 'to_source'];
    for (const k of ['relationship_type', 'source', 'table', 'field_mapping']) {
      if (!has(s, k)) throw new ApiError('parse-failed', `the key '${k}' was not present`, 400, p);
    }
    const kind = asString(s['relationship_type']!, [...p, 'relationship_type']);
    if (kind !== 'object' && kind !== 'array') throw new ApiError('parse-failed', 'relationship_type must be "object" or "array"', 400, [...p, 'relationship_type']);
    asObject(s['field_mapping']!, [...p, 'field_mapping']);
    return { to_source: s };
  }
  if (has(d, 'to_remote_schema')) {
    const s = asObject(d['to_remote_schema']!, [...at, 'to_remote_schema']);
    const p = [...at, 'to_remote_schema'];
    for (const k of ['remote_schema', 'lhs_fields', 'remote_field']) {
      if (!has(s, k)) throw new ApiError('parse-failed', `the key '${k}' was not present`, 400, p);
    }
    asArray(s['lhs_fields']!, [...p, 'lhs_fields']);
    asObject(s['remote_field']!, [...p, 'remote_field']);
    return { to_remote_schema: s };
  }
  if (has(d, 'remote_schema')) {
    return readDefinition({ ...d, name: o['name'] ?? null });
  }
  throw new ApiError('parse-failed', 'expected "to_source" or "to_remote_schema" in the definition', 400, at);
}

function located(input: OpInput): { o: Obj; name: string; source: string; table: ReturnType<typeof tableAt>; entry: TableEntry } {
  const o = argsObject(input.args);
  const table = tableAt(o, 'table');
  const name = nameAt(o, 'name');
  const source = sourceOf(input, o);
  return { o, name, source, table, entry: requireTable(input.metadata, source, table) };
}

export const createRemoteRelationship: OpHandler = (input) => {
  const { o, name, source, table, entry } = located(input);
  const definition = readDefinition(o);
  const taken = (entry.remote_relationships ?? []).some((r) => entryName(r) === name)
    || (entry.object_relationships ?? []).some((r) => r.name === name) || (entry.array_relationships ?? []).some((r) => r.name === name)
    || (entry.computed_fields ?? []).some((c) => c.name === name)
    || (catalogTable(input.introspection, source, table)?.columns.some((c) => c.name === name) ?? false);
  if (taken) throw new ApiError('already-exists', `field with name ${q(name)} already exists in table ${quoted(table)}`, 400, ['args']);
  const next = replaceTable(input.metadata, source, table, (t) => ({ ...t, remote_relationships: [...(t.remote_relationships ?? []), { name, definition }] }));
  return { metadata: next, effect: { kind: 'create', object: { type: 'remote_relationship', name: tableChildName('remote_relationship', name, source, table) } } };
};

export const updateRemoteRelationship: OpHandler = (input) => {
  const { o, name, source, table, entry } = located(input);
  const definition = readDefinition(o);
  if (!(entry.remote_relationships ?? []).some((r) => entryName(r) === name)) {
    throw new ApiError('not-exists', `remote relationship with name ${q(name)} does not exist in table ${quoted(table)}`, 400, ['args']);
  }
  const next = replaceTable(input.metadata, source, table, (t) => ({
    ...t, remote_relationships: (t.remote_relationships ?? []).map((r) => (entryName(r) === name ? { name, definition } : r)),
  }));
  return { metadata: next, effect: { kind: 'create', object: { type: 'remote_relationship', name: tableChildName('remote_relationship', name, source, table) } } };
};

export const deleteRemoteRelationship: OpHandler = (input) => {
  const { name, source, table, entry } = located(input);
  if (!(entry.remote_relationships ?? []).some((r) => entryName(r) === name)) {
    throw new ApiError('not-exists', `remote relationship with name ${q(name)} does not exist in table ${quoted(table)}`, 400, ['args']);
  }
  const next = replaceTable(input.metadata, source, table, ({ remote_relationships: list, ...t }) => {
    const kept = (list ?? []).filter((r) => entryName(r) !== name);
    return kept.length > 0 ? { ...t, remote_relationships: kept } : t;
  });
  return { metadata: next, effect: { kind: 'drop', cascade: false } };
};
