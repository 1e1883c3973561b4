// The keys of the sections the parser keeps as raw JSON (their operations in compiler/ops/extra
// read them): actions and custom types, remote schemas, event and cron triggers, query
// collections, the allow-list, REST endpoints, inherited roles and small settings. The keys are
// Hasura v2's export shape of each; transforms and GraphQL schema texts are checked by their readers.

import { list, map, notImplemented, rawShape, type ObjectShape } from './strict-keys.js';

/** `{name, value}` or `{name, value_from_env}`. */
export const HEADER: ObjectShape = rawShape('a header', { name: 'any', value: 'any', value_from_env: 'any' });

const TYPE_FIELD = rawShape('a field', { name: 'any', type: 'any', description: 'any', arguments: 'any' });

/** `custom_types`: input objects, objects (with relationships to tables), scalars, enums. */
export const CUSTOM_TYPES: ObjectShape = rawShape('custom_types', {
  input_objects: list(rawShape('an input object type', { name: 'any', description: 'any', fields: list(TYPE_FIELD) })),
  objects: list(rawShape('an object type', {
    name: 'any', description: 'any', fields: list(TYPE_FIELD),
    relationships: list(rawShape('an action relationship', { name: 'any', type: 'any', remote_table: 'any', field_mapping: 'any', source: 'any' })),
  })),
  scalars: list(rawShape('a scalar type', { name: 'any', description: 'any' })),
  enums: list(rawShape('an enum type', {
    name: 'any', description: 'any', values: list(rawShape('an enum value', { value: 'any', description: 'any', is_deprecated: 'any' })),
  })),
});

/** An action's `definition`. */
export const ACTION_DEFINITION: ObjectShape = rawShape('an action definition', {
  handler: 'any', output_type: 'any', type: 'any', kind: 'any', headers: list(HEADER), forward_client_headers: 'any',
  timeout: 'any', request_transform: 'any', response_transform: 'any',
  arguments: list(rawShape('an action argument', { name: 'any', type: 'any', description: 'any' })),
});

/** One action of `actions`. */
export const ACTION: ObjectShape = rawShape('an action', {
  name: 'any', definition: ACTION_DEFINITION, comment: 'any',
  permissions: list(rawShape('an action permission', { role: 'any', comment: 'any' })),
});

/** A remote schema's `definition`. */
export const REMOTE_SCHEMA_DEFINITION: ObjectShape = rawShape('a remote schema definition', {
  url: 'any', url_from_env: 'any', headers: list(HEADER), forward_client_headers: 'any', timeout_seconds: 'any',
  customization: 'any',
});

/** One entry of `remote_schemas`. */
export const REMOTE_SCHEMA: ObjectShape = rawShape('a remote schema', {
  name: 'any', definition: REMOTE_SCHEMA_DEFINITION, comment: 'any',
  permissions: list(rawShape('a remote schema permission', { role: 'any', definition: rawShape('a remote schema permission definition', { schema: 'any' }), comment: 'any' })),
  remote_relationships: list(rawShape('a remote schema\'s remote relationships', {
    type_name: 'any', relationships: list(rawShape('a remote schema remote relationship', { name: 'any', definition: 'any' })),
  })),
});

const OPERATION_SPEC = rawShape('an operation spec', { columns: 'any', payload: 'any' });

/** An event trigger's `definition`. */
export const EVENT_TRIGGER_DEFINITION: ObjectShape = rawShape('an event trigger definition', {
  enable_manual: 'any', insert: OPERATION_SPEC, update: OPERATION_SPEC, delete: OPERATION_SPEC,
});

/** One event trigger of a table. */
export const EVENT_TRIGGER: ObjectShape = rawShape('an event trigger', {
  name: 'any', definition: EVENT_TRIGGER_DEFINITION,
  retry_conf: rawShape('retry_conf', { num_retries: 'any', interval_sec: 'any', timeout_sec: 'any' }),
  webhook: 'any', webhook_from_env: 'any', headers: list(HEADER), request_transform: 'any', response_transform: 'any',
  trigger_on_replication: 'any',
  cleanup_config: notImplemented('scheduled cleanups of event logs are not implemented; run cleanup_event_trigger_logs'),
});

/** One entry of `cron_triggers`. */
export const CRON_TRIGGER: ObjectShape = rawShape('a cron trigger', {
  name: 'any', webhook: 'any', schedule: 'any', payload: 'any', headers: list(HEADER), include_in_metadata: 'any',
  comment: 'any', request_transform: 'any', response_transform: 'any',
  retry_conf: rawShape('retry_conf', { num_retries: 'any', retry_interval_seconds: 'any', timeout_seconds: 'any', tolerance_seconds: 'any' }),
});

/** One entry of `query_collections`. */
export const QUERY_COLLECTION: ObjectShape = rawShape('a query collection', {
  name: 'any', comment: 'any',
  definition: rawShape('a query collection definition', { queries: list(rawShape('a stored query', { name: 'any', query: 'any' })) }),
});

/** One entry of `allowlist`. */
export const ALLOWLIST_ENTRY: ObjectShape = rawShape('an allowlist entry', {
  collection: 'any', scope: rawShape('an allowlist scope', { global: 'any', roles: 'any' }),
});

/** One entry of `rest_endpoints`. */
export const REST_ENDPOINT: ObjectShape = rawShape('a REST endpoint', {
  name: 'any', url: 'any', methods: 'any', comment: 'any',
  definition: rawShape('a REST endpoint definition', { query: rawShape('a REST endpoint query', { collection_name: 'any', query_name: 'any' }) }),
});

const LIMIT = rawShape('a limit', { global: 'any', per_role: 'any' });
const RATE = rawShape('a rate limit', { max_reqs_per_min: 'any', unique_params: 'any' });

/** `api_limits`. */
export const API_LIMITS: ObjectShape = rawShape('api_limits', {
  disabled: 'any', depth_limit: LIMIT, node_limit: LIMIT, batch_limit: LIMIT, time_limit: LIMIT,
  rate_limit: rawShape('a rate limit', { global: RATE, per_role: map(RATE) }),
});

/** One entry of `inherited_roles`. */
export const INHERITED_ROLE: ObjectShape = rawShape('an inherited role', { role_name: 'any', role_set: 'any' });

/** `graphql_schema_introspection`. */
export const INTROSPECTION_OPTIONS: ObjectShape = rawShape('graphql_schema_introspection', { disabled_for_roles: 'any' });

/** `metrics_config`. */
export const METRICS_CONFIG: ObjectShape = rawShape('metrics_config', { analyze_query_variables: 'any', analyze_response_body: 'any' });
