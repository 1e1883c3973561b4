// One action call and the mapping of its answer (reference/actions.md §3, Hasura's callWebhook):
// a 2xx JSON answer is the output (checked against the type by the caller), a 4xx answer
// `{message, code?, extensions?}` is the client's error, anything else (another status, a body
// that is not JSON, no answer in time) an `unexpected` error whose `internal` holds the exchange.

import type { ActionModel, Json } from '../bundle/index.js';
import { jsonDecodeError, jsonKind } from '../errors/index.js';
import {
  applyRequestTransform, applyResponseTransform, parseRequestTransform, parseResponseTransform, requestContext,
  type HttpRequest, type RequestTransformation, type ResponseTransformation,
} from '../transforms/index.js';
import { ActionFailure } from './failure.js';
import { callHandler, forwardable, handlerHeaders, handlerUrl, HttpFailure, parseBody, type Environment } from './handler.js';

// Transforms parsed once per stored definition (the model is immutable; a new one parses again).
const requestTransforms = new WeakMap<object, RequestTransformation | Error>();
const responseTransforms = new WeakMap<object, ResponseTransformation | Error>();

function parsedOnce<T>(cache: WeakMap<object, T | Error>, stored: Json | undefined, key: string, parse: (v: unknown, path: (string | number)[]) => T): T | null {
  if (stored === undefined || stored === null || typeof stored !== 'object') return null;
  let t = cache.get(stored);
  if (t === undefined) {
    try {
      t = parse(stored, [key]);
    } catch (e) {
      t = e instanceof Error ? e : new Error(String(e));
    }
    cache.set(stored, t);
  }
  if (t instanceof Error) throw new ActionFailure(`invalid ${key}: ${t.message}`, 'unexpected');
  return t;
}

function requestJson(r: HttpRequest): Json {
  return { url: r.url, method: r.method, headers: r.headers.map(([name, value]) => ({ name, value })),
    body: r.body.kind === 'json' ? r.body.value : r.body.kind === 'text' ? r.body.text : null };
}

/** The body a handler receives. */
export interface ActionPayload {
  readonly action: { readonly name: string };
  readonly input: Json;
  readonly session_variables: { readonly [k: string]: string };
  /** The client's query text; null for an asynchronous call (Hasura's `_awpRequestQuery`, Nothing, kept as null). */
  readonly request_query: string | null;
}

/** A 2xx answer: the body, the exchange for the errors of the output check, the answer's Set-Cookie values. */
export interface Answer {
  readonly body: Json;
  readonly internal: Json;
  readonly cookies: readonly string[];
}

/** Calls the handler of `action`; answers its 2xx body or throws the ActionFailure the client sees. */
export async function invokeAction(action: ActionModel, payload: ActionPayload, clientHeaders: Readonly<Record<string, string>>, env: Environment,
  userAgent?: string): Promise<Answer> {
  const url = handlerUrl(action.handler, env);
  // Hasura's default headers (Content-Type, and User-Agent naming the engine and its version) come first.
  const headers: [string, string][] = [['Content-Type', 'application/json'], ...(userAgent ? [['User-Agent', userAgent] as [string, string]] : []),
    ...handlerHeaders(action, env, clientHeaders)];
  // Hasura's ActionRequestInfo headers: the configured ones as configured (an environment
  // variable by its name, never its value), then the forwarded client headers.
  const configured: Json[] = [...action.headers.map((h): Json => (h.kind === 'value' ? { name: h.name, value: h.value } : { name: h.name, value_from_env: h.env })),
    ...(action.forwardClientHeaders ? Object.entries(forwardable(clientHeaders)).map(([name, value]): Json => ({ name, value })) : [])];
  const original: HttpRequest = { url, method: 'POST', headers, body: { kind: 'json', value: payload as unknown as Json } };
  const transform = parsedOnce(requestTransforms, action.requestTransform, 'request_transform', parseRequestTransform);
  let sent = original;
  if (transform) {
    const out = applyRequestTransform(transform, original, requestContext(original, payload.session_variables, url));
    if (out.kind === 'error') throw new ActionFailure('request transform failed', 'unexpected', { errors: out.errors as unknown as Json });
    sent = out.request;
  }
  const requestInfo: Json = { body: payload as unknown as Json, url: action.handler, headers: configured, transformed_request: transform ? requestJson(sent) : null };
  const bodyText = sent.body.kind === 'json' ? JSON.stringify(sent.body.value) : sent.body.kind === 'text' ? sent.body.text : undefined;
  let res;
  try {
    res = await callHandler({ url: sent.url, method: sent.method, headers: sent.headers, ...(bodyText !== undefined ? { body: bodyText } : {}) }, action.timeout);
  } catch (e) {
    if (!(e instanceof HttpFailure)) throw e;
    // Hasura's ActionInternalError: the HttpException as `error` (its type and message), the request, no response.
    const error: Json = e.kind === 'too_large' ? { type: 'http_exception', message: e.message }
      : { type: 'http_exception', message: e.kind === 'timeout' ? 'Response timeout' : 'Connection failure' };
    throw new ActionFailure('http exception when calling webhook', 'unexpected', { error, request: requestInfo, response: null });
  }
  const received = parseBody(res.text);
  const body = received === undefined ? undefined : responseTransformed(action, received, res.status, transform ? requestJson(sent) : null, payload.session_variables);
  const responseInfo: Json = { status: res.status, body: body === undefined ? res.text : body, headers: res.headers.map(([name, value]) => ({ name, value })) };
  // An answer that is not JSON: Hasura's ActionInternalError with aeson's reason and the raw text.
  if (body === undefined) {
    throw new ActionFailure('not a valid json response from webhook', 'unexpected', { error: `invalid json: ${jsonDecodeError(res.text)}`, response: responseInfo, request: requestInfo });
  }
  const internal: Json = { error: 'unexpected response', response: responseInfo, request: requestInfo };
  if (res.status >= 200 && res.status < 300) {
    return { body, internal, cookies: res.headers.filter(([name]) => name.toLowerCase() === 'set-cookie').map(([, value]) => value) };
  }
  if (res.status >= 400 && res.status < 500) throw clientError(body, internal);
  throw new ActionFailure('internal error', 'unexpected', { error: `expecting 2xx or 4xx status code, but found ${res.status}`, request: requestInfo, response: responseInfo });
}

/**
 * A 4xx answer `{message, code?, extensions?}` as the client's error (Hasura's ActionWebhookErrorResponse).
 * One that does not parse as that record is aeson's `parse-failed` error at the field it stopped
 * at, message first, then code ("the key 'message' was not present", "parsing Text failed, ...").
 */
function clientError(body: Json, internal: Json): ActionFailure {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return new ActionFailure('the error response of the action webhook is not an object with a "message"', 'unexpected', internal);
  }
  const notText = (key: string, v: Json): ActionFailure =>
    new ActionFailure(`parsing Text failed, expected String, but encountered ${jsonKind(v)}`, 'parse-failed', internal, undefined, `$.${key}`);
  const message = body['message'];
  if (message === undefined) return new ActionFailure("the key 'message' was not present", 'parse-failed', internal);
  if (typeof message !== 'string') return notText('message', message);
  const code = body['code'];
  if (code !== undefined && code !== null && typeof code !== 'string') return notText('code', code);
  const extensions = body['extensions'];
  return new ActionFailure(message, typeof code === 'string' ? code : 'unexpected', undefined, extensions !== undefined && extensions !== null ? extensions : undefined);
}

// The answer through the action's response_transform (when it has one).
function responseTransformed(action: ActionModel, body: Json, status: number, request: Json, session: { readonly [k: string]: string }): Json {
  const t = parsedOnce(responseTransforms, action.responseTransform, 'response_transform', parseResponseTransform);
  if (!t) return body;
  const out = applyResponseTransform(t, body, { request, status, sessionVariables: session });
  if (out.kind === 'error') throw new ActionFailure('response transform failed', 'unexpected', { errors: out.errors as unknown as Json, response: body });
  return out.body;
}
