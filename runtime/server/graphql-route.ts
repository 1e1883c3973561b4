import type { IncomingMessage, ServerResponse } from 'node:http';
import { normalizeHeaders, resolveSession, sessionResponseHeaders, type AuthOptions } from '../auth/index.js';
import { ApiError } from '../errors/index.js';
import type { GraphQLRequest, Session } from '../bundle/index.js';
import { graphqlErrorText, parseJsonBody, readBody, sendJsonText, unexpectedError } from './http-io.js';
import type { GraphQLEngine } from './options.js';
import { toGraphQLBody, type GraphQLBody } from './request-shape.js';

/** What the GraphQL route needs from the server. */
export interface GraphQLRouteContext {
  readonly engine: GraphQLEngine;
  readonly auth: AuthOptions;
  readonly maxBodyBytes: number;
}

/** One element's answer: the response text and the status it would have on its own. */
interface Answer {
  readonly text: string;
  readonly status: number;
}

function errorAnswer(e: unknown): Answer {
  const err = e instanceof ApiError ? e : unexpectedError(e);
  return { text: graphqlErrorText(err), status: err.status };
}

async function run(ctx: GraphQLRouteContext, request: GraphQLRequest, session: Session,
  headers: ReturnType<typeof normalizeHeaders>, legacy = false): Promise<Answer> {
  try {
    const text = legacy && ctx.engine.executeOrThrow
      ? await ctx.engine.executeOrThrow(request, session, { headers })
      : await ctx.engine.execute(request, session, { headers });
    return { text, status: 200 };
  } catch (e) {
    return errorAnswer(e);
  }
}

/** Body parse and session resolution; the auth error wins over a malformed body, as in Hasura. */
async function prepare(req: IncomingMessage, ctx: GraphQLRouteContext): Promise<{ body: GraphQLBody; session: Session }> {
  const raw = await readBody(req, ctx.maxBodyBytes);
  const parsed = parseJsonBody(raw);
  let body: GraphQLBody | undefined;
  let shapeError: unknown;
  if (parsed.ok) {
    try {
      body = toGraphQLBody(parsed.value);
    } catch (e) {
      shapeError = e;
    }
  }
  const forAuth = body === undefined ? undefined : body.kind === 'single' ? body.request : body.requests;
  const session = await resolveSession(req.headers, ctx.auth, forAuth);
  if (!parsed.ok) throw parsed.error;
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
  const statusOf = (a: Answer): number => (legacy ? a.status : 200);
  let prepared;
  try {
    prepared = await prepare(req, ctx);
  } catch (e) {
    const answer = errorAnswer(e);
    sendJsonText(res, statusOf(answer), answer.text);
    return;
  }
  const { body, session } = prepared;
  // An auth webhook's Set-Cookie reaches the client (reference/auth.md).
  for (const [name, values] of Object.entries(sessionResponseHeaders(session))) res.setHeader(name, [...values]);
  const headers = normalizeHeaders(req.headers);
  try {
    const operations = body.kind === 'single' ? 1 : body.requests.length;
    ctx.engine.admitRequest?.(session, { ip: req.socket.remoteAddress ?? null }, operations, body.kind !== 'single');
  } catch (e) {
    const answer = errorAnswer(e);
    // A rate-limited request is answered 429 on both paths (the client should back off).
    sendJsonText(res, answer.status === 429 ? 429 : statusOf(answer), answer.text);
    return;
  }
  if (body.kind === 'single') {
    const answer = await run(ctx, body.request, session, headers, legacy);
    sendJsonText(res, statusOf(answer), answer.text);
    return;
  }
  // In order, one after another: a later mutation may depend on an earlier one.
  const texts: string[] = [];
  for (const request of body.requests) texts.push((await run(ctx, request, session, headers)).text);
  sendJsonText(res, 200, `[${texts.join(',')}]`);
}

/** GET /v1/graphql: not a query-over-GET endpoint (reference/errors.md §1). */
export function handleGraphQLGet(res: ServerResponse): void {
  sendJsonText(res, 200, graphqlErrorText(new ApiError('not-supported', 'PersistedQueryNotSupported')));
}
