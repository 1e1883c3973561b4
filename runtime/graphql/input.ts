import { Kind, type ValueNode } from 'graphql';
import { ApiError } from '../errors/index.js';
import { plainDecimalText, scientificText, type Expr, type Slot } from '../sql/index.js';
import { geoJsonParam, isGeoType } from './geojson.js';

/** An argument value while planning: still in the document, or already a JS value of a variable. */
export type Input =
  | { readonly kind: 'ast'; readonly node: ValueNode }
  | { readonly kind: 'js'; readonly value: unknown };

/** What planning reads of the request: coerced variables, and which of them shaped the plan. */
export interface InputContext {
  readonly variables: { readonly [k: string]: unknown };
  /** Variables whose values the plan depends on (the cache keys plans by their values). */
  readonly structural: Set<string>;
}

/** A document literal as a JS value; big integers and decimals keep their text so nothing rounds. */
export function astToJs(node: ValueNode, ctx: InputContext, structural = true): unknown {
  switch (node.kind) {
    case Kind.NULL: return null;
    case Kind.INT: { const n = Number(node.value); return Number.isSafeInteger(n) ? n : node.value; }
    case Kind.FLOAT: { const n = Number(node.value); return String(n) === node.value ? n : node.value; }
    case Kind.STRING: case Kind.ENUM: return node.value;
    case Kind.BOOLEAN: return node.value;
    case Kind.LIST: return node.values.map((v) => astToJs(v, ctx, structural));
    case Kind.OBJECT: return Object.fromEntries(node.fields.map((f) => [f.name.value, astToJs(f.value, ctx, structural)]));
    case Kind.VARIABLE:
      if (structural) ctx.structural.add(node.name.value);
      return ctx.variables[node.name.value] ?? null;
  }
}

/** The value of an input, read structurally (the plan depends on it). */
export function valueOf(input: Input, ctx: InputContext): unknown {
  return input.kind === 'js' ? input.value : astToJs(input.node, ctx);
}

/** True when the input is null or absent. Null-ness of variables is part of every cache key. */
export function isNull(input: Input | undefined, ctx: InputContext): boolean {
  if (!input) return true;
  if (input.kind === 'js') return input.value === null || input.value === undefined;
  if (input.node.kind === Kind.NULL) return true;
  if (input.node.kind === Kind.VARIABLE) return ctx.variables[input.node.name.value] == null;
  return false;
}

/** The entries of an input object, in the order written. */
export function entriesOf(input: Input, ctx: InputContext, path: readonly (string | number)[]): [string, Input][] {
  if (input.kind === 'ast') {
    if (input.node.kind === Kind.OBJECT) return input.node.fields.map((f) => [f.name.value, { kind: 'ast', node: f.value }]);
    if (input.node.kind === Kind.VARIABLE) return entriesOf({ kind: 'js', value: valueOf(input, ctx) }, ctx, path);
    if (input.node.kind === Kind.NULL) return [];
    throw new ApiError('validation-failed', 'expected an object', 400, path);
  }
  const v = input.value;
  if (v === null || v === undefined) return [];
  if (typeof v !== 'object' || Array.isArray(v)) throw new ApiError('validation-failed', 'expected an object', 400, path);
  return Object.entries(v).map(([k, x]) => [k, { kind: 'js', value: x }]);
}

/** The items of an input list; a single value counts as a list of one (GraphQL input coercion). */
export function itemsOf(input: Input, ctx: InputContext): Input[] {
  if (input.kind === 'ast') {
    if (input.node.kind === Kind.LIST) return input.node.values.map((node) => ({ kind: 'ast', node }));
    if (input.node.kind === Kind.VARIABLE) return itemsOf({ kind: 'js', value: valueOf(input, ctx) }, ctx);
    if (input.node.kind === Kind.NULL) return [];
    return [input];
  }
  const v = input.value;
  if (v === null || v === undefined) return [];
  return Array.isArray(v) ? v.map((value) => ({ kind: 'js', value })) : [input];
}

/**
 * A leaf value as a slot. A variable used whole is bound per request, so the plan is reused for
 * other values; a literal is fixed now. Never SQL text.
 */
export function leafSlot(input: Input, ctx: InputContext): Slot {
  if (input.kind === 'ast' && input.node.kind === Kind.VARIABLE) return { kind: 'variable', name: input.node.name.value, path: [] };
  return { kind: 'literal', value: input.kind === 'js' ? input.value : astToJs(input.node, ctx, false) };
}

/**
 * A leaf value as a parameter of `type`. Given the argument's `path`, a geometry or geography
 * value is read as GeoJSON and checked (geojson.ts).
 */
export function leafExpr(input: Input, type: string | null, ctx: InputContext, path?: readonly (string | number)[]): Expr {
  // GeoJSON is checked where it is written (the plan then depends on the value).
  if (path && isGeoType(type)) {
    const value = valueOf(input, ctx);
    if (value !== null && value !== undefined) return geoJsonParam(value, type, path);
  }
  return { kind: 'param', value: leafSlot(input, ctx), type };
}

/**
 * A column's new value in a mutation (an inserted object, `_set`, `_inc`, ...). Hasura sends
 * these as text, a numeric as Haskell shows it (`5` as `5.0`, `-1E-30` as `-1.0e-30`), which fixes
 * the scale PostgreSQL stores and answers (runtime/sql/numeric-text.ts); PostgreSQL sources only.
 */
export function columnValueExpr(input: Input, type: string | null, scalar: string, ctx: InputContext & { readonly dialect: { readonly name: string } }, path: readonly (string | number)[]): Expr {
  if (ctx.dialect.name !== 'postgres') return leafExpr(input, type, ctx, path);
  // A money literal is a number for Hasura; PostgreSQL's money input takes it without an exponent.
  if (scalar === 'money' && input.kind === 'ast' && (input.node.kind === Kind.FLOAT || input.node.kind === Kind.INT)) {
    return { kind: 'param', value: { kind: 'literal', value: plainDecimalText(input.node.value) }, type };
  }
  if (scalar !== 'numeric') return leafExpr(input, type, ctx, path);
  if (input.kind === 'ast' && input.node.kind === Kind.VARIABLE) {
    return { kind: 'param', value: { kind: 'variable', name: input.node.name.value, path: [], shown: true }, type };
  }
  const v = input.kind === 'js' ? input.value : astToJs(input.node, ctx, false);
  return { kind: 'param', value: { kind: 'literal', value: typeof v === 'number' || (typeof v === 'string' && input.kind === 'ast' && input.node.kind !== Kind.STRING) ? scientificText(v) : v }, type };
}
