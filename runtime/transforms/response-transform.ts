// Applying a response_transform to a webhook's reply (reference/kriti.md §6–7): `$body` is the
// reply, `$request` the request context (null without a request transform), `$response` its
// status; `$session_variables` is not bound, getSessionVariable is.

import type { Json } from '../bundle/index.js';
import { encodePairs } from './http-text.js';
import { renderText, runTemplate, transformFunctions, type KritiError, type Template } from './kriti/index.js';
import type { TransformError } from './request-transform.js';
import type { ResponseTransformation } from './transform-spec.js';

/** What a response template sees besides `$body`. */
export interface ResponseContext {
  readonly request: Json;
  readonly status: number;
  readonly sessionVariables: { readonly [k: string]: Json } | null;
}

/** The outcome: the new body, or the errors. */
export type ResponseOutcome =
  | { readonly kind: 'ok'; readonly body: Json }
  | { readonly kind: 'error'; readonly errors: readonly TransformError[] };

/** Applies `t` to the reply `body`. `remove` gives null; a form gives the encoded text as a JSON string. */
export function applyResponseTransform(t: ResponseTransformation, body: Json, ctx: ResponseContext): ResponseOutcome {
  const b = t.body;
  if (!b) return { kind: 'ok', body };
  if (b.kind === 'remove') return { kind: 'ok', body: null };
  const variables = { $body: body, $request: ctx.request, $response: { status: ctx.status } };
  const functions = transformFunctions(ctx.sessionVariables);
  const errors: KritiError[] = [];
  const run = (tpl: Template): Json | undefined => {
    const r = runTemplate(tpl, variables, functions);
    if (r.kind === 'error') errors.push(r.error);
    return r.kind === 'ok' ? r.value : undefined;
  };
  if (b.kind === 'transform') {
    const v = run(b.template);
    return v === undefined ? { kind: 'error', errors } : { kind: 'ok', body: v };
  }
  const pairs: [string, string][] = [];
  if (b.kind === 'form') {
    for (const [k, tpl] of b.fields) {
      const v = run(tpl);
      if (v !== undefined) pairs.push([k, renderText(v)]);
    }
  } else {
    const v = run(b.template);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) pairs.push([k, renderText(x)]);
    else if (v !== undefined) return { kind: 'error', errors: [{ error_code: 'TransformationError', message: 'Template must produce a JSON object for a form body', value: v }] };
  }
  return errors.length > 0 ? { kind: 'error', errors } : { kind: 'ok', body: encodePairs(pairs) };
}
