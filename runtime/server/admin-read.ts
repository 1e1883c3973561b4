// The GET routes that show the admin something the server holds (the REST endpoints' OpenAPI
// document, the config): the caller's session from the headers, admin only, the answer as JSON,
// and every failure in the management shape `{path, error, code}`.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { ADMIN_ROLE, resolveSession, type AuthOptions } from '../auth/index.js';
import { ApiError } from '../errors/index.js';
import { headersAsSent, sendJsonText, sendManagementError, unexpectedError } from './http-io.js';

/** Answers `answer()` as JSON to an admin; anyone else gets `access-denied`. */
export async function handleAdminRead(req: IncomingMessage, res: ServerResponse, auth: AuthOptions, answer: () => unknown): Promise<void> {
  try {
    const session = await resolveSession(req.headers, auth, undefined, headersAsSent(req));
    if (session.role !== ADMIN_ROLE) throw new ApiError('access-denied', 'restricted access : admin only', 400);
    sendJsonText(res, 200, JSON.stringify(answer()));
  } catch (e) {
    sendManagementError(res, e instanceof ApiError ? e : unexpectedError(e));
  }
}
