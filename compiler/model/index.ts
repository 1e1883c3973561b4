/** Joins metadata with introspection into the bundle model. */
export { resolveModel, type Resolved, type ResolveOptions, type ResolveReuse } from './resolve.js';
/** Inconsistent objects in get_inconsistent_metadata's shape. */
export { type InconsistentObject } from './issues.js';
/** Permission filter JSON to BoolIr; the session variables a predicate reads. */
export { resolveBoolExp, sessionVariablesOf } from './bool-exp.js';
/** Catalog types to GraphQL scalars. */
export { scalarFor, isGraphqlName } from './scalars.js';
/** `source:schema.name`. */
export { tableId, notAName } from './tables.js';
/** Hasura's names and definitions of inconsistent objects. */
export {
  qualifiedText, tableObjectName, functionObjectName, sourceObjectName, tableChildName, permissionObjectName,
  relationshipDefinition, computedFieldDefinition, permissionDefinition, inconsistent, type PermissionKind,
} from './names.js';
/** The roles that inherit what is granted to some roles (actions, functions). */
export { withInheritedRoles } from './inherited-roles.js';
/** `api_limits` and introspection options read into the bundle model (and checked for set_api_limits). */
export { readApiLimits, introspectionDisabledRoles } from './api-limits.js';
/** `opentelemetry` read into the bundle model (and checked for set_opentelemetry_config). */
export { readOpenTelemetry } from './open-telemetry.js';
/** A BigQuery source's `configuration` as the runtime opens it. */
export { BIGQUERY_FUNCTIONS_REASON, readBigQueryConnection } from './bigquery.js';
