// A small evaluator of `where` values on returned rows, for the operators and types whose meaning
// in PostgreSQL JavaScript can restate exactly (numbers, text equality and LIKE, booleans, enums).
// Anything else (relationships, jsonb, arrays, dates, collation-dependent ordering) is "unknown"
// and skips the row. Three-valued like SQL: true, false, null; `undefined` is unknown.
type Tri = boolean | null | undefined;

/** A returned column value and its GraphQL scalar or enum type; undefined when not selected. */
export type RowLookup = (field: string) => { readonly value: unknown; readonly scalar: string } | undefined;

const NUMERIC = new Set(['Int', 'Float', 'bigint', 'numeric', 'float8']);
const EQUALITY = new Set(['String', 'Boolean']);

/** The truth of a where value on one row (Hasura: null operands and null sub-expressions are no condition). */
export function evalWhere(where: unknown, row: RowLookup): Tri {
  if (where === null || where === undefined) return true;
  if (typeof where !== 'object' || Array.isArray(where)) return undefined;
  const parts: Tri[] = [];
  for (const [k, v] of Object.entries(where as Record<string, unknown>)) {
    if (k === '_and' || k === '_or') {
      if (v === null) continue;
      const items = (Array.isArray(v) ? v : [v]).map((x) => evalWhere(x, row));
      parts.push(k === '_and' ? and(items) : or(items));
    } else if (k === '_not') {
      if (v !== null) parts.push(not(evalWhere(v, row)));
    } else {
      const col = row(k);
      if (!col || v === null) { parts.push(v === null ? true : undefined); continue; }
      parts.push(and(Object.entries(v as Record<string, unknown>).map(([op, x]) => compare(col.value, col.scalar, op, x))));
    }
  }
  return and(parts);
}

function and(items: readonly Tri[]): Tri {
  if (items.includes(false)) return false;
  if (items.includes(undefined)) return undefined;
  return items.includes(null) ? null : true;
}

function or(items: readonly Tri[]): Tri {
  if (items.includes(true)) return true;
  if (items.includes(undefined)) return undefined;
  return items.includes(null) ? null : false;
}

function not(x: Tri): Tri {
  return x === null || x === undefined ? x : !x;
}

function compare(value: unknown, scalar: string, op: string, operand: unknown): Tri {
  if (operand === null) return true;
  if (op === '_is_null') return typeof operand === 'boolean' ? (value === null) === operand : undefined;
  const numeric = NUMERIC.has(scalar);
  const kind = numeric ? 'number' : EQUALITY.has(scalar) || /_enum$/.test(scalar) ? 'equality' : null;
  if (kind === null) return undefined;
  if (op === '_in' || op === '_nin') {
    const list = Array.isArray(operand) ? operand : [operand];
    const hits = list.map((x) => equal(value, x, numeric));
    const any = or(hits);
    return op === '_in' ? any : not(any);
  }
  if (op === '_eq' || op === '_neq') {
    const eq = equal(value, operand, numeric);
    return op === '_eq' ? eq : not(eq);
  }
  if (['_gt', '_gte', '_lt', '_lte'].includes(op) && numeric) {
    if (value === null) return null;
    const a = num(value);
    const b = num(operand);
    if (a === undefined || b === undefined) return undefined;
    return op === '_gt' ? a > b : op === '_gte' ? a >= b : op === '_lt' ? a < b : a <= b;
  }
  if (/^_n?i?like$/.test(op) && scalar === 'String' && typeof operand === 'string') {
    if (value === null) return null;
    const hit = likeRegex(operand, op.includes('i')).test(String(value));
    return op.startsWith('_n') ? !hit : hit;
  }
  return undefined;
}

function equal(value: unknown, operand: unknown, numeric: boolean): Tri {
  if (value === null) return null;
  if (!numeric) return typeof value === typeof operand ? value === operand : undefined;
  const a = num(value);
  const b = num(operand);
  return a === undefined || b === undefined ? undefined : a === b;
}

// A number JavaScript holds exactly, or undefined (big or malformed values are not judged).
function num(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n) || Math.abs(n) > Number.MAX_SAFE_INTEGER) return undefined;
  return n;
}

// LIKE: % any run, _ one character, backslash escapes the next character.
function likeRegex(pattern: string, insensitive: boolean): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) re += escape(pattern[++i]!);
    else if (ch === '%') re += '.*';
    else if (ch === '_') re += '.';
    else re += escape(ch);
  }
  return new RegExp(`^${re}$`, insensitive ? 'is' : 's');
}

function escape(ch: string): string {
  return ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Problems with the order of a list's rows by its first ORDER BY term (null placement; numbers). */
export function checkOrder(values: readonly unknown[], scalar: string, dir: string): string | null {
  const nullsFirst = dir === 'desc' || dir.endsWith('nulls_first');
  const desc = dir.startsWith('desc');
  let seenNull = false;
  let seenValue = false;
  let prev: number | undefined;
  for (const v of values) {
    if (v === null) {
      if (!nullsFirst && !seenNull) seenNull = true;
      if (nullsFirst && seenValue) return `null after a value with ${dir}`;
      continue;
    }
    if (!nullsFirst && seenNull) return `a value after null with ${dir}`;
    seenValue = true;
    if (!NUMERIC.has(scalar)) continue;
    const n = num(v);
    if (n !== undefined && prev !== undefined && (desc ? n > prev : n < prev)) return `${v} after ${prev} with ${dir}`;
    if (n !== undefined) prev = n;
  }
  return null;
}
