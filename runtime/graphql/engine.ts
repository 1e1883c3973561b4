import { Kind, buildSchema, getVariableValues, parse, print, specifiedRules, validate, visit, type DocumentNode, type FragmentDefinitionNode,
  type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { BundleModel } from '../bundle/index.js';
import { ApiError, graphqlErrorBody } from '../errors/index.js';
import type { Driver } from '../drivers/index.js';
import type { Dialect } from '../sql/index.js';
import { bindParams } from './bind.js';
import { checkLimitValue, checkScalarVariable, hasuraChecks, type VariableSites } from './check.js';
import { planOperation, type Plan, type SqlPlan } from './plan.js';
import { planMutation, type MutationPlan } from './mutation-plan.js';
import { runMutation } from './mutation-run.js';
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
}

// One parsed, validated operation; plans keyed by the values of the variables that shaped them.
interface Prepared {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly structural: Set<string>;
  readonly plans: Map<string, Plan | MutationPlan>;
  readonly sites: VariableSites;
}

const EMPTY_ROLE_SDL = 'type query_root { no_queries_available: String! } schema { query: query_root }';

/** Serves GraphQL requests from a bundle: parse and plan once per (role, query, operation), then bind and run. */
export class Engine {
  private readonly schemas = new Map<string, GraphQLSchema>();
  private readonly cache: LRUCache<string, Prepared>;

  constructor(private readonly opts: EngineOptions) {
    this.cache = new LRUCache({ max: opts.planCacheSize ?? 2000 });
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
    const parts = plan.fields.flatMap((f) => (f.kind === 'sql' ? f.statements : []))
      .map((s): SqlPlan => ({ kind: 'sql', source: plan.source, sql: s.sql, name: s.name, customPlan: false }));
    return parts.length === 1 ? parts[0]! : { kind: 'multi', parts, keys: plan.fields.map((f) => f.key) };
  }

  /**
   * Plans a subscription (or a query a stream subscription is rewritten to) for multiplexing
   * (runtime/subscriptions): its parameters are printed by the dialect `print` makes of the
   * engine's (runtime/sql multiplexDialect). Answers the plan, the coerced variables and the
   * driver of each source; null for a mutation.
   */
  planSubscription(req: GraphQLRequest, session: Session, print: (base: Dialect) => Dialect): SubscriptionPlan | null {
    const p = this.prepare(req, session.role);
    if (p.operation.operation === 'mutation') return null;
    const variables = this.coerce(p, req, session.role);
    const dialect = print(this.opts.driverFor(this.opts.model.sources[0]?.name ?? 'default').dialect);
    const plan = planOperation({ model: this.opts.model, schema: this.schemaFor(session.role), role: session.role, dialect,
      stringifyNumeric: this.opts.stringifyNumeric ?? false, document: p.document, operation: p.operation, variables, structural: new Set() });
    return { plan, variables, driverFor: this.opts.driverFor };
  }

  /** The model this engine serves. */
  get model(): BundleModel {
    return this.opts.model;
  }

  private async run(req: GraphQLRequest, session: Session): Promise<string> {
    const prepared = this.prepare(req, session.role);
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
    return this.opts.driverFor(plan.source).queryText(plan.sql.text, values, plan.name, plan.customPlan);
  }

  private prepare(req: GraphQLRequest, role: string): Prepared {
    const key = `${role}\u0000${req.operationName ?? ''}\u0000${req.query}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const schema = this.schemaFor(role);
    let document: DocumentNode;
    try {
      document = parse(req.query);
    } catch {
      throw new ApiError('validation-failed', 'not a valid graphql query', 400, ['query']);
    }
    let operation = pickOperation(document, req.operationName ?? null);
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of document.definitions) if (d.kind === 'FragmentDefinition') fragments.set(d.name.value, d);
    const sites = hasuraChecks(schema, operation, fragments);
    if (sites.stringOffsets.size) {
      document = visit(document, { StringValue: (node) => (sites.stringOffsets.has(node) ? { kind: Kind.INT, value: node.value } : undefined) });
      operation = pickOperation(document, req.operationName ?? null);
    }
    const errors = validate(schema, document, specifiedRules);
    if (errors.length) throw new ApiError('validation-failed', errors[0]!.message, 400, []);
    const prepared: Prepared = { document, operation, structural: new Set(), plans: new Map(), sites };
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
    const sig = signature(p, variables);
    let plan = p.plans.get(sig);
    if (!plan) {
      plan = (p.operation.operation === 'mutation' ? planMutation : planOperation)({ model: this.opts.model, schema: this.schemaFor(role), role, dialect: this.opts.driverFor(this.opts.model.sources[0]?.name ?? 'default').dialect,
        stringifyNumeric: this.opts.stringifyNumeric ?? false, document: p.document, operation: p.operation, variables, structural: p.structural });
      if (p.plans.size > 64) p.plans.clear();
      p.plans.set(signature(p, variables), plan);
    }
    return plan;
  }
}

// Values of the variables that shaped the plan, plus which variables are null.
function signature(p: Prepared, variables: { readonly [k: string]: unknown }): string {
  let sig = '';
  // Walk the declared variables, not the coerced ones: an omitted variable is absent from
  // `variables` but plans like a null one, so it must not share the plan of a non-null value.
  for (const def of p.operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    if (variables[name] == null) sig += `${name},`;
  }
  if (p.structural.size === 0) return sig;
  return sig + JSON.stringify([...p.structural].map((n) => variables[n] ?? null));
}

function pickOperation(doc: DocumentNode, name: string | null): OperationDefinitionNode {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (name === null) {
    if (ops.length !== 1) throw new ApiError('validation-failed', 'exactly one operation has to be present in the document when operationName is not specified', 400, []);
    return ops[0]!;
  }
  const op = ops.find((o) => o.name?.value === name);
  if (!op) throw new ApiError('validation-failed', `no such operation found in the document: ${JSON.stringify(name)}`, 400, []);
  return op;
}
