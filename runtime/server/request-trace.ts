// The span of one HTTP request, when tracing is on: started before the route runs (a child of
// the caller's `traceparent`), active while the route and everything it starts run, ended when
// the response is done with what the route learnt (its endpoint, the GraphQL operation, whether
// it failed). Kept out of server.ts so the untraced path stays one boolean check.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { withSpan, type Tracing } from '../tracing/index.js';
import type { RequestRecord } from './request-log.js';

// The error text kept on a span's status, at most.
const MAX_STATUS_MESSAGE = 512;

/** Runs `serve` inside the request's span, ending the span when the response closes. */
export function traceRequest(tracing: Tracing, req: IncomingMessage, res: ServerResponse, record: RequestRecord, serve: () => void): void {
  const method = req.method ?? 'GET';
  const span = tracing.startRequest(method, req.headers['traceparent'], req.headers['tracestate']);
  res.once('close', () => {
    // Named by the route, not the raw path: a client's made-up paths would be as many span names.
    span.name = `${method} ${record.endpoint}`;
    span.set('http.request.method', method).set('url.path', (req.url ?? '/').split('?', 1)[0] ?? '/')
      .set('http.route', record.endpoint).set('http.response.status_code', res.statusCode).set('kiln.request_id', record.id);
    if (record.operationType !== 'none') span.set('graphql.operation.type', record.operationType);
    const one = record.requests?.length === 1 ? record.requests[0] : undefined;
    if (one?.operationName) span.set('graphql.operation.name', one.operationName);
    if (record.session) span.set('kiln.role', record.session.role);
    if (record.failed || res.statusCode >= 500) span.fail((record.errorText ?? `HTTP ${res.statusCode}`).slice(0, MAX_STATUS_MESSAGE));
    span.end();
  });
  withSpan(span, serve);
}
