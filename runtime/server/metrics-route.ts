// GET /v1/metrics: the server's metrics in Prometheus text, as Hasura EE serves them: on when
// `metrics` is among the enabled APIs, and, with SVC_GRAPHQL_METRICS_SECRET set, only to a
// request carrying `Authorization: Bearer <secret>` (the secret is not the admin secret, so a
// scraper holds no admin rights).

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../errors/index.js';
import { send, sendManagementError, unexpectedError } from './http-io.js';
import type { ServerMetrics } from './metrics.js';

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** True when the request may read the metrics: no secret is set, or it sent the secret as a bearer token. */
export function metricsAllowed(req: IncomingMessage, secret: string | null): boolean {
  if (secret === null || secret === '') return true;
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m !== null && sameText(m[1]!, secret);
}

/** Answers GET /v1/metrics (401 `access-denied` without the secret). */
export async function handleMetrics(req: IncomingMessage, res: ServerResponse, metrics: ServerMetrics, secret: string | null): Promise<void> {
  if (!metricsAllowed(req, secret)) {
    sendManagementError(res, new ApiError('access-denied', 'invalid or missing metrics secret (Authorization: Bearer <SVC_GRAPHQL_METRICS_SECRET>)', 401),
      { 'www-authenticate': 'Bearer' });
    return;
  }
  let text: string;
  try {
    text = await metrics.text();
  } catch (e) {
    sendManagementError(res, unexpectedError(e));
    return;
  }
  send(res, 200, metrics.registry.contentType, text);
}
