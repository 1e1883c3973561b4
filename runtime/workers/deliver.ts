// One webhook call of an event, cron or one-off scheduled event (reference/events.md §3, §4, §6):
// POST the JSON body with Content-Type, the engine's user agent and the configured headers (values
// from the environment read now, at send time), bounded by the timeout; a request_transform
// rewrites the request first (reference/kriti.md §7). What happened is kept in the shapes of the
// invocation logs: `request` {payload, headers, version} and `response` webhook_response |
// client_error.

import { request } from 'undici';
import { renderUrlTemplate, type Json } from '../bundle/index.js';
import {
  applyRequestTransform, parseRequestTransform, requestContext, type HttpRequest, type RequestTransformation,
} from '../transforms/index.js';
import type { HeaderConf } from './definitions.js';
import type { HttpPool } from './http-pool.js';

/** What the worker asks to send. */
export interface WebhookCall {
  /** The webhook as configured: a URL (with `{{VAR}}` read from the environment), or where to find one. */
  readonly webhook: { readonly kind: 'url'; readonly url: string } | { readonly kind: 'env'; readonly name: string };
  /** The JSON body, as text (event payloads are spliced in as the database printed them). */
  readonly body: string;
  readonly headers: readonly HeaderConf[];
  readonly timeoutSec: number;
  /** The request_transform as stored in the metadata (parsed here, once per stored object). */
  readonly transform?: Json;
  /** `$session_variables` of the transform (event triggers: the event's; cron: none). */
  readonly sessionVariables?: { readonly [k: string]: Json } | null;
}

/** How the call ended. `aborted`: shutdown cut it off (the caller puts the event back untouched). */
export type Outcome =
  | { readonly kind: 'response'; readonly status: number; readonly body: string; readonly headers: readonly (readonly [string, string])[]; readonly retryAfter: number | null }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'aborted' };

/** One attempt, with its invocation log row. */
export interface Attempt {
  readonly outcome: Outcome;
  /** Any 2xx answer. */
  readonly success: boolean;
  /** The HTTP status; null when no answer came (transport error, timeout, bad configuration). */
  readonly status: number | null;
  /** The invocation log's `request` JSON, as text. */
  readonly request: string;
  /** The invocation log's `response` JSON, as text. */
  readonly response: string;
}

class CallError extends Error {}

const parsedTransforms = new WeakMap<object, RequestTransformation | Error>();

function transformOf(stored: Json | undefined): RequestTransformation | null {
  if (stored === undefined || stored === null || typeof stored !== 'object') return null;
  let t = parsedTransforms.get(stored);
  if (t === undefined) {
    try {
      t = parseRequestTransform(stored, ['request_transform']);
    } catch (e) {
      t = e instanceof Error ? e : new Error(String(e));
    }
    parsedTransforms.set(stored, t);
  }
  if (t instanceof Error) throw new CallError(`invalid request_transform: ${t.message}`);
  return t;
}

function envValue(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name];
  if (v === undefined) throw new CallError(`environment variable ${JSON.stringify(name)} is not set`);
  return v;
}

/** The webhook URL: `{{VAR}}` parts come from the environment, as Hasura's webhook templates do. */
export function webhookUrl(webhook: WebhookCall['webhook'], env: NodeJS.ProcessEnv): string {
  if (webhook.kind === 'env') return envValue(env, webhook.name);
  return renderUrlTemplate(webhook.url, (name) => envValue(env, name));
}

function headerPairs(call: WebhookCall, userAgent: string, env: NodeJS.ProcessEnv): [string, string][] {
  const configured = call.headers.map((h): [string, string] => [h.name, 'value' in h ? h.value : envValue(env, h.value_from_env)]);
  // A configured header of the same name replaces the engine's own.
  const names = new Set(configured.map(([n]) => n.toLowerCase()));
  const own: [string, string][] = [['Content-Type', 'application/json'], ['User-Agent', userAgent]];
  return [...own.filter(([n]) => !names.has(n.toLowerCase())), ...configured];
}

function headersJson(pairs: readonly (readonly [string, string])[]): string {
  return JSON.stringify(pairs.map(([name, value]) => ({ name, value })));
}

function requestLog(body: string, headers: readonly (readonly [string, string])[], transformed?: HttpRequest): string {
  const extra = transformed ? `,"transformed_request":${JSON.stringify({
    url: transformed.url, method: transformed.method, headers: transformed.headers.map(([name, value]) => ({ name, value })),
    body: transformed.body.kind === 'json' ? transformed.body.value : transformed.body.kind === 'text' ? transformed.body.text : null,
  })}` : '';
  return `{"payload":${body},"headers":${headersJson(headers)},"version":"2"${extra}}`;
}

function clientError(message: string): string {
  return JSON.stringify({ type: 'client_error', data: { message }, version: '2' });
}

function responseLog(status: number, body: string, headers: readonly (readonly [string, string])[]): string {
  return JSON.stringify({ type: 'webhook_response', data: { status, body, headers: headers.map(([name, value]) => ({ name, value })) }, version: '2' });
}

/** `Retry-After` in whole seconds; the HTTP-date form is not read (Hasura reads seconds only). */
function retryAfterOf(headers: readonly (readonly [string, string])[]): number | null {
  const v = headers.find(([n]) => n === 'retry-after')?.[1]?.trim();
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, v] of Object.entries(raw)) {
    if (Array.isArray(v)) for (const x of v) out.push([name, x]);
    else if (v !== undefined) out.push([name, v]);
  }
  return out;
}

function failure(message: string, log: string): Attempt {
  return { outcome: { kind: 'error', message }, success: false, status: null, request: log, response: clientError(message) };
}

interface Prepared {
  readonly url: string;
  readonly method: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string | undefined;
  readonly log: string;
}

function prepare(call: WebhookCall, userAgent: string, env: NodeJS.ProcessEnv): Prepared {
  const url = webhookUrl(call.webhook, env);
  const headers = headerPairs(call, userAgent, env);
  const transform = transformOf(call.transform);
  if (!transform) return { url, method: 'POST', headers, body: call.body, log: requestLog(call.body, headers) };
  const original: HttpRequest = { url, method: 'POST', headers, body: { kind: 'json', value: JSON.parse(call.body) as Json } };
  const configured = call.webhook.kind === 'url' ? call.webhook.url : url;
  const out = applyRequestTransform(transform, original, requestContext(original, call.sessionVariables ?? null, configured));
  if (out.kind === 'error') throw new CallError(`request transform failed: ${JSON.stringify(out.errors)}`);
  const r = out.request;
  const body = r.body.kind === 'json' ? JSON.stringify(r.body.value) : r.body.kind === 'text' ? r.body.text : undefined;
  return { url: r.url, method: r.method, headers: r.headers, body, log: requestLog(call.body, headers, r) };
}

/** Sends one call through the pool (the caller holds a slot). `stop` aborts it on shutdown. */
export async function deliverWebhook(pool: HttpPool, call: WebhookCall, stop: AbortSignal, env: NodeJS.ProcessEnv = process.env): Promise<Attempt> {
  let p: Prepared;
  try {
    p = prepare(call, pool.userAgent, env);
  } catch (e) {
    const message = e instanceof CallError ? e.message : `cannot build the request: ${e instanceof Error ? e.message : String(e)}`;
    return failure(message, requestLog(call.body, []));
  }
  const timeoutMs = Math.max(1, call.timeoutSec) * 1000;
  // One controller and one timer per call: AbortSignal.any and AbortSignal.timeout cost more
  // than the rest of a call at a thousand calls a second.
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, timeoutMs);
  const onStop = (): void => abort.abort();
  if (stop.aborted) abort.abort();
  else stop.addEventListener('abort', onStop, { once: true });
  // A delivery is the root of its own trace (the change that caused it was committed earlier, by
  // a request whose trace has ended); the webhook receives it as its parent.
  const span = pool.tracing !== null && pool.tracing.on ? pool.tracing.startRoot(`${p.method} webhook`, 'client') : null;
  try {
    const res = await request(p.url, {
      method: p.method as 'POST', headers: span ? [...p.headers.flat(), 'traceparent', span.traceparent()] : p.headers.flat(), body: p.body, dispatcher: pool.dispatcher,
      signal: abort.signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs,
    });
    const body = await res.body.text();
    const headers = responseHeaders(res.headers);
    const status = res.statusCode;
    const success = status >= 200 && status < 300;
    span?.set('http.response.status_code', status);
    if (span && !success) span.fail(`HTTP ${status}`);
    return {
      outcome: { kind: 'response', status, body, headers, retryAfter: success ? null : retryAfterOf(headers) },
      success, status, request: p.log, response: responseLog(status, body, headers),
    };
  } catch (e) {
    span?.fail(timedOut ? 'timeout' : stop.aborted ? 'aborted' : String((e as Error).message ?? e));
    if (timedOut) return failure(`webhook did not answer within ${call.timeoutSec} s (timeout_sec)`, p.log);
    if (stop.aborted) return { outcome: { kind: 'aborted' }, success: false, status: null, request: p.log, response: clientError('aborted on shutdown') };
    const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
    const code = err.cause?.code ?? err.code;
    return failure(`webhook request failed: ${err.cause?.message ?? err.message ?? String(e)}${code ? ` (${code})` : ''}`, p.log);
  } finally {
    span?.set('http.request.method', p.method).set('url.full', p.url).end();
    clearTimeout(timer);
    stop.removeEventListener('abort', onStop);
  }
}
