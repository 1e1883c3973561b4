// The contract between the metadata API (runtime) and the compiler that the command line wires
// in (DESIGN.md: "the metadata API receives the compiler through an interface"). The runtime
// never sees the metadata document's types: to it the document and the catalog snapshots are
// plain JSON, and every edit, check and compile goes through `MetadataCompiler`.

import type { BigQueryConnection, BundleModel, Json, PoolModel, ReplicaModel, Session } from '../bundle/index.js';
import type { ApiError } from '../errors/index.js';
import type { Driver } from '../drivers/index.js';
import type { RemoteServing } from '../remote/index.js';

/** An inconsistent object, as `get_inconsistent_metadata` reports it. */
export interface InconsistentObject {
  readonly type: string;
  readonly name: string;
  /** The object's metadata; absent for an inherited role's permission, which names its `entity` instead. */
  readonly definition?: Json;
  readonly entity?: Json;
  readonly reason: string;
}

/** Which API an operation came through: `/v1/metadata`, or `/v1/query` (and `/v2/query`). */
export type ApiKind = 'metadata' | 'query';

/** One operation as sent: `{type, args, version?}`. `path` is where it sits in the body (`$`, `$.args[2]`). */
export interface OperationRequest {
  readonly type: string;
  readonly args: Json;
  readonly version?: number;
  readonly api: ApiKind;
}

/**
 * How the metadata API judges the objects that are inconsistent after an edit and were not before:
 * - `create`: the edit added `object` (`{type, name}` as in InconsistentObject); if it is among the
 *   new ones the edit fails with its reasons (400 `invalid-configuration`), and any other new one
 *   fails it with 400 `unexpected` ("cannot continue due to new inconsistent metadata"), as
 *   Hasura's `buildSchemaCacheFor` does;
 * - `drop`: the edit removed something; the new inconsistent objects are its dependents: without
 *   `cascade` the edit fails with 400 `dependency-error` listing them, with it they are dropped too;
 * - `other`: like `create` without an object;
 * - `rebuild`: Hasura runs the edit as a whole rebuild inside `withNewInconsistentObjsCheck` (the
 *   query-collection operations): any new one fails it with 500 `unexpected` ("cannot continue due
 *   to newly found inconsistent metadata", the objects in `internal`).
 */
export type Effect =
  | { readonly kind: 'create'; readonly object?: { readonly type: string; readonly name: string } }
  | { readonly kind: 'drop'; readonly cascade: boolean }
  | { readonly kind: 'other' }
  | { readonly kind: 'rebuild' };

/** What one metadata edit gives back. `metadata` is null when the edit changed nothing. */
export interface Applied {
  readonly metadata: Json | null;
  /** The response body of the operation (`{message: 'success'}` for most). */
  readonly result: Json;
  readonly effect: Effect;
}

/** What an edit may read besides the document: each source's catalog snapshot (null: unreadable). */
export interface EditContext {
  readonly introspection: { readonly [source: string]: Json | null };
}

/** The server settings a compile depends on. */
export interface CompileOptions {
  readonly stringifyNumeric: boolean;
  /**
   * SVC_GRAPHQL_INFER_FUNCTION_PERMISSIONS (default true): false shows a function exposed as a query
   * only to the roles given a function permission on it (and their inherited roles), as Hasura does.
   */
  readonly inferFunctionPermissions?: boolean;
}

/** A compiled metadata document: what the runtime serves, and what does not fit the database. */
export interface Compiled {
  readonly model: BundleModel;
  readonly sdl: { readonly [role: string]: string };
  readonly inconsistencies: readonly InconsistentObject[];
  /** The remote schemas served with it (runtime/remote stitches them in after the compiler's compile). */
  readonly remote?: RemoteServing;
}

/** Where a source's database is. */
export type SourceLocation =
  | { readonly kind: 'literal'; readonly url: string }
  | { readonly kind: 'env'; readonly name: string }
  | null;

/** A source of the document, as the runtime needs it to open a connection. */
export interface SourceInfo {
  readonly name: string;
  readonly kind: string;
  readonly location: SourceLocation;
  /** Its `configuration.read_replicas` (absent or empty: none). */
  readonly readReplicas?: readonly ReplicaModel[];
  /** A BigQuery source's connection (project, service account, datasets); absent when its configuration does not give one. */
  readonly bigquery?: BigQueryConnection;
  /** An MSSQL source's `pool_settings` (absent: the defaults). */
  readonly pool?: PoolModel;
}

/** The database a catalog is read from: a source's driver, or the catalog transaction's runner (PostgreSQL). */
export type CatalogDatabase = Pick<Driver, 'query' | 'queryText'> & { readonly dialect?: Driver['dialect'] };

/** The compiler, as the metadata API uses it. Every method is pure except `introspect`. */
export interface MetadataCompiler {
  /** The metadata of a fresh catalog: one postgres source `default` served by `--database-url`, nothing tracked. */
  empty(): Json;
  /** Reads any accepted metadata shape into the canonical document, or every problem with its path. */
  parse(doc: unknown): { readonly value: Json | null; readonly errors: readonly ApiError[] };
  /**
   * Why Hasura would refuse to build a document that reads well at all, whatever
   * allow_inconsistent_metadata says (inherited roles in a cycle), or undefined.
   */
  refusal(metadata: Json): ApiError | undefined;
  /**
   * Applies one metadata edit (every operation except those the runtime runs itself: bulk,
   * run_sql, the v1 data operations, export/replace/reload/get/drop-inconsistent metadata).
   * Throws ApiError (code, message, path under `$.args`) for a bad or impossible request; an
   * unknown operation type is an ApiError too.
   */
  apply(metadata: Json, op: OperationRequest, ctx: EditContext): Applied;
  /** True when `apply` knows this operation type for this API. */
  knows(type: string, api: ApiKind): boolean;
  /** What `apply` would refuse before reading the document (unknown type, an argument key it does not take); undefined: none. */
  requestProblem(op: OperationRequest): ApiError | undefined;
  /** Reads one source's catalog into a snapshot, with the reader of its kind (`source` absent: PostgreSQL). */
  introspect(db: CatalogDatabase, source?: SourceInfo): Promise<Json>;
  /** Resolves the document against the snapshots: the served model, each role's SDL, the inconsistencies. */
  compile(metadata: Json, introspection: { readonly [source: string]: Json | null }, opts: CompileOptions): Compiled;
  /**
   * The same compile off the event loop (a worker thread), so that queries are served while a
   * large schema compiles (issue 19); absent, the API runs `compile`.
   */
  compileAsync?(metadata: Json, introspection: { readonly [source: string]: Json | null }, opts: CompileOptions): Promise<Compiled>;
  /** The document without these objects (and what hangs off them): drop_inconsistent_metadata and cascades. */
  dropObjects(metadata: Json, objects: readonly InconsistentObject[]): Json;
  /**
   * How a dependency-error lists an object that depends on what is being dropped:
   * `permission author.user.select in source "default"`, `relationship article.author in source "default"`.
   */
  describe(o: InconsistentObject): string;
  /**
   * Carries a run_sql's catalog change into the document: tables and columns it renamed are renamed
   * in the metadata too. Throws ApiError for a change the metadata cannot follow (an overload of a
   * tracked function: 400 `not-supported`). A computed field whose function the change replaced
   * goes with it: refused without `cascade` (400 `dependency-error`), left out with it.
   */
  reconcile(metadata: Json, source: string, before: Json | null, after: Json, cascade?: boolean): Json;
  /** The sources of the document. */
  sources(metadata: Json): readonly SourceInfo[];
  /** The document as export_metadata shows it: without what is kept out of exports (cron triggers with `include_in_metadata: false`). */
  exported(metadata: Json): Json;
  /** replace_metadata's `next`, plus what the replaced document kept out of exports and `next` does not name (such cron triggers survive a replace). */
  keptOnReplace(previous: Json, next: Json): Json;
}

/** Runs SQL in one database: inside the change's open transaction when that database holds the catalog. */
export type SqlRunner = Pick<Driver, 'query'>;

/** What an extension's operation sees. */
export interface ExtensionContext {
  /** The document as the change has edited it so far (the served one for a read-only operation). */
  readonly metadata: Json;
  readonly compiled: Compiled;
  /** A source's database; throws `not-exists` (path `$.args.source`) for an unknown source. */
  runnerOf(source: string): SqlRunner;
  /** The metadata database (svc_catalog). */
  readonly catalog: SqlRunner;
  readonly api: ApiKind;
  readonly session: Session;
}

/** What `settle` sees: the document before and after the change (before is null at start). */
export interface SettleContext {
  readonly before: Json | null;
  readonly after: Json;
  readonly compiled: Compiled;
  runnerOf(source: string): SqlRunner;
  readonly catalog: SqlRunner;
  /** reload_metadata asked for `recreate_event_triggers` (or a start that must check them all). */
  readonly recreateEventTriggers: boolean;
  /**
   * A run_sql changed a database's schema: what was written for the document (a capture trigger
   * rendering a column by its type) is checked against it again, even if the document is the same.
   */
  readonly schemaChanged?: boolean;
}

/**
 * Operations the runtime answers beside the compiler's document edits (event delivery, scheduled
 * events), and what must follow a change in the databases (database triggers of event triggers,
 * future cron events). The command line wires them in; the metadata API only dispatches.
 */
export interface ApiExtension {
  /** True for the operation types (as sent, e.g. `pg_redeliver_event`) this extension answers. */
  handles(type: string, api: ApiKind): boolean;
  /** True when the operation only reads: answered without the catalog lock, against what is served. */
  readOnly(type: string): boolean;
  /** Answers one operation; throws ApiError with a path under `$.args`. */
  run(type: string, args: Json, ctx: ExtensionContext): Promise<Json>;
  /**
   * Inside every change's transaction, after its operations and before the commit, when the document
   * changed (and once at start, with `before` null): bring the databases in line with the document.
   * Throwing rolls the change back.
   */
  settle?(ctx: SettleContext): Promise<void>;
  /**
   * A source left the document (drop_source, clear_metadata, replace_metadata): remove what the
   * extension keeps in its database. Not called for a database another source or the catalog uses.
   */
  retire?(db: Driver): Promise<void>;
}
