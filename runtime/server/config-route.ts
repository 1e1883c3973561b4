// GET /v1alpha1/config (admin, API group `config`): the server's settings as Hasura's config API
// shows them (reference/endpoints.md), for consoles and tools that adapt to the server.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveSession, type AuthOptions } from '../auth/index.js';
import { ApiError } from '../errors/index.js';
import { sendJsonText, sendManagementError, unexpectedError } from './http-io.js';

/** GET /v1alpha1/config: admin only, like the other management reads. */
export async function handleConfig(req: IncomingMessage, res: ServerResponse, auth: AuthOptions,
  view: () => Readonly<Record<string, unknown>>): Promise<void> {
  try {
    const session = await resolveSession(req.headers, auth);
    if (session.role !== 'admin') throw new ApiError('access-denied', 'restricted access : admin only', 400);
    sendJsonText(res, 200, JSON.stringify(view()));
  } catch (e) {
    sendManagementError(res, e instanceof ApiError ? e : unexpectedError(e));
  }
}
