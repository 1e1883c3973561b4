// One POST of a GraphQL body to a remote server: the headers it carries (configured, forwarded,
// session), a time limit, and a cap on the answer's size, so a slow or huge remote costs a
// request its own time and memory only.

import type { Session } from '../bundle/index.js';
import { unsetVariableReason } from '../errors/index.js';
import type { RemoteDefinition } from './definition.js';
import { outgoingCall } from '../tracing/index.js';

/** The client's request headers, lower-cased names. */
export type ClientHeaders = { readonly [name: string]: string };

/**
 * Why a call failed, in the words Hasura reports (the inconsistency reason or the error message);
 * for an HTTP exception, Hasura's encoding of it (`{type: "http_exception", message}`) as `internal`.
 */
export class RemoteFailure extends Error {
  constructor(message: string, readonly internal?: { readonly type: string; readonly message: string }) {
    super(message);
  }
}

/** The most bytes read from one remote answer (a bigger one fails the call). */
export const MAX_REMOTE_RESPONSE_BYTES = 64 * 1024 * 1024;

// Headers of the client's request that describe that request itself, not the caller: never forwarded.
const NOT_FORWARDED = new Set(['content-length', 'content-md5', 'user-agent', 'host', 'origin', 'referer', 'accept', 'accept-encoding',
  'accept-language', 'accept-datetime', 'cache-control', 'connection', 'dnt', 'content-type', 'transfer-encoding', 'keep-alive',
  'upgrade', 'te', 'trailer', 'proxy-authorization', 'proxy-connection', 'x-svc-admin-secret', 'x-svc-access-key']);

/**
 * The remote's URL, from `url` or its environment variable. An unset variable is named as Hasura
 * names it everywhere (`environment variable 'X' not set`: getUrlFromEnv, getHeadersFromConf).
 */
export function remoteUrl(def: RemoteDefinition): string {
  if (def.url !== null) return def.url;
  const v = def.urlFromEnv !== null ? process.env[def.urlFromEnv] : undefined;
  if (v === undefined || v === '') throw new RemoteFailure(unsetVariableReason(def.urlFromEnv ?? ''));
  return v;
}

/**
 * What a call sends: the session as `x-svc-*` headers (the role included), the client's headers
 * when `forward_client_headers` is on (never the admin secret), then the configured headers,
 * which win on a clash.
 */
export function remoteHeaders(def: RemoteDefinition, session: Session | null, client: ClientHeaders | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (def.forwardClientHeaders && client) {
    for (const [name, value] of Object.entries(client)) if (!NOT_FORWARDED.has(name)) out[name] = value;
  }
  if (session) {
    for (const [name, value] of Object.entries(session.variables)) if (name !== 'x-svc-admin-secret') out[name] = value;
    out['x-svc-role'] = session.role;
  }
  for (const h of def.headers) {
    const value = h.value ?? (h.valueFromEnv !== undefined ? process.env[h.valueFromEnv] : undefined);
    if (value === undefined) throw new RemoteFailure(unsetVariableReason(h.valueFromEnv ?? ''));
    out[h.name.toLowerCase()] = value;
  }
  out['content-type'] = 'application/json';
  return out;
}

/**
 * POSTs `body` and answers the parsed JSON of a 2xx answer; anything else is a RemoteFailure. The
 * answer's Set-Cookie values go to `cookies` when given.
 */
export async function postGraphql(def: RemoteDefinition, headers: Record<string, string>, body: string, cookies?: string[]): Promise<unknown> {
  const url = remoteUrl(def);
  let res: Response;
  // In a traced request: a client span, whose traceparent the remote server receives.
  const traced = outgoingCall('POST remote schema', 'POST', url);
  try {
    res = await fetch(url, { method: 'POST', headers: traced ? { ...headers, ...traced.headers } : headers, body, signal: AbortSignal.timeout(def.timeoutSeconds * 1000), redirect: 'error' });
    traced?.span.set('http.response.status_code', res.status);
  } catch (e) {
    traced?.span.fail((e as Error).message);
    // Hasura's HttpException JSON: a time limit reached is "Response timeout", anything else a connection failure.
    const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
    throw new RemoteFailure(`HTTP exception occurred while sending the request to ${url}`,
      { type: 'http_exception', message: timedOut ? 'Response timeout' : 'Connection failure' });
  } finally {
    traced?.span.end();
  }
  let text: string;
  try {
    text = await readCapped(res);
  } catch (e) {
    throw e instanceof RemoteFailure ? e : new RemoteFailure(`HTTP exception occurred while sending the request to ${url}`);
  }
  if (res.status < 200 || res.status >= 300) {
    throw new RemoteFailure(`remote server at ${url} answered with status ${res.status}`);
  }
  if (cookies) cookies.push(...res.headers.getSetCookie());
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RemoteFailure(`the remote server at ${url} did not answer with JSON`);
  }
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_REMOTE_RESPONSE_BYTES) {
      await res.body.cancel().catch(() => undefined);
      throw new RemoteFailure(`the remote server's answer is larger than ${MAX_REMOTE_RESPONSE_BYTES} bytes`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
