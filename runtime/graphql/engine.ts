import { Kind, buildSchema, getVariableValues, parse, print, type DocumentNode, type GraphQLSchema } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { BundleModel, PersistedQueryModel, RestEndpointModel } from '../bundle/index.js';
import { ApiError, graphqlErrorBody } from '../errors/index.js';
import type { Driver } from '../drivers/index.js';
import type { Dialect } from '../sql/index.js';
import { bindParams } from './bind.js';
import { checkLimitValue, checkScalarVariable } from './check.js';
import { planOperation, type Plan, type SqlPlan } from './plan.js';
import { planMutation, type MutationFieldPlan, type MutationPlan, type NamedSql } from './mutation-plan.js';
import { runMutation } from './mutation-run.js';
import { queryKey, type QueryKey } from './persisted.js';
import { StoredIndex, type StoredEntry } from './persisted-index.js';
import { planSignature, prepareOperation, type Prepared } from './prepare.js';
import { explainOperation, type Explanation } from './explain.js';
import type { GraphQLRequest, Session } from '../bundle/index.js';

/** A subscription planned for multiplexing: the plan, its coerced variables, the drivers to run it on. */
export interface SubscriptionPlan {
  readonly plan: Plan;
  readonly variables: { readonly [k: string]: unknown };
  readonly driverFor: (source: string) => Driver;
}

export interface EngineOptions {
  readonly model: BundleModel;
  /** SDL of each role's schema, as the bundle stores it. */
  readonly sdl: { readonly [role: string]: string };
  readonly driverFor: (source: string) => Driver;
  readonly stringifyNumeric?: boolean;
  readonly planCacheSize?: number;
  /**
   * SVC_GRAPHQL_ENABLE_ALLOWLIST: a non-admin role may run only documents of an allow-listed
   * collection whose scope includes it (reference/endpoints.md "Allow-list").
   */
  readonly allowlist?: boolean;
}

/** Request-time work since the engine was made: parses, validations and plans (what caches and stored plans save). */
export interface EngineStats {
  readonly parses: number;
  readonly validations: number;
  readonly plans: number;
}

const EMPTY_ROLE_SDL = 'type query_root { no_queries_available: String! } schema { query: query_root }';

/** Serves GraphQL requests from a bundle: parse and plan once per (role, query, operation), then bind and run. */
export class Engine {
  private readonly schemas = new Map<string, GraphQLSchema>();
  private readonly cache: LRUCache<string, Prepared>;
  // Query text -> its allow-list key (false: it does not parse); parsed once per text.
  private readonly keys: LRUCache<string, QueryKey | false>;
  private readonly stored: StoredIndex;
  private readonly counts = { parses: 0, validations: 0, plans: 0 };

  constructor(private readonly opts: EngineOptions) {
    this.cache = new LRUCache({ max: opts.planCacheSize ?? 2000 });
    this.keys = new LRUCache({ max: opts.planCacheSize ?? 2000 });
    this.stored = new StoredIndex({ model: opts.model, schemaFor: (role) => this.schemaFor(role), dialect: this.dialectOrNull(),
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
    return this.runPrepared(entry.prepared.get(session.role) ?? this.prepare(req, session.role), req, session);
  }

  /** The role's GraphQL schema (built from the bundle's SDL on first use). */
  schemaFor(role: string): GraphQLSchema {
    let s = this.schemas.get(role);
    if (!s) {
      s = buildSchema(this.opts.sdl[role] ?? EMPTY_ROLE_SDL);
      this.schemas.set(role, s);
    }
    return s;
  }

  /** Runs one request; answers the full response text. GraphQL errors are answers, not exceptions. */
  async execute(req: GraphQLRequest, session: Session): Promise<string> {
    try {
      return await this.run(req, session);
    } catch (e) {
      if (e instanceof ApiError) return JSON.stringify({ errors: [graphqlErrorBody(e)] });
      throw e;
    }
  }

  /** Runs one request; a request that fails as a whole throws its ApiError (for /v1alpha1/graphql's statuses). */
  executeOrThrow(req: GraphQLRequest, session: Session): Promise<string> {
    return this.run(req, session);
  }

  /** Plans a request without running it: the SQL text and parameter slots (for `inspect --query` and explain). */
  plan(req: GraphQLRequest, session: Session): Plan {
    const prepared = this.prepare(req, session.role);
    const variables = this.coerce(prepared, req, session.role);
    const plan = this.planFor(prepared, variables, session.role);
    if (plan.kind !== 'mutation') return plan;
    // A mutation shows as its statements in order (each answers `<failed guard>:<json>`).
    const statementsOf = (f: MutationFieldPlan): readonly NamedSql[] => (f.kind === 'sql' ? f.statements : f.kind === 'group' ? f.fields.flatMap(statementsOf) : []);
    const parts = plan.fields.flatMap(statementsOf)
      .map((s): SqlPlan => ({ kind: 'sql', source: plan.source, sql: s.sql, name: s.name, valueSensitive: false }));
    return parts.length === 1 ? parts[0]! : { kind: 'multi', parts, keys: plan.fields.map((f) => f.key) };
  }

  /**
   * Plans a subscription (or a query a stream subscription is rewritten to) for multiplexing
   * (runtime/subscriptions): its parameters are printed by the dialect `print` makes of the
   * engine's (runtime/sql multiplexDialect). Answers the plan, the coerced variables and the
   * driver of each source; null for a mutation.
   */
  planSubscription(req: GraphQLRequest, session: Session, print: (base: Dialect) => Dialect, admitted = false): SubscriptionPlan | null {
    const p = this.preparedFor(req, session, admitted);
    if (p.operation.operation === 'mutation') return null;
    const variables = this.coerce(p, req, session.role);
    const dialect = print(this.dialect());
    const plan = planOperation({ model: this.opts.model, schema: this.schemaFor(session.role), role: session.role, dialect,
      stringifyNumeric: this.opts.stringifyNumeric ?? false, document: p.document, operation: p.operation, variables, structural: new Set() });
    return { plan, variables, driverFor: this.opts.driverFor };
  }

  /** Explains a request as the session would run it (POST /v1/graphql/explain): SQL and PostgreSQL's plan. */
  async explain(req: GraphQLRequest, session: Session): Promise<Explanation> {
    const p = this.prepare(req, session.role);
    return explainOperation({ model: this.opts.model, schema: this.schemaFor(session.role), role: session.role,
      dialect: this.dialect(), stringifyNumeric: this.opts.stringifyNumeric ?? false,
      document: p.document, operation: p.operation, variables: this.coerce(p, req, session.role), structural: new Set() }, session, this.opts.driverFor);
  }

  /** The model this engine serves. */
  get model(): BundleModel {
    return this.opts.model;
  }

  private run(req: GraphQLRequest, session: Session): Promise<string> {
    return this.runPrepared(this.preparedFor(req, session), req, session);
  }

  private async runPrepared(prepared: Prepared, req: GraphQLRequest, session: Session): Promise<string> {
    const variables = this.coerce(prepared, req, session.role);
    const plan = this.planFor(prepared, variables, session.role);
    if (plan.kind === 'static') return plan.body;
    if (plan.kind === 'mutation') return `{"data":${await runMutation(plan, this.opts.driverFor(plan.source), variables, session)}}`;
    if (plan.kind === 'sql') return `{"data":${await this.runPart(plan, variables, session)}}`;
    // Several sources: their statements run at once; the objects are merged in field order.
    const texts = await Promise.all(plan.parts.map((part) => this.runPart(part, variables, session)));
    const values: Record<string, unknown> = Object.assign({}, ...texts.map((t) => JSON.parse(t) as object));
    return `{"data":${JSON.stringify(Object.fromEntries(plan.keys.map((k) => [k, values[k]])))}}`;
  }

  private runPart(plan: SqlPlan, variables: { readonly [k: string]: unknown }, session: Session): Promise<string> {
    const values = bindParams(plan.sql.params, variables, session);
    return this.opts.driverFor(plan.source).queryText(plan.sql.text, values, plan.name, plan.valueSensitive);
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

  /** The SQL dialect plans are printed in: the first source's (every source is PostgreSQL today). */
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
    const key = `${role}\u0000${req.operationName ?? ''}\u0000${req.query}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    let document: DocumentNode;
    this.counts.parses++;
    try {
      document = parse(req.query);
    } catch {
      throw new ApiError('validation-failed', 'not a valid graphql query', 400, ['query']);
    }
    this.counts.validations++;
    const prepared = prepareOperation(this.schemaFor(role), document, req.operationName ?? null);
    this.cache.set(key, prepared);
    return prepared;
  }

  private coerce(p: Prepared, req: GraphQLRequest, role: string): { readonly [k: string]: unknown } {
    const defs = p.operation.variableDefinitions ?? [];
    if (defs.length === 0) return {};
    // Hasura's wording for a missing or null non-null variable (the null one at its use site).
    for (const def of defs) {
      if (def.type.kind !== Kind.NON_NULL_TYPE || def.defaultValue !== undefined) continue;
      const name = def.variable.name.value;
      const given = req.variables?.[name];
      if (given === undefined) throw new ApiError('validation-failed', `expecting a value for non-nullable variable: "${name}"`, 400, []);
      if (given === null) throw new ApiError('validation-failed', `unexpected null value for type "${print(def.type.type)}"`, 400, p.sites.usages.get(name) ?? ['variableValues', name]);
    }
    for (const [name, path] of p.sites.limits) checkLimitValue(req.variables?.[name], path);
    for (const def of defs) {
      const name = def.variable.name.value;
      checkScalarVariable(def, req.variables?.[name], p.sites.usages.get(name) ?? ['variableValues', name]);
    }
    // Hasura takes an explicit null for a non-null variable with a default as null (graphql-js
    // refuses it): coerce without it, then put the null back (corpus: graphql_validation/null_variable_value).
    const sent = (req.variables ?? {}) as Record<string, unknown>;
    const nulled = defs.filter((d) => d.type.kind === Kind.NON_NULL_TYPE && d.defaultValue !== undefined && sent[d.variable.name.value] === null)
      .map((d) => d.variable.name.value);
    // Copied only in that rare case: the hot path hands the client's object to graphql-js as is.
    const given = nulled.length === 0 ? sent : Object.fromEntries(Object.entries(sent).filter(([k]) => !nulled.includes(k)));
    const result = getVariableValues(this.schemaFor(role), defs, given);
    if (result.errors) throw new ApiError('validation-failed', result.errors[0]!.message, 400, ['variableValues']);
    if (nulled.length === 0) return result.coerced;
    return { ...result.coerced, ...Object.fromEntries(nulled.map((name) => [name, null])) };
  }

  private planFor(p: Prepared, variables: { readonly [k: string]: unknown }, role: string): Plan | MutationPlan {
    const sig = planSignature(p, variables);
    let plan = p.plans.get(sig);
    if (!plan) {
      this.counts.plans++;
      plan = (p.operation.operation === 'mutation' ? planMutation : planOperation)({ model: this.opts.model, schema: this.schemaFor(role), role, dialect: this.dialect(),
        stringifyNumeric: this.opts.stringifyNumeric ?? false, document: p.document, operation: p.operation, variables, structural: p.structural });
      if (p.plans.size > 64) p.plans.clear();
      p.plans.set(planSignature(p, variables), plan);
    }
    return plan;
  }
}

/** Hasura's answer to a document no allow-listed collection admits for the role. */
function notAllowed(): ApiError {
  return new ApiError('validation-failed', 'query is not allowed', 400, []);
}
