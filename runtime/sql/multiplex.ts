// Multiplexed live queries (reference/subscriptions.md §4): one statement serves many subscribers
// of one plan (rendered from a LiveQuery node, runtime/sql/render). Each cohort's values travel as
// text, one array per value slot, and are cast back to the slot's type inside the statement.

export type { MultiplexedSql } from './dialect.js';

/**
 * The text form of one bound parameter value, as the slot's cast reads it back: strings as they
 * are, numbers and booleans as PostgreSQL writes them, arrays as array literals, objects as JSON.
 */
export function multiplexValue(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return arrayLiteral(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v);
}

/**
 * The text form of a bound value for dialects that read cohort values as JSON (SQL Server's
 * OPENJSON): lists and objects as JSON text, everything else as multiplexValue writes it.
 */
export function jsonCohortValue(v: unknown): string | null {
  if (Array.isArray(v) || (typeof v === 'object' && v !== null && !(v instanceof Date))) return JSON.stringify(v);
  return multiplexValue(v);
}

// An element is quoted only where PostgreSQL's array output quotes it (empty, NULL, a delimiter,
// brace, quote, backslash or space in it), so a list reads as PostgreSQL prints it: {1,2,3}.
function needsQuotes(text: string): boolean {
  return text === '' || /^null$/i.test(text) || /[{}",\\\s]/.test(text);
}

function arrayLiteral(items: readonly unknown[]): string {
  const parts = items.map((x) => {
    if (x === null || x === undefined) return 'NULL';
    if (Array.isArray(x)) return arrayLiteral(x);
    const text = multiplexValue(x)!;
    return needsQuotes(text) ? `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : text;
  });
  return `{${parts.join(',')}}`;
}

/**
 * The parameters of one batch: the cohort ids, then per slot the array of every cohort's value
 * (each cohort's values already in text form, in slot order).
 */
export function multiplexParams(cohorts: readonly { readonly id: number; readonly values: readonly (string | null)[] }[],
  slotCount: number): unknown[] {
  const out: unknown[] = [cohorts.map((c) => c.id)];
  for (let i = 0; i < slotCount; i++) out.push(cohorts.map((c) => c.values[i] ?? null));
  return out;
}
