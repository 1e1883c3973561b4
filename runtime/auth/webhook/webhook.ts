import { LRUCache } from 'lru-cache';
import { ApiError, formatPath, jsonDecodeError, jsonKind } from '../../errors/index.js';
import { outgoingCall } from '../../tracing/index.js';
import type { Session } from '../../bundle/index.js';
import { parseCacheControl, parseHttpDate } from '../cache-headers.js';
import { markSessionExpiry } from '../session-expiry.js';
import type { AuthRequest, Authenticator } from '../session.js';

/** SVC_GRAPHQL_AUTH_HOOK_MODE. */
export type WebhookMode = 'GET' | 'POST';

/** Options of the auth webhook (SVC_GRAPHQL_AUTH_HOOK, SVC_GRAPHQL_AUTH_HOOK_MODE). */
export interface WebhookOptions {
  readonly url: string;
  readonly mode?: WebhookMode;
  /** Milliseconds before a hook call fails (default 30 s). */
  readonly timeoutMs?: number;
  /** Cached answers kept (default 10000). */
  readonly cacheSize?: number;
  readonly log?: (line: string) => void;
  /** A failed call as Hasura's webhook-log has it; without it, failures go to `log` as text. */
  readonly webhookLog?: (entry: WebhookLogEntry) => void;
}

/**
 * A failed call of the auth webhook, the fields of Hasura's WebHookLog (Server/Logging.hs), as
 * userInfoFromAuthHook logs them (Server/Auth/WebHook.hs): the call that did not complete
 * (http_error), or the answer neither 200 nor 401 and a 200 that is no session (its body).
 */
export interface WebhookLogEntry {
  readonly statusCode: number | null;
  readonly url: string;
  readonly method: WebhookMode;
  readonly httpError: { readonly type: string; readonly message: string } | null;
  readonly response: string | null;
  readonly message: string | null;
}

// The kind of a failed fetch, in the words of Hasura's HttpException JSON.
function httpErrorOf(e: unknown): { type: string; message: string } {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return { type: 'response_timeout', message: err.message };
  const code = err.cause?.code;
  const type = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' ? 'connection_failure' : 'http_exception';
  return { type, message: err.cause?.message ?? err.message };
}

/** Webhook mode as an Authenticator. */
export interface WebhookAuthenticator extends Authenticator {
  readonly kind: 'webhook';
  /** The hook decides every request: a session or an error, never "no credentials". */
  authenticate(req: AuthRequest): Promise<Session>;
  close(): void;
}

// Headers Hasura does not forward in GET mode (reference/auth.md §3), plus hop-by-hop ones
// that an HTTP client may not set.
const NOT_FORWARDED = new Set(['content-length', 'content-type', 'content-md5', 'user-agent', 'host', 'origin', 'referer',
  'accept', 'accept-encoding', 'accept-language', 'accept-datetime', 'cache-control', 'connection', 'dnt',
  'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'expect', 'proxy-connection']);
const ROLE = 'x-svc-role';
const PREFIX = 'x-svc-';

const setCookies = new WeakMap<Session, readonly string[]>();

/** `Set-Cookie` values the auth webhook gave with this session, to copy to the client response. */
export function sessionResponseHeaders(session: Session): Readonly<Record<string, readonly string[]>> {
  const cookies = setCookies.get(session);
  return cookies && cookies.length > 0 ? { 'set-cookie': cookies } : NO_HEADERS;
}
const NO_HEADERS: Readonly<Record<string, readonly string[]>> = Object.freeze({});

interface Cached {
  readonly session: Session;
  readonly expiresAtMs: number;
}

function invalidResponse(detail?: string): ApiError {
  return new ApiError('unexpected', `Invalid response from authorization hook${detail ? `: ${detail}` : ''}`, 500);
}

/** The session of a 200 answer, and until when it may be reused (body `Cache-Control` / `Expires`). */
function readAnswer(text: string, nowMs: number): { session: Session; expiresAtMs: number | null } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Hasura's words: aeson's eitherDecode message (Server/Auth/WebHook.hs mkUserInfoFromResp).
    throw invalidResponse(jsonDecodeError(text));
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidResponse(`Error in $: parsing HashMap ~Text failed, expected Object, but encountered ${jsonKind(body)}`);
  }
  const variables: Record<string, string> = {};
  let cacheControl: string | null = null;
  let expires: string | null = null;
  for (const [key, value] of Object.entries(body)) {
    // Hasura reads the body as a map of text to text: every value must be a string.
    if (typeof value !== 'string') {
      throw invalidResponse(`Error in ${formatPath([key])}: parsing Text failed, expected String, but encountered ${jsonKind(value)}`);
    }
    const name = key.toLowerCase();
    if (name.startsWith(PREFIX)) variables[name] = value;
    // Looked up as keys of the answer's map, so spelled exactly so (WebHook.hs timeFromCacheControl, timeFromExpires).
    else if (key === 'Cache-Control') cacheControl = value;
    else if (key === 'Expires') expires = value;
  }
  const role = variables[ROLE];
  if (role === undefined) throw new ApiError('invalid-params', `${ROLE} not found in session variables`);
  return { session: { role, variables, isAdmin: role === 'admin' }, expiresAtMs: expiryOf(cacheControl, expires, nowMs) };
}

// `Cache-Control: max-age=<s>` first, then `Expires`; neither: not cached.
function expiryOf(cacheControl: string | null, expires: string | null, nowMs: number): number | null {
  if (cacheControl !== null) {
    const cc = parseCacheControl(cacheControl);
    if (cc.maxAge !== null) return nowMs + cc.maxAge * 1000;
  }
  return expires !== null ? parseHttpDate(expires) : null;
}

/**
 * The auth webhook (reference/auth.md §3): GET with the client's headers (minus the usual
 * ones), or POST `{headers, request}` (names as sent, `request` null when there is none); 200 gives the session variables (`X-Svc-Role` required),
 * 401 denies, anything else is a 500. Answers carrying `Cache-Control: max-age` or `Expires`
 * are reused for the same headers (and request, in POST mode) until then.
 */
export function createWebhookAuthenticator(opts: WebhookOptions): WebhookAuthenticator {
  const mode = opts.mode ?? 'GET';
  const cache = new LRUCache<string, Cached>({ max: opts.cacheSize ?? 10_000 });
  const timeoutMs = opts.timeoutMs ?? 30_000;

  function requestInit(req: AuthRequest): { key: string; init: RequestInit } {
    if (mode === 'GET') {
      const names = Object.keys(req.headers).sort();
      const forwarded: Record<string, string> = {};
      for (const name of names) if (!NOT_FORWARDED.has(name)) forwarded[name] = req.headers[name]!;
      return { key: JSON.stringify(forwarded), init: { method: 'GET', headers: forwarded } };
    }
    // Hasura's body (Server/Auth/WebHook.hs): every header with its name as the client wrote it, and
    // `request` always, null when the body was no GraphQL request or the endpoint is not GraphQL's.
    const given = req.sent ?? req.headers;
    const headers: Record<string, string> = {};
    for (const name of Object.keys(given).sort()) headers[name] = given[name]!;
    const body = JSON.stringify({ headers, request: req.request ?? null });
    return { key: body, init: { method: 'POST', headers: { 'content-type': 'application/json' }, body } };
  }

  async function call(init: RequestInit): Promise<{ status: number; text: string; cookies: string[] }> {
    // In a traced request: a client span, and its traceparent sent in place of the client's own.
    const traced = outgoingCall(`${init.method} auth webhook`, init.method ?? 'GET', opts.url);
    const headers = traced ? { ...(init.headers as Record<string, string>), ...traced.headers } : init.headers;
    try {
      const res = await fetch(opts.url, { ...init, headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
      traced?.span.set('http.response.status_code', res.status);
      return { status: res.status, text: await res.text(), cookies: res.headers.getSetCookie() };
    } catch (e) {
      traced?.span.fail((e as Error).message);
      if (opts.webhookLog) opts.webhookLog({ statusCode: null, url: opts.url, method: mode, httpError: httpErrorOf(e), response: null, message: null });
      else opts.log?.(`auth webhook ${opts.url}: ${(e as Error).message}`);
      throw new ApiError('unexpected', 'webhook authentication request failed', 500);
    } finally {
      traced?.span.end();
    }
  }

  async function authenticate(req: AuthRequest): Promise<Session> {
    const { key, init } = requestInit(req);
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && now < hit.expiresAtMs) {
      const again = { ...hit.session };
      markSessionExpiry(again, hit.expiresAtMs);
      return again;
    }
    if (hit) cache.delete(key);
    const answer = await call(init);
    if (answer.status === 401) throw new ApiError('access-denied', 'Authentication hook unauthorized this request', 401);
    const failed = (message: string | null): void => {
      if (opts.webhookLog) opts.webhookLog({ statusCode: answer.status, url: opts.url, method: mode, httpError: null, response: answer.text, message });
      else opts.log?.(`auth webhook ${opts.url} answered HTTP ${answer.status}${message ? `: ${message}` : ''}`);
    };
    if (answer.status !== 200) {
      failed(null);
      throw invalidResponse();
    }
    let read;
    try {
      read = readAnswer(answer.text, now);
    } catch (e) {
      // A body that is no session map is the hook's fault (logged); a map without a role is the request's.
      if ((e as ApiError).code === 'unexpected') failed((e as Error).message);
      throw e;
    }
    const { session, expiresAtMs } = read;
    if (expiresAtMs !== null && expiresAtMs > now) cache.set(key, { session, expiresAtMs });
    const fresh = { ...session };
    if (answer.cookies.length > 0) setCookies.set(fresh, answer.cookies);
    if (expiresAtMs !== null) markSessionExpiry(fresh, expiresAtMs);
    return fresh;
  }

  return { kind: 'webhook', authenticate, needsRequest: mode === 'POST', close: () => cache.clear() };
}

/** Reads SVC_GRAPHQL_AUTH_HOOK_MODE (default GET). */
export function parseWebhookMode(value: string | undefined): WebhookMode {
  if (value === undefined || value === '') return 'GET';
  const v = value.toUpperCase();
  if (v === 'GET' || v === 'POST') return v;
  throw new ApiError('invalid-configuration', `auth hook mode must be GET or POST; got "${value}"`);
}
