// test_webhook_transform (spec part B 4.11; reference/kriti.md §9, metadata-ops.md): runs a
// request transform on a mock request and answers `{webhook_url, method, headers, body}`.
// The mock request is a GET with only the given headers and the body as JSON. A template that
// does not parse is 400 `parse-failed` at its key; an evaluation error is still 200, the
// untransformed request with `body` holding the error list (corpus:
// v1/metadata/test_webhook_transform_bad_eval, ..._custom_functions).

import type { Json } from '../bundle/index.js';
import { ApiError, asObject, asString, isObject, jsonKind, type JsonPath, required } from '../errors/index.js';
import {
  applyRequestTransform, isAbsoluteUrl, parseRequestTransform, parseResponseTransform, requestContext,
  type HttpRequest, type RequestBody,
} from '../transforms/index.js';
import { type Obj } from './v1-data-args.js';

// Real environment values are never used here: Hasura refuses them for security reasons and
// reads only the mock `env` of the call (reference/kriti.md §9).
function missingEnv(name: string, path: JsonPath): ApiError {
  return new ApiError('not-found',
    `Missing Env Var: ${name}. For security reasons when testing request options real environment variable values are not available. Please enter a mock value for ${name} in the Sample Env Variables list.`,
    400, path);
}

/** Fills `{{VAR}}` placeholders from the mock environment. */
function fillEnv(text: string, env: Readonly<Record<string, string>>, path: JsonPath): string {
  let out = '';
  let rest = text;
  for (;;) {
    const open = rest.indexOf('{{');
    if (open < 0) return out + rest;
    const close = rest.indexOf('}}', open + 2);
    if (close < 0) throw new ApiError('parse-failed', 'Invalid Url Template', 400, path);
    const name = rest.slice(open + 2, close).trim();
    const value = env[name];
    if (value === undefined) throw missingEnv(name, path);
    out += rest.slice(0, open) + value;
    rest = rest.slice(close + 2);
  }
}

function mockEnv(o: Obj, path: JsonPath): Record<string, string> {
  if (!Object.hasOwn(o, 'env') || o.env === null) return {};
  const env = asObject(o.env, [...path, 'env']);
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, asString(v, [...path, 'env', k])]));
}

/** `webhook_url`: a URL text with `{{VAR}}` placeholders, or `{from_env: VAR}`. */
function webhookUrl(v: unknown, env: Readonly<Record<string, string>>, path: JsonPath): string {
  if (typeof v === 'string') return fillEnv(v, env, path);
  if (!isObject(v)) throw new ApiError('parse-failed', `parsing Text failed, expected String or Object, but encountered ${jsonKind(v)}`, 400, path);
  const name = required(v, 'from_env', path, asString);
  const value = env[name];
  if (value === undefined) throw missingEnv(name, [...path, 'from_env']);
  return value;
}

/** `request_headers`: `[[name, value], ...]` or `{name: value}`; values may use `{{VAR}}`. */
function mockHeaders(o: Obj, env: Readonly<Record<string, string>>, path: JsonPath): [string, string][] {
  const v = o.request_headers;
  if (v === undefined || v === null) return [];
  const at = [...path, 'request_headers'];
  let pairs: [string, string][];
  if (Array.isArray(v)) {
    pairs = v.map((p, i) => {
      if (!Array.isArray(p) || p.length !== 2) {
        throw new ApiError('parse-failed', `parsing (a, b) failed, expected Array of length 2, but encountered ${jsonKind(p)}`, 400, [...at, i]);
      }
      return [asString(p[0], [...at, i, 0]), asString(p[1], [...at, i, 1])];
    });
  } else {
    pairs = Object.entries(asObject(v, at)).map(([k, x]) => [k, asString(x, [...at, k])]);
  }
  return pairs.map(([k, x], i) => [k, fillEnv(x, env, [...at, i])]);
}

function sessionVariables(o: Obj, path: JsonPath): { [k: string]: Json } | null {
  if (!Object.hasOwn(o, 'session_variables') || o.session_variables === null) return null;
  return asObject(o.session_variables, [...path, 'session_variables']) as { [k: string]: Json };
}

/** The body as the test shows it: JSON back as JSON, other text as a string, none as null. */
function shownBody(b: RequestBody): Json {
  if (b.kind === 'json') return b.value;
  if (b.kind === 'none') return null;
  try {
    return JSON.parse(b.text) as Json;
  } catch {
    return b.text;
  }
}

function answer(req: HttpRequest, body: Json): Json {
  return {
    webhook_url: req.url,
    method: req.method,
    headers: req.headers.map(([n, v]) => [n.toLowerCase(), v]),
    body,
  };
}

/**
 * Runs test_webhook_transform on `args` (found at `path`). `_env` is the server's environment,
 * deliberately unused: only the call's mock `env` feeds `{{VAR}}` and `from_env`.
 */
export function testWebhookTransform(args: Json, path: JsonPath, _env: NodeJS.ProcessEnv): Json {
  const o = asObject(args, path, 'TestWebhookTransform');
  const env = mockEnv(o, path);
  const configured = webhookUrl(required(o, 'webhook_url', path, (v) => v), env, [...path, 'webhook_url']);
  const headers = mockHeaders(o, env, path);
  if (!Object.hasOwn(o, 'body')) throw new ApiError('parse-failed', "the key 'body' was not present", 400, path);
  const session = sessionVariables(o, path);
  const transform = required(o, 'request_transform', path, parseRequestTransform);
  if (Object.hasOwn(o, 'response_transform') && o.response_transform !== null) {
    parseResponseTransform(o.response_transform, [...path, 'response_transform']);
  }
  if (!isAbsoluteUrl(configured)) {
    throw new ApiError('validation-failed', 'request transform validation failed', 400, path, [
      { error_code: 'Request Initialization Error', message: `Invalid URL: ${configured}` },
    ]);
  }
  const original: HttpRequest = { url: new URL(configured).href, method: 'GET', headers, body: { kind: 'json', value: o.body as Json } };
  const outcome = applyRequestTransform(transform, original, requestContext(original, session, configured));
  if (outcome.kind === 'error') return answer(original, outcome.errors as unknown as Json);
  return answer(outcome.request, shownBody(outcome.request.body));
}
