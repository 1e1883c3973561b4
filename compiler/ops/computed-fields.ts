// Computed fields: add, and drop with cascade (permissions that list the field depend on it).

import { ApiError } from '../../runtime/errors/index.js';
import { tableChildName } from '../model/index.js';
import { argsObject, boolAt, has, nameAt, readTablePart, sourceOf, tableAt, type Obj } from './args.js';
import { quoted, replaceTable, requireTable } from './document.js';
import type { OpHandler } from './types.js';

export const addComputedField: OpHandler = (input) => {
  const o = argsObject(input.args);
  const table = tableAt(o, 'table');
  const name = nameAt(o, 'name');
  const sourceName = sourceOf(input, o);
  if (!has(o, 'definition')) throw new ApiError('parse-failed', "the key 'definition' was not present", 400, ['args']);
  const raw: Obj = { name, definition: o['definition']!, ...(has(o, 'comment') ? { comment: o['comment']! } : {}) };
  const cf = readTablePart(table, 'computed_fields', raw, ['args']).computed_fields![0]!;
  const entry = requireTable(input.metadata, sourceName, table, ['args', 'table']);
  // A column of the same name is not refused here: Hasura finds it when it builds the table
  // ("field definition conflicts with postgres column", an inconsistency the edit is refused for).
  const taken = (entry.computed_fields ?? []).some((c) => c.name === name)
    || [...(entry.object_relationships ?? []), ...(entry.array_relationships ?? [])].some((r) => r.name === name);
  if (taken) throw new ApiError('already-exists', `field with name ${JSON.stringify(name)} already exists in table ${quoted(table)}`, 400, ['args', 'name']);
  const stored = { ...cf, comment: cf.comment ?? null };
  const next = replaceTable(input.metadata, sourceName, table, (t) => ({ ...t, computed_fields: [...(t.computed_fields ?? []), stored] }));
  return { metadata: next, effect: { kind: 'create', object: { type: 'computed_field', name: tableChildName('computed_field', name, sourceName, table) } } };
};

export const dropComputedField: OpHandler = (input) => {
  const o = argsObject(input.args);
  const table = tableAt(o, 'table');
  const name = nameAt(o, 'name');
  const sourceName = sourceOf(input, o);
  const entry = requireTable(input.metadata, sourceName, table, ['args', 'table']);
  if (!(entry.computed_fields ?? []).some((c) => c.name === name)) {
    throw new ApiError('not-exists', `computed field ${JSON.stringify(name)} does not exist`, 400, ['args', 'name']);
  }
  const next = replaceTable(input.metadata, sourceName, table, (t) => ({ ...t, computed_fields: (t.computed_fields ?? []).filter((c) => c.name !== name) }));
  return { metadata: next, effect: { kind: 'drop', cascade: boolAt(o, 'cascade', false) } };
};
