// Ordering row filters for `kiln diff`: does every row the new filter admits pass the old one?
// `implies(a, b)` is sound and incomplete: true only when a ⟹ b is proven; false means "not
// proven", which the diff reports as "changed, possibly widened" (security first).

import type { BoolIr, ValueIr } from '../../runtime/bundle/index.js';

/** How a new filter relates to the old one. */
export type FilterChange = 'same' | 'equivalent' | 'narrowed' | 'widened' | 'changed';

/** Compares two filters: `narrowed` and `equivalent` are proven; `changed` is unknown and treated as wider. */
export function compareFilters(oldIr: BoolIr, newIr: BoolIr): FilterChange {
  const a = normalize(oldIr);
  const b = normalize(newIr);
  if (stable(oldIr) === stable(newIr)) return 'same';
  const narrower = implies(b, a);
  const wider = implies(a, b);
  if (narrower && wider) return 'equivalent';
  if (narrower) return 'narrowed';
  if (wider) return 'widened';
  return 'changed';
}

const TRUE: BoolIr = { kind: 'true' };
const FALSE: BoolIr = { kind: 'or', items: [] };

/**
 * The same filter in a simpler shape: nested AND/OR flattened, `true` removed from AND and
 * absorbing OR, and a comparison with a literal null made `true` (Hasura v2 drops `_eq: null`;
 * runtime/graphql/bool.ts lowers it so).
 */
export function normalize(ir: BoolIr): BoolIr {
  switch (ir.kind) {
    case 'and': {
      const items = ir.items.map(normalize).flatMap((i) => (i.kind === 'and' ? i.items : [i])).filter((i) => i.kind !== 'true');
      if (items.some(isFalse)) return FALSE;
      return items.length === 0 ? TRUE : items.length === 1 ? items[0]! : { kind: 'and', items };
    }
    case 'or': {
      const items = ir.items.map(normalize).flatMap((i) => (i.kind === 'or' ? i.items : [i]));
      if (items.some((i) => i.kind === 'true')) return TRUE;
      return items.length === 1 ? items[0]! : { kind: 'or', items };
    }
    case 'not': return { kind: 'not', item: normalize(ir.item) };
    case 'column': case 'computed': return ir.value.kind === 'literal' && ir.value.value === null ? TRUE : ir;
    case 'relationship': case 'exists': case 'computed_table': return { ...ir, where: normalize(ir.where) };
    case 'true': return ir;
  }
}

function isFalse(ir: BoolIr): boolean {
  return ir.kind === 'or' && ir.items.length === 0;
}

/** a ⟹ b, proven on normalized filters (false when no rule proves it). */
export function implies(a: BoolIr, b: BoolIr): boolean {
  if (b.kind === 'true' || isFalse(a)) return true;
  if (stable(a) === stable(b)) return true;
  if (b.kind === 'and') return b.items.every((y) => implies(a, y));
  if (a.kind === 'or') return a.items.every((x) => implies(x, b));
  if (a.kind === 'and' && a.items.some((x) => implies(x, b))) return true;
  if (b.kind === 'or' && b.items.some((y) => implies(a, y))) return true;
  if (a.kind === 'not' && b.kind === 'not') return implies(b.item, a.item);
  if (a.kind === 'relationship' && b.kind === 'relationship') return a.target === b.target && stable(a.mapping) === stable(b.mapping) && implies(a.where, b.where);
  if (a.kind === 'exists' && b.kind === 'exists') return a.table === b.table && implies(a.where, b.where);
  if (a.kind === 'computed_table' && b.kind === 'computed_table') return a.table === b.table && a.field === b.field && implies(a.where, b.where);
  if (a.kind === 'column' && b.kind === 'column') return a.column === b.column && a.type === b.type && comparisonImplies(a.op, a.value, b.op, b.value);
  return false;
}

// One column compared with literals: membership and numeric bounds.
function comparisonImplies(opA: string, va: ValueIr, opB: string, vb: ValueIr): boolean {
  if (va.kind !== 'literal' || vb.kind !== 'literal') return false;
  const setA = valuesOf(opA, va.value);
  if (setA && (opB === '_eq' || opB === '_in')) {
    const setB = valuesOf(opB, vb.value);
    return setB !== null && setA.every((x) => setB.includes(x));
  }
  if (setA && (opB === '_neq' || opB === '_nin')) {
    const out = opB === '_neq' ? [stable(vb.value)] : Array.isArray(vb.value) ? vb.value.map(stable) : null;
    return out !== null && setA.every((x) => !out.includes(x));
  }
  if ((opA === '_nin' || opA === '_neq') && (opB === '_nin' || opB === '_neq')) {
    const outA = opA === '_neq' ? [stable(va.value)] : Array.isArray(va.value) ? va.value.map(stable) : [];
    const outB = opB === '_neq' ? [stable(vb.value)] : Array.isArray(vb.value) ? vb.value.map(stable) : null;
    return outB !== null && outB.every((x) => outA.includes(x));
  }
  const x = numberOf(va.value);
  const y = numberOf(vb.value);
  if (x === null || y === null) return false;
  const lower = (op: string): boolean => op === '_gt' || op === '_gte';
  const upper = (op: string): boolean => op === '_lt' || op === '_lte';
  if (opA === '_eq') {
    if (opB === '_gt') return x > y;
    if (opB === '_gte') return x >= y;
    if (opB === '_lt') return x < y;
    if (opB === '_lte') return x <= y;
  }
  if (lower(opA) && lower(opB)) return x > y || (x === y && (opA === '_gt' || opB === '_gte'));
  if (upper(opA) && upper(opB)) return x < y || (x === y && (opA === '_lt' || opB === '_lte'));
  return false;
}

// `_eq v` is the set {v}; `_in [..]` its list; anything else is not a finite set.
function valuesOf(op: string, v: unknown): string[] | null {
  if (op === '_eq') return [stable(v)];
  if (op === '_in' && Array.isArray(v)) return v.map(stable);
  return null;
}

function numberOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return null;
}

/** JSON with sorted keys: equal values print equally. */
export function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}
