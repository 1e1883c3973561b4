// Applying a request_transform to an outgoing webhook request (reference/kriti.md §7). Every part
// is computed from the original request's context, never from another part's output; errors of
// all parts are collected into one list, in the order method, url, body, query, headers.

import type { Json } from '../bundle/index.js';
import { encodePairs, isAbsoluteUrl, queryPairs, withoutQuery, withQuery, type QueryPair } from './http-text.js';
import { renderText, runTemplate, transformFunctions, type FunctionTable, type KritiError, type Template } from './kriti/index.js';
import type { BodyTransform, HeadersTransform, QueryParamsTransform, RequestTransformation } from './transform-spec.js';

/** A request body: JSON, raw text (a form), or none. */
export type RequestBody =
  | { readonly kind: 'json'; readonly value: Json }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'none' };

/** An outgoing HTTP request before or after transformation. */
export interface HttpRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: RequestBody;
}

/** The variables a request template sees: `$base_url`, `$body`, `$session_variables`, `$query_params`. */
export interface RequestContext {
  readonly base_url: string;
  readonly body: Json;
  readonly session_variables: { readonly [k: string]: Json } | null;
  readonly query_params: readonly QueryPair[];
}

/** An engine error (as opposed to a Kriti error) in Hasura's shape. */
export interface TransformationError {
  readonly error_code: 'TransformationError';
  readonly message: string;
  readonly value?: Json;
}

/** Any error a transform reports. */
export type TransformError = KritiError | TransformationError;

/** The outcome of a transform: the new request, or every error found. */
export type TransformOutcome =
  | { readonly kind: 'ok'; readonly request: HttpRequest }
  | { readonly kind: 'error'; readonly errors: readonly TransformError[] };

const FORM = 'application/x-www-form-urlencoded';

/** The context of `req`; `baseUrl` is the handler URL as configured (not normalised). */
export function requestContext(req: HttpRequest, sessionVariables: { readonly [k: string]: Json } | null, baseUrl = req.url): RequestContext {
  const body = req.body.kind === 'json' ? req.body.value : req.body.kind === 'text' ? parseJsonOrNull(req.body.text) : null;
  return { base_url: baseUrl, body, session_variables: sessionVariables, query_params: queryPairs(req.url) };
}

function parseJsonOrNull(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return null;
  }
}

/** Lower-cases session variable names, as Hasura prints them. */
function sessionObject(s: RequestContext['session_variables']): { [k: string]: Json } | null {
  if (!s) return null;
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Runs templates against one context, collecting errors. */
class Runner {
  readonly errors: TransformError[] = [];
  private readonly variables: Readonly<Record<string, Json>>;
  private readonly functions: FunctionTable;

  constructor(ctx: RequestContext) {
    const session = sessionObject(ctx.session_variables);
    this.variables = {
      $base_url: ctx.base_url,
      $body: ctx.body,
      $session_variables: session,
      $query_params: ctx.query_params.map(([k, v]) => [k, v]),
    };
    this.functions = transformFunctions(session);
  }

  /** The template's value, or undefined after recording its error. */
  value(t: Template): Json | undefined {
    const r = runTemplate(t, this.variables, this.functions);
    if (r.kind === 'ok') return r.value;
    this.errors.push(r.error);
    return undefined;
  }

  /** A string template's text (string templates always give a string). */
  text(t: Template): string | undefined {
    const v = this.value(t);
    return v === undefined ? undefined : renderText(v);
  }

  fail(message: string, value?: Json): undefined {
    this.errors.push({ error_code: 'TransformationError', message, ...(value !== undefined ? { value } : {}) });
    return undefined;
  }
}

function transformUrl(run: Runner, t: Template): string | undefined {
  const url = run.text(t);
  if (url === undefined) return undefined;
  if (!isAbsoluteUrl(url)) return run.fail(`Invalid URL: ${url}`);
  return url;
}

function formFields(fields: readonly (readonly [string, Json])[]): string {
  return encodePairs(fields.map(([k, v]) => [k, renderText(v)] as const));
}

function transformBody(run: Runner, b: BodyTransform): RequestBody | undefined {
  switch (b.kind) {
    case 'remove':
      return { kind: 'none' };
    case 'transform': {
      const value = run.value(b.template);
      return value === undefined ? undefined : { kind: 'json', value };
    }
    case 'form': {
      const out: (readonly [string, Json])[] = [];
      for (const [k, t] of b.fields) {
        const v = run.text(t);
        if (v !== undefined) out.push([k, v]);
      }
      return out.length === b.fields.length ? { kind: 'text', text: formFields(out) } : undefined;
    }
    case 'form-object': {
      const value = run.value(b.template);
      if (value === undefined) return undefined;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return run.fail('Template must produce a JSON object for a form body', value);
      }
      return { kind: 'text', text: formFields(Object.entries(value)) };
    }
  }
}

// Object form: a key or value rendering as the text `null` drops the pair (reference/kriti.md §7).
function transformQuery(run: Runner, q: QueryParamsTransform): string | undefined {
  if (q.kind === 'string') return run.text(q.template);
  const pairs: QueryPair[] = [];
  let ok = true;
  for (const [kt, vt] of q.pairs) {
    const k = run.text(kt);
    const v = vt === null ? null : run.text(vt);
    if (k === undefined || v === undefined) {
      ok = false;
      continue;
    }
    if (k === 'null' || v === 'null') continue;
    pairs.push([k, v]);
  }
  return ok ? encodePairs(pairs) : undefined;
}

function transformHeaders(run: Runner, h: HeadersTransform, original: HttpRequest['headers']): (readonly [string, string])[] | undefined {
  const drop = new Set(h.remove.map((n) => n.toLowerCase()));
  const kept = original.filter(([n]) => !drop.has(n.toLowerCase()));
  const added: (readonly [string, string])[] = [];
  for (const [name, t] of h.add) {
    const v = run.text(t);
    if (v !== undefined) added.push([name, v]);
  }
  return added.length === h.add.length ? [...kept, ...added] : undefined;
}

function withContentType(headers: readonly (readonly [string, string])[], type: string): (readonly [string, string])[] {
  return [...headers.filter(([n]) => n.toLowerCase() !== 'content-type'), ['content-type', type]];
}

/** Applies `t` to `req`, every template seeing `ctx`. */
export function applyRequestTransform(t: RequestTransformation, req: HttpRequest, ctx: RequestContext): TransformOutcome {
  const run = new Runner(ctx);
  const method = t.method ?? req.method;
  const url = t.url ? transformUrl(run, t.url) : req.url;
  const body = t.body ? transformBody(run, t.body) : req.body;
  const query = t.queryParams ? transformQuery(run, t.queryParams) : undefined;
  let headers = t.requestHeaders ? transformHeaders(run, t.requestHeaders, req.headers) : req.headers;
  if (run.errors.length > 0 || url === undefined || body === undefined || headers === undefined) {
    return { kind: 'error', errors: run.errors };
  }
  // v1 sends the body as its content_type; a form-object body always goes as a form.
  if (t.contentType !== undefined) headers = withContentType(headers, t.contentType);
  else if (t.body?.kind === 'form-object') headers = withContentType(headers, FORM);
  // The query part replaces the URL's own query string; without one the URL is kept as it is.
  const finalUrl = query === undefined ? url : withQuery(withoutQuery(url), query);
  return { kind: 'ok', request: { url: finalUrl, method, headers, body } };
}
