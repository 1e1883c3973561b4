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
