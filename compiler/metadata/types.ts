// The metadata document in its canonical form: the export shape of version 3, with the wire
// spelling of every key (it is what `export_metadata` returns). Older shapes are normalized into it.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface QualifiedTable { readonly schema: string; readonly name: string }
export interface QualifiedFunction { readonly schema: string; readonly name: string }

/** A boolean expression as written in permissions (`{"author_id": {"_eq": "X-Svc-User-Id"}}`). */
export type BoolExpJson = { readonly [k: string]: Json };

export interface Metadata {
  readonly version: 3;
  readonly sources: readonly Source[];
  readonly remote_schemas?: readonly Json[];
  readonly query_collections?: readonly Json[];
  readonly allowlist?: readonly Json[];
  readonly actions?: readonly Json[];
  readonly custom_types?: Json;
  readonly cron_triggers?: readonly Json[];
  readonly rest_endpoints?: readonly Json[];
  readonly api_limits?: Json;
  readonly inherited_roles?: readonly Json[];
  readonly graphql_schema_introspection?: Json;
  readonly network?: Json;
  readonly backend_configs?: Json;
  readonly opentelemetry?: Json;
  readonly metrics_config?: Json;
}

export type DatabaseUrl = string | { readonly from_env: string };

/**
 * `connection_info` of a source; MSSQL names its URL `connection_string`. The URL is modelled; the
 * other keys are kept as given and exported again (the pool is sized by `--pg-connections`).
 */
export interface ConnectionInfo {
  readonly database_url?: DatabaseUrl;
  readonly connection_string?: DatabaseUrl;
  readonly pool_settings?: Json;
  readonly use_prepared_statements?: Json;
  readonly isolation_level?: Json;
}

/**
 * A source's `configuration`: `connection_info` is modelled; `extensions_schema` and BigQuery's
 * keys are kept as given.
 */
export interface SourceConfiguration {
  readonly connection_info?: ConnectionInfo;
  readonly extensions_schema?: Json;
  readonly service_account?: Json;
  readonly project_id?: Json;
  readonly datasets?: Json;
  readonly global_select_limit?: Json;
  readonly retry_base_delay?: Json;
  readonly retry_limit?: Json;
  readonly retry_max_delay?: Json;
  /** Databases that serve the source's queries and subscriptions (streaming replicas of it). */
  readonly read_replicas?: readonly ConnectionInfo[];
}

export interface Source {
  readonly name: string;
  readonly kind: 'postgres' | 'mssql' | 'bigquery' | 'citus' | 'cockroach';
  readonly tables: readonly TableEntry[];
  readonly functions?: readonly FunctionEntry[];
  readonly configuration: SourceConfiguration;
  /** Kept as given: Kiln adds no tags to its SQL. */
  readonly query_tags?: Json;
  readonly customization?: {
    readonly root_fields?: { readonly namespace?: string; readonly prefix?: string; readonly suffix?: string };
    readonly type_names?: { readonly prefix?: string; readonly suffix?: string };
    readonly naming_convention?: string;
  };
}

export interface RootFieldName { readonly name: string | null; readonly comment?: string | null }

export interface TableConfiguration {
  readonly custom_name?: string;
  readonly custom_root_fields?: { readonly [k: string]: string | RootFieldName | null };
  readonly custom_column_names?: { readonly [column: string]: string };
  readonly column_config?: { readonly [column: string]: { readonly custom_name?: string; readonly comment?: string } };
  readonly comment?: string;
}

export interface TableEntry {
  readonly table: QualifiedTable;
  readonly is_enum?: boolean;
  readonly configuration?: TableConfiguration;
  readonly object_relationships?: readonly Relationship[];
  readonly array_relationships?: readonly Relationship[];
  readonly computed_fields?: readonly ComputedField[];
  readonly select_permissions?: readonly Permission<SelectPermission>[];
  readonly insert_permissions?: readonly Permission<Json>[];
  readonly update_permissions?: readonly Permission<Json>[];
  readonly delete_permissions?: readonly Permission<Json>[];
  readonly event_triggers?: readonly Json[];
  readonly remote_relationships?: readonly Json[];
}

export interface Relationship {
  readonly name: string;
  readonly comment?: string | null;
  readonly using: {
    /** object: a column (or columns) of this table; array: `{table, column | columns}` of the other table. */
    readonly foreign_key_constraint_on?: string | readonly string[] | { readonly table: QualifiedTable; readonly column?: string; readonly columns?: readonly string[] };
    readonly manual_configuration?: {
      readonly remote_table: QualifiedTable;
      readonly column_mapping: { readonly [column: string]: string };
      readonly insertion_order?: 'before_parent' | 'after_parent' | null;
    };
  };
}

export interface ComputedField {
  readonly name: string;
  readonly definition: {
    readonly function: QualifiedFunction;
    readonly table_argument?: string | null;
    readonly session_argument?: string | null;
  };
  readonly comment?: string | null;
}

export interface Permission<P> {
  readonly role: string;
  readonly permission: P;
  readonly comment?: string | null;
}

export interface SelectPermission {
  readonly columns: readonly string[] | '*';
  readonly computed_fields?: readonly string[];
  readonly filter?: BoolExpJson;
  readonly limit?: number | null;
  readonly allow_aggregations?: boolean;
  readonly query_root_fields?: readonly string[] | null;
  readonly subscription_root_fields?: readonly string[] | null;
}

export interface FunctionEntry {
  readonly function: QualifiedFunction;
  readonly configuration?: {
    readonly custom_name?: string;
    readonly custom_root_fields?: { readonly function?: string; readonly function_aggregate?: string };
    readonly session_argument?: string;
    readonly exposed_as?: 'query' | 'mutation';
  };
  readonly permissions?: readonly { readonly role: string }[];
  readonly comment?: string | null;
}
