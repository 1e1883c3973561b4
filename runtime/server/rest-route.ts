// REST endpoints (reference/endpoints.md "REST endpoints"): ANY /api/rest/<template> runs the
// stored query an endpoint names, with variables from the path, the query string and the body,
// and answers the content of `data` itself; failures answer `{path, error, code}` with their status.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveSession, sessionAtOnce, sessionResponseHeaders, type AuthOptions } from '../auth/index.js';
import { ApiError } from '../errors/index.js';
import { checkDeclaredLength, headersAsSent, parseJsonBody, readBody, sendJsonText, sendManagementError, unexpectedError } from './http-io.js';
import type { GraphQLEngine } from './options.js';

/** Where REST endpoints live. */
export const REST_PREFIX = '/api/rest/';

/** What the REST route needs from the server. */
export interface RestRouteContext {
  readonly engine: GraphQLEngine;
  readonly auth: AuthOptions;
  readonly maxBodyBytes: number;
}

type Variables = { [k: string]: unknown };

/** ANY /api/rest/*: the session first, then 404 when no template matches, 405 when none matching takes the method. */
export async function handleRest(req: IncomingMessage, res: ServerResponse, ctx: RestRouteContext): Promise<void> {
  try {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q < 0 ? url : url.slice(0, q)).slice(REST_PREFIX.length);
    const segments = path.split('/').map((s) => decodeOnce(s, false));
    const found = matching(ctx.engine.restEndpoints?.() ?? NO_ENDPOINTS, segments);
    const hit = found.find((m) => m.endpoint.methods.includes(req.method ?? 'GET'));
    checkDeclaredLength(req, ctx.maxBodyBytes);
    const stored = hit ? ctx.engine.storedQuery?.(hit.endpoint.collection, hit.endpoint.query) : undefined;
    // Authenticated first, as Hasura resolves the user before its handler looks the path up
    // (Server/Rest.hs runCustomEndpoint is given the UserInfo): a request without valid credentials
    // is refused even where no endpoint matches or the method is not listed, and the auth error wins
    // over a malformed body. A POST auth webhook is sent the stored query, not the body.
    const session = sessionAtOnce(req.headers, ctx.auth)
      ?? await resolveSession(req.headers, ctx.auth, stored ? { query: stored.query } : undefined, headersAsSent(req));
    if (found.length === 0) throw new ApiError('not-found', 'Endpoint not found', 404);
    if (!hit) {
      const allowed = [...new Set(found.flatMap((m) => m.endpoint.methods))].join(', ');
      sendManagementError(res, new ApiError('method-not-allowed', `Allowed methods: ${allowed}`, 405), { allow: allowed });
      return;
    }
    const { collection, query } = hit.endpoint;
    if (!stored || !ctx.engine.executeStored) throw new ApiError('not-found', 'Endpoint not found', 404);
    const cookies = sessionResponseHeaders(session);
    for (const name in cookies) res.setHeader(name, [...cookies[name]!]);
    const raw = await readBody(req, ctx.maxBodyBytes);
    const types = typesOf(stored.variables);
    // URL path over query string over body when a name is given twice (reference/endpoints.md's recommendation).
    const variables: Variables = {
      ...bodyVariables(req, raw, types),
      ...fromText(queryPairs(q < 0 ? '' : url.slice(q + 1)), types),
      ...fromText(hit.params, types),
    };
    // A REST call is a GraphQL operation: it counts toward the role's rate limit.
    ctx.engine.admitRequest?.(session, { ip: req.socket.remoteAddress ?? null }, 1);
    const text = await ctx.engine.executeStored(collection, query, variables, session);
    sendJsonText(res, 200, dataOf(text));
  } catch (e) {
    sendManagementError(res, e instanceof ApiError ? e : unexpectedError(e));
  }
}

type Endpoint = ReturnType<NonNullable<GraphQLEngine['restEndpoints']>>[number];
type StoredVariables = NonNullable<ReturnType<NonNullable<GraphQLEngine['storedQuery']>>>['variables'];

const NO_ENDPOINTS: readonly Endpoint[] = [];

// Per endpoint list (it changes only with the metadata), each template cut into its segments once.
const templates = new WeakMap<readonly Endpoint[], readonly { readonly endpoint: Endpoint; readonly parts: readonly string[] }[]>();

/** The endpoints whose template the path fits, with their captured segments. */
function matching(endpoints: readonly Endpoint[], segments: readonly string[]): { endpoint: Endpoint; params: Record<string, string> }[] {
  let cut = templates.get(endpoints);
  if (!cut) templates.set(endpoints, cut = endpoints.map((endpoint) => ({ endpoint, parts: endpoint.url.split('/') })));
  const found: { endpoint: Endpoint; params: Record<string, string> }[] = [];
  for (const { endpoint, parts } of cut) {
    const params = matchParts(parts, segments);
    if (params !== null) found.push({ endpoint, params });
  }
  return found;
}

// A stored query's variable types by name, made once per stored query.
const typesByQuery = new WeakMap<StoredVariables, ReadonlyMap<string, string>>();

function typesOf(variables: StoredVariables): ReadonlyMap<string, string> {
  let types = typesByQuery.get(variables);
  if (!types) typesByQuery.set(variables, types = new Map(variables.map((v) => [v.name, v.type])));
  return types;
}

/** The captured `:name` segments when the path fits the template, else null. */
export function match(template: string, segments: readonly string[]): Record<string, string> | null {
  return matchParts(template.split('/'), segments);
}

function matchParts(parts: readonly string[], segments: readonly string[]): Record<string, string> | null {
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const seg = segments[i]!;
    if (part.startsWith(':')) {
      if (seg === '') return null;
      params[part.slice(1)] = seg;
    } else if (part !== seg) return null;
  }
  return params;
}

// `{"data":X}` -> `X`: a REST answer is the data itself (the engine's text is not re-parsed).
function dataOf(text: string): string {
  const head = '{"data":';
  return text.startsWith(head) && text.endsWith('}') ? text.slice(head.length, -1) : text;
}

// Percent-decoded exactly once (`X%2520Y` is `X%20Y`); `+` is a space in a query string only.
function decodeOnce(s: string, plusIsSpace: boolean): string {
  const t = plusIsSpace ? s.replace(/\+/g, ' ') : s;
  try {
    return decodeURIComponent(t);
  } catch {
    return t;
  }
}

/** `a=1&b&c=x%20y` -> {a: '1', b: true, c: 'x y'}: a bare name is a flag. */
function queryPairs(search: string): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (const piece of search.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    if (eq < 0) out[decodeOnce(piece, true)] = true;
    else out[decodeOnce(piece.slice(0, eq), true)] = decodeOnce(piece.slice(eq + 1), true);
  }
  return out;
}

// A JSON object body is taken as is (lists and objects included); a form body like a query string.
function bodyVariables(req: IncomingMessage, raw: Buffer, types: ReadonlyMap<string, string>): Variables {
  if (req.method === 'GET' || raw.length === 0) return {};
  if ((req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) return fromText(queryPairs(raw.toString('utf8')), types);
  const parsed = parseJsonBody(raw);
  if (!parsed.ok) throw parsed.error;
  const v = parsed.value;
  if (v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new ApiError('bad-request', 'the request body must be a JSON object of variables', 400);
  return v as Variables;
}

/**
 * Text from the URL (or a form) as the declared variable type reads it: Boolean and Int/Float
 * as JSON values, json/jsonb parsed, lists given as JSON text parsed; other types stay text,
 * which the engine's variable coercion then accepts or refuses (400).
 */
function fromText(pairs: Record<string, string | true>, types: ReadonlyMap<string, string>): Variables {
  const out: Variables = {};
  for (const [name, raw] of Object.entries(pairs)) out[name] = typed(raw, types.get(name));
  return out;
}

const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

function typed(raw: string | true, type: string | undefined): unknown {
  if (raw === true || type === undefined) return raw;
  const base = type.replace(/[[\]!]/g, '');
  if (type.startsWith('[') || base === 'json' || base === 'jsonb') {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  }
  if (base === 'Boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  if (base === 'Int' || base === 'Float') return NUMBER.test(raw) ? Number(raw) : raw;
  return raw;
}
