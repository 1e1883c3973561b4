import { ApiError } from '../errors/index.js';
import { scientificText, type ParamSlot } from '../sql/index.js';
import type { Session } from '../bundle/index.js';

/** Values for a plan's parameter slots: plan-time values, variables and session values, encoded for the driver. */
export function bindParams(slots: readonly ParamSlot[], variables: { readonly [k: string]: unknown }, session: Session): unknown[] {
  const out = new Array<unknown>(slots.length);
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    const src = slot.source;
    let v: unknown;
    if (src.kind === 'value') v = src.value;
    else if (src.kind === 'variable') {
      v = variables[src.name];
      for (const k of src.path) v = v == null ? v : (v as Record<string | number, unknown>)[k];
      if (src.shown && typeof v === 'number') v = scientificText(v);
    } else if (src.name === '*') {
      v = JSON.stringify({ ...session.variables, 'x-svc-role': session.role });
    } else {
      v = session.variables[src.name];
      if (v === undefined) throw new ApiError('not-found', `missing session variable: "${src.name}"`, 400, []);
      v = sessionValue(v as string, slot.type);
    }
    out[i] = encode(v, slot.type);
  }
  return out;
}

// Session values are strings; an array-typed slot takes a JSON array or a Postgres array literal.
function sessionValue(v: string, type: string | null): unknown {
  if (type?.endsWith('[]') && v.trimStart().startsWith('[')) {
    let items: unknown[];
    try { items = JSON.parse(v) as unknown[]; } catch { throw new ApiError('data-exception', `invalid array value in session variable: ${v}`); }
    // A list of scalars: a nested list or object would reach PostgreSQL as a 2-D array (or
    // text) and compare wrongly instead of failing (issue 5); JSON and array columns excepted.
    const item = type.slice(0, -2);
    const scalarItems = item !== 'json' && item !== 'jsonb' && !item.split('.').pop()!.startsWith('_') && !item.endsWith('[]');
    if (scalarItems && items.some((x) => typeof x === 'object' && x !== null)) {
      throw new ApiError('data-exception', `invalid array value in session variable: ${v}`);
    }
    return items;
  }
  return v;
}

function encode(v: unknown, type: string | null): unknown {
  if (v === null || v === undefined) return null;
  if (type === 'json' || type === 'jsonb') return jsonParam(v);
  // A list of JSON values (`_in` on a jsonb column): each item is JSON text; left to the driver,
  // a JSON array item became a nested SQL array and a JSON string bare text (fuzz).
  if ((type === 'json[]' || type === 'jsonb[]') && Array.isArray(v)) return v.map((x) => (x === null ? null : jsonParam(x)));
  if (typeof v === 'object' && !Array.isArray(v)) return jsonParam(v);
  if (Array.isArray(v) && !(type?.endsWith('[]') || type?.startsWith('_'))) return jsonParam(v);
  return v;
}

// A value as JSON text. A request's JSON can nest deeper than JSON.stringify can write (it
// recurses: 100,000 nested arrays overflow the stack), and PostgreSQL could not read it either.
function jsonParam(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (e instanceof RangeError) throw new ApiError('data-exception', 'a JSON value is nested too deeply', 400, []);
    throw e;
  }
}
