import { execute, Kind, OperationTypeNode, parse, print, type DocumentNode, type FieldNode, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import { backendOnlyModel, contentHash, sdlFromFile, sdlFromText, type BundleModel, type SdlSource, type PersistedQueryModel, type RestEndpointModel } from '../bundle/index.js';
import { ApiError, graphqlErrorBody } from '../errors/index.js';
import { stepEnd, stepStart } from '../tracing/index.js';
import { SENT_ALONE, type Driver } from '../drivers/index.js';
import type { Dialect } from '../sql/index.js';
import { bindParams } from './bind.js';
import { checkLimit, checkLimitValue } from './check.js';
import { planOperation, refuseSubscriptionIntrospection, type Plan, type SqlPlan } from './plan.js';
import { mayWriteSeveralSources, mutationFieldsBySource, planMutation, type MutationFieldPlan, type MutationPlan, type NamedSql } from './mutation-plan.js';
import { runMutation } from './mutation-run.js';
import { typedRowsText } from './typed-rows.js';
import { queryKey, type QueryKey } from './persisted.js';
import { StoredIndex, type StoredEntry } from './persisted-index.js';
import { onlyFields, pickOperation, planSignature, prepareOperation, type Prepared } from './prepare.js';
import { nullError } from './validate-words.js';
import { DEFAULT_QUERY_CAPS, type QueryCaps } from './limits.js';
import { RateLimiter, type ClientInfo } from './rate-limit.js';
import { RequestLimits } from './request-limits.js';
import { planLiveQuery, type LivePlan, type StreamCursor } from './live.js';
import { lazySchema, schemaWeight } from './lazy-schema.js';
import { notNullColumnMarker, sameColumnNulls } from './column-nulls.js';
import { hasuraDirectives } from './hasura-directives.js';
import { explainOperation, type Explanation } from './explain.js';
import type { FieldSel } from './fields.js';
import { relayVariant, reshapeRelay, rewriteRelay } from './relay.js';
import { relaySchemaSdl } from './relay-schema.js';
import { checkUnexpectedVariables, coerceVariables, quickVariables, type QuickVariables } from './variable-values.js';
import type { GraphQLRequest, Session } from '../bundle/index.js';
import type { ClientHeaders, RemoteServing } from '../remote/index.js';
import { runWithRemotes, splitFor } from './remote-run.js';
import { REMOTE_JOIN_ERRORS, resolveJoins } from './remote-joins.js';
import type { ActionHook } from './action-hook.js';

/** A subscription planned for multiplexing: the plan, its coerced variables, the drivers to run it on. */
export interface SubscriptionPlan {
  readonly plan: LivePlan;
  readonly variables: { readonly [k: string]: unknown };
  /** The driver of each source as the session's role runs it (under its time limit when it has one). */
  readonly driverFor: (source: string) => Driver;
}

export interface EngineOptions {
  readonly model: BundleModel;
  /** SDL of each role's schema, as the bundle stores it. */
  readonly sdl: { readonly [role: string]: string };
  readonly driverFor: (source: string) => Driver;
  /**
   * Where a source's queries and subscriptions are read (its read replicas); mutations always run
   * on `driverFor`. Absent: reads go to `driverFor` too.
   */
  readonly readerFor?: (source: string) => Driver;
  readonly stringifyNumeric?: boolean;
  readonly planCacheSize?: number;
  /**
   * Role -> a key naming its schema: roles with the same key see the same schema and share one
   * GraphQLSchema (a bundle gives the file each role's SDL is stored in). Absent: the SDL's hash.
   */
  readonly sdlKey?: { readonly [role: string]: string };
  /** A bundle's schema file of each role: its types are read from there as queries need them (no SDL kept in memory). */
  readonly sdlFiles?: { readonly [role: string]: string };
  /** How many GraphQLSchema objects are kept (least recently used dropped); default 8. */
  readonly schemaCacheSize?: number;
  /**
   * The engine this one replaces (the metadata API serves a new engine after every change): the
   * schemas it built are kept for the roles whose SDL text is the same, where the tables'
   * NOT NULL columns are too, instead of being built again on their next request (at 1,000 tables
   * x 20 roles, 0.3-0.4 s of the event loop on each role's first request after every change). Read
   * while this engine is made; no reference to it is kept.
   */
  readonly previous?: Engine;
  /**
   * The most SDL text (characters) the kept schemas may have built types from (lazy-schema.ts
   * `schemaWeight`); default 4 MB. A built type takes about ten times its SDL in heap, so this
   * bounds the cache near 40 MB whatever the schema size. A schema that grows past the whole
   * budget alone (introspection builds every type) is dropped after the request that built it.
   */
  readonly schemaCacheSdlChars?: number;
  /** How many roles' Relay schemas and Relay engines are kept (least recently used dropped); default 8. */
  readonly relayCacheSize?: number;
  /**
   * SVC_GRAPHQL_ENABLE_ALLOWLIST: a non-admin role may run only documents of an allow-listed
   * collection whose scope includes it (reference/endpoints.md "Allow-list").
   */
  readonly allowlist?: boolean;
  /** The server's caps on one operation (SVC_GRAPHQL_MAX_QUERY_*); DEFAULT_QUERY_CAPS when absent. */
  readonly caps?: QueryCaps;
  /** Rate-limit counts; pass one shared by successive engines so a metadata change keeps them. */
  readonly rateLimiter?: RateLimiter;
  /** The remote schemas served beside the tables (runtime/remote); absent: none. */
  readonly remote?: RemoteServing;
  /** Runs operations that select actions (runtime/actions); absent: the bundle has none. */
  readonly actions?: ActionHook;
}

// Per mutation operation and role: whether its root fields name tables of several sources.
const spanning = new WeakMap<Prepared, Map<string, boolean>>();

// The one-field operations of a mutation that writes several sources, per field node.
const fieldOperations = new WeakMap<Prepared, Map<FieldNode, Prepared>>();

/** What an engine may use of the HTTP request besides its body (client headers forwarded to remote schemas and actions). */
export interface RequestContext {
  readonly headers?: ClientHeaders;
  /** The request came over HTTP (POST /v1/graphql, /v1alpha1/graphql, /v1beta1/relay), where a subscription is refused. */
  readonly overHttp?: boolean;
  /** Where synchronous action handlers' Set-Cookie values go, for the HTTP response (Hasura's mkSetCookieHeaders). */
  readonly responseCookies?: string[];
}

/** Request-time work since the engine was made: parses, validations and plans (what caches and stored plans save). */
export interface EngineStats {
  readonly parses: number;
  readonly validations: number;
  readonly plans: number;
  /** Requests whose parsed and validated operation came from the plan cache (a miss is counted in `parses`). */
  readonly planCacheHits: number;
}

const EMPTY_ROLE_SDL = 'type query_root { no_queries_available: String! } schema { query: query_root }';

/** An ApiError as the response's body (`{"errors":[...]}`); any other error is thrown on. */
function errorAnswerText(e: unknown): string {
  if (e instanceof ApiError) return JSON.stringify({ errors: [graphqlErrorBody(e)] });
  throw e;
}

/** A root-level data text as the response's body. */
function underData(text: string): string {
  return `{"data":${text}}`;
}

/** Serves GraphQL requests from a bundle: parse and plan once per (role, query, operation), then bind and run. */
export class Engine {
  // Built schemas by their key (roles that see the same schema share one), least recently used
  // dropped: on a 1,000-table schema one is tens of megabytes, so they cannot all be kept.
  private readonly schemas: LRUCache<string, GraphQLSchema>;
  private readonly schemaKeys = new Map<string, string>();
  // Per prepared operation, the quick check of its variables for the schema it was made for
  // (variable-values.ts quickVariables); kept as long as the prepared operation is.
  private readonly quickChecks = new WeakMap<Prepared, { readonly schema: GraphQLSchema; readonly check: QuickVariables | null }>();
  private readonly schemaBudget: number;
  // A bundle's schema files, indexed (definition name -> byte range; a few megabytes for a
  // 1,000-table role): kept apart from the schemas built from them, so that a schema dropped from
  // the cache is made again without reading and scanning its whole file.
  private readonly sdlSources = new LRUCache<string, SdlSource>({ max: 8 });
  // Query text -> (role, operation name) -> its prepared operation. Keyed by the text as the client
  // sent it: a key made by joining role, name and text copied the whole text on every request.
  private readonly cache: LRUCache<string, Map<string, Prepared>>;
  // Query text -> its allow-list key (false: it does not parse); parsed once per text.
  private readonly keys: LRUCache<string, QueryKey | false>;
  private readonly stored: StoredIndex;
  private readonly counts = { parses: 0, validations: 0, plans: 0, planCacheHits: 0 };
  private readonly limits: RequestLimits;

  constructor(private readonly opts: EngineOptions) {
    this.limits = new RequestLimits(opts.model, opts.caps ?? DEFAULT_QUERY_CAPS, opts.rateLimiter ?? new RateLimiter());
    this.schemaBudget = opts.schemaCacheSdlChars ?? 4 * 1024 * 1024;
    this.schemas = new LRUCache({ max: opts.schemaCacheSize ?? 8, maxSize: this.schemaBudget });
    this.relayEngines = new LRUCache({ max: opts.relayCacheSize ?? 8 });
    this.relaySchemas = new LRUCache({ max: opts.relayCacheSize ?? 8, maxSize: this.schemaBudget });
    // Plans hold the parsed document and its planned SQL: bounded by count and by an estimate of size.
    this.cache = new LRUCache({ max: opts.planCacheSize ?? 2000, maxSize: 64 * 1024 * 1024, sizeCalculation: preparedSize });
    this.keys = new LRUCache({ max: opts.planCacheSize ?? 2000 });
    if (opts.previous) this.inheritSchemas(opts.previous);
    this.stored = new StoredIndex({ model: opts.model, schemaFor: (role) => this.schemaFor(role), dialect: this.dialectOrNull(), dialectOf: this.dialectOf,
      stringifyNumeric: opts.stringifyNumeric ?? false });
  }

  /** Request-time parses, validations and plans so far. */
  get stats(): EngineStats {
    return { ...this.counts };
  }

  /** The REST endpoints this engine serves (sorted by name). */
  restEndpoints(): readonly RestEndpointModel[] {
    return this.stored.endpoints;
  }

  /** A stored query of a collection. */
  storedQuery(collection: string, name: string): PersistedQueryModel | undefined {
    return this.stored.byName(collection, name)?.query;
  }

  /**
   * Runs a stored query (a REST endpoint's) with these variables: its prepared plan for the role
   * when there is one, else as any request. Answers `{"data":...}`; a failure throws its ApiError.
   */
  executeStored(collection: string, name: string, variables: { readonly [k: string]: unknown }, session: Session): Promise<string> {
    const entry = this.stored.byName(collection, name);
    if (!entry) throw new ApiError('not-found', `query with name ${JSON.stringify(name)} not found in collection ${JSON.stringify(collection)}`, 404, []);
    if (this.enforcesAllowlist(session) && (entry.query.sha256 === null || !this.stored.admits(entry.query.sha256, session.role))) throw notAllowed();
    const req: GraphQLRequest = { query: entry.query.query, variables, operationName: null };
    const trusted = this.forSession(session);
    if (trusted !== this) return trusted.executeStored(collection, name, variables, session);
    return this.runPrepared(this.limited(entry.prepared.get(session.role) ?? this.prepare(req, session.role), session), req, session);
  }

  // Takes the previous engine's schemas of the roles whose SDL text is unchanged (see `previous`).
  // Only between engines given the texts themselves, with no remote schema stitched in: a schema
  // is then its SDL, plus the NOT NULL columns its input types are marked with (column-nulls.ts).
  private inheritSchemas(prev: Engine): void {
    // Remote types stitched into a role's schema are not in its SDL text.
    const plain = (o: EngineOptions): boolean => !o.sdlKey && !o.sdlFiles && !o.remote?.stitches;
    // A kept schema builds its remaining types with the marker of the model it was made with: the same columns, by the check below.
    if (!plain(this.opts) || !plain(prev.opts) || !sameColumnNulls(prev.opts.model, this.opts.model)) return;
    const kept = new Set<string>();
    for (const [role, key] of prev.schemaKeys) {
      const text = this.opts.sdl[role];
      if (text === undefined || text !== prev.opts.sdl[role]) continue;
      this.schemaKeys.set(role, key);
      kept.add(key);
    }
    for (const key of kept) {
      const s = prev.schemas.peek(key);
      if (s) this.schemas.set(key, s, { size: Math.max(1, schemaWeight(s)) });
    }
  }

  /** The role's GraphQL schema (built from the bundle's SDL on first use, shared by roles that see the same). */
  schemaFor(role: string): GraphQLSchema {
    let key = this.schemaKeys.get(role);
    let sdl: string | undefined;
    if (key === undefined) {
      // A bundle names the file of each role's SDL: reading it (from disk) waits until a build needs it.
      key = this.opts.sdlKey?.[role] ?? contentHash((sdl = this.opts.sdl[role] ?? EMPTY_ROLE_SDL));
      // Remote schemas: roles with the same base schema may see different remotes.
      if (this.opts.remote) key += `\u0000${this.opts.remote.roleKey(role)}`;
      this.schemaKeys.set(role, key);
    }
    let s = this.schemas.get(key);
    if (!s) {
      // Types are built as queries reach them (lazy-schema.ts): a 1,000-table role's whole schema
      // is 30,000 types and 176 MB of heap; a query needs a few dozen. A bundle's SDL is read
      // from its file a definition at a time, so not even its text is kept. A role that sees
      // remote schemas gets its text with their types stitched in (runtime/remote).
      const file = this.opts.sdlFiles?.[role];
      const remote = this.opts.remote && this.opts.remote.roleKey(role) !== '' ? this.opts.remote : null;
      const source = remote ? sdlFromText(remote.sdlFor(role, sdl ?? this.opts.sdl[role] ?? EMPTY_ROLE_SDL))
        : file !== undefined ? this.sdlSourceOf(file) : sdlFromText(sdl ?? this.opts.sdl[role] ?? EMPTY_ROLE_SDL);
      // The inputs' NOT NULL columns are marked as their types are built (column-nulls.ts): a
      // schema is shared only by roles whose SDL, and so whose written tables, are the same.
      s = lazySchema(source, undefined, hasuraDirectives, notNullColumnMarker(this.opts.model, role));
      this.schemas.set(key, s, { size: Math.max(1, schemaWeight(s)) });
    }
    return s;
  }

  private sdlSourceOf(file: string): SdlSource {
    let source = this.sdlSources.get(file);
    if (!source) this.sdlSources.set(file, (source = sdlFromFile(file)));
    return source;
  }

  // A role's schema weighed again after a request built types in it (a plan cache miss; a hit
  // builds nothing): the least recently used schemas are dropped while the kept ones weigh more
  // than the budget, and one heavier than the whole budget is dropped itself.
  private reweigh(role: string): void {
    const key = this.schemaKeys.get(role);
    const s = key === undefined ? undefined : this.schemas.peek(key);
    if (!s) return;
    // lru-cache keeps an entry's size when the same value is set again: take it out first.
    this.schemas.delete(key!);
    this.schemas.set(key!, s, { size: Math.max(1, schemaWeight(s)) });
  }

  /** Runs one request; answers the full response text. GraphQL errors are answers, not exceptions. */
  execute(req: GraphQLRequest, session: Session, ctx?: RequestContext): Promise<string> {
    // One catch on the request's promise rather than an async function awaiting it.
    try {
      return this.forSession(session).run(req, session, ctx).catch(errorAnswerText);
    } catch (e) {
      return Promise.reject(e).catch(errorAnswerText);
    }
  }

  /**
   * Runs one request of the Relay API (POST /v1beta1/relay): rewritten onto the role's schema
   * (runtime/graphql/relay.ts), run as any request, its answer reshaped.
   */
  async executeRelay(req: GraphQLRequest, session: Session, ctx?: RequestContext): Promise<string> {
    try {
      return await this.executeRelayOrThrow(req, session, ctx);
    } catch (e) {
      if (e instanceof ApiError) return JSON.stringify({ errors: [graphqlErrorBody(e)] });
      throw e;
    }
  }

  /** Runs one request of the Relay API; a request that fails as a whole throws its ApiError (a WebSocket's `error` message). */
  async executeRelayOrThrow(req: GraphQLRequest, session: Session, ctx?: RequestContext): Promise<string> {
    const engine = this.relayEngineFor(session.role);
    this.checkRelay(req, session, ctx);
    // Rewritten against the role's own permissions (the variant only makes keys readable to the rewrite).
    const { request, shape, introspection } = rewriteRelay(this.opts.model, session.role, req);
    const values = introspection ? this.relayIntrospection(introspection, req, session) : {};
    return reshapeRelay(request ? await engine.run(request, session, ctx) : '{"data":{}}', shape, values);
  }

  /**
   * A Relay subscription (over WebSocket) as a subscription of its rewrite on the role's Relay
   * variant engine, and the reshaping of each result; throws the request's refusal.
   */
  relaySubscription(req: GraphQLRequest, session: Session): { engine: Engine; request: GraphQLRequest; reshape: (text: string) => string } {
    this.checkRelay(req, session);
    const { request, shape } = rewriteRelay(this.opts.model, session.role, req);
    if (!request) throw new ApiError('not-supported', 'a subscription of introspection or __typename alone is not supported on the Relay API', 400, []);
    return { engine: this.relayEngineFor(session.role), request, reshape: (text) => reshapeRelay(text, shape) };
  }

  // Per role, an engine on the Relay variant of its model and schema (relayVariant), made on first use.
  // Bounded as the schemas are: each holds the role's Relay variant schema and plans.
  private readonly relayEngines: LRUCache<string, Engine>;
  // Relay schemas by role, made when a role first introspects the Relay API and weighed by their
  // SDL as the ordinary schemas are (a Node interface makes them whole, not lazy).
  private readonly relaySchemas: LRUCache<string, GraphQLSchema>;

  // The whole SDL text of a role's ordinary schema (a bundle's file read), without remote schemas.
  private roleSdlText(role: string): string {
    const file = this.opts.sdlFiles?.[role];
    return file !== undefined ? this.sdlSourceOf(file).text() : this.opts.sdl[role] ?? EMPTY_ROLE_SDL;
  }

  /** The role's Relay schema (relay-schema.ts): built on first use, kept while the cache holds it. */
  relaySchemaFor(role: string): GraphQLSchema {
    let s = this.relaySchemas.get(role);
    if (!s) {
      s = lazySchema(sdlFromText(print(relaySchemaSdl(this.opts.model, role, this.roleSdlText(role)))), undefined, hasuraDirectives);
      this.relaySchemas.set(role, s, { size: Math.max(1, schemaWeight(s)) });
    }
    return s;
  }

  // Relay requests found valid on a role's Relay schema: (query text) -> (role, operation name) seen.
  private readonly relayChecked = new LRUCache<string, Set<string>>({ max: 1000 });

  // A Relay request is parsed on the role's Relay schema, as Hasura's parsers read it: a field, an
  // argument or a selection the Relay schema does not have is refused with its error and path
  // there (the rewrite onto the ordinary schema would word them on its own fields); a
  // subscription over HTTP is refused after, as on /v1/graphql.
  private checkRelay(req: GraphQLRequest, session: Session, ctx?: RequestContext): void {
    const key = `${session.role}\u0000${req.operationName ?? ''}`;
    const seen = this.relayChecked.get(req.query);
    if (seen?.has(key)) return;
    let document: DocumentNode;
    try { document = parse(req.query); } catch { return; }
    const prepared = prepareOperation(this.relaySchemaFor(session.role), document, req.operationName ?? null);
    if (ctx?.overHttp && prepared.operation.operation === 'subscription') {
      throw new ApiError('unexpected-payload', 'subscriptions are not supported over HTTP, use websockets instead', 400, []);
    }
    if (seen) seen.add(key);
    else this.relayChecked.set(req.query, new Set([key]));
  }

  // The values of a Relay request's `__schema` and `__type` fields, read from the role's Relay
  // schema under the role's introspection option and limits, as on the ordinary schema.
  private relayIntrospection(document: DocumentNode, req: GraphQLRequest, session: Session): { [key: string]: unknown } {
    const schema = this.relaySchemaFor(session.role);
    const prepared = this.limited(prepareOperation(schema, document, req.operationName ?? null), session);
    const result = execute({ schema, document: prepared.document, operationName: req.operationName ?? undefined,
      variableValues: (req.variables ?? {}) as Record<string, unknown>, rootValue: {}, fieldResolver: () => null });
    if ('then' in result) throw new Error('assertion failed: introspection is synchronous');
    if (result.errors?.length) throw new ApiError('validation-failed', result.errors[0]!.message, 400, []);
    return (result.data ?? {}) as { [key: string]: unknown };
  }

  private relayEngineFor(role: string): Engine {
    let e = this.relayEngines.get(role);
    if (!e) {
      // A bundle keeps each role's SDL in a file: the variant is made from its text, and served from
      // that text (not from the file, which lacks the keys the variant adds).
      const v = relayVariant(this.opts.model, { [role]: this.roleSdlText(role) }, role);
      e = v ? new Engine({ ...this.opts, model: v.model, sdl: { [role]: v.sdl }, sdlKey: undefined, sdlFiles: undefined, planCacheSize: 200, schemaCacheSize: 1 }) : this;
      this.relayEngines.set(role, e);
    }
    return e;
  }

  // Per role with backend_only permissions, an engine on the model and schema a trusted backend
  // request sees (runtime/bundle/backend-only.ts), made on first use: its own schema and plan
  // cache, so a plan made for one variant never serves the other.
  private readonly backendOnlyEngines = new Map<string, Engine>();

  /** This engine, or the role's backend-only variant when the session may use it (Session.backendOnly). */
  private forSession(session: Session): Engine {
    if (session.backendOnly !== true) return this;
    let e = this.backendOnlyEngines.get(session.role);
    if (!e) {
      const model = backendOnlyModel(this.opts.model, session.role);
      const sdl = this.opts.model.backendOnlySdl?.[session.role];
      e = model && sdl !== undefined
        ? new Engine({ ...this.opts, model, sdl: { [session.role]: sdl }, sdlKey: undefined, sdlFiles: undefined, planCacheSize: 200, schemaCacheSize: 1 })
        : this;
      this.backendOnlyEngines.set(session.role, e);
    }
    return e;
  }

  /** Runs one request; a request that fails as a whole throws its ApiError (for /v1alpha1/graphql's statuses). */
  executeOrThrow(req: GraphQLRequest, session: Session, ctx?: RequestContext): Promise<string> {
    return this.forSession(session).run(req, session, ctx);
  }

  /** Plans a request without running it: the SQL text and parameter slots (for `inspect --query` and explain). */
  plan(req: GraphQLRequest, session: Session): Plan {
    const trusted = this.forSession(session);
    if (trusted !== this) return trusted.plan(req, session);
    const prepared = this.prepare(req, session.role);
    const variables = this.coerce(prepared, req, session.role);
    const plan = this.planFor(prepared, variables, session.role);
    if (plan.kind !== 'mutation') return plan;
    // A mutation shows as its statements in order (each answers `<failed guard>:<json>`).
    const statementsOf = (f: MutationFieldPlan): readonly NamedSql[] => (f.kind === 'sql' ? f.statements : f.kind === 'group' ? f.fields.flatMap(statementsOf) : []);
    const parts = plan.fields.flatMap(statementsOf).flatMap((s) => (s.output ? [s, s.output] : [s]))
      .map((s): SqlPlan => ({ kind: 'sql', source: plan.source, sql: s.sql, name: s.name, valueSensitive: false }));
    return parts.length === 1 ? parts[0]! : { kind: 'multi', parts, keys: plan.fields.map((f) => f.key) };
  }

  /**
   * The handler calls and relationship SQL of a request's action fields (kiln inspect --query),
   * or null when it selects no action.
   */
  describeActions(req: GraphQLRequest, session: Session): string | null {
    const prepared = this.prepare(req, session.role);
    if (!this.opts.actions?.claims(prepared, session.role)) return null;
    const variables = this.coerce(prepared, req, session.role);
    return this.opts.actions.describe({ prepared, variables, request: req, session, schema: this.schemaFor(session.role), dialect: this.dialect() });
  }

  /**
   * Plans a subscription (or the query a stream subscription is rewritten to, with its `cursor`)
   * as a LiveQuery (runtime/graphql/live.ts) and renders it for multiplexing. Answers the plan,
   * the coerced variables and the driver of each source; null for a mutation.
   */
  planSubscription(req: GraphQLRequest, session: Session, admitted = false, cursor: StreamCursor | null = null): SubscriptionPlan | null {
    const p = this.limited(this.preparedFor(req, session, admitted), session);
    if (p.operation.operation === 'mutation') return null;
    const variables = this.coerce(p, req, session.role);
    const plan = planLiveQuery({ model: this.opts.model, schema: this.schemaFor(session.role), role: session.role, dialect: this.dialect(), dialectOf: this.dialectOf,
      stringifyNumeric: this.opts.stringifyNumeric ?? false, document: p.document, operation: p.operation, variables, structural: new Set() }, cursor);
    // Every poll runs as the role would run the query: under its time limit (Hasura's time_limit),
    // so a slow poll is cancelled instead of holding a pooled connection.
    return { plan, variables, driverFor: (source) => this.driverAs(source, session.role, true) };
  }

  /** True when a subscription selects an asynchronous action's result (runtime/subscriptions polls it). */
  pollsSubscription(req: GraphQLRequest, session: Session): boolean {
    const p = this.preparedFor(req, session, true);
    return p.operation.operation === 'subscription' && this.opts.actions?.claims(p, session.role) === true;
  }

  /** Explains a request as the session would run it (POST /v1/graphql/explain): SQL and PostgreSQL's plan. */
  async explain(req: GraphQLRequest, session: Session): Promise<Explanation> {
    const trusted = this.forSession(session);
    if (trusted !== this) return trusted.explain(req, session);
    const p = this.prepare(req, session.role);
    return explainOperation({ model: this.opts.model, schema: this.schemaFor(session.role), role: session.role,
      dialect: this.dialect(), dialectOf: this.dialectOf, stringifyNumeric: this.opts.stringifyNumeric ?? false,
      document: p.document, operation: p.operation, variables: this.coerce(p, req, session.role), structural: new Set() }, session, this.opts.readerFor ?? this.opts.driverFor);
  }

  /** The model this engine serves. */
  get model(): BundleModel {
    return this.opts.model;
  }

  private run(req: GraphQLRequest, session: Session, ctx?: RequestContext): Promise<string> {
    return this.runPrepared(this.limited(this.preparedFor(req, session), session), req, session, ctx);
  }

  /**
   * Counts a request's operations against the session's rate limit and its batch against the
   * batch limit (HTTP: once per request, `operations` its elements; WebSocket: once per start).
   * Throws the refusal: 429 `too-many-requests`, or `validation-failed` for the batch.
   */
  admitRequest(session: Session, client: ClientInfo, operations: number, batched = false): void {
    this.limits.admit(session, client, operations, batched);
  }

  /**
   * The checks made before planning, alone: the allow-list, the server's caps, the role's API
   * limits and introspection option (a subscription checks the document it was sent before it
   * is rewritten).
   */
  checkLimits(req: GraphQLRequest, session: Session): void {
    this.limited(this.preparedFor(req, session), session);
  }

  /** The variable values checked against the document as sent (coerced and dropped): a stream's, before its rewrite runs. */
  checkVariables(req: GraphQLRequest, session: Session): void {
    this.coerce(this.preparedFor(req, session, true), req, session.role);
  }

  // A prepared operation checked against the caps, the role's depth and node limits and introspection option.
  private limited(p: Prepared, session: Session): Prepared {
    return this.limits.check(p, session);
  }

  // The driver of a source as the role runs it (under its time limit when it has one).
  private driverAs(source: string, role: string, read = false): Driver {
    return this.limits.driver((read && this.opts.readerFor ? this.opts.readerFor : this.opts.driverFor)(source), role);
  }

  // Not an async function: the common request's promise is its statement's, with nothing wrapped
  // around it; what throws before that is answered as a rejected promise all the same.
  private runPrepared(prepared: Prepared, req: GraphQLRequest, session: Session, ctx?: RequestContext): Promise<string> {
    try {
      return this.runPreparedNow(prepared, req, session, ctx);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private runPreparedNow(prepared: Prepared, req: GraphQLRequest, session: Session, ctx?: RequestContext): Promise<string> {
    const variables = this.coerce(prepared, req, session.role);
    // Hasura validates a subscription sent over HTTP (its document, its variables), then refuses to
    // run it there (Transport/HTTP.hs, runGQ: SubscriptionExecutionPlan).
    if (ctx?.overHttp && prepared.operation.operation === 'subscription') {
      throw new ApiError('unexpected-payload', 'subscriptions are not supported over HTTP, use websockets instead', 400, []);
    }
    const actions = this.opts.actions;
    if (actions?.claims(prepared, session.role)) {
      return actions.run({ prepared, variables, request: req, session, headers: ctx?.headers ?? {}, responseCookies: ctx?.responseCookies, schema: this.schemaFor(session.role), dialect: this.dialect(),
        readerFor: (source) => this.driverAs(source, session.role, true), runOthers: (p) => this.runPrepared(p, req, session, ctx) });
    }
    // Remote schema root fields: the rest runs as below, the remote calls beside it (remote-run.ts).
    const split = this.opts.remote ? splitFor(prepared, this.opts.remote, session.role) : null;
    if (split) {
      const headers = ctx?.headers ?? null;
      return runWithRemotes(split, variables, session, headers, req.operationName ?? null,
        (local) => this.runPlanned(local, variables, session, headers),
        { model: this.opts.model, remote: this.opts.remote, document: prepared.document, operation: prepared.operation, variables, session, headers,
          runQuery: (query, vars) => this.runInternal(query, vars, session, headers) },
        // A remote's Set-Cookie reaches the client over HTTP, as Hasura's runRemoteGQ keeps it (mkSetCookieHeaders).
        ctx?.responseCookies).catch((e: unknown) => {
          // A remote that cannot be reached: the admin sees Hasura's HttpException JSON under
          // `internal` (execRemoteGQ's throwRemoteSchemaHttp), as for a remote join's errors.
          if (!(e instanceof ApiError) || e.code !== 'remote-schema-error' || e.internal === undefined || session.role !== 'admin') throw e;
          const body = graphqlErrorBody(e);
          return JSON.stringify({ errors: [{ ...body, extensions: { ...body.extensions, internal: e.internal } }] });
        });
    }
    return this.runPlanned(prepared, variables, session, ctx?.headers ?? null);
  }

  private runPlanned(prepared: Prepared, variables: { readonly [k: string]: unknown }, session: Session, headers: ClientHeaders | null = null): Promise<string> {
    try {
      // A mutation writing several sources runs field by field (mutationFieldsBySource); looked for
      // only in operations whose root fields name several sources (decided once per operation and
      // role), so a one-source mutation, and each field's own operation, costs nothing more.
      if (prepared.operation.operation === 'mutation' && this.opts.model.sources.length > 1 && this.spansSources(prepared, session.role)) {
        const fields = mutationFieldsBySource({ model: this.opts.model, role: session.role, dialect: this.dialect(), stringifyNumeric: this.opts.stringifyNumeric ?? false,
          document: prepared.document, operation: prepared.operation, variables });
        if (fields) return this.runFieldByField(prepared, fields, variables, session, headers);
      }
      const plan = this.planFor(prepared, variables, session.role);
      // The common answer, one statement's JSON under "data": its promise and one then, no async
      // function's promise and awaits around them.
      if (plan.kind === 'sql' && !plan.joins) return this.runPart(plan, variables, session).then(underData);
      if (plan.kind === 'mutation' && !plan.joins) return runMutation(plan, this.driverAs(plan.source, session.role), variables, session).then(underData);
      return this.runPlan(prepared, plan, variables, session, headers);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private async runPlan(prepared: Prepared, plan: Plan | MutationPlan, variables: { readonly [k: string]: unknown }, session: Session, headers: ClientHeaders | null): Promise<string> {
    if (plan.kind === 'static') return plan.body;
    if (plan.kind === 'mutation' && !plan.joins) return `{"data":${await runMutation(plan, this.driverAs(plan.source, session.role), variables, session)}}`;
    const joins = plan.kind === 'mutation' ? plan.joins : plan.kind === 'sql' ? plan.joins : plan.parts[0]?.joins;
    if (plan.kind === 'sql' && !joins) return `{"data":${await this.runPart(plan, variables, session)}}`;
    let data: Record<string, unknown>;
    if (plan.kind === 'mutation') data = JSON.parse(await runMutation(plan, this.driverAs(plan.source, session.role), variables, session)) as Record<string, unknown>;
    else if (plan.kind === 'sql') data = JSON.parse(await this.runPart(plan, variables, session)) as Record<string, unknown>;
    else {
      // Several sources: their statements run at once; the objects are merged in field order.
      const texts = await Promise.all(plan.parts.map((part) => this.runPart(part, variables, session)));
      const values: Record<string, unknown> = Object.assign({}, ...texts.map((t) => JSON.parse(t) as object));
      data = Object.fromEntries(plan.keys.map((k) => [k, values[k]]));
    }
    if (!joins) return `{"data":${JSON.stringify(data)}}`;
    // Remote relationships: their placeholders replaced, one request per relationship field (remote-joins.ts).
    let errors: unknown[];
    try {
      errors = await resolveJoins(data, joins, { model: this.opts.model, remote: this.opts.remote, document: prepared.document,
        operation: prepared.operation, variables, session, headers, runQuery: (query, vars) => this.runInternal(query, vars, session, headers) });
    } catch (e) {
      // A remote's errors fail the request; the admin sees them under `internal` (Hasura's default for admin).
      if (!(e instanceof ApiError) || e.message !== REMOTE_JOIN_ERRORS) throw e;
      const body = graphqlErrorBody(e);
      return JSON.stringify({ errors: [{ ...body, extensions: { ...body.extensions, ...(session.role === 'admin' ? { internal: e.internal } : {}) } }] });
    }
    return JSON.stringify(errors.length > 0 ? { data, errors } : { data });
  }

  private spansSources(prepared: Prepared, role: string): boolean {
    let byRole = spanning.get(prepared);
    if (!byRole) spanning.set(prepared, (byRole = new Map()));
    let spans = byRole.get(role);
    if (spans === undefined) byRole.set(role, (spans = mayWriteSeveralSources(this.opts.model, role, prepared.document, prepared.operation)));
    return spans;
  }

  // Each root field of a mutation in order, as an operation of its own (its own transaction on its
  // source); the first answer with errors is the whole answer. The data objects are joined as text
  // (numbers keep every digit). Each field's operation is kept with the operation, so its plans are
  // cached as any other's.
  private async runFieldByField(prepared: Prepared, fields: readonly FieldSel[], variables: { readonly [k: string]: unknown }, session: Session,
    headers: ClientHeaders | null): Promise<string> {
    let parts = fieldOperations.get(prepared);
    if (!parts) fieldOperations.set(prepared, (parts = new Map()));
    const members: string[] = [];
    for (const f of fields) {
      if (f.name === '__typename') { members.push(`${JSON.stringify(f.key)}:"mutation_root"`); continue; }
      let one = parts.get(f.node);
      if (!one) parts.set(f.node, (one = onlyFields(prepared, [f])));
      const text = await this.runPlanned(one, variables, session, headers);
      const answer = JSON.parse(text) as { errors?: unknown };
      if (answer.errors !== undefined || !text.startsWith('{"data":{')) return text;
      const inner = text.slice('{"data":{'.length, -2).trim();
      if (inner !== '') members.push(inner);
    }
    return `{"data":{${members.join(',')}}}`;
  }

  // A query the engine makes itself (a remote relationship to another source): the role's schema
  // and permissions, no allow-list or request limits; answers its data or throws its error.
  private async runInternal(query: string, variables: { readonly [k: string]: unknown }, session: Session, headers: ClientHeaders | null): Promise<Record<string, unknown>> {
    const req: GraphQLRequest = { query, variables, operationName: null };
    const prepared = this.prepare(req, session.role);
    const text = await this.runPlanned(prepared, this.coerce(prepared, req, session.role), session, headers);
    const body = JSON.parse(text) as { data?: Record<string, unknown>; errors?: unknown[] };
    if (body.errors?.length) {
      const first = body.errors[0] as { message?: string };
      throw new ApiError('unexpected', first.message ?? 'a remote relationship query failed', 400, []);
    }
    return body.data ?? {};
  }

  private runPart(plan: SqlPlan, variables: { readonly [k: string]: unknown }, session: Session): Promise<string> {
    const values = bindParams(plan.sql.params, variables, session);
    const driver = this.driverAs(plan.source, session.role, true);
    if (plan.typedRows) return typedRowsText(driver, plan.sql.text, values, plan.typedRows);
    return driver.queryText(plan.sql.text, values, plan.name, plan.valueSensitive, SENT_ALONE);
  }

  // The allow-list check, then the stored query's prepared operation when the text is one (no
  // parse: found by its exact text), else the cache's.
  private preparedFor(req: GraphQLRequest, session: Session, admitted = false): Prepared {
    const entry = admitted ? this.stored.byText(req.query) : this.admit(req, session);
    const op = req.operationName ?? null;
    const ready = entry && (op === null || op === entry.operationName) ? entry.prepared.get(session.role) : undefined;
    return ready ?? this.prepare(req, session.role);
  }

  /**
   * Throws Hasura's "query is not allowed" when the allow-list is on and no collection that admits
   * the role holds this document; gives the stored query the text is, if any.
   */
  private admit(req: GraphQLRequest, session: Session): StoredEntry | undefined {
    let entry: StoredEntry | undefined = this.stored.byText(req.query);
    if (!this.enforcesAllowlist(session)) return entry;
    let sha256 = entry?.query.sha256;
    if (!entry) {
      const key = this.keyOf(req.query);
      if (key === false) throw new ApiError('validation-failed', 'not a valid graphql query', 400, ['query']);
      sha256 = key.sha256;
      entry = this.stored.byShape(key.shape);
    }
    if (!sha256 || !this.stored.admits(sha256, session.role)) throw notAllowed();
    return entry;
  }

  /** The allow-list check alone (a subscription checks the document as sent, before rewriting it). */
  checkAllowed(req: GraphQLRequest, session: Session): void {
    this.admit(req, session);
  }

  private keyOf(text: string): QueryKey | false {
    let key = this.keys.get(text);
    if (key === undefined) {
      this.counts.parses++;
      key = queryKey(text) ?? false;
      this.keys.set(text, key);
    }
    return key;
  }

  private enforcesAllowlist(session: Session): boolean {
    return this.opts.allowlist === true && session.role !== 'admin';
  }

  /** The SQL dialect of a source: each root field is planned and printed in its own source's. */
  private readonly dialectOf = (source: string): Dialect => this.opts.driverFor(source).dialect;

  /** The first source's SQL dialect (what plans that read no table, and actions' relationships, are printed in). */
  private dialect(): Dialect {
    return this.opts.driverFor(this.opts.model.sources[0]?.name ?? 'default').dialect;
  }

  private dialectOrNull(): Dialect | null {
    try {
      return this.dialect();
    } catch {
      return null;
    }
  }

  private prepare(req: GraphQLRequest, role: string): Prepared {
    const inner = `${role}\u0000${req.operationName ?? ''}`;
    const byText = this.cache.get(req.query);
    const hit = byText?.get(inner);
    if (hit) {
      this.counts.planCacheHits++;
      return hit;
    }
    let document: DocumentNode;
    this.counts.parses++;
    const traced = stepStart(); // 0 unless a traced request is served
    try {
      document = parse(req.query);
    } catch {
      throw new ApiError('validation-failed', 'not a valid graphql query', 400, ['query']);
    }
    // Measured before Hasura's checks and validation, which walk fragments where they are spread:
    // a document over the caps is refused in time linear in its text.
    const cost = this.limits.measure(document, pickOperation(document, req.operationName ?? null));
    this.counts.validations++;
    this.refuseQueryRootsInSubscription(document, req.operationName ?? null, role);
    const prepared = prepareOperation(this.schemaFor(role), document, req.operationName ?? null);
    this.reweigh(role);
    this.limits.remember(prepared, cost);
    // The cached document keeps no source locations: each holds the parser's list of every token
    // of the text (about half a cached plan's heap), and nothing reads them after preparing.
    dropLocations(prepared.document);
    dropLocations(prepared.operation);
    if (byText && byText.size < MAX_PREPARED_PER_TEXT) byText.set(inner, prepared);
    else if (!byText) this.cache.set(req.query, new Map([[inner, prepared]]));
    stepEnd('graphql.parse', traced);
    return prepared;
  }

  // Hasura (March 2022) parses a subscription with its query parser (Execute.hs, "Parse as query
  // to check correctness"), then buildSubscriptionPlan refuses, in order, the root fields a live
  // query cannot run: a remote schema's field, a query action, introspection. Kiln's
  // subscription_root lacks the first two; a subscription naming one is validated as the query
  // it parses as, then refused with Hasura's words (even when the role has no subscription_root).
  private refuseQueryRootsInSubscription(document: DocumentNode, operationName: string | null, role: string): void {
    const op = pickOperation(document, operationName);
    if (op.operation !== 'subscription') return;
    const schema = this.schemaFor(role);
    const subscription = schema.getSubscriptionType()?.getFields() ?? {};
    const query = schema.getQueryType()?.getFields() ?? {};
    const names = rootFieldNames(document, op.selectionSet);
    if (!names.some((n) => !subscription[n] && query[n])) return;
    const asQuery = { ...document, definitions: document.definitions.map((d) => (d === op ? { ...op, operation: OperationTypeNode.QUERY } : d)) };
    prepareOperation(schema, asQuery, operationName);
    for (const n of names) {
      if (subscription[n]) continue;
      refuseSubscriptionIntrospection(n);
      if (this.opts.remote?.owner(role, 'query', n)) throw new ApiError('not-supported', 'subscription to remote server is not supported', 400, []);
      // A query field that is no table or function root of the role (those may be left out of
      // subscription_root by a permission's subscription_root_fields) is a query action's.
      if (query[n] && this.opts.model.roots[role]?.query[n] === undefined) {
        throw new ApiError('not-supported', 'query actions cannot be run as a subscription', 400, []);
      }
    }
  }

  // Hasura's order: a missing non-null variable, then values sent for variables the operation
  // does not use, then each value parsed at its first use (variable-values.ts).
  private coerce(p: Prepared, req: GraphQLRequest, role: string): { readonly [k: string]: unknown } {
    const defs = p.operation.variableDefinitions ?? [];
    const use = { usages: p.sites.usages, used: p.used, builtIns: p.sites.builtIns };
    if (defs.length === 0) {
      checkUnexpectedVariables(req.variables, use);
      return {};
    }
    const schema = this.schemaFor(role);
    let quick = this.quickChecks.get(p);
    if (quick === undefined || quick.schema !== schema) {
      quick = { schema, check: quickVariables(schema, defs, use, p.sites.limits) };
      this.quickChecks.set(p, quick);
    }
    const vouched = quick.check?.(req.variables);
    if (vouched !== undefined) return vouched;
    for (const def of defs) {
      if (def.type.kind !== Kind.NON_NULL_TYPE || def.defaultValue !== undefined) continue;
      const name = def.variable.name.value;
      if (req.variables?.[name] === undefined) throw new ApiError('validation-failed', `expecting a value for non-nullable variable: "${name}"`, 400, []);
    }
    checkUnexpectedVariables(req.variables, use);
    // A null for a non-null variable is reported at its use site, in Hasura's words.
    for (const def of defs) {
      if (def.type.kind !== Kind.NON_NULL_TYPE || def.defaultValue !== undefined) continue;
      const name = def.variable.name.value;
      if (req.variables?.[name] === null) throw new ApiError('validation-failed', `unexpected null value for type "${print(def.type.type)}"`, 400, p.sites.usages.get(name) ?? ['variableValues', name]);
    }
    for (const [name, path] of p.sites.limits) {
      const def = defs.find((d) => d.variable.name.value === name);
      // A default stands in for a variable not sent, unchecked until here (Hasura's buildVariable).
      if (req.variables?.[name] === undefined && def?.defaultValue !== undefined) checkLimit(def.defaultValue, [...path]);
      else checkLimitValue(req.variables?.[name], path);
    }
    // Hasura takes an explicit null for a non-null variable with a default as null (graphql-js
    // refuses it): coerce without it, then put the null back (corpus: graphql_validation/null_variable_value).
    const sent = (req.variables ?? {}) as Record<string, unknown>;
    const nulled = defs.filter((d) => d.type.kind === Kind.NON_NULL_TYPE && d.defaultValue !== undefined && sent[d.variable.name.value] === null)
      .map((d) => d.variable.name.value);
    const given = nulled.length === 0 ? sent : Object.fromEntries(Object.entries(sent).filter(([k]) => !nulled.includes(k)));
    const coerced = coerceVariables(schema, defs, given, use);
    for (const name of nulled) coerced[name] = null;
    // A variable that is null, or not sent and without a default, where the field takes no null
    // (`_eq: $id`): Hasura hands the null to the field's parser, which refuses it there.
    for (const [name, site] of p.sites.nullRefused) {
      if (coerced[name] === null || coerced[name] === undefined) throw nullError(site.type, site.path, site.column);
    }
    return coerced;
  }

  private planFor(p: Prepared, variables: { readonly [k: string]: unknown }, role: string): Plan | MutationPlan {
    const sig = planSignature(p, variables);
    let plan = p.plans.get(sig);
    if (!plan) {
      this.counts.plans++;
      const traced = stepStart(); // 0 unless a traced request is served
      plan = (p.operation.operation === 'mutation' ? planMutation : planOperation)({ model: this.opts.model, schema: this.schemaFor(role), role, dialect: this.dialect(), dialectOf: this.dialectOf,
        stringifyNumeric: this.opts.stringifyNumeric ?? false, document: p.document, operation: p.operation, variables, structural: p.structural });
      if (p.plans.size > 64) p.plans.clear();
      p.plans.set(planSignature(p, variables), plan);
      this.reweigh(role);
      stepEnd('graphql.plan', traced);
    }
    return plan;
  }
}

// Clears `loc` on every node of a syntax tree (set to undefined, not deleted: the nodes keep their shape).
function dropLocations(root: object): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const x of node) stack.push(x);
      continue;
    }
    const n = node as { loc?: unknown; [k: string]: unknown };
    if (n.loc === undefined && !('kind' in n)) continue;
    if (n.loc !== undefined) n.loc = undefined;
    for (const k of Object.keys(n)) if (k !== 'loc') stack.push(n[k]);
  }
}

// The (role, operation) pairs kept for one query text: far more than a text is used with in practice.
const MAX_PREPARED_PER_TEXT = 64;

// A query text's weight in the plan cache: its text stands for the documents and the plans made
// from it (each several times the text's size), for each role that prepared it.
function preparedSize(byRole: Map<string, Prepared>, text: string): number {
  return (text.length * 8 + 2048) * Math.max(1, byRole.size) + 1;
}

/** Hasura's answer to a document no allow-listed collection admits for the role. */
function notAllowed(): ApiError {
  return new ApiError('validation-failed', 'query is not allowed', 400, []);
}

/** The names of an operation's root fields in order, through inline fragments and fragment spreads. */
function rootFieldNames(document: DocumentNode, set: SelectionSetNode, seen: Set<string> = new Set()): string[] {
  const out: string[] = [];
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) out.push(sel.name.value);
    else if (sel.kind === Kind.INLINE_FRAGMENT) out.push(...rootFieldNames(document, sel.selectionSet, seen));
    else if (!seen.has(sel.name.value)) {
      seen.add(sel.name.value);
      const frag = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === sel.name.value);
      if (frag?.kind === Kind.FRAGMENT_DEFINITION) out.push(...rootFieldNames(document, frag.selectionSet, seen));
    }
  }
  return out;
}
