// Metadata operations outside tables, relationships, permissions, functions and sources: query
// collections and the allow-list, REST endpoints, custom types and actions, remote schemas, event
// and cron trigger definitions, inherited roles and small settings. Names as sent on the wire;
// /v1/query names have no `source` and act on source `default`.

import type { ApiKind } from '../../../runtime/metadata-api/index.js';
import type { OpHandler, OpTable } from '../types.js';
import { createAction, createActionPermission, dropAction, dropActionPermission, updateAction } from './actions.js';
import { addCollectionToAllowlist, dropCollectionFromAllowlist, updateScopeOfCollectionInAllowlist } from './allowlist.js';
import { createCronTrigger, deleteCronTrigger } from './cron-triggers.js';
import { setCustomTypes } from './custom-types.js';
import { setOpenTelemetryConfig, setOpenTelemetryStatus } from './open-telemetry.js';
import { createEventTrigger, deleteEventTrigger } from './event-triggers.js';
import { addInheritedRole, dropInheritedRole } from './inherited-roles.js';
import {
  addQueryToCollection, createQueryCollection, dropQueryCollection, dropQueryFromCollection, renameQueryCollection,
} from './query-collections.js';
import {
  addRemoteSchema, addRemoteSchemaPermissions, dropRemoteSchemaPermissions, reloadRemoteSchema, removeRemoteSchema,
  createRemoteSchemaRemoteRelationship, updateRemoteSchemaRemoteRelationship, deleteRemoteSchemaRemoteRelationship,
  updateRemoteSchema,
} from './remote-schemas.js';
import { createRestEndpoint, dropRestEndpoint } from './rest-endpoints.js';
import {
  addHostToTlsAllowlist, dropHostFromTlsAllowlist, removeApiLimits, removeMetricsConfig, setApiLimits,
  setGraphqlSchemaIntrospectionOptions, setMetricsConfig,
} from './settings.js';

const BOTH: readonly ApiKind[] = ['metadata', 'query'];
const METADATA: readonly ApiKind[] = ['metadata'];
const QUERY: readonly ApiKind[] = ['query'];

const op = (handler: OpHandler, apis: readonly ApiKind[] = BOTH) => ({ handler, apis });

export const extraOperations: OpTable = {
  create_query_collection: op(createQueryCollection),
  rename_query_collection: op(renameQueryCollection),
  drop_query_collection: op(dropQueryCollection),
  add_query_to_collection: op(addQueryToCollection),
  drop_query_from_collection: op(dropQueryFromCollection),
  add_collection_to_allowlist: op(addCollectionToAllowlist),
  update_scope_of_collection_in_allowlist: op(updateScopeOfCollectionInAllowlist, METADATA),
  drop_collection_from_allowlist: op(dropCollectionFromAllowlist),

  create_rest_endpoint: op(createRestEndpoint),
  drop_rest_endpoint: op(dropRestEndpoint),

  set_custom_types: op(setCustomTypes),
  create_action: op(createAction),
  update_action: op(updateAction),
  drop_action: op(dropAction),
  create_action_permission: op(createActionPermission),
  drop_action_permission: op(dropActionPermission),

  add_remote_schema: op(addRemoteSchema),
  update_remote_schema: op(updateRemoteSchema),
  remove_remote_schema: op(removeRemoteSchema),
  reload_remote_schema: op(reloadRemoteSchema),
  add_remote_schema_permissions: op(addRemoteSchemaPermissions),
  drop_remote_schema_permissions: op(dropRemoteSchemaPermissions),
  create_remote_schema_remote_relationship: op(createRemoteSchemaRemoteRelationship),
  update_remote_schema_remote_relationship: op(updateRemoteSchemaRemoteRelationship),
  delete_remote_schema_remote_relationship: op(deleteRemoteSchemaRemoteRelationship),

  pg_create_event_trigger: op(createEventTrigger, METADATA),
  pg_delete_event_trigger: op(deleteEventTrigger, METADATA),
  create_event_trigger: op(createEventTrigger, QUERY),
  delete_event_trigger: op(deleteEventTrigger, QUERY),

  create_cron_trigger: op(createCronTrigger),
  delete_cron_trigger: op(deleteCronTrigger),

  add_inherited_role: op(addInheritedRole, METADATA),
  drop_inherited_role: op(dropInheritedRole, METADATA),

  set_graphql_schema_introspection_options: op(setGraphqlSchemaIntrospectionOptions, METADATA),
  set_api_limits: op(setApiLimits, METADATA),
  remove_api_limits: op(removeApiLimits, METADATA),
  set_metrics_config: op(setMetricsConfig, METADATA),
  remove_metrics_config: op(removeMetricsConfig, METADATA),
  set_opentelemetry_config: op(setOpenTelemetryConfig, METADATA),
  set_opentelemetry_status: op(setOpenTelemetryStatus, METADATA),
  add_host_to_tls_allowlist: op(addHostToTlsAllowlist, METADATA),
  drop_host_from_tls_allowlist: op(dropHostFromTlsAllowlist, METADATA),
};
