// Event triggers against the catalog: every column an operation spec names must exist (the
// database trigger is built from them; a missing one would break the table's writes), else the
// trigger is an inconsistent object, as in Hasura. The table learns which triggers capture its
// row changes, so the runtime records the session only for mutations on those tables.

import type { Json, TableModel } from '../../runtime/bundle/index.js';
import type { TableEntry } from '../metadata/index.js';
import type { Issues } from './issues.js';
import { tableChildName, qualifiedText } from './names.js';

type Obj = { readonly [k: string]: Json };

function asObject(v: Json | undefined): Obj | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null;
}

const OPS = ['insert', 'update', 'delete'] as const;

/** The first column an operation spec names that the table does not have. */
function missingColumn(definition: Obj, t: TableModel): { op: string; column: string } | null {
  for (const op of OPS) {
    const spec = asObject(definition[op]);
    if (!spec) continue;
    for (const key of ['columns', 'payload']) {
      const cols = spec[key];
      if (!Array.isArray(cols)) continue;
      const missing = cols.find((c) => typeof c !== 'string' || !t.columns.some((x) => x.name === c));
      if (missing !== undefined) return { op, column: String(missing) };
    }
  }
  return null;
}

/**
 * Checks the event triggers of a table; answers the names (sorted) of the consistent ones that
 * capture an insert, update or delete (manual-only triggers write nothing on a mutation).
 */
export function resolveEventTriggers(source: string, entry: TableEntry, t: TableModel, issues: Issues): string[] {
  const capturing: string[] = [];
  for (const raw of entry.event_triggers ?? []) {
    const trigger = asObject(raw);
    const name = trigger?.['name'];
    if (!trigger || typeof name !== 'string') continue;
    const definition = asObject(trigger['definition']) ?? {};
    const missing = missingColumn(definition, t);
    if (missing) {
      issues.add({
        type: 'event_trigger', name: tableChildName('event_trigger', name, source, entry.table),
        definition: { ...trigger, source, table: { ...entry.table } },
        reason: `in table ${JSON.stringify(qualifiedText(entry.table))}: in event trigger ${JSON.stringify(name)}: column ${JSON.stringify(missing.column)} of the ${missing.op} specification does not exist`,
      });
      continue;
    }
    if (OPS.some((op) => asObject(definition[op]))) capturing.push(name);
  }
  return capturing.sort();
}
