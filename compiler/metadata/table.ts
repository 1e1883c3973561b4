// One entry of a source's `tables`: the table name, its configuration, relationships, computed
// fields, permissions, and the raw event triggers and remote relationships.

import { readPermissionLists } from './permission.js';
import {
  checkUnique, compact, field, listOf, mapOf, nullable, optional, qualified, qualifiedKey, readBool, readGraphqlName, readObject,
  readRawObject, readString, required, type Issues, type Path, type Read,
} from './reader.js';
import { checkFieldNames, computedField, relationship } from './relationship.js';
import type { RootFieldName, TableConfiguration, TableEntry } from './types.js';

type RootField = string | RootFieldName | null;
type ColumnConfig = NonNullable<TableConfiguration['column_config']>[string];

/** A custom root field: a name, `{name, comment}`, or null (keep the default). */
const rootField: Read<RootField> = (v, path, is) => {
  if (v === null) return null;
  if (typeof v === 'string') return readGraphqlName(v, path, is);
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  const name = nullable(o, 'name', path, is, readGraphqlName);
  const comment = nullable(o, 'comment', path, is, readString);
  return compact({ name: name ?? null, comment });
};

/** Hasura refuses two customized root fields with the same name on one table. */
const customRootFields: Read<{ readonly [k: string]: RootField }> = (v, path, is) => {
  const fields = mapOf(rootField)(v, path, is);
  if (fields === undefined) return undefined;
  const names = Object.values(fields).map((f) => (typeof f === 'string' ? f : f?.name ?? null));
  const dups = [...new Set(names.filter((n, i): n is string => n !== null && names.indexOf(n) !== i))];
  if (dups.length > 0) return is.fail(path, `the following custom root field names are duplicated: ${dups.join(', ')}`);
  return fields;
};

const columnConfig: Read<ColumnConfig> = (v, path, is) => {
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  return compact({
    custom_name: optional(o, 'custom_name', path, is, readGraphqlName),
    comment: optional(o, 'comment', path, is, readString),
  });
};

/**
 * `custom_column_names` (older) and `column_config` (newer) are merged both ways, as Hasura's
 * export shows them: every custom name appears in both maps; `column_config` wins on conflict.
 */
function mergeColumns(names: { readonly [c: string]: string } | undefined, config: { readonly [c: string]: ColumnConfig } | undefined):
  Pick<TableConfiguration, 'custom_column_names' | 'column_config'> {
  const merged = new Map<string, ColumnConfig>();
  for (const [c, n] of Object.entries(names ?? {})) merged.set(c, { custom_name: n });
  for (const [c, cfg] of Object.entries(config ?? {})) merged.set(c, { ...merged.get(c), ...cfg });
  const named = [...merged].flatMap(([c, cfg]) => (cfg.custom_name === undefined ? [] : [[c, cfg.custom_name] as const]));
  return {
    column_config: merged.size > 0 ? Object.fromEntries(merged) : undefined,
    custom_column_names: named.length > 0 ? Object.fromEntries(named) : undefined,
  };
}

const tableConfiguration: Read<TableConfiguration> = (v, path, is) => {
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  const names = optional(o, 'custom_column_names', path, is, mapOf(readGraphqlName));
  const config = optional(o, 'column_config', path, is, mapOf(columnConfig));
  return compact({
    custom_name: optional(o, 'custom_name', path, is, readGraphqlName),
    custom_root_fields: optional(o, 'custom_root_fields', path, is, customRootFields),
    ...mergeColumns(names, config),
    comment: optional(o, 'comment', path, is, readString),
  });
};

/** One table entry; `defaultSchema` is the schema of a table given as a plain string. */
export function tableEntry(defaultSchema: string | null): Read<TableEntry> {
  return (v, path, is) => {
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    const table = required(o, 'table', path, is, qualified(defaultSchema));
    const label = table?.name ?? '';
    checkFieldNames(o, path, label, is);
    const body = {
      is_enum: optional(o, 'is_enum', path, is, readBool),
      configuration: optional(o, 'configuration', path, is, tableConfiguration),
      object_relationships: optional(o, 'object_relationships', path, is, listOf(relationship('object', defaultSchema))),
      array_relationships: optional(o, 'array_relationships', path, is, listOf(relationship('array', defaultSchema))),
      computed_fields: optional(o, 'computed_fields', path, is, listOf(computedField(defaultSchema))),
      ...readPermissionLists(o, path, label, is),
      event_triggers: optional(o, 'event_triggers', path, is, listOf(readRawObject)),
      remote_relationships: optional(o, 'remote_relationships', path, is, listOf(readRawObject)),
    };
    return table === undefined ? undefined : compact({ table, ...body });
  };
}

/** A source's `tables`; a table listed twice is `already-exists` at the second entry's `table` key. */
export function readTables(v: unknown, path: Path, source: string, defaultSchema: string | null, is: Issues): readonly TableEntry[] | undefined {
  const tables = listOf(tableEntry(defaultSchema))(v, path, is);
  checkUnique(v, path, (el) => qualifiedKey(field(el, 'table'), defaultSchema), ['table'],
    (t) => `table ${JSON.stringify(t)} already exists in source ${JSON.stringify(source)}`, is);
  return tables;
}
