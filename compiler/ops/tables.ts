// Tracking and untracking tables, and the table-level settings: is_enum, customization.

import { ApiError } from '../../runtime/errors/index.js';
import type { Json, QualifiedTable, TableConfiguration, TableEntry } from '../metadata/index.js';
import {
  argsObject, boolAt, has, readQualified, readTablePart, sourceOf, tableAt, type Obj,
} from './args.js';
import {
  findFunction, findTable, quoted, replaceSource, replaceTable, requireSource, requireTable, tidy,
} from './document.js';
import { tableObjectName } from '../model/index.js';
import type { OpHandler, OpInput, OpOutput } from './types.js';

/** The table of a track request: `"author"`, `{schema, name}` (/v1/query) or `{table: ...}`. */
function trackedTable(args: Json): { table: QualifiedTable; o: Obj } {
  if (typeof args === 'string') return { table: readQualified(args, ['args']), o: {} };
  const o = argsObject(args);
  if (has(o, 'table')) return { table: tableAt(o, 'table'), o };
  return { table: readQualified(o, ['args']), o };
}

function readConfiguration(table: QualifiedTable, o: Obj, key = 'configuration'): TableConfiguration | undefined {
  if (!has(o, key) || o[key] === null) return undefined;
  return readTablePart(table, 'configuration', o[key]!, ['args', key], false).configuration;
}

function trackOne(input: OpInput, args: Json, metadata = input.metadata): OpOutput & { metadata: NonNullable<OpOutput['metadata']> } {
  const { table, o } = trackedTable(args);
  const sourceName = sourceOf(input, o);
  const source = requireSource(metadata, sourceName);
  if (findTable(source, table)) throw new ApiError('already-tracked', `view/table already tracked : ${quoted(table)}`, 400, ['args']);
  if (findFunction(source, table)) throw new ApiError('not-supported', `function with name ${quoted(table)} already exists`, 400, ['args']);
  const isEnum = boolAt(o, 'is_enum', false);
  const configuration = readConfiguration(table, o);
  const entry: TableEntry = tidy({ table, is_enum: isEnum ? true : undefined, configuration });
  const next = replaceSource(metadata, sourceName, (s) => ({ ...s, tables: [...s.tables, entry] }));
  return { metadata: next, effect: { kind: 'create', object: { type: 'table', name: tableObjectName(sourceName, table) } } };
}

export const trackTable: OpHandler = (input) => trackOne(input, input.args);

export const untrackTable: OpHandler = (input) => {
  const o = argsObject(input.args);
  const table = tableAt(o, 'table');
  const sourceName = sourceOf(input, o);
  const source = requireSource(input.metadata, sourceName);
  if (!findTable(source, table)) throw new ApiError('already-untracked', `view/table already untracked : ${quoted(table)}`, 400, ['args']);
  const cascade = boolAt(o, 'cascade', false);
  return { metadata: replaceTable(input.metadata, sourceName, table, () => null), effect: { kind: 'drop', cascade } };
};

/** `pg_track_tables`: several tables at once (each as pg_track_table's args). */
export const trackTables: OpHandler = (input) => {
  const o = argsObject(input.args);
  const list = o['tables'];
  if (!Array.isArray(list)) throw new ApiError('parse-failed', 'parsing [] failed, expected Array', 400, ['args', 'tables']);
  let md = input.metadata;
  for (const [i, item] of list.entries()) {
    try {
      md = trackOne(input, item, md).metadata;
    } catch (e) {
      throw e instanceof ApiError ? new ApiError(e.code, e.message, e.status, ['args', 'tables', i, ...e.path.slice(1)]) : e;
    }
  }
  return { metadata: md, effect: { kind: 'other' } };
};

export const untrackTables: OpHandler = (input) => {
  const o = argsObject(input.args);
  const list = o['tables'];
  if (!Array.isArray(list)) throw new ApiError('parse-failed', 'parsing [] failed, expected Array', 400, ['args', 'tables']);
  let md = input.metadata;
  let cascade = false;
  for (const [i, item] of list.entries()) {
    try {
      const r = untrackTable({ ...input, metadata: md, args: item });
      md = r.metadata!;
      if (r.effect.kind === 'drop' && r.effect.cascade) cascade = true;
    } catch (e) {
      throw e instanceof ApiError ? new ApiError(e.code, e.message, e.status, ['args', 'tables', i, ...e.path.slice(1)]) : e;
    }
  }
  return { metadata: md, effect: { kind: 'drop', cascade } };
};

export const setTableIsEnum: OpHandler = (input) => {
  const o = argsObject(input.args);
  const table = tableAt(o, 'table');
  const sourceName = sourceOf(input, o);
  requireTable(input.metadata, sourceName, table);
  if (!has(o, 'is_enum')) throw new ApiError('parse-failed', "the key 'is_enum' was not present", 400, ['args']);
  const isEnum = boolAt(o, 'is_enum', false);
  const next = replaceTable(input.metadata, sourceName, table, (t) => ({ ...t, is_enum: isEnum ? true : undefined }));
  return { metadata: next, effect: { kind: 'create', object: { type: 'table', name: tableObjectName(sourceName, table) } } };
};

/** `set_table_customization`: replaces the whole configuration. */
export const setTableCustomization: OpHandler = (input) => {
  const o = argsObject(input.args);
  const table = tableAt(o, 'table');
  const sourceName = sourceOf(input, o);
  requireTable(input.metadata, sourceName, table);
  const configuration = readConfiguration(table, o);
  const next = replaceTable(input.metadata, sourceName, table, (t) => ({ ...t, configuration: emptyToUndefined(configuration) }));
  // Hasura rebuilds for the table (buildSchemaCacheFor): the table made inconsistent is refused by its reason.
  return { metadata: next, effect: { kind: 'create', object: { type: 'table', name: tableObjectName(sourceName, table) } } };
};

/** `set_table_custom_fields` (/v1/query version 2): `custom_root_fields` and `custom_column_names`. */
export const setTableCustomFields: OpHandler = (input) => {
  const o = argsObject(input.args);
  const table = tableAt(o, 'table');
  const sourceName = sourceOf(input, o);
  const entry = requireTable(input.metadata, sourceName, table);
  const raw: { [k: string]: Json } = {};
  if (entry.configuration?.custom_name !== undefined) raw['custom_name'] = entry.configuration.custom_name;
  if (entry.configuration?.comment !== undefined) raw['comment'] = entry.configuration.comment;
  if (has(o, 'custom_root_fields') && o['custom_root_fields'] !== null) raw['custom_root_fields'] = o['custom_root_fields']!;
  if (has(o, 'custom_column_names') && o['custom_column_names'] !== null) raw['custom_column_names'] = o['custom_column_names']!;
  const configuration = readTablePart(table, 'configuration', raw, ['args'], false).configuration;
  const next = replaceTable(input.metadata, sourceName, table, (t) => ({ ...t, configuration: emptyToUndefined(configuration) }));
  // Hasura rebuilds for the table (buildSchemaCacheFor): the table made inconsistent is refused by its reason.
  return { metadata: next, effect: { kind: 'create', object: { type: 'table', name: tableObjectName(sourceName, table) } } };
};

function emptyToUndefined(c: TableConfiguration | undefined): TableConfiguration | undefined {
  return c && Object.keys(c).length > 0 ? c : undefined;
}

