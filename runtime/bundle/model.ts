// The resolved model: what the compiler hands the runtime inside engine.mjs. Plain JSON, sorted,
// immutable. Permission predicates are already resolved to BoolIr with session variables as slots.

import type { ErrorCode } from '../errors/index.js';
import type { CompiledSql, SqlTemplate, TemplateSlot } from '../sql/index.js';
import type { ActionsModel } from './actions.js';
import type { Json } from './json.js';

/** `source:schema.name`, unique within a bundle. */
export type TableId = string;

export interface BundleModel {
  readonly engineVersion: string;
  readonly sources: readonly SourceModel[];
  /** Every role with any permission, plus `admin`; sorted. */
  readonly roles: readonly string[];
  readonly tables: { readonly [id: TableId]: TableModel };
  /** Per role, the fields of each root type. */
  readonly roots: { readonly [role: string]: RoleRoots };
  /** Per role, the Postgres-ready predicates: select permission of each table the role may read. */
  readonly select: { readonly [role: string]: { readonly [id: TableId]: SelectPermissionModel } };
  readonly functions: { readonly [id: string]: FunctionModel };
  /** Per role, the insert, update and delete permissions of each table it may write (absent: none). */
  readonly mutations?: { readonly [role: string]: { readonly [id: TableId]: TableMutationPermissions } };
  /** The settings it was compiled with (`inferFunctionPermissions` absent: true). */
  readonly options: { readonly stringifyNumeric: boolean; readonly inferFunctionPermissions?: boolean };
  /** Query collections, the allow-list and REST endpoints, each stored query compiled whole per role (absent: none). */
  readonly persisted?: PersistedModel;
  /**
   * The event and cron trigger definitions, as metadata (`sources[].tables[].event_triggers`,
   * `cron_triggers`): what a served bundle installs and delivers. Absent when there are none.
   */
  readonly events?: Json;
  /**
   * The metadata's `remote_schemas` entries (URL or `url_from_env`, headers as `value` or
   * `value_from_env`, customization, permissions): what a served bundle stitches in, with each
   * remote's schema as compiled in `remote/<name>.graphql` (manifest.json `remoteSchemas`).
   * Environment values are read at run time, never stored. Absent when there are none.
   */
  readonly remoteSchemas?: Json;
  /** `api_limits` of the metadata (set_api_limits); absent when none are set. */
  readonly apiLimits?: ApiLimitsModel;
  /** Roles that may not introspect the schema (set_graphql_schema_introspection_options); absent: none. */
  readonly introspectionDisabledFor?: readonly string[];
  /** Custom types and actions (runtime/bundle/actions.ts); absent when there are none. */
  readonly actions?: ActionsModel;
  /** The OpenTelemetry export (set_opentelemetry_config); absent when none is set. */
  readonly openTelemetry?: OpenTelemetryModel;
  /**
   * Every role's permission predicates precompiled for their source's dialect: what the planners
   * put in a plan in place of the role's filter (absent in a model built without the compiler's
   * last stage, where the planners lower `select[role][table].filter` themselves).
   */
  readonly templates?: TemplatesModel;
  /**
   * Per role and query or subscription root field, the fixed part of the field's statement for
   * that role (its source, filter, columns, row limit, aggregation switch): what the planner
   * completes with a request's selection and arguments. Absent: a model built without the
   * compiler's templates stage (the planner reads the parts from the permissions).
   */
  readonly rootTemplates?: RootTemplatesModel;
  /**
   * Per role and mutation root field (insert, update and delete of a table, a function exposed as
   * a mutation), the fixed part of the field's statement for that role: the written table (or the
   * function's call), the columns it may give, its presets, its check and filter, and what
   * `returning` reads. Absent: a model built without the compiler's
   * templates stage (the planners read the write permissions).
   */
  readonly mutationTemplates?: MutationTemplatesModel;
  /**
   * The SDL of each role that has `backend_only` permissions as a trusted request with
   * `x-svc-use-backend-only-permissions: true` sees it (roots `backendOnlyMutation`); absent: no
   * role has one. Kept in the model: such roles are few, and the runtime cannot build a schema.
   */
  readonly backendOnlySdl?: { readonly [role: string]: string };
}

/**
 * Per role and table, its permission predicates as SQL templates (runtime/sql/template.ts). A
 * template several roles share is one object; in a bundle's engine.mjs it is written once, and a
 * role's part is read when the role is first used.
 */
export interface TemplatesModel {
  readonly roles: { readonly [role: string]: { readonly [id: TableId]: PermissionTemplates } };
}

/** A role's predicates on one table; null: no condition (every row); absent: not precompiled (the planner lowers the model's). */
export interface PermissionTemplates {
  /** The select permission's filter. */
  readonly select?: SqlTemplate | null;
  /** The insert permission's check, on every inserted row. */
  readonly insertCheck?: SqlTemplate | null;
  /** The update permission's filter (rows it may update) and check (on every updated row). */
  readonly updateFilter?: SqlTemplate | null;
  readonly updateCheck?: SqlTemplate | null;
  /** The delete permission's filter. */
  readonly deleteFilter?: SqlTemplate | null;
}

/**
 * Per role, its root fields' templates. A template several roles have is one object; in a
 * bundle's engine.mjs it is written once, and a role's part is read when the role is first used.
 */
export interface RootTemplatesModel {
  readonly roles: { readonly [role: string]: { readonly [field: string]: RootTemplate } };
}

/** The part of a root field's statement fixed by the role, rendered for the source's dialect. */
export interface RootTemplate {
  readonly dialect: SqlTemplate['dialect'];
  /** The table the field's rows are (a function root: the table its function returns). */
  readonly table: TableId;
  /** The FROM item: the table or view, or the function with an `{arguments}` slot for the request's arguments. */
  readonly source: SqlTemplate;
  /** The role's row filter on the source's rows (null: every row). */
  readonly filter: SqlTemplate | null;
  /** The columns the role may read, in table order. */
  readonly columns: readonly string[];
  /** The role's row limit (null: none). */
  readonly limit: number | null;
  /** Whether the role may aggregate the rows. */
  readonly aggregations: boolean;
}

/**
 * Per role, its mutation root fields' templates. As with root templates, a template several roles
 * have is one object, written once in engine.mjs; a role's part is read when the role is first used.
 */
export interface MutationTemplatesModel {
  readonly roles: { readonly [role: string]: { readonly [field: string]: MutationTemplate } };
}

/**
 * The part of a mutation root field's statement fixed by the role, rendered for the source's
 * dialect. Which parts it has follows the field: `insert` for insert_<t>(_one) (with `update`
 * when the role may update, for `on_conflict`), `update` for update_<t>, _by_pk and _many,
 * `delete` for delete_<t> and _by_pk. A part it lacks is a permission the role lacks. A tracked
 * function exposed as a mutation has none of them: `function` names it, `target` is its call.
 */
export interface MutationTemplate {
  readonly dialect: SqlTemplate['dialect'];
  /** The table written (a function: the table whose rows it returns). */
  readonly table: TableId;
  /**
   * The written table as the statement names it (INSERT INTO, UPDATE, DELETE FROM); a function:
   * its call, with an `{arguments}` slot for the request's, which the statement reads rows from.
   */
  readonly target: SqlTemplate;
  /** A tracked function exposed as a mutation: its id (`returning` is then the role's template of the rows of its call). */
  readonly function?: string;
  readonly insert?: WriteTemplate;
  readonly update?: WriteTemplate;
  readonly delete?: { readonly filter: SqlTemplate | null };
  /** Whether the field's permission is `backend_only` (only a trusted request's schema has the field). */
  readonly backendOnly: boolean;
  /**
   * What `returning` reads: the role's select template of the table (null: the role may not read
   * it). A function's: the template of its rows as a query field on the function would read them
   * (source: the call, as `target`; the role's filter, columns and row limit of the table).
   */
  readonly returning: RootTemplate | null;
}

/** An insert or update permission precompiled: columns, presets as parameter slots, predicates as templates. */
export interface WriteTemplate {
  /** Columns the client may give (insert) or change (update), in table order; preset columns are not among them. */
  readonly columns: readonly string[];
  /** Column -> its preset: a session value's slot or a constant, bound as a parameter of the column's type; sorted by column. */
  readonly presets: { readonly [column: string]: PresetSlot };
  /** Update only: the rows the role may update (null: every row). */
  readonly filter?: SqlTemplate | null;
  /** Evaluated on every inserted or updated row (null: none). */
  readonly check: SqlTemplate | null;
}

/** A preset's value as a template slot: a session value or a constant, typed by its column. */
export type PresetSlot = Extract<TemplateSlot, { readonly kind: 'session' | 'literal' }>;

/** The predicates of a permission a template is made of. */
export type PermissionRule = 'select' | 'insertCheck' | 'updateFilter' | 'updateCheck' | 'deleteFilter';


/**
 * Hasura's `opentelemetry` metadata, checked: traces go to `tracesEndpoint` over OTLP/HTTP when
 * `enabled` and `traces` is among the data types. Header values from the environment are named
 * here and read when the runtime starts exporting (never stored in a bundle).
 */
export interface OpenTelemetryModel {
  readonly enabled: boolean;
  readonly dataTypes: readonly ('traces' | 'metrics' | 'logs')[];
  readonly tracesEndpoint: string | null;
  readonly protocol: 'http/protobuf' | 'http/json';
  readonly headers: readonly ({ readonly name: string; readonly value: string } | { readonly name: string; readonly fromEnv: string })[];
  readonly resourceAttributes: readonly { readonly name: string; readonly value: string }[];
  readonly propagators: readonly 'tracecontext'[];
  readonly maxExportBatchSize: number;
}

/** One limit: the value for every role, and values for some roles that win over it. */
export interface LimitModel<T> {
  readonly global?: T;
  readonly perRole: { readonly [role: string]: T };
}

/** What rate_limit counts by besides the role: the client's IP, or some session variables (lower case). */
export type RateLimitKey = { readonly kind: 'ip' } | { readonly kind: 'session'; readonly variables: readonly string[] };

/** `max_reqs_per_min` operations per minute for each value of `uniqueParams` (with the role). */
export interface RateLimitModel {
  readonly maxReqsPerMin: number;
  readonly uniqueParams: RateLimitKey | null;
}

/** Hasura's API limits (set_api_limits); the admin role is never limited. */
export interface ApiLimitsModel {
  readonly disabled: boolean;
  readonly depth?: LimitModel<number>;
  readonly node?: LimitModel<number>;
  readonly batch?: LimitModel<number>;
  /** Seconds a GraphQL operation may run: the statement timeout of its database work. */
  readonly time?: LimitModel<number>;
  readonly rate?: LimitModel<RateLimitModel>;
}

/** A source's `customization.type_names`: text put before and after each of its type names. */
export interface TypeAffix {
  readonly prefix: string;
  readonly suffix: string;
}

/**
 * A source's `customization.root_fields.namespace`: its root fields sit inside one field of that
 * name, whose types are named `<namespace>_query` and `<namespace>_mutation_frontend` (with the
 * source's type-name prefix and suffix). Root fields of such a source are keyed
 * `<namespace>.<field>` in RoleRoots.
 */
export interface SourceNamespace {
  readonly field: string;
  readonly queryType: string;
  readonly mutationType: string;
}

export interface SourceModel {
  readonly name: string;
  /** Set when the source's root fields are namespaced. */
  readonly namespace?: SourceNamespace;
  readonly dialect: 'postgres' | 'mssql' | 'bigquery';
  /** The metadata's URL: a literal, or the environment variable that holds it. */
  readonly databaseUrl: { readonly kind: 'literal'; readonly url: string } | { readonly kind: 'env'; readonly name: string } | null;
  /** `configuration.read_replicas`: where queries and subscriptions are read (absent: none). */
  readonly readReplicas?: readonly ReplicaModel[];
  /** A BigQuery source's connection (dialect `bigquery`). */
  readonly bigquery?: BigQueryConnection;
  /** An MSSQL source's `connection_info.pool_settings` (absent keys: SVC_GRAPHQL_PG_CONNECTIONS and Hasura's defaults). */
  readonly pool?: PoolModel;
}

/** `pool_settings` the runtime applies (seconds, as Hasura writes them); absent keys keep the defaults. */
export interface PoolModel {
  readonly maxConnections?: number;
  /** Hasura's cap over every server instance; a cap on this pool (one instance). */
  readonly totalMaxConnections?: number;
  readonly idleTimeout?: number;
  readonly connectionLifetime?: number;
  readonly poolTimeout?: number;
}

/** A value the metadata gives literally or names an environment variable for (`{from_env}`). */
export type ValueRef = { readonly kind: 'literal'; readonly value: string } | { readonly kind: 'env'; readonly name: string };

/** `configuration` of a BigQuery source: where its queries run, and the row limit of every select. */
export interface BigQueryConnection {
  readonly projectId: ValueRef;
  /** The service account key as JSON text (or the variable holding it); null: none given. */
  readonly serviceAccount: ValueRef | null;
  readonly datasets: readonly string[] | { readonly kind: 'env'; readonly name: string };
  /** Inlined into every role's row limit on the source's tables (the model carries the result). */
  readonly globalSelectLimit: number | null;
}

/** One read replica of a source: its URL as the metadata states it, and its pool settings. */
export interface ReplicaModel {
  readonly databaseUrl: { readonly kind: 'literal'; readonly url: string } | { readonly kind: 'env'; readonly name: string };
  /** `pool_settings` the runtime applies (seconds, as Hasura writes them); absent keys keep the defaults. */
  readonly pool: PoolModel;
}

export interface RoleRoots {
  readonly query: { readonly [field: string]: RootField };
  readonly subscription: { readonly [field: string]: RootField };
  /**
   * The streaming fields of subscription_root (`<t>_stream`), by name: the table each streams.
   * Kept apart from `subscription`: they are served by runtime/subscriptions, not planned alone.
   */
  readonly stream?: { readonly [field: string]: TableId };
  /** The fields of mutation_root (absent or empty: the role has no mutation_root). */
  readonly mutation?: { readonly [field: string]: MutationRootField };
  /**
   * mutation_root as a trusted request that sends `x-svc-use-backend-only-permissions: true` sees
   * it: `mutation` plus the fields of the role's `backend_only` permissions. Absent when the role
   * has no such permission (its schema is then the same either way).
   */
  readonly backendOnlyMutation?: { readonly [field: string]: MutationRootField };
}

/** A field of mutation_root (reference/schema.md §1): a write of `table`, or a tracked function exposed as a mutation. */
export interface MutationRootField {
  readonly kind: MutationKind;
  readonly table: TableId;
  /** The function's id (`function` only): it returns rows of `table`. */
  readonly function?: string;
}

export type MutationKind = 'insert' | 'insert_one' | 'update' | 'update_by_pk' | 'update_many' | 'delete' | 'delete_by_pk' | 'function';

/** What one role may write in one table; a missing part is a missing permission. */
export interface TableMutationPermissions {
  readonly insert?: InsertPermissionModel;
  readonly update?: UpdatePermissionModel;
  readonly delete?: DeletePermissionModel;
}

/** A preset (`set`) of an insert or update permission: a constant or a session variable. */
export type PresetValue =
  | { readonly kind: 'literal'; readonly value: Json }
  | { readonly kind: 'session'; readonly name: string };

export interface InsertPermissionModel {
  /** Columns the client may give, in table order (preset columns removed). */
  readonly columns: readonly string[];
  /** Evaluated on every inserted row. */
  readonly check: BoolIr;
  /** Column -> preset value, sorted by column. */
  readonly set: { readonly [column: string]: PresetValue };
  readonly backendOnly: boolean;
}

export interface UpdatePermissionModel {
  /** Columns the client may change, in table order (preset columns removed). */
  readonly columns: readonly string[];
  /** Rows the role may update. */
  readonly filter: BoolIr;
  /** Evaluated on every updated row after the update. */
  readonly check: BoolIr;
  readonly set: { readonly [column: string]: PresetValue };
  readonly backendOnly: boolean;
}

export interface DeletePermissionModel {
  readonly filter: BoolIr;
  readonly backendOnly: boolean;
}

export type RootField =
  | { readonly kind: 'select'; readonly table: TableId }
  | { readonly kind: 'select_by_pk'; readonly table: TableId }
  | { readonly kind: 'select_aggregate'; readonly table: TableId }
  | { readonly kind: 'function'; readonly function: string; readonly table: TableId }
  | { readonly kind: 'function_aggregate'; readonly function: string; readonly table: TableId };

export type ScalarCategory = 'int' | 'float' | 'numeric' | 'string' | 'boolean' | 'json' | 'datetime' | 'uuid' | 'enum' | 'other';

export interface ColumnModel {
  /** The database name. */
  readonly name: string;
  /** The GraphQL field name (custom_column_names / column_config applied). */
  readonly field: string;
  /** The catalog type (`int4`, `_text`, `jsonb`), schema-qualified when not built in. */
  readonly type: string;
  /** The GraphQL scalar or enum type name (`Int`, `bigint`, `colors_enum`). */
  readonly scalar: string;
  readonly category: ScalarCategory;
  readonly nullable: boolean;
  readonly isArray: boolean;
  /** Usable in max/min. */
  readonly comparable: boolean;
  /** Usable in sum/avg/stddev/variance. */
  readonly numeric: boolean;
  readonly comment: string | null;
  /** A SQL Server IDENTITY column: a value given for it is written under IDENTITY_INSERT. Absent elsewhere. */
  readonly identity?: true;
}

export interface RelationshipModel {
  readonly name: string;
  readonly kind: 'object' | 'array';
  readonly target: TableId;
  /** Pairs of (column of this table, column of the target). */
  readonly mapping: readonly (readonly [string, string])[];
  /** Object relationships: false when every local column is NOT NULL (FK on this side). */
  readonly nullable: boolean;
  readonly comment: string | null;
  /** A manual object relationship whose row is inserted after this one (`insertion_order: after_parent`). */
  readonly insertAfterParent?: boolean;
}

export interface ComputedFieldModel {
  readonly name: string;
  readonly function: { readonly schema: string; readonly name: string };
  /** Position of the table-row argument in the function's arguments. */
  readonly tableArgument: number;
  readonly sessionArgument: number | null;
  /** The remaining user arguments, in order. */
  readonly args: readonly FunctionArgModel[];
  readonly returns: { readonly kind: 'scalar'; readonly type: string; readonly scalar: string; readonly category: ScalarCategory }
    | { readonly kind: 'table'; readonly table: TableId; readonly set: boolean };
  readonly comment: string | null;
}

export interface FunctionArgModel {
  readonly name: string;
  readonly position: number;
  readonly type: string;
  readonly scalar: string;
  readonly hasDefault: boolean;
}

export interface FunctionModel {
  readonly id: string;
  readonly source: string;
  readonly schema: string;
  readonly name: string;
  readonly field: string;
  readonly aggregateField: string;
  readonly args: readonly FunctionArgModel[];
  readonly sessionArgument: number | null;
  readonly totalArgs: number;
  readonly returns: TableId;
  readonly returnsSet: boolean;
  readonly comment: string | null;
  /**
   * Present when the function is a field of mutation_root instead of query_root (VOLATILE, or
   * `exposed_as: mutation`): the roles given a function permission, the only ones besides admin
   * that see it (Hasura infers permissions for query functions only).
   */
  readonly mutation?: { readonly roles: readonly string[] };
  /**
   * Present when function permissions are not inferred (SVC_GRAPHQL_INFER_FUNCTION_PERMISSIONS=false)
   * and the function is a field of query_root: the roles given a function permission (inherited
   * roles included), the only ones besides admin that see it.
   */
  readonly queryRoles?: readonly string[];
}

export interface TableModel {
  readonly id: TableId;
  readonly source: string;
  readonly schema: string;
  readonly name: string;
  /** The base of the GraphQL type names of the table (`<t>`); `typeNameOf` gives the names themselves. */
  readonly typeName: string;
  /** The source's `customization.type_names`, around every type name of the table; absent when none. */
  readonly typeAffix?: TypeAffix;
  readonly comment: string | null;
  readonly columns: readonly ColumnModel[];
  readonly primaryKey: readonly string[];
  readonly uniqueConstraints: readonly { readonly name: string; readonly columns: readonly string[] }[];
  readonly relationships: readonly RelationshipModel[];
  readonly computedFields: readonly ComputedFieldModel[];
  /** Names of the root fields: select, select_by_pk, select_aggregate, insert, ... */
  readonly rootFieldNames: { readonly [key: string]: string };
  readonly rootFieldComments: { readonly [key: string]: string | null };
  /** Set for enum tables: the GraphQL enum's values (and comments). */
  readonly enumValues: readonly { readonly value: string; readonly comment: string | null }[] | null;
  /** The event triggers that capture this table's inserts, updates or deletes (sorted); absent when none. */
  readonly eventTriggers?: readonly string[];
  /** Remote relationships (to a remote schema or to a table of another source); absent when none. */
  readonly remoteRelationships?: readonly RemoteRelationshipModel[];
}

/**
 * A remote relationship of a table: to a remote schema (`remoteField` is the metadata's
 * `remote_field` tree, `$column` values naming join columns), or to a table of another source.
 * Join columns are column names of this table.
 */
export type RemoteRelationshipModel =
  | { readonly kind: 'remote_schema'; readonly name: string; readonly remoteSchema: string; readonly lhsColumns: readonly string[]; readonly remoteField: Json }
  | { readonly kind: 'source'; readonly name: string; readonly cardinality: 'object' | 'array'; readonly target: TableId;
    readonly mapping: readonly (readonly [string, string])[] };

export interface SelectPermissionModel {
  /** Database column names the role may read, in table order. */
  readonly columns: readonly string[];
  readonly computedFields: readonly string[];
  readonly filter: BoolIr;
  readonly limit: number | null;
  readonly allowAggregations: boolean;
  /**
   * Inherited roles whose parents grant different columns (Hasura v2): a column or scalar computed
   * field listed here is read only on the rows this filter admits (the filters of the parents that
   * grant it), null on the others. Absent: every listed column is read on every row.
   */
  readonly fieldFilters?: { readonly [field: string]: BoolIr };
}

/** A boolean expression resolved against the model; shared by permission filters and `where`. */
export type BoolIr =
  | { readonly kind: 'true' }
  | { readonly kind: 'and'; readonly items: readonly BoolIr[] }
  | { readonly kind: 'or'; readonly items: readonly BoolIr[] }
  | { readonly kind: 'not'; readonly item: BoolIr }
  | { readonly kind: 'column'; readonly column: string; readonly type: string; readonly op: string; readonly value: ValueIr }
  /** A scalar computed field `fn(row)` compared like a column; `type` is its return type. */
  | { readonly kind: 'computed'; readonly field: string; readonly function: { readonly schema: string; readonly name: string }; readonly type: string; readonly op: string; readonly value: ValueIr }
  /** A computed field of `table` returning rows of `target`: true when one of `fn(row)` matches `where`. */
  | { readonly kind: 'computed_table'; readonly table: TableId; readonly field: string; readonly target: TableId; readonly where: BoolIr }
  | { readonly kind: 'relationship'; readonly target: TableId; readonly mapping: readonly (readonly [string, string])[]; readonly where: BoolIr }
  | { readonly kind: 'exists'; readonly table: TableId; readonly where: BoolIr };

export type ValueIr =
  | { readonly kind: 'literal'; readonly value: Json }
  | { readonly kind: 'session'; readonly name: string }
  | { readonly kind: 'variable'; readonly name: string; readonly path: readonly (string | number)[] }
  /** `_ceq` and friends: a column of the current table, or of the root table (`["$", col]`). */
  | { readonly kind: 'column'; readonly column: string; readonly root: boolean };

/** Stored queries (spec part A 2.9, 2.10): what the allow-list admits and REST endpoints run. */
export interface PersistedModel {
  /** The dialect the plans are printed in (with `options.stringifyNumeric`: what an engine checks before using them). */
  readonly dialect: 'postgres' | 'mssql' | 'bigquery';
  /** Every query of every collection, sorted by collection then name. */
  readonly queries: readonly PersistedQueryModel[];
  readonly allowlist: readonly AllowlistEntryModel[];
  /** Sorted by name. */
  readonly restEndpoints: readonly RestEndpointModel[];
}

export interface PersistedQueryModel {
  readonly collection: string;
  readonly name: string;
  /** The query text as the metadata stores it. */
  readonly query: string;
  /** sha256 of the document with formatting and `__typename` fields left out: what the allow-list compares. Null: it does not parse. */
  readonly sha256: string | null;
  readonly operation: 'query' | 'mutation' | 'subscription' | null;
  /** The declared variables, types as written (`String!`, `[uuid!]!`). */
  readonly variables: readonly { readonly name: string; readonly type: string }[];
  /**
   * Per role that may run it (its schema validates the query; an allow-list scope of roles
   * narrows it): the statement(s) planned for every variable given, or null when the values of
   * variables shape the statement (planned per request).
   */
  readonly plans: { readonly [role: string]: StoredPlanModel | null };
}

/** An allow-list entry: a collection and the roles it admits. */
export interface AllowlistEntryModel {
  readonly collection: string;
  readonly scope: { readonly global: true } | { readonly global: false; readonly roles: readonly string[] };
}

export interface RestEndpointModel {
  readonly name: string;
  /** The template under /api/rest/ (`users/:id/posts`). */
  readonly url: string;
  readonly methods: readonly string[];
  readonly collection: string;
  readonly query: string;
  readonly comment: string | null;
}

/** One planned statement on one source whose single text value is a JSON object. */
export interface StatementModel {
  readonly kind: 'sql';
  readonly source: string;
  readonly sql: CompiledSql;
  readonly name: string;
  readonly valueSensitive: boolean;
}

/** An error a mutation guard answers, as plain data. */
export interface ErrorModel {
  readonly code: ErrorCode;
  readonly message: string;
  readonly status: number;
  readonly path: readonly (string | number)[];
}

/** A stored query's plan as the bundle keeps it (the runtime's Plan and MutationPlan as plain JSON). */
export type StoredPlanModel =
  | { readonly kind: 'static'; readonly body: string }
  | StatementModel
  | { readonly kind: 'multi'; readonly parts: readonly StatementModel[]; readonly keys: readonly string[] }
  | {
    readonly kind: 'mutation';
    readonly source: string;
    readonly transactional: boolean;
    /** A written table has event triggers: the transaction records the session for them first. */
    readonly recordsSession?: true;
    readonly fields: readonly StoredMutationFieldModel[];
  };

/** One field of a stored mutation plan; `group` is a namespace's object of fields (source customization). */
export type StoredMutationFieldModel =
  | { readonly kind: 'static'; readonly key: string; readonly json: string }
  | { readonly kind: 'sql'; readonly key: string; readonly list: boolean;
    readonly statements: readonly { readonly sql: CompiledSql; readonly name: string; readonly errors: readonly ErrorModel[];
      /** The statement that answers the response after the writes, from the rows this one kept. */
      readonly output?: { readonly sql: CompiledSql; readonly name: string } }[] }
  | { readonly kind: 'group'; readonly key: string; readonly fields: readonly StoredMutationFieldModel[] };
