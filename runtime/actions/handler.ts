// One call of an action handler (reference/actions.md §2): POST of the JSON payload to the
// handler URL, with `{{ENV}}` templates of the URL and `value_from_env` headers read from the
// environment at call time, the client's headers when the action forwards them, and the action's
// timeout. The answer is bounded in size: a handler cannot make the engine hold more than that.

import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { renderUrlTemplate, type ActionModel, type Json } from '../bundle/index.js';
import { ApiError, unsetVariableReason } from '../errors/index.js';
import { outgoingCall } from '../tracing/index.js';

/** What a handler is sent. */
export interface HandlerRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string;
}

/** What a handler answered. */
export interface HandlerResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  /** The body as text (at most `maxBytes`). */
  readonly text: string;
}

/** Where the environment comes from (process.env by default; tests give their own). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The most bytes of a handler's answer read (64 MB). */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

// Client headers never forwarded (Hasura's commonClientHeadersIgnored, plus the body's own and the session's).
const NOT_FORWARDED = new Set(['content-length', 'content-md5', 'user-agent', 'host', 'origin', 'referer', 'accept', 'accept-encoding',
  'accept-language', 'accept-datetime', 'cache-control', 'connection', 'dnt', 'content-type', 'transfer-encoding', 'keep-alive', 'upgrade',
  'te', 'trailer', 'proxy-authorization', 'proxy-connection', 'x-svc-admin-secret']);

/** The handler URL with each `{{NAME}}` replaced by the environment's value; a missing one is an error. */
export function handlerUrl(template: string, env: Environment): string {
  return renderUrlTemplate(template, (name) => {
    const v = env[name];
    if (v === undefined) throw new ApiError('unexpected', `environment variable "${name}" not set`, 500, []);
    return v;
  });
}

/** The configured headers with their values (environment read now), then the forwarded client headers. */
export function handlerHeaders(action: ActionModel, env: Environment, client: Readonly<Record<string, string>>): [string, string][] {
  const configured = action.headers.map((h): [string, string] => {
    if (h.kind === 'value') return [h.name, h.value];
    const v = env[h.env];
    // Hasura's words (getHeadersFromConf): the name in single quotes.
    if (v === undefined) throw new ApiError('unexpected', unsetVariableReason(h.env), 500, []);
    return [h.name, v];
  });
  if (!action.forwardClientHeaders) return configured;
  const taken = new Set(configured.map(([n]) => n.toLowerCase()));
  const forwarded = Object.entries(forwardable(client)).filter(([n]) => !taken.has(n.toLowerCase()));
  return [...configured, ...forwarded];
}

/**
 * The client headers an action forwards, as Hasura's mkClientHeadersForward makes them: the
 * client's Host and User-Agent as X-Forwarded-Host and X-Forwarded-User-Agent, then its other
 * headers but those describing the request itself (commonClientHeadersIgnored, hop-by-hop ones) and
 * the session's (x-svc-*, the admin secret among them).
 */
export function forwardable(client: Readonly<Record<string, string>>): { [name: string]: string } {
  const out: { [name: string]: string } = {};
  for (const [n, v] of Object.entries(client)) {
    const lower = n.toLowerCase();
    if (lower === 'host') out['X-Forwarded-Host'] = v;
    else if (lower === 'user-agent') out['X-Forwarded-User-Agent'] = v;
  }
  for (const [n, v] of Object.entries(client)) {
    const lower = n.toLowerCase();
    if (!NOT_FORWARDED.has(lower) && !lower.startsWith('x-svc-')) out[n] = v;
  }
  return out;
}

/** The failure of the HTTP exchange itself (no answer): refused, reset, timed out. */
export class HttpFailure extends Error {
  constructor(readonly kind: 'timeout' | 'connection' | 'too_large', message: string) {
    super(message);
  }
}

/**
 * Sends one request; answers the response, or throws HttpFailure. The answer's headers keep the
 * names and the order the handler sent them in (node:http's rawHeaders): Hasura reports them so in
 * an error's `internal.response.headers` ("Content-Type", not "content-type").
 */
export async function callHandler(req: HandlerRequest, timeoutSeconds: number, maxBytes = MAX_RESPONSE_BYTES): Promise<HandlerResponse> {
  const signal = AbortSignal.timeout(Math.max(1, Math.round(timeoutSeconds * 1000)));
  // In a traced request: a client span, whose traceparent the handler receives.
  const traced = outgoingCall(`${req.method} action handler`, req.method, req.url);
  const sent = [...req.headers].map(([k, v]) => [k, v] as [string, string]);
  if (traced) for (const [k, v] of Object.entries(traced.headers)) sent.push([k, v]);
  let url: URL;
  try {
    url = new URL(req.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol}`);
  } catch (e) {
    traced?.span.fail((e as Error).message);
    traced?.span.end();
    throw new HttpFailure('connection', (e as Error).message);
  }
  try {
    const res = await exchange(url, req, sent, signal, maxBytes);
    traced?.span.set('http.response.status_code', res.status);
    return res;
  } catch (e) {
    traced?.span.fail((e as Error).message);
    if (e instanceof HttpFailure) throw e;
    throw failureOf(e, signal);
  } finally {
    traced?.span.end();
  }
}

// One HTTP exchange on node:http(s): the body read up to maxBytes, the raw header pairs kept.
function exchange(url: URL, req: HandlerRequest, headers: readonly (readonly [string, string])[], signal: AbortSignal, maxBytes: number): Promise<HandlerResponse> {
  const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
  // Names as given (the first spelling of a repeated one), repeated values as a list.
  const flat: { [name: string]: string[] } = {};
  const spelled = new Map<string, string>();
  for (const [k, v] of headers) {
    const name = spelled.get(k.toLowerCase()) ?? k;
    spelled.set(k.toLowerCase(), name);
    (flat[name] ??= []).push(v);
  }
  if (body !== undefined && !spelled.has('content-length')) flat['Content-Length'] = [String(body.length)];
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<HandlerResponse>((resolve, reject) => {
    const out = send(url, { method: req.method, headers: flat, signal }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > maxBytes) {
          res.destroy();
          reject(new HttpFailure('too_large', `the response is larger than ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    out.on('error', reject);
    out.end(body);
  });
}

function failureOf(e: unknown, signal: AbortSignal): HttpFailure {
  if (signal.aborted) return new HttpFailure('timeout', 'Response timeout');
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : e instanceof Error ? e.message : String(e);
  return new HttpFailure('connection', cause);
}

/** Parses a body as JSON; undefined when it is not JSON. */
export function parseBody(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}
