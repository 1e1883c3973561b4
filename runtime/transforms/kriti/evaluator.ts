// Kriti's evaluator (reference/kriti.md §4). Path failures follow the v2 engine Kiln matches:
// a key that is missing, an index out of range or a step into a value of the wrong kind is an
// `Invalid Path` error whose message is the path as written, quoted, and whose span is the whole
// path (corpus: v1/metadata/test_webhook_transform_bad_eval). An unknown function is a
// `Function Error` "Function f is not defined." at the name (corpus: ..._custom_functions).

import type { Json } from '../../bundle/index.js';
import type { Expr, Step } from './ast.js';
import { KritiFailure, type Span } from './errors.js';
import { FunctionFailure, type FunctionTable } from './functions.js';
import { isObject, jsonCompare, jsonEqual, renderText, typeName } from './values.js';

/** What a template sees: its variables and its functions. */
export interface Scope {
  readonly variables: ReadonlyMap<string, Json>;
  readonly functions: FunctionTable;
}

function typeError(expected: string, actual: Json, span: Span): KritiFailure {
  return new KritiFailure('Type Error', `Couldn't match expected type '${expected}' with actual type '${typeName(actual)}'`, span);
}

/** Evaluates an expression; throws KritiFailure. */
export function evaluate(e: Expr, scope: Scope): Json {
  switch (e.kind) {
    case 'null': return null;
    case 'boolean': return e.value;
    case 'number': return e.value;
    case 'string':
      return e.parts.map((p) => (p.kind === 'text' ? p.text : renderText(evaluate(p.expr, scope)))).join('');
    case 'array': return e.items.map((x) => evaluate(x, scope));
    case 'object': {
      const out: { [k: string]: Json } = {};
      for (const [k, v] of e.fields) out[k] = evaluate(v, scope);
      return out;
    }
    case 'variable': {
      const v = scope.variables.get(e.name);
      if (v === undefined) throw new KritiFailure('Name Error', `Variable '${e.name}' not in scope`, e.span);
      return v;
    }
    case 'path': return strictPath(e.base, e.steps, e.text, e.span, scope);
    case 'optional': return optionalPath(e.base, e.steps, e.span, scope);
    case 'call': return call(e.name, e.nameSpan, e.arg, scope);
    case 'binary': return binary(e.op, e.left, e.right, scope);
    case 'if': {
      for (const b of e.branches) {
        const c = evaluate(b.cond, scope);
        if (typeof c !== 'boolean') throw typeError('Boolean', c, b.cond.span);
        if (c) return evaluate(b.body, scope);
      }
      return evaluate(e.otherwise, scope);
    }
    case 'range': {
      const list = evaluate(e.list, scope);
      if (!Array.isArray(list)) throw new KritiFailure('Index Error', 'Can only range over an array', e.list.span);
      return list.map((item, i) => {
        const vars = new Map(scope.variables);
        if (e.index !== null) vars.set(e.index, i);
        vars.set(e.item, item);
        return evaluate(e.body, { ...scope, variables: vars });
      });
    }
  }
}

/** One step; `undefined` when the step cannot be taken (missing key, bad index, wrong kind). */
function step(v: Json, s: Step, scope: Scope): Json | undefined {
  if (s.kind === 'field') return isObject(v) && Object.hasOwn(v, s.name) ? v[s.name] : undefined;
  const key = evaluate(s.index, scope);
  if (isObject(v)) {
    if (typeof key !== 'string') throw typeError('String', key, s.index.span);
    return Object.hasOwn(v, key) ? v[key] : undefined;
  }
  if (Array.isArray(v)) {
    if (typeof key !== 'number' || !Number.isInteger(key)) throw typeError('Integer', key, s.index.span);
    return key >= 0 && key < v.length ? v[key] : undefined;
  }
  return undefined;
}

function strictPath(base: Expr, steps: readonly Step[], text: string, span: Span, scope: Scope): Json {
  let v = evaluate(base, scope);
  for (const s of steps) {
    const next = step(v, s, scope);
    if (next === undefined) throw new KritiFailure('Invalid Path', JSON.stringify(text), span);
    v = next;
  }
  return v;
}

/** `base?...`: a failing base counts as null; every step after the `?` gives null on failure. */
function optionalPath(base: Expr, steps: readonly Step[], span: Span, scope: Scope): Json {
  let v: Json;
  try {
    v = evaluate(base, scope);
  } catch (e) {
    if (!(e instanceof KritiFailure)) throw e;
    v = null;
  }
  if (steps.length > 0 && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) {
    throw typeError('Object', v, span);
  }
  for (const s of steps) {
    if (v === null) return null;
    v = step(v, s, scope) ?? null;
  }
  return v;
}

function call(name: string, nameSpan: Span, arg: Expr, scope: Scope): Json {
  const fn = scope.functions.get(name);
  if (!fn) throw new KritiFailure('Function Error', `Function ${name} is not defined.`, nameSpan);
  const value = evaluate(arg, scope);
  try {
    return fn(value);
  } catch (e) {
    if (e instanceof FunctionFailure) throw new KritiFailure('Function Error', e.message, arg.span);
    throw e;
  }
}

function booleans(l: Json, r: Json, left: Expr, right: Expr): [boolean, boolean] {
  if (typeof l !== 'boolean') throw typeError('Boolean', l, left.span);
  if (typeof r !== 'boolean') throw typeError('Boolean', r, right.span);
  return [l, r];
}

function binary(op: string, left: Expr, right: Expr, scope: Scope): Json {
  const l = evaluate(left, scope);
  if (op === '??') return l === null ? evaluate(right, scope) : l;
  const r = evaluate(right, scope);
  switch (op) {
    case '==': return jsonEqual(l, r);
    case '!=': return !jsonEqual(l, r);
    case '>': return jsonCompare(l, r) > 0;
    case '<': return jsonCompare(l, r) < 0;
    case '>=': return jsonCompare(l, r) >= 0;
    case '<=': return jsonCompare(l, r) <= 0;
    case '&&': { const [a, b] = booleans(l, r, left, right); return a && b; }
    case '||': { const [a, b] = booleans(l, r, left, right); return a || b; }
    default: {
      if (isObject(r)) {
        if (typeof l !== 'string') throw typeError('String', l, left.span);
        return Object.hasOwn(r, l);
      }
      if (Array.isArray(r)) return r.some((x) => jsonEqual(x, l));
      throw typeError('Array', r, right.span);
    }
  }
}
