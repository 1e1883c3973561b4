// The keys of every modelled metadata object, typed against types.ts (see strict-keys.ts): one
// shape per object kind. Keys kept as given (`'any'` below a modelled key) are checked by their
// reader only.

import { list, map, notImplemented, pick, refusing, shape, rawShape, type ObjectShape, type Shape } from './strict-keys.js';
import {
  ACTION, ALLOWLIST_ENTRY, API_LIMITS, CRON_TRIGGER, CUSTOM_TYPES, EVENT_TRIGGER, INHERITED_ROLE, INTROSPECTION_OPTIONS,
  METRICS_CONFIG, QUERY_COLLECTION, REMOTE_SCHEMA, REST_ENDPOINT,
} from './strict-sections.js';
import type {
  ComputedField, ConnectionInfo, FunctionEntry, Metadata, Permission, QualifiedTable, Relationship, RootFieldName,
  SelectPermission, Source, SourceConfiguration, TableConfiguration, TableEntry,
} from './types.js';

type Using = Relationship['using'];
type Manual = NonNullable<Using['manual_configuration']>;
type Customization = NonNullable<Source['customization']>;
type FunctionConfiguration = NonNullable<FunctionEntry['configuration']>;
type ColumnConfig = NonNullable<TableConfiguration['column_config']>[string];

/** `{schema, name}`, or BigQuery's `{dataset, name}`. */
export const QUALIFIED: ObjectShape = shape<QualifiedTable & { readonly dataset?: string }>('a qualified name', { schema: 'any', dataset: 'any', name: 'any' });

const POOL_SETTINGS = rawShape('pool_settings', {
  max_connections: 'any', total_max_connections: 'any', idle_timeout: 'any', retries: 'any', pool_timeout: 'any',
  connection_lifetime: 'any',
});

const PARAMETERS = { host: 'any', port: 'any', username: 'any', password: 'any', database: 'any' } as const;
/** A URL string, `{from_env}`, or connection parameters (nested under `connection_parameters` or not). */
const DATABASE_URL = rawShape('a database URL', { from_env: 'any', connection_parameters: rawShape('connection_parameters', PARAMETERS), ...PARAMETERS });

const CONNECTION_INFO = refusing(shape<ConnectionInfo>('connection_info', {
  database_url: DATABASE_URL,
  connection_string: DATABASE_URL,
  pool_settings: POOL_SETTINGS,
  use_prepared_statements: 'any',
  isolation_level: 'any',
}), { ssl_configuration: 'TLS client settings are not implemented; put them in the database URL (sslmode, sslrootcert...)' });

const ROUTING = 'dynamic routing of requests to databases is not implemented';
/** A source's `configuration`. */
export const SOURCE_CONFIGURATION = refusing(shape<SourceConfiguration>('a source configuration', {
  connection_info: CONNECTION_INFO, extensions_schema: 'any', service_account: 'any', project_id: 'any', datasets: 'any',
  global_select_limit: 'any', retry_base_delay: 'any', retry_limit: 'any', retry_max_delay: 'any',
  read_replicas: list(CONNECTION_INFO),
}), { connection_template: ROUTING, connection_set: ROUTING });

/** A source's `customization`. */
export const CUSTOMIZATION = shape<Customization>('a source customization', {
  root_fields: shape<NonNullable<Customization['root_fields']>>('root_fields', { namespace: 'any', prefix: 'any', suffix: 'any' }),
  type_names: shape<NonNullable<Customization['type_names']>>('type_names', { prefix: 'any', suffix: 'any' }),
  naming_convention: 'any',
});

const ROOT_FIELD = shape<RootFieldName>('a custom root field', { name: 'any', comment: 'any' });
/** A table's `custom_root_fields`. */
export const CUSTOM_ROOT_FIELDS = rawShape('custom_root_fields', Object.fromEntries([
  'select', 'select_by_pk', 'select_aggregate', 'select_stream', 'insert', 'insert_one', 'update', 'update_by_pk',
  'update_many', 'delete', 'delete_by_pk',
].map((k) => [k, ROOT_FIELD])));

/** A table's `configuration`. */
export const TABLE_CONFIGURATION = shape<TableConfiguration>('a table configuration', {
  custom_name: 'any',
  custom_root_fields: CUSTOM_ROOT_FIELDS,
  custom_column_names: 'any',
  column_config: map(shape<ColumnConfig>('a column configuration', { custom_name: 'any', comment: 'any' })),
  comment: 'any',
});

const FOREIGN_KEY = rawShape('foreign_key_constraint_on', { table: QUALIFIED, column: 'any', columns: 'any' });
/** One object or array relationship. */
export const RELATIONSHIP = shape<Relationship>('a relationship', {
  name: 'any',
  comment: 'any',
  using: shape<Using>('a relationship\'s using', {
    foreign_key_constraint_on: FOREIGN_KEY,
    manual_configuration: shape<Manual>('manual_configuration', { remote_table: QUALIFIED, column_mapping: 'any', insertion_order: 'any' }),
  }),
});

/** One computed field. */
export const COMPUTED_FIELD = shape<ComputedField>('a computed field', {
  name: 'any',
  comment: 'any',
  definition: shape<ComputedField['definition']>('a computed field definition', { function: QUALIFIED, table_argument: 'any', session_argument: 'any' }),
});

const VALIDATE_INPUT = notImplemented('input validation webhooks are not implemented; a permission with validate_input would accept unchecked input');

function permission(what: string, body: ObjectShape): Shape {
  return list(shape<Permission<unknown>>(`a ${what} permission entry`, { role: 'any', permission: body, comment: 'any' }));
}

/** The permission bodies. */
export const SELECT = shape<SelectPermission>('a select permission', {
  columns: 'any', computed_fields: 'any', filter: 'any', limit: 'any', allow_aggregations: 'any', query_root_fields: 'any',
  subscription_root_fields: 'any',
});
export const INSERT = rawShape('an insert permission', { check: 'any', set: 'any', columns: 'any', backend_only: 'any', validate_input: VALIDATE_INPUT });
export const UPDATE = rawShape('an update permission', { columns: 'any', filter: 'any', check: 'any', set: 'any', backend_only: 'any', validate_input: VALIDATE_INPUT });
export const DELETE = rawShape('a delete permission', { filter: 'any', backend_only: 'any', validate_input: VALIDATE_INPUT });

/** One entry of a source's `tables`. */
export const TABLE_ENTRY: ObjectShape = refusing(shape<TableEntry>('a table entry', {
  table: QUALIFIED,
  is_enum: 'any',
  configuration: TABLE_CONFIGURATION,
  object_relationships: list(RELATIONSHIP),
  array_relationships: list(RELATIONSHIP),
  computed_fields: list(COMPUTED_FIELD),
  select_permissions: permission('select', SELECT),
  insert_permissions: permission('insert', INSERT),
  update_permissions: permission('update', UPDATE),
  delete_permissions: permission('delete', DELETE),
  event_triggers: list(EVENT_TRIGGER),
  remote_relationships: list(rawShape('a remote relationship', { name: 'any', definition: 'any' })),
}), { apollo_federation_config: 'Apollo federation is not implemented' });

/** A tracked function in its full form. */
export const FUNCTION_OBJECT = shape<FunctionEntry>('a function entry', {
  function: QUALIFIED,
  configuration: shape<FunctionConfiguration>('a function configuration', {
    custom_name: 'any',
    custom_root_fields: rawShape('custom_root_fields', { function: 'any', function_aggregate: 'any' }),
    session_argument: 'any',
    exposed_as: 'any',
  }),
  permissions: list(rawShape('a function permission', { role: 'any' })),
  comment: 'any',
});
/** A tracked function: `{function, configuration, ...}`, or the older `{schema, name}`. */
export const FUNCTION_ENTRY: Shape = pick((v) => (typeof v === 'object' && v !== null && 'function' in v ? FUNCTION_OBJECT : QUALIFIED));

/** One entry of `sources`. */
export const SOURCE: ObjectShape = refusing(shape<Source>('a source', {
  name: 'any',
  kind: 'any',
  tables: list(TABLE_ENTRY),
  functions: list(FUNCTION_ENTRY),
  configuration: SOURCE_CONFIGURATION,
  query_tags: rawShape('query_tags', { disabled: 'any', format: 'any', omit_request_id: 'any' }),
  customization: CUSTOMIZATION,
}), {
  health_check: 'source health checks are not implemented',
  logical_models: 'logical models are not implemented',
  native_queries: 'native queries are not implemented',
  stored_procedures: 'stored procedures are not implemented',
});

/** The sections beside `sources`, shared by every version of the document. */
export const SECTIONS = {
  remote_schemas: list(REMOTE_SCHEMA),
  query_collections: list(QUERY_COLLECTION),
  allowlist: list(ALLOWLIST_ENTRY),
  actions: list(ACTION),
  custom_types: CUSTOM_TYPES,
  cron_triggers: list(CRON_TRIGGER),
  rest_endpoints: list(REST_ENDPOINT),
  api_limits: API_LIMITS,
  inherited_roles: list(INHERITED_ROLE),
  graphql_schema_introspection: INTROSPECTION_OPTIONS,
  // Kept as given and exported again; Kiln has no settings of its own under them.
  network: rawShape('network', { tls_allowlist: list(rawShape('a tls_allowlist entry', { host: 'any', suffix: 'any', permissions: 'any' })) }),
  backend_configs: 'any',
  opentelemetry: 'any',
  metrics_config: METRICS_CONFIG,
} as const;

/** The version 3 document. */
export const METADATA_V3: ObjectShape = shape<Metadata>('the metadata', { version: 'any', sources: list(SOURCE), ...SECTIONS });

/** Versions 1 and 2: one database, its tables and functions at the top. */
export const METADATA_LEGACY: ObjectShape = rawShape('the metadata', {
  version: 'any', tables: list(TABLE_ENTRY), functions: list(FUNCTION_ENTRY),
  remote_schemas: SECTIONS.remote_schemas, query_collections: SECTIONS.query_collections, allowlist: SECTIONS.allowlist,
  actions: SECTIONS.actions, custom_types: SECTIONS.custom_types, cron_triggers: SECTIONS.cron_triggers,
});

/** The export wrapper `{resource_version, metadata}`, also replace_metadata's `{allow_inconsistent_metadata, metadata}`. */
export const METADATA_WRAPPER: ObjectShape = rawShape('the metadata wrapper', {
  resource_version: 'any', metadata: 'any', allow_inconsistent_metadata: 'any', allow_warnings: 'any',
});
