import { ApiError, jsonKind } from '../errors/index.js';
import type { GraphQLRequest } from '../bundle/index.js';

/** A body of /v1/graphql: one request, or a batch answered with an array in the same order. */
export type GraphQLBody =
  | { readonly kind: 'single'; readonly request: GraphQLRequest }
  | { readonly kind: 'batch'; readonly requests: readonly GraphQLRequest[] };

function expected(what: 'Object' | 'Text', v: unknown, path: readonly (string | number)[]): ApiError {
  const wanted = what === 'Object' ? 'Object' : 'String';
  return new ApiError('parse-failed', `parsing ${what} failed, expected ${wanted}, but encountered ${jsonKind(v)}`, 400, path);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks one request object the way Hasura's GQLReq parser does; errors are `parse-failed`. */
function toRequest(v: unknown, at: readonly (string | number)[]): GraphQLRequest {
  if (!isObject(v)) throw expected('Object', v, at);
  if (!('query' in v)) throw new ApiError('parse-failed', "the key 'query' was not present", 400, at);
  const { query, variables, operationName } = v;
  if (typeof query !== 'string') throw expected('Text', query, [...at, 'query']);
  if (variables !== undefined && variables !== null && !isObject(variables)) {
    throw expected('Object', variables, [...at, 'variables']);
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw expected('Text', operationName, [...at, 'operationName']);
  }
  return {
    query,
    ...(variables !== undefined ? { variables: variables as GraphQLRequest['variables'] } : {}),
    ...(operationName !== undefined ? { operationName: operationName as string | null } : {}),
  };
}

/**
 * Reads a parsed JSON body as a single request or a batch. The whole body is checked before
 * anything runs: one bad element fails the request with its path (`$[1].query`).
 */
export function toGraphQLBody(value: unknown): GraphQLBody {
  if (Array.isArray(value)) {
    return { kind: 'batch', requests: value.map((item, i) => toRequest(item, [i])) };
  }
  return { kind: 'single', request: toRequest(value, []) };
}

// Bodies with no variable values, kept parsed by their text: such a body is the same request
// each time it is sent (a query with its values written in, sent over and over by dashboards,
// polls and scripts), so it is parsed and checked once. A body with variable values is parsed
// each time (its values vary from request to request and would only churn the memo). The kept
// requests are frozen: what reads them can never change the next request's.
const MEMO_ENTRIES = 512;
const MEMO_TEXT = 4096;
const memo = new Map<string, GraphQLBody>();

/** The parsed request of a body sent before, when it was kept. */
export function memoizedBody(text: string): GraphQLBody | undefined {
  return memo.get(text);
}

/** Keeps a body's parsed request when it has no variable values and is small; answers the body. */
export function memoizeBody(text: string, body: GraphQLBody): GraphQLBody {
  if (body.kind !== 'single' || text.length > MEMO_TEXT || hasValues(body.request.variables)) return body;
  // Cleared when full rather than ordered by use: the set of such bodies a server sees is small.
  if (memo.size >= MEMO_ENTRIES) memo.clear();
  const request = Object.freeze({ ...body.request, ...(body.request.variables ? { variables: Object.freeze({}) } : {}) });
  const kept: GraphQLBody = Object.freeze({ kind: 'single', request });
  memo.set(text, kept);
  return kept;
}

function hasValues(variables: GraphQLRequest['variables']): boolean {
  if (variables == null) return false;
  for (const _ in variables) return true;
  return false;
}
