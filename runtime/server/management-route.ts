import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveSession, sessionResponseHeaders, type AuthOptions } from '../auth/index.js';
import { ApiError } from '../errors/index.js';
import { checkDeclaredLength, headersAsSent, parseJsonBody, readBody, sendJsonText, sendManagementError, unexpectedError } from './http-io.js';
import type { ManagementHandler } from './options.js';
import { recordOf } from './request-log.js';

/** The management paths; their group is `metadata` in SVC_GRAPHQL_ENABLED_APIS. */
export type ManagementPath = '/v1/metadata' | '/v1/query' | '/v2/query';

/** What a management route needs from the server. */
export interface ManagementRouteContext {
  readonly auth: AuthOptions;
  readonly handler: ManagementHandler | undefined;
  readonly maxBodyBytes: number;
}

/**
 * POST /v1/metadata, /v1/query, /v2/query: authenticate (401 `{path, error, code}` on a
 * missing or wrong secret), parse the body, hand it to the management handler. Without a
 * handler (a server of a compiled bundle) the API answers `not-supported`.
 */
export async function handleManagementPost(req: IncomingMessage, res: ServerResponse, path: ManagementPath,
  ctx: ManagementRouteContext): Promise<void> {
  try {
    // Authenticated from the headers first: an unauthenticated request is refused unread.
    checkDeclaredLength(req, ctx.maxBodyBytes);
    const session = await resolveSession(req.headers, ctx.auth, undefined, headersAsSent(req));
    const record = recordOf(req);
    if (record) record.session = session;
    const raw = await readBody(req, ctx.maxBodyBytes);
    for (const [name, values] of Object.entries(sessionResponseHeaders(session))) res.setHeader(name, [...values]);
    if (!ctx.handler) {
      throw new ApiError('not-supported', 'this server serves a compiled bundle, which is its metadata: compile and deploy a new bundle, or run `kiln serve --database-url` without --bundle to change metadata at run time');
    }
    const parsed = parseJsonBody(raw);
    if (!parsed.ok) throw parsed.error;
    const answer = await ctx.handler({ path, body: parsed.value, session });
    sendJsonText(res, answer.status, answer.body);
  } catch (e) {
    sendManagementError(res, e instanceof ApiError ? e : unexpectedError(e));
  }
}
