// The keys each operation's `args` may hold, checked before the handler runs: an unknown key is
// refused (`parse-failed`, its path under `args`, a "did you mean" hint) instead of being ignored,
// and a key Hasura takes that Kiln does not implement is refused as such. Parts that are pieces
// of the metadata document (permissions, relationships, configurations) use the document's shapes.

import {
  checkKeys, list, metadataShapes as M, notImplemented, rawShape, sectionShapes as X, type ObjectShape, type Shape,
} from '../metadata/index.js';
import type { ApiError } from '../../runtime/errors/index.js';
import { BACKENDS } from './registry.js';

const table = M.QUALIFIED;
const fn = M.QUALIFIED;
const FEDERATION = notImplemented('Apollo federation is not implemented');

/** Builds the shape of one operation's args. */
const args = (type: string, keys: { readonly [key: string]: Shape }): ObjectShape => rawShape(`the arguments of ${type}`, keys);

const TRACK_TABLE = { table, source: 'any', configuration: M.TABLE_CONFIGURATION, is_enum: 'any', schema: 'any', name: 'any', apollo_federation_config: FEDERATION } as const;
const PERMISSION = (body: ObjectShape): { readonly [key: string]: Shape } => ({ table, source: 'any', role: 'any', permission: body, comment: 'any' });
const RELATIONSHIP = { table, source: 'any', name: 'any', using: M.RELATIONSHIP.keys['using']!, comment: 'any' } as const;
const REMOTE_RELATIONSHIP = { table, source: 'any', name: 'any', definition: 'any', hasura_fields: 'any', remote_schema: 'any', remote_field: 'any' } as const;
const DROP_PERMISSION = { table, source: 'any', role: 'any' } as const;
const FUNCTION_REF = { function: fn, source: 'any', name: 'any', schema: 'any' } as const;
const ACTION = { name: 'any', definition: X.ACTION_DEFINITION, comment: 'any' } as const;
const REMOTE_SCHEMA = { name: 'any', definition: X.REMOTE_SCHEMA_DEFINITION, comment: 'any' } as const;
const SOURCE = { name: 'any', configuration: M.SOURCE_CONFIGURATION, customization: M.CUSTOMIZATION, replace_configuration: 'any' } as const;
const OPERATION_SPEC = X.EVENT_TRIGGER_DEFINITION.keys['insert']!;
// The stored trigger nests its operations under `definition`; the operation takes them flat.
const { definition: _nested, ...TRIGGER } = X.EVENT_TRIGGER.keys;

/** By command, as `/v1/query` names it and `/v1/metadata` after its backend prefix. */
const ARGS: { readonly [command: string]: { readonly [key: string]: Shape } } = {
  track_table: TRACK_TABLE,
  add_existing_table_or_view: TRACK_TABLE,
  untrack_table: { table, source: 'any', cascade: 'any' },
  track_tables: { tables: list(rawShape('a table to track', TRACK_TABLE)), allow_warnings: 'any' },
  untrack_tables: { tables: list(rawShape('a table to untrack', { table, source: 'any', cascade: 'any' })), allow_warnings: 'any' },
  set_table_is_enum: { table, source: 'any', is_enum: 'any' },
  set_table_customization: { table, source: 'any', configuration: M.TABLE_CONFIGURATION },
  set_table_custom_fields: { table, source: 'any', custom_root_fields: M.CUSTOM_ROOT_FIELDS, custom_column_names: 'any' },
  create_object_relationship: RELATIONSHIP,
  create_array_relationship: RELATIONSHIP,
  drop_relationship: { table, source: 'any', relationship: 'any', cascade: 'any' },
  rename_relationship: { table, source: 'any', name: 'any', new_name: 'any' },
  set_relationship_comment: { table, source: 'any', relationship: 'any', comment: 'any' },
  create_remote_relationship: REMOTE_RELATIONSHIP,
  update_remote_relationship: REMOTE_RELATIONSHIP,
  delete_remote_relationship: { table, source: 'any', name: 'any' },
  create_select_permission: PERMISSION(M.SELECT),
  create_insert_permission: PERMISSION(M.INSERT),
  create_update_permission: PERMISSION(M.UPDATE),
  create_delete_permission: PERMISSION(M.DELETE),
  drop_select_permission: DROP_PERMISSION,
  drop_insert_permission: DROP_PERMISSION,
  drop_update_permission: DROP_PERMISSION,
  drop_delete_permission: DROP_PERMISSION,
  set_permission_comment: { table, source: 'any', role: 'any', type: 'any', comment: 'any' },
  add_computed_field: { table, source: 'any', name: 'any', definition: M.COMPUTED_FIELD.keys['definition']!, comment: 'any' },
  drop_computed_field: { table, source: 'any', name: 'any', cascade: 'any' },
  track_function: { ...FUNCTION_REF, configuration: M.FUNCTION_OBJECT.keys['configuration']!, comment: 'any' },
  untrack_function: FUNCTION_REF,
  set_function_customization: { function: fn, source: 'any', configuration: M.FUNCTION_OBJECT.keys['configuration']! },
  create_function_permission: { function: fn, source: 'any', role: 'any' },
  drop_function_permission: { function: fn, source: 'any', role: 'any' },
  add_source: SOURCE,
  update_source: SOURCE,
  drop_source: { name: 'any', cascade: 'any' },
  rename_source: { name: 'any', new_name: 'any' },
  clear_metadata: {},

  create_query_collection: { name: 'any', comment: 'any', definition: X.QUERY_COLLECTION.keys['definition']! },
  rename_query_collection: { name: 'any', new_name: 'any' },
  drop_query_collection: { collection: 'any', cascade: 'any' },
  add_query_to_collection: { collection_name: 'any', query_name: 'any', query: 'any' },
  drop_query_from_collection: { collection_name: 'any', query_name: 'any' },
  add_collection_to_allowlist: X.ALLOWLIST_ENTRY.keys,
  update_scope_of_collection_in_allowlist: X.ALLOWLIST_ENTRY.keys,
  drop_collection_from_allowlist: { collection: 'any' },
  create_rest_endpoint: X.REST_ENDPOINT.keys,
  drop_rest_endpoint: { name: 'any' },
  set_custom_types: X.CUSTOM_TYPES.keys,
  create_action: ACTION,
  update_action: ACTION,
  drop_action: { name: 'any', clear_data: 'any' },
  create_action_permission: { action: 'any', role: 'any', definition: 'any', comment: 'any' },
  drop_action_permission: { action: 'any', role: 'any' },
  add_remote_schema: REMOTE_SCHEMA,
  update_remote_schema: REMOTE_SCHEMA,
  remove_remote_schema: { name: 'any' },
  reload_remote_schema: { name: 'any' },
  add_remote_schema_permissions: { remote_schema: 'any', role: 'any', definition: 'any', comment: 'any' },
  drop_remote_schema_permissions: { remote_schema: 'any', role: 'any' },
  create_remote_schema_remote_relationship: { remote_schema: 'any', type_name: 'any', name: 'any', definition: 'any' },
  update_remote_schema_remote_relationship: { remote_schema: 'any', type_name: 'any', name: 'any', definition: 'any' },
  delete_remote_schema_remote_relationship: { remote_schema: 'any', type_name: 'any', name: 'any' },
  create_event_trigger: {
    ...TRIGGER, table, source: 'any', replace: 'any', insert: OPERATION_SPEC, update: OPERATION_SPEC, delete: OPERATION_SPEC, enable_manual: 'any',
  },
  delete_event_trigger: { name: 'any', source: 'any' },
  create_cron_trigger: { ...X.CRON_TRIGGER.keys, replace: 'any' },
  delete_cron_trigger: { name: 'any' },
  add_inherited_role: X.INHERITED_ROLE.keys,
  drop_inherited_role: { role_name: 'any' },
  set_graphql_schema_introspection_options: X.INTROSPECTION_OPTIONS.keys,
  set_api_limits: X.API_LIMITS.keys,
  remove_api_limits: {},
  set_metrics_config: X.METRICS_CONFIG.keys,
  remove_metrics_config: {},
  // The reader of the section checks every key (the same check as the compile's).
  set_opentelemetry_config: { status: 'any', data_types: 'any', exporter_otlp: 'any', batch_span_processor: 'any' },
  set_opentelemetry_status: {},
  add_host_to_tls_allowlist: { host: 'any', suffix: 'any', permissions: 'any' },
  drop_host_from_tls_allowlist: { host: 'any', suffix: 'any' },
};

/** The command of a wire type: `pg_track_table` → `track_table` on /v1/metadata. */
function commandOf(type: string): string {
  const cut = type.indexOf('_');
  return cut > 0 && Object.hasOwn(BACKENDS, type.slice(0, cut)) && Object.hasOwn(ARGS, type.slice(cut + 1)) ? type.slice(cut + 1) : type;
}

/** The first problem with the keys of an operation's args (path under `args`), or undefined. */
export function argKeyProblem(type: string, value: unknown): ApiError | undefined {
  const command = commandOf(type);
  const keys = Object.hasOwn(ARGS, command) ? ARGS[command]! : undefined;
  if (keys === undefined) return undefined;
  return checkKeys(value, args(type, keys), ['args'])[0];
}

/** The commands that have an args shape (for the test that every operation has one). */
export function commandsWithArgShapes(): readonly string[] {
  return Object.keys(ARGS);
}
