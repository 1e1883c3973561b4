import type { IncomingMessage, ServerResponse } from 'node:http';
import { normalizeHeaders, resolveSession, resolveSessionBeforeBody, sessionAtOnce, sessionResponseHeaders, type AuthOptions } from '../auth/index.js';
import { ApiError } from '../errors/index.js';
import type { GraphQLRequest, Session } from '../bundle/index.js';
import { checkDeclaredLength, graphqlErrorText, headersAsSent, parseJsonText, readBody, sendJsonText, unexpectedError, type ParsedJson } from './http-io.js';
import type { GraphQLEngine } from './options.js';
import { memoizeBody, memoizedBody, toGraphQLBody, type GraphQLBody } from './request-shape.js';
import { operationTypeOf, recordOf, type RequestRecord } from './request-log.js';

/** What the GraphQL route needs from the server. */
export interface GraphQLRouteContext {
  readonly engine: GraphQLEngine;
  readonly auth: AuthOptions;
  readonly maxBodyBytes: number;
  /** POST /v1beta1/relay: requests run on the Relay API. */
  readonly relay?: boolean;
}

/** One element's answer: the response text and the status it would have on its own. */
interface Answer {
  readonly text: string;
  readonly status: number;
  /** Set-Cookie values of synchronous action handlers, sent on with the response. */
  readonly cookies?: readonly string[];
}

function errorAnswer(e: unknown): Answer {
  const err = e instanceof ApiError ? e : unexpectedError(e);
  return { text: graphqlErrorText(err), status: err.status };
}

function run(ctx: GraphQLRouteContext, request: GraphQLRequest, session: Session,
  headers: ReturnType<typeof normalizeHeaders>, legacy = false): Promise<Answer> {
  // One `then` on the engine's promise rather than an async function around it.
  let text: Promise<string>;
  const cookies: string[] = [];
  try {
    const opts = { headers, overHttp: true, responseCookies: cookies };
    text = ctx.relay && ctx.engine.executeRelay ? ctx.engine.executeRelay(request, session, opts)
      : legacy && ctx.engine.executeOrThrow ? ctx.engine.executeOrThrow(request, session, opts)
        : ctx.engine.execute(request, session, opts);
  } catch (e) {
    return Promise.resolve(errorAnswer(e));
  }
  return text.then((t) => (cookies.length > 0 ? { text: t, status: 200, cookies } : { text: t, status: 200 }), errorAnswer);
}

// A synchronous action handler's Set-Cookie values, added to those the response already has.
function sendCookies(res: ServerResponse, cookies: readonly string[] | undefined): void {
  if (!cookies || cookies.length === 0) return;
  const had = res.getHeader('set-cookie');
  res.setHeader('Set-Cookie', [...(Array.isArray(had) ? had : had === undefined ? [] : [String(had)]), ...cookies]);
}

/**
 * Session resolution and body parse; the auth error wins over a malformed body, as in Hasura. The
 * session comes from the headers before the body is read (an unauthenticated request is refused
 * unread), except for the auth webhook in POST mode, which is sent the request.
 */
async function prepare(req: IncomingMessage, ctx: GraphQLRouteContext, record: RequestRecord | undefined): Promise<{ body: GraphQLBody; session: Session }> {
  checkDeclaredLength(req, ctx.maxBodyBytes);
  // Decided from the headers at once in the common case (no secret configured, or one sent).
  let early: Session | null;
  try {
    early = sessionAtOnce(req.headers, ctx.auth) ?? await resolveSessionBeforeBody(req.headers, ctx.auth, headersAsSent(req));
  } catch (e) {
    // Refused unread, unless the log shows the request: then it is read for raw_query (query-log on).
    if (record?.logQuery) record.rawQuery = (await readBody(req, ctx.maxBodyBytes).catch(() => null))?.toString('utf8') ?? null;
    throw e;
  }
  const raw = await readBody(req, ctx.maxBodyBytes);
  const text = raw.toString('utf8');
  let body = memoizedBody(text);
  let parsed: ParsedJson | undefined;
  let shapeError: unknown;
  if (body === undefined) {
    parsed = parseJsonText(text);
    if (parsed.ok) {
      try {
        body = memoizeBody(text, toGraphQLBody(parsed.value));
      } catch (e) {
        shapeError = e;
      }
    }
  }
  if (body === undefined && record?.logQuery) record.rawQuery = text;
  const forAuth = body === undefined ? undefined : body.kind === 'single' ? body.request : body.requests;
  let session: Session;
  try {
    session = early ?? await resolveSession(req.headers, ctx.auth, forAuth, headersAsSent(req));
  } catch (e) {
    if (record?.logQuery) record.rawQuery = text;
    throw e;
  }
  if (parsed !== undefined && !parsed.ok) throw parsed.error;
  if (body === undefined) throw shapeError;
  return { body, session };
}

/**
 * POST /v1/graphql (every answer HTTP 200, errors in the body) and POST /v1alpha1/graphql
 * (`legacy`: a failed single request answers with its error's status). A batch answers a JSON
 * array in request order, each element on its own; the engine texts are joined, not re-parsed.
 */
export async function handleGraphQLPost(req: IncomingMessage, res: ServerResponse, ctx: GraphQLRouteContext,
  legacy: boolean): Promise<void> {
  // A body over the cap is 413 on every route: the request was not read, so it has no answer of its own.
  const statusOf = (a: Answer): number => (legacy || a.status === 413 ? a.status : 200);
  const record = recordOf(req);
  let prepared;
  try {
    prepared = await prepare(req, ctx, record);
  } catch (e) {
    const answer = errorAnswer(e);
    // Hasura's `unknown` operation type: the request failed before its operation was known.
    if (record) noteFailure(record, 'unknown', answer.text);
    sendJsonText(res, statusOf(answer), answer.text);
    return;
  }
  const { body, session } = prepared;
  if (record) noteRequest(record, body, session);
  // An auth webhook's Set-Cookie reaches the client (reference/auth.md).
  const cookies = sessionResponseHeaders(session);
  for (const name in cookies) res.setHeader(name, [...cookies[name]!]);
  const headers = normalizeHeaders(req.headers);
  try {
    const operations = body.kind === 'single' ? 1 : body.requests.length;
    ctx.engine.admitRequest?.(session, { ip: req.socket.remoteAddress ?? null }, operations, body.kind !== 'single');
  } catch (e) {
    const answer = errorAnswer(e);
    if (record) noteFailure(record, record.operationType, answer.text);
    // A rate-limited request is answered 429 on both paths (the client should back off).
    sendJsonText(res, answer.status === 429 ? 429 : statusOf(answer), answer.text);
    return;
  }
  if (body.kind === 'single') {
    const answer = await run(ctx, body.request, session, headers, legacy);
    if (record && isErrorText(answer.text)) noteFailure(record, record.operationType, answer.text);
    sendCookies(res, answer.cookies);
    sendJsonText(res, statusOf(answer), answer.text);
    return;
  }
  // In order, one after another: a later mutation may depend on an earlier one.
  const texts: string[] = [];
  for (const request of body.requests) {
    const answer = await run(ctx, request, session, headers);
    if (record && isErrorText(answer.text) && !record.failed) noteFailure(record, record.operationType, answer.text);
    sendCookies(res, answer.cookies);
    texts.push(answer.text);
  }
  sendJsonText(res, 200, `[${texts.join(',')}]`);
}

// An answer is an error answer when it starts with its errors (the engine writes `{"errors":` first
// for a failed request, and data first otherwise): no parse of the answer on the hot path.
function isErrorText(text: string): boolean {
  return text.startsWith('{"errors"');
}

function noteFailure(record: RequestRecord, type: RequestRecord['operationType'], text: string): void {
  record.operationType = type;
  record.failed = true;
  record.errorText = text;
}

/** What the log and the metrics know of a request once its body is read. */
function noteRequest(record: RequestRecord, body: GraphQLBody, session: Session): void {
  record.session = session;
  if (body.kind === 'single') {
    record.requests = [body.request];
    record.operationType = operationTypeOf(body.request);
    return;
  }
  record.requests = body.requests;
  record.batched = true;
  // A batch counts as a mutation when any of it is one (it writes), else as its first element's kind.
  const kinds = body.requests.map(operationTypeOf);
  record.operationType = kinds.includes('mutation') ? 'mutation' : kinds[0] ?? 'unknown';
}

/** GET /v1/graphql: not a query-over-GET endpoint (reference/errors.md §1). */
export function handleGraphQLGet(res: ServerResponse): void {
  sendJsonText(res, 200, graphqlErrorText(new ApiError('not-supported', 'PersistedQueryNotSupported')));
}
