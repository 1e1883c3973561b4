// Operations on JSON values that Kriti's operators and string templates need.

import type { Json } from '../../bundle/index.js';
import { jsonKind } from '../../errors/index.js';

/** A value's type name as Kriti's Type Errors spell it. */
export function typeName(v: Json): string {
  return jsonKind(v);
}

/** A plain JSON object (not an array, not null). */
export function isObject(v: Json): v is { [k: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep structural equality; numbers compare by value, object key order does not matter. */
export function jsonEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]!));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k]!, b[k]!));
  }
  return false;
}

// Mixed types order as Haskell derives Ord for aeson's Value: by constructor
// (Object, Array, String, Number, Bool, Null). Unspecified for users (reference/kriti.md §4).
function rank(v: Json): number {
  if (isObject(v)) return 0;
  if (Array.isArray(v)) return 1;
  if (typeof v === 'string') return 2;
  if (typeof v === 'number') return 3;
  if (typeof v === 'boolean') return 4;
  return 5;
}

/** Total order: numbers by value, strings by code point, arrays element-wise. */
export function jsonCompare(a: Json, b: Json): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) return compareLists(a, b);
  if (isObject(a) && isObject(b)) {
    const pairs = (o: { [k: string]: Json }): Json[] => Object.keys(o).sort(compareCodePoints).map((k) => [k, o[k]!]);
    return compareLists(pairs(a), pairs(b));
  }
  return 0;
}

function compareLists(a: readonly Json[], b: readonly Json[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = jsonCompare(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** Compares strings by Unicode code point (not UTF-16 unit). */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** How a value goes into a string template: strings raw, anything else as compact JSON. */
export function renderText(v: Json): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
