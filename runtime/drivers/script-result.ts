import type { ScriptResult } from './driver.js';

/** The last result of a simple-protocol script, as pg and PGlite both shape it. */
export interface RawResult {
  readonly command?: string | null;
  readonly fields: readonly { readonly name: string }[];
  readonly rows: readonly (readonly unknown[])[];
}

/** The last statement's outcome, every value as text (NULL as null). */
export function lastScriptResult(results: readonly RawResult[]): ScriptResult {
  const last = results[results.length - 1];
  if (!last) return { command: '', fields: null, rows: [] };
  // Both drivers leave `fields` empty when the statement sent no row description.
  const described = last.fields.length > 0;
  return {
    command: last.command ?? '',
    fields: described ? last.fields.map((f) => f.name) : null,
    rows: described ? last.rows.map((r) => r.map((v) => (v === null || v === undefined ? null : String(v)))) : [],
  };
}
