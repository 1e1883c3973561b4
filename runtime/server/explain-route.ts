import type { IncomingMessage, ServerResponse } from 'node:http';
import { ADMIN_ROLE, ROLE_HEADER, resolveSession, sessionResponseHeaders, type AuthOptions } from '../auth/index.js';
import type { GraphQLRequest, Session } from '../bundle/index.js';
import { ApiError, jsonKind } from '../errors/index.js';
import { checkDeclaredLength, headersAsSent, parseJsonBody, readBody, sendJsonText, sendManagementError, unexpectedError } from './http-io.js';
import type { GraphQLEngine } from './options.js';
import { toGraphQLBody } from './request-shape.js';

/** What the explain route needs from the server. */
export interface ExplainRouteContext {
  readonly engine: GraphQLEngine;
  readonly auth: AuthOptions;
  readonly maxBodyBytes: number;
}

/**
 * POST /v1/graphql/explain (reference/endpoints.md): admin only. The body names a GraphQL
 * request and, in `user`, the session to plan it as; the answer is the engine's explanation.
 * Errors have the management shape `{path, error, code}` with their status, as in Hasura.
 */
export async function handleExplainPost(req: IncomingMessage, res: ServerResponse, ctx: ExplainRouteContext): Promise<void> {
  try {
    // Authenticated (admin only) from the headers before the body is read.
    checkDeclaredLength(req, ctx.maxBodyBytes);
    const caller = await resolveSession(req.headers, ctx.auth, undefined, headersAsSent(req));
    for (const [name, values] of Object.entries(sessionResponseHeaders(caller))) res.setHeader(name, [...values]);
    // Hasura's onlyAdmin: the caller's role, whatever role the body asks to plan as.
    if (caller.role !== ADMIN_ROLE) throw new ApiError('access-denied', 'You have to be an admin to access this endpoint', 400);
    const raw = await readBody(req, ctx.maxBodyBytes);
    const parsed = parseJsonBody(raw);
    if (!parsed.ok) throw parsed.error;
    const { request, session } = explainBody(parsed.value, caller);
    if (!ctx.engine.explain) throw new ApiError('not-supported', 'this server cannot explain queries', 400);
    sendJsonText(res, 200, JSON.stringify(await ctx.engine.explain(request, session)));
  } catch (e) {
    sendManagementError(res, e instanceof ApiError ? e : unexpectedError(e));
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function expected(what: 'Object' | 'Text', v: unknown, path: readonly (string | number)[]): ApiError {
  return new ApiError('parse-failed', `parsing ${what} failed, expected ${what === 'Object' ? 'Object' : 'String'}, but encountered ${jsonKind(v)}`, 400, path);
}

/** `{query: {query, variables?, operationName?}, user?: {x-svc-role?, x-svc-*...}}`. */
function explainBody(body: unknown, caller: Session): { request: GraphQLRequest; session: Session } {
  if (!isObject(body)) throw expected('Object', body, []);
  if (!('query' in body)) throw new ApiError('parse-failed', "the key 'query' was not present", 400, []);
  if (Array.isArray(body.query)) throw expected('Object', body.query, ['query']);
  let request: GraphQLRequest;
  try {
    const parsed = toGraphQLBody(body.query);
    if (parsed.kind !== 'single') throw new Error('assertion failed: an object is one request');
    request = parsed.request;
  } catch (e) {
    throw e instanceof ApiError ? e.at('query') : e;
  }
  if (body.user === undefined || body.user === null) return { request, session: caller };
  return { request, session: sessionOf(body.user) };
}

// Session variable names are case-insensitive; the role defaults to admin (Hasura's fallback).
// The caller is admin, so the session counts as one sent with the admin secret, as in Hasura.
function sessionOf(user: unknown): Session {
  if (!isObject(user)) throw expected('Object', user, ['user']);
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(user)) {
    if (typeof value !== 'string') throw expected('Text', value, ['user', name]);
    variables[name.toLowerCase()] = value;
  }
  const role = variables[ROLE_HEADER] || ADMIN_ROLE;
  variables[ROLE_HEADER] = role;
  return { role, variables, isAdmin: true };
}
