// The two WebSocket sub-protocols (reference/subscriptions.md §1, §2): client messages decoded
// into one union, server messages written in each protocol's words. Payload texts the engine
// built (`{"data":...}`) are spliced in unparsed.

import { ApiError, graphqlErrorBody, managementErrorBody } from '../errors/index.js';
import type { GraphQLRequest } from '../bundle/index.js';

/** `transport`: graphql-transport-ws (the graphql-ws library); `legacy`: graphql-ws (subscriptions-transport-ws). */
export type Protocol = 'transport' | 'legacy';

export const TRANSPORT_PROTOCOL = 'graphql-transport-ws';
export const LEGACY_PROTOCOL = 'graphql-ws';

/** The sub-protocol to answer the handshake with: graphql-transport-ws when offered, else legacy. */
export function chooseProtocol(offered: ReadonlySet<string>): Protocol {
  return offered.has(TRANSPORT_PROTOCOL) ? 'transport' : 'legacy';
}

/** A client message, whatever protocol spelled it. */
export type ClientMessage =
  | { readonly kind: 'init'; readonly payload: unknown }
  | { readonly kind: 'start'; readonly id: string; readonly request: GraphQLRequest }
  | { readonly kind: 'stop'; readonly id: string }
  | { readonly kind: 'ping'; readonly payload: unknown }
  | { readonly kind: 'pong' }
  | { readonly kind: 'terminate' };

/** Close codes of graphql-transport-ws (and the generic ones both protocols use). */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  invalidMessage: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  initTimeout: 4408,
  duplicateId: 4409,
  tooManyInits: 4429,
} as const;

/** Decodes a client message; ApiError `invalid-json`/`bad-request`-like problems as `parse-failed`. */
export function decodeClientMessage(protocol: Protocol, text: string): ClientMessage {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    throw new ApiError('parse-failed', 'Invalid message received: not JSON');
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) throw new ApiError('parse-failed', 'Invalid message received: not an object');
  const o = m as Record<string, unknown>;
  const type = o['type'];
  switch (type) {
    case 'connection_init': return { kind: 'init', payload: o['payload'] ?? null };
    case 'ping': if (protocol === 'transport') return { kind: 'ping', payload: o['payload'] }; break;
    case 'pong': if (protocol === 'transport') return { kind: 'pong' }; break;
    case 'subscribe': if (protocol === 'transport') return { kind: 'start', id: idOf(o), request: requestOf(o['payload']) }; break;
    case 'start': if (protocol === 'legacy') return { kind: 'start', id: idOf(o), request: requestOf(o['payload']) }; break;
    case 'complete': if (protocol === 'transport') return { kind: 'stop', id: idOf(o) }; break;
    case 'stop': if (protocol === 'legacy') return { kind: 'stop', id: idOf(o) }; break;
    case 'connection_terminate': if (protocol === 'legacy') return { kind: 'terminate' }; break;
  }
  throw new ApiError('parse-failed', `Invalid message received: unknown message type ${JSON.stringify(type ?? null)}`);
}

function idOf(o: Record<string, unknown>): string {
  const id = o['id'];
  if (typeof id !== 'string' || id === '') throw new ApiError('parse-failed', 'Invalid message received: "id" must be a non-empty string');
  return id;
}

function requestOf(payload: unknown): GraphQLRequest {
  if (typeof payload !== 'object' || payload === null) throw new ApiError('parse-failed', 'Invalid message received: "payload" must be an object');
  const p = payload as Record<string, unknown>;
  if (typeof p['query'] !== 'string') throw new ApiError('parse-failed', 'Invalid message received: "payload.query" must be a string');
  const variables = p['variables'];
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    throw new ApiError('parse-failed', 'Invalid message received: "payload.variables" must be an object');
  }
  const operationName = p['operationName'];
  return {
    query: p['query'],
    variables: (variables ?? null) as GraphQLRequest['variables'],
    operationName: typeof operationName === 'string' ? operationName : null,
  };
}

/** The headers a `connection_init` payload carries (`payload.headers`, else the payload itself when it holds header-like keys). */
export function initHeaders(payload: unknown): Record<string, string> | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const p = payload as Record<string, unknown>;
  const source = typeof p['headers'] === 'object' && p['headers'] !== null ? p['headers'] as Record<string, unknown> : null;
  if (!source) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Server messages of one protocol. */
export interface ServerMessages {
  ack(): string;
  keepAlive(): string;
  /** A result (`{"data":...}` or `{"errors":[...]}` text) for operation `id`. */
  data(id: string, payloadText: string): string;
  /** An operation refused before it ran (validation, permissions). */
  error(id: string, e: ApiError): string;
  /** A start refused by the connection (not initialised, id in use): the error alone. */
  startError(id: string, e: ApiError): string;
  /** An operation that failed while it ran (the database refused it): a result with `data` null. */
  failed(id: string, e: ApiError): string;
  complete(id: string): string;
}

/**
 * How errors are worded on the socket's path: GraphQL errors on /v1/graphql, Hasura's
 * `{path, error, code}` on /v1alpha1/graphql (Transport/WebSocket.hs ERTLegacy / encodeQErr).
 */
export type ErrorStyle = 'graphql' | 'legacy';

/** The error style of a WebSocket path. */
export function errorStyleOf(path: string): ErrorStyle {
  return path === '/v1alpha1/graphql' ? 'legacy' : 'graphql';
}

/** The server messages of a protocol, errors in the path's style (Hasura's onStart). */
export function serverMessages(protocol: Protocol, style: ErrorStyle = 'graphql'): ServerMessages {
  const body = (e: ApiError): unknown => (style === 'legacy' ? managementErrorBody(e) : graphqlErrorBody(e));
  // A refusal before the run: the legacy style sends the error alone; GraphQL errors are listed.
  const refused = (e: ApiError): unknown => (style === 'legacy' ? body(e) : protocol === 'transport' ? [body(e)] : { errors: [body(e)] });
  const data = protocol === 'transport' ? 'next' : 'data';
  return {
    ack: () => '{"type":"connection_ack"}',
    keepAlive: () => (protocol === 'transport' ? '{"type":"ping","payload":{"message":"keepalive"}}' : '{"type":"ka"}'),
    data: (id, payload) => `{"type":"${data}","id":${JSON.stringify(id)},"payload":${payload}}`,
    error: (id, e) => JSON.stringify({ type: 'error', id, payload: refused(e) }),
    startError: (id, e) => JSON.stringify({ type: 'error', id, payload: body(e) }),
    failed: (id, e) => JSON.stringify({ type: data, id, payload: { data: null, errors: [body(e)] } }),
    complete: (id) => JSON.stringify({ type: 'complete', id }),
  };
}

/** The body of a GraphQL error response for an error met while a subscription ran. */
export function errorsPayload(e: ApiError): string {
  return JSON.stringify({ errors: [graphqlErrorBody(e)] });
}

/** A close reason fits in 123 bytes (RFC 6455 §5.5). */
export function closeReason(text: string): string {
  const buf = Buffer.from(text, 'utf8');
  return buf.length <= 123 ? text : buf.subarray(0, 120).toString('utf8');
}
