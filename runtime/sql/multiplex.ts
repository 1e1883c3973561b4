// Multiplexed live queries (reference/subscriptions.md §4): one statement serves many
// subscribers of one plan. Their parameter values travel as arrays, one array per parameter
// slot, unnested into a relation with one row per cohort; the planned statement reads each slot
// as a column of that row instead of a placeholder. The values are sent as text and cast back to
// the slot's type in the statement, so a slot holding an array (`_in`) still fits in one array.

import type { CompiledSql, ParamSlot } from './compile.js';
import type { Dialect } from './dialect.js';

/** The name of the relation of per-cohort values and of its cohort-id column. */
const RELATION = '_subs';
const COHORT_COLUMN = 'cohort_id';

function slotColumn(index: number): string {
  return `p${index}`;
}

/**
 * A dialect that prints parameter `i` as the column `"_subs"."p<i>"` (cast to the slot's type)
 * instead of a placeholder. Plan a statement with it, then wrap it with multiplexedStatement.
 */
export function multiplexDialect(base: Dialect): Dialect {
  const column = (i: number): string => `${base.quoteIdent(RELATION)}.${base.quoteIdent(slotColumn(i))}`;
  return {
    ...base,
    placeholder: column,
    typedPlaceholder(i, type) {
      const typed = base.typedPlaceholder(i, type);
      const placeholder = base.placeholder(i);
      // The base prints `(<placeholder>)::<type>`: keep its cast, read the column instead.
      return typed.startsWith(`(${placeholder})`) ? `(${column(i)})${typed.slice(placeholder.length + 2)}` : column(i);
    },
  };
}

/** A multiplexed statement: rows of (cohort id as text, the inner statement's text value). */
export interface MultiplexedSql {
  readonly text: string;
  /** The inner statement's slots, in order; parameter `i + 2` carries slot `i` for every cohort. */
  readonly slots: readonly ParamSlot[];
}

/**
 * Wraps a statement planned with multiplexDialect (whose single value is one cohort's result)
 * so that it runs once per cohort: `$1` is the int4[] of cohort ids, `$2..` one text[] per slot.
 */
export function multiplexedStatement(inner: CompiledSql, base: Dialect): MultiplexedSql {
  const q = (s: string): string => base.quoteIdent(s);
  const arrays = [`${base.placeholder(1)}::int4[]`, ...inner.params.map((_, i) => `${base.placeholder(i + 2)}::text[]`)];
  const columns = [q(COHORT_COLUMN), ...inner.params.map((_, i) => q(slotColumn(i + 1)))];
  const text = `SELECT ${q(RELATION)}.${q(COHORT_COLUMN)}::text AS ${q('cohort')}, (${inner.text}) AS ${q('result')}\n`
    + `FROM unnest(${arrays.join(', ')}) AS ${q(RELATION)}(${columns.join(', ')})`;
  return { text, slots: inner.params };
}

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

function arrayLiteral(items: readonly unknown[]): string {
  const parts = items.map((x) => {
    if (x === null || x === undefined) return 'NULL';
    if (Array.isArray(x)) return arrayLiteral(x);
    const text = multiplexValue(x)!;
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
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
