// One table entry after a rename, as Hasura v2 carries it: the table's own name, its
// configuration's column keys, both sides of its relationships, every permission's columns,
// filters, checks and presets, its event triggers' column lists and its remote relationships'
// join columns. Computed fields are by function and primary keys are not in the document, so
// neither changes.

import type { Json, Permission, QualifiedTable, Relationship, TableConfiguration, TableEntry } from '../metadata/index.js';
import { renameBoolExp } from './reconcile-bool-exp.js';
import { renameRemoteRelationship } from './reconcile-remote.js';
import { asObject, renameColumnList, renameKeys, type Renamer } from './reconcile-renamer.js';

type FkOn = NonNullable<Relationship['using']['foreign_key_constraint_on']>;

function renameConfiguration(c: TableConfiguration, t: QualifiedTable, r: Renamer): TableConfiguration {
  return {
    ...c,
    ...(c.custom_column_names ? { custom_column_names: renameKeys(c.custom_column_names, t, r) } : {}),
    ...(c.column_config ? { column_config: renameKeys(c.column_config, t, r) } : {}),
  };
}

function renameForeignKeyOn(fk: FkOn, t: QualifiedTable, r: Renamer): FkOn {
  if (typeof fk === 'string') return r.column(t, fk);
  if (Array.isArray(fk)) return (fk as readonly string[]).map((c) => r.column(t, c));
  const remote = fk as { readonly table: QualifiedTable; readonly column?: string; readonly columns?: readonly string[] };
  return {
    ...remote,
    table: r.table(remote.table),
    ...(remote.column !== undefined ? { column: r.column(remote.table, remote.column) } : {}),
    ...(remote.columns !== undefined ? { columns: remote.columns.map((c) => r.column(remote.table, c)) } : {}),
  };
}

function renameRelationship(rel: Relationship, t: QualifiedTable, r: Renamer): Relationship {
  const { manual_configuration: manual, foreign_key_constraint_on: fk } = rel.using;
  const using = {
    ...rel.using,
    ...(fk !== undefined ? { foreign_key_constraint_on: renameForeignKeyOn(fk, t, r) } : {}),
    ...(manual ? {
      manual_configuration: {
        ...manual,
        remote_table: r.table(manual.remote_table),
        column_mapping: Object.fromEntries(Object.entries(manual.column_mapping)
          .map(([from, to]) => [r.column(t, from), r.column(manual.remote_table, to)])),
      },
    } : {}),
  };
  return { ...rel, using };
}

/** `columns`, `filter`, `check` and `set` of any kind of permission. */
function renamePermissionBody<P>(p: P, t: QualifiedTable, r: Renamer): P {
  const o = asObject(p as Json);
  if (!o) return p;
  const out: { [k: string]: Json } = { ...o };
  if ('columns' in o) out['columns'] = renameColumnList(o['columns'], t, r);
  if ('filter' in o) out['filter'] = renameBoolExp(o['filter']!, t, r);
  if ('check' in o) out['check'] = renameBoolExp(o['check']!, t, r);
  const set = asObject(o['set']);
  if (set) out['set'] = renameKeys(set, t, r);
  return out as P;
}

function renamePermissions<P>(list: readonly Permission<P>[] | undefined, t: QualifiedTable, r: Renamer): readonly Permission<P>[] | undefined {
  return list?.map((p) => ({ ...p, permission: renamePermissionBody(p.permission, t, r) }));
}

/** `definition.{insert,update,delete}.{columns,payload}` of an event trigger. */
function renameEventTrigger(trigger: Json, t: QualifiedTable, r: Renamer): Json {
  const o = asObject(trigger);
  const definition = asObject(o?.['definition']);
  if (!o || !definition) return trigger;
  const ops = Object.fromEntries(['insert', 'update', 'delete'].flatMap((op) => {
    const spec = asObject(definition[op]);
    if (!spec) return [];
    const next: { [k: string]: Json } = { ...spec };
    if ('columns' in spec) next['columns'] = renameColumnList(spec['columns'], t, r);
    if ('payload' in spec) next['payload'] = renameColumnList(spec['payload'], t, r);
    return [[op, next]];
  }));
  return { ...o, definition: { ...definition, ...ops } };
}

/** Only the fields present are rebuilt, so the entry keeps its keys (and their order). */
export function renameTableEntry(e: TableEntry, r: Renamer): TableEntry {
  const t = e.table;
  const out: { -readonly [K in keyof TableEntry]: TableEntry[K] } = { ...e, table: r.table(t) };
  if (e.configuration) out.configuration = renameConfiguration(e.configuration, t, r);
  if (e.object_relationships) out.object_relationships = e.object_relationships.map((rel) => renameRelationship(rel, t, r));
  if (e.array_relationships) out.array_relationships = e.array_relationships.map((rel) => renameRelationship(rel, t, r));
  if (e.select_permissions) out.select_permissions = renamePermissions(e.select_permissions, t, r);
  if (e.insert_permissions) out.insert_permissions = renamePermissions(e.insert_permissions, t, r);
  if (e.update_permissions) out.update_permissions = renamePermissions(e.update_permissions, t, r);
  if (e.delete_permissions) out.delete_permissions = renamePermissions(e.delete_permissions, t, r);
  if (e.event_triggers) out.event_triggers = e.event_triggers.map((et) => renameEventTrigger(et, t, r));
  if (e.remote_relationships) out.remote_relationships = e.remote_relationships.map((rr) => renameRemoteRelationship(rr, { source: r.source, table: t }, r));
  return out;
}

/** The entry with its permissions' filters, checks, columns and presets renamed, and nothing else. */
export function renamePermissionsOfEntry(e: TableEntry, r: Renamer): TableEntry {
  const out: { -readonly [K in keyof TableEntry]: TableEntry[K] } = { ...e };
  if (e.select_permissions) out.select_permissions = renamePermissions(e.select_permissions, e.table, r);
  if (e.insert_permissions) out.insert_permissions = renamePermissions(e.insert_permissions, e.table, r);
  if (e.update_permissions) out.update_permissions = renamePermissions(e.update_permissions, e.table, r);
  if (e.delete_permissions) out.delete_permissions = renamePermissions(e.delete_permissions, e.table, r);
  return out;
}
