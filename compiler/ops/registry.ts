// The core operations by wire name: `/v1/metadata` spells them with a backend prefix
// (`pg_track_table`, `mssql_add_source`), `/v1/query` without one (`track_table`, source `default`).

import type { ApiKind } from '../../runtime/metadata-api/index.js';
import { ApiError } from '../../runtime/errors/index.js';
import { BIGQUERY_FUNCTIONS_REASON } from '../model/index.js';
import { addComputedField, dropComputedField } from './computed-fields.js';
import {
  createFunctionPermission, dropFunctionPermission, setFunctionCustomization, trackFunction, untrackFunction,
} from './functions.js';
import { createPermissions, dropPermissions, setPermissionComment } from './permissions.js';
import {
  createArrayRelationship, createObjectRelationship, dropRelationship, renameRelationship, setRelationshipComment,
} from './relationships.js';
import { createRemoteRelationship, deleteRemoteRelationship, updateRemoteRelationship } from './remote-relationships.js';
import { addSource, clearMetadata, dropSource, renameSource, updateSource, type SourceKind } from './sources.js';
import {
  setTableCustomFields, setTableCustomization, setTableIsEnum, trackTable, trackTables, untrackTable, untrackTables,
} from './tables.js';
import type { OpHandler, OpTable } from './types.js';

/** Backend prefixes of `/v1/metadata` and the source kind each names. */
export const BACKENDS: { readonly [prefix: string]: SourceKind } = {
  pg: 'postgres', citus: 'citus', cockroach: 'cockroach', mssql: 'mssql', bigquery: 'bigquery',
};

const ALL = ['pg', 'citus', 'cockroach', 'mssql', 'bigquery'] as const;
const POSTGRES_LIKE = ['pg', 'citus', 'cockroach'] as const;

type Entry = { handler: OpHandler; apis: ApiKind[] };

/** Commands that exist per backend: `[command, handler, prefixes, /v1/query names]`. */
const BACKEND_COMMANDS: readonly (readonly [string, OpHandler, readonly string[], readonly string[]])[] = [
  ['track_table', trackTable, ALL, ['track_table', 'add_existing_table_or_view']],
  ['untrack_table', untrackTable, ALL, ['untrack_table']],
  ['track_tables', trackTables, ALL, []],
  ['untrack_tables', untrackTables, ALL, []],
  ['set_table_is_enum', setTableIsEnum, POSTGRES_LIKE, ['set_table_is_enum']],
  ['set_table_customization', setTableCustomization, ALL, ['set_table_customization']],
  ['create_object_relationship', createObjectRelationship, ALL, ['create_object_relationship']],
  ['create_array_relationship', createArrayRelationship, ALL, ['create_array_relationship']],
  ['drop_relationship', dropRelationship, ALL, ['drop_relationship']],
  ['rename_relationship', renameRelationship, ALL, ['rename_relationship']],
  ['set_relationship_comment', setRelationshipComment, ALL, ['set_relationship_comment']],
  ['create_remote_relationship', createRemoteRelationship, POSTGRES_LIKE, ['create_remote_relationship']],
  ['update_remote_relationship', updateRemoteRelationship, POSTGRES_LIKE, ['update_remote_relationship']],
  ['delete_remote_relationship', deleteRemoteRelationship, POSTGRES_LIKE, ['delete_remote_relationship']],
  ['create_select_permission', createPermissions.select, ALL, ['create_select_permission']],
  ['create_insert_permission', createPermissions.insert, ALL, ['create_insert_permission']],
  ['create_update_permission', createPermissions.update, ALL, ['create_update_permission']],
  ['create_delete_permission', createPermissions.delete, ALL, ['create_delete_permission']],
  ['drop_select_permission', dropPermissions.select, ALL, ['drop_select_permission']],
  ['drop_insert_permission', dropPermissions.insert, ALL, ['drop_insert_permission']],
  ['drop_update_permission', dropPermissions.update, ALL, ['drop_update_permission']],
  ['drop_delete_permission', dropPermissions.delete, ALL, ['drop_delete_permission']],
  ['set_permission_comment', setPermissionComment, ALL, ['set_permission_comment']],
  ['add_computed_field', addComputedField, POSTGRES_LIKE, ['add_computed_field']],
  ['drop_computed_field', dropComputedField, ALL, ['drop_computed_field']],
  ['track_function', trackFunction, [...POSTGRES_LIKE, 'mssql'], ['track_function']],
  ['untrack_function', untrackFunction, [...POSTGRES_LIKE, 'mssql'], ['untrack_function']],
  ['set_function_customization', setFunctionCustomization, POSTGRES_LIKE, ['set_function_customization']],
  ['create_function_permission', createFunctionPermission, POSTGRES_LIKE, ['create_function_permission']],
  ['drop_function_permission', dropFunctionPermission, POSTGRES_LIKE, ['drop_function_permission']],
];

function build(): OpTable {
  const table: Record<string, Entry> = {};
  const add = (name: string, handler: OpHandler, api: ApiKind): void => {
    const e = table[name];
    if (e) { if (!e.apis.includes(api)) e.apis.push(api); } else table[name] = { handler, apis: [api] };
  };
  for (const [command, handler, prefixes, queryNames] of BACKEND_COMMANDS) {
    for (const p of prefixes) add(`${p}_${command}`, handler, 'metadata');
    for (const q of queryNames) add(q, handler, 'query');
  }
  for (const p of ALL) {
    const kind = BACKENDS[p]!;
    add(`${p}_add_source`, addSource(kind), 'metadata');
    add(`${p}_update_source`, updateSource, 'metadata');
    add(`${p}_drop_source`, dropSource, 'metadata');
  }
  add('rename_source', renameSource, 'metadata');
  // Known to Hasura on BigQuery, refused here with the reason (not as an unknown command).
  for (const type of Object.keys(REFUSED)) add(type, () => { throw refusedOperation(type) ?? new Error(`assertion failed: ${type} refused`); }, 'metadata');
  // The legacy names of remote relationships are also taken on /v1/metadata (source `default` unless given).
  add('create_remote_relationship', createRemoteRelationship, 'metadata');
  add('update_remote_relationship', updateRemoteRelationship, 'metadata');
  add('delete_remote_relationship', deleteRemoteRelationship, 'metadata');
  add('clear_metadata', clearMetadata, 'metadata');
  add('clear_metadata', clearMetadata, 'query');
  // /v1/query version 2 names.
  add('set_table_custom_fields', setTableCustomFields, 'query');
  return table;
}

// Operations Hasura has on BigQuery that Kiln refuses: what they would add.
const REFUSED: { readonly [type: string]: string } = {
  bigquery_add_computed_field: 'computed fields', bigquery_track_function: 'functions',
};

/** The refusal of an operation Kiln knows but does not serve (before its arguments are read), or undefined. */
export function refusedOperation(type: string): ApiError | undefined {
  const what = Object.hasOwn(REFUSED, type) ? REFUSED[type] : undefined;
  return what === undefined ? undefined : new ApiError('not-supported', `${what} are not supported on BigQuery sources: ${BIGQUERY_FUNCTIONS_REASON}`, 400, ['type']);
}

export const coreOperations: OpTable = build();
