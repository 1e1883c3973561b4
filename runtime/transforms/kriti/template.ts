// Parsing and running a template as a whole: failures become wire-shaped KritiErrors here.

import type { Json } from '../../bundle/index.js';
import type { Expr } from './ast.js';
import { KritiFailure, toKritiError, type KritiError } from './errors.js';
import { evaluate } from './evaluator.js';
import type { FunctionTable } from './functions.js';
import { parseStringTemplateExpr, parseTemplateExpr } from './parser.js';

/** A parsed template: a body template (any JSON) or a string-only template (text). */
export interface Template {
  readonly kind: 'template' | 'string-template';
  readonly source: string;
  readonly expr: Expr;
}

/** The outcome of parsing a template. */
export type Parsed = { readonly kind: 'ok'; readonly template: Template } | { readonly kind: 'error'; readonly error: KritiError };

/** The outcome of running a template. */
export type Evaluated = { readonly kind: 'ok'; readonly value: Json } | { readonly kind: 'error'; readonly error: KritiError };

function parseWith(kind: Template['kind'], source: string, parse: (s: string) => Expr): Parsed {
  try {
    return { kind: 'ok', template: { kind, source, expr: parse(source) } };
  } catch (e) {
    if (e instanceof KritiFailure) return { kind: 'error', error: toKritiError(source, e) };
    throw e;
  }
}

/** Parses a body template (any JSON value, with `{{ }}` blocks). */
export function parseTemplate(source: string): Parsed {
  return parseWith('template', source, parseTemplateExpr);
}

/** Parses a string-only template (url, header value, query param, form field). */
export function parseStringTemplate(source: string): Parsed {
  return parseWith('string-template', source, parseStringTemplateExpr);
}

/** Runs a template with its variables (`$body`, ...) and functions. */
export function runTemplate(t: Template, variables: Readonly<Record<string, Json>>, functions: FunctionTable): Evaluated {
  try {
    const value = evaluate(t.expr, { variables: new Map(Object.entries(variables)), functions });
    return { kind: 'ok', value };
  } catch (e) {
    if (e instanceof KritiFailure) return { kind: 'error', error: toKritiError(t.source, e) };
    throw e;
  }
}
