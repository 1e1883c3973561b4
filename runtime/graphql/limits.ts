// The limits an operation is checked against before it is planned: the server's own caps (every
// role, admin included: they keep one request from taking the process or the database down) and
// Hasura's API limits and introspection options from the metadata (never for admin).

import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import type { ApiLimitsModel, BundleModel, LimitModel } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { NestingExceeded, operationCost, type OperationCost } from './cost.js';

/** The server's caps on one operation, whatever the role (SVC_GRAPHQL_MAX_QUERY_*). */
export interface QueryCaps {
  /** Fields once fragments are expanded, leaves included. */
  readonly maxFields: number;
  /**
   * Fields with a selection set once fragments are expanded, outside introspection: each is a
   * subquery for the database (introspection is answered in process; maxFields bounds it).
   */
  readonly maxNodes: number;
  /** Fields nested in one another. */
  readonly maxDepth: number;
}

/**
 * The defaults. Measured on PostgreSQL 15: a statement of 1,000 table selections took its backend
 * to 125 MB, 3,000 to 577 MB, 6,000 to 2 GB; a chain of 100 nested relationships took 2.4 s to plan
 * and run, 500 took 14 s and 1.2 GB. Real queries stay far below (the standard introspection query
 * is about 70 selections, 13 deep).
 */
export const DEFAULT_QUERY_CAPS: QueryCaps = { maxFields: 10_000, maxNodes: 1_000, maxDepth: 50 };

/** Measures an operation against the caps; throws `validation-failed` when it is over one. */
export function measureOperation(document: DocumentNode, operation: OperationDefinitionNode, caps: QueryCaps): OperationCost {
  let cost: OperationCost;
  try {
    cost = operationCost(document, operation, caps.maxDepth);
  } catch (e) {
    if (e instanceof NestingExceeded) throw tooDeep(caps.maxDepth);
    throw e;
  }
  if (cost.nesting > caps.maxDepth) throw tooDeep(caps.maxDepth);
  if (cost.nodes > caps.maxNodes || cost.fields > caps.maxFields) {
    const [what, n, cap] = cost.fields > caps.maxFields ? ['fields', cost.fields, caps.maxFields] : ['selections', cost.nodes, caps.maxNodes];
    throw new ApiError('validation-failed',
      `the query has ${n >= Number.MAX_SAFE_INTEGER ? 'too many' : n} ${what} once its fragments are expanded; the server allows ${cap}`, 400, []);
  }
  return cost;
}

function tooDeep(cap: number): ApiError {
  return new ApiError('validation-failed', `the query nests fields more than ${cap} deep; the server allows ${cap}`, 400, []);
}

/** The value of a limit for a role: its own, else the global one (Hasura: "global" is for every role without one). */
export function limitFor<T>(limit: LimitModel<T> | undefined, role: string): T | undefined {
  if (!limit) return undefined;
  return Object.hasOwn(limit.perRole, role) ? limit.perRole[role] : limit.global;
}

/** The API limits that apply to a role: none for admin, none when `disabled`. */
export function apiLimitsFor(model: BundleModel, role: string): ApiLimitsModel | null {
  const limits = model.apiLimits;
  if (!limits || limits.disabled || role === 'admin') return null;
  return limits;
}

/**
 * Hasura's depth and node limits and the introspection option, for one role. Introspection
 * fields count toward neither limit (Hasura exempts introspection queries from the depth limit).
 */
export function checkRoleLimits(model: BundleModel, cost: OperationCost, role: string): void {
  if (role === 'admin') return;
  // Hasura refuses __schema and __type for such a role as a feature switched off (not-supported),
  // naming the role (tests-py graphql_introspection/disable_introspection); __typename stays allowed.
  if (cost.introspects && model.introspectionDisabledFor?.includes(role)) {
    throw new ApiError('not-supported', `introspection is disabled for role: ${JSON.stringify(role)}`, 400, []);
  }
  const limits = apiLimitsFor(model, role);
  if (!limits) return;
  const depth = limitFor(limits.depth, role);
  if (depth !== undefined && cost.depth > depth) throw new ApiError('validation-failed', 'The depth limit has been exceeded for this query', 400, []);
  const nodes = limitFor(limits.node, role);
  if (nodes !== undefined && cost.nodes > nodes) throw new ApiError('validation-failed', 'The node limit has been exceeded for this query', 400, []);
}

/** Hasura's batch limit: the number of operations in one batched HTTP request. */
export function checkBatchLimit(model: BundleModel, role: string, operations: number): void {
  const limits = apiLimitsFor(model, role);
  const max = limits ? limitFor(limits.batch, role) : undefined;
  if (max !== undefined && operations > max) throw new ApiError('validation-failed', 'The batch limit has been exceeded for this request', 400, []);
}

const CAP_SETTINGS: readonly (readonly [keyof QueryCaps, string])[] = [
  ['maxFields', 'SVC_GRAPHQL_MAX_QUERY_FIELDS'], ['maxNodes', 'SVC_GRAPHQL_MAX_QUERY_NODES'], ['maxDepth', 'SVC_GRAPHQL_MAX_QUERY_DEPTH'],
];

/** The caps from SVC_GRAPHQL_MAX_QUERY_{FIELDS,NODES,DEPTH}, defaults for those unset; throws on a value that is not a positive integer. */
export function queryCapsFromEnv(env: Readonly<Record<string, string | undefined>>): QueryCaps {
  const caps: { -readonly [K in keyof QueryCaps]: number } = { ...DEFAULT_QUERY_CAPS };
  for (const [key, name] of CAP_SETTINGS) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    if (!/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
    caps[key] = Number(raw);
  }
  return caps;
}
