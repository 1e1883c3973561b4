// Brings a source database's capture triggers in line with the metadata document, with as little
// DDL as the change needs: a change that leaves a source's event triggers as they were touches
// nothing (not even a query); otherwise what the database has is read and only the captures that
// are missing, changed or gone are written. Runs inside the metadata change's transaction when
// the source is the catalog's database, so the install commits or rolls back with the change.

import type { BundleModel, Json } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { ensureSourceEventCatalog } from './catalog.js';
import {
  captureName, capturesOf, dropFunction, dropTrigger, fingerprint, functionBody, INSERT_EVENT_LOG, installCapture, INSTALLED_CAPTURES,
  parseCaptureName, type Capture, type TableColumns,
} from './capture.js';
import { eventTriggersOfSource, type EventTriggerDef } from './definitions.js';

type Runner = Pick<Driver, 'query'>;

// Instances starting together (or a start and a change) take turns writing the triggers.
const CAPTURE_DDL_LOCK = 7_242_003;

export interface SyncInput {
  readonly source: string;
  /** The document before the change; null at start (then only what is missing is created). */
  readonly before: Json | null;
  readonly after: Json;
  /** The compiled model of `after`: a trigger it does not list on its table is inconsistent and not installed. */
  readonly model: BundleModel;
  /** reload_metadata's recreate_event_triggers: every capture is written again. */
  readonly recreate: boolean;
  /**
   * The database's schema changed (run_sql DDL): the installed captures are read even when the
   * document's triggers are the same, and those whose function no longer fits (a column's type
   * changed how its value is written) are written again (Hasura RunSQL.hs: recreateEventTriggers).
   */
  readonly verify?: boolean;
}

/** What a sync did, for logs and tests. */
export interface SyncReport {
  readonly created: readonly string[];
  readonly dropped: readonly string[];
  readonly archived: readonly string[];
}

const NOTHING: SyncReport = { created: [], dropped: [], archived: [] };

/** The part of a source's triggers the database follows (names: a manual-only trigger needs the event log too). */
function signature(defs: readonly EventTriggerDef[]): string {
  return JSON.stringify([defs.map((d) => d.name).sort(), capturesOf(defs).map((c) => [c.trigger, c.op, fingerprint(c)]).sort()]);
}

/** The served model's columns of a table of `source` (the payload values are written as the engine writes them). */
function columnsOf(model: BundleModel, source: string): TableColumns {
  return (t) => model.tables[`${source}:${t.schema}.${t.name}`]?.columns;
}

function installable(model: BundleModel, source: string): (c: Capture) => boolean {
  return (c) => model.tables[`${source}:${c.table.schema}.${c.table.name}`]?.eventTriggers?.includes(c.trigger) === true;
}

interface Installed {
  readonly triggers: Map<string, { readonly schema: string; readonly name: string }>;
  /** Capture functions by name, with their bodies. */
  readonly functions: Map<string, string>;
}

async function readInstalled(db: Runner): Promise<Installed> {
  const { rows } = await db.query(INSTALLED_CAPTURES);
  const triggers = new Map<string, { schema: string; name: string }>();
  const functions = new Map<string, string>();
  // The third column is a trigger's schema, or a function's body.
  for (const [kind, name, third, table] of rows as [string, string, string | null, string | null][]) {
    if (kind === 'function') functions.set(name, third ?? '');
    else triggers.set(name, { schema: third!, name: table! });
  }
  return { triggers, functions };
}

/** Runs `fn` in a transaction of its own unless `db` is already one (the change's catalog transaction). */
export function inTransaction<T>(db: Runner | Driver, fn: (tx: Runner) => Promise<T>): Promise<T> {
  return 'transaction' in db ? db.transaction(fn) : fn(db);
}

/** Installs, replaces and drops a source's capture triggers as the change from `before` to `after` asks. */
export async function syncEventTriggers(db: Runner | Driver, input: SyncInput): Promise<SyncReport> {
  const next = eventTriggersOfSource(input.after, input.source);
  const prior = input.before === null ? null : eventTriggersOfSource(input.before, input.source);
  const wanted = capturesOf(next, columnsOf(input.model, input.source), input.model.options.stringifyNumeric)
    .filter(installable(input.model, input.source));
  if (prior === null && next.length === 0 && !input.recreate) return NOTHING;
  const verify = input.verify === true && next.length > 0;
  if (prior !== null && !input.recreate && !verify && signature(prior) === signature(next)) return NOTHING;
  return inTransaction(db, (tx) => apply(tx, input, wanted, prior));
}

/** Writes every capture the document asks for again (reload_metadata with recreate_event_triggers). */
export function recreateEventTriggers(db: Runner | Driver, input: Omit<SyncInput, 'recreate'>): Promise<SyncReport> {
  return syncEventTriggers(db, { ...input, recreate: true });
}

async function apply(tx: Runner, input: SyncInput, wanted: readonly Capture[], prior: readonly EventTriggerDef[] | null): Promise<SyncReport> {
  await ensureSourceEventCatalog(tx);
  await tx.query('SELECT pg_advisory_xact_lock($1)', [CAPTURE_DDL_LOCK]);
  await tx.query(INSERT_EVENT_LOG);
  const installed = await readInstalled(tx);
  const priorCaptures = capturesOf(prior ?? [], columnsOf(input.model, input.source), input.model.options.stringifyNumeric);
  const before = new Map(priorCaptures.map((c) => [captureName(c.trigger, c.op), fingerprint(c)]));
  const wantedByName = new Map(wanted.map((c) => [captureName(c.trigger, c.op), c]));
  const created: string[] = [];
  const dropped: string[] = [];
  // On a change (not at start, which only adds what is missing): database triggers the document
  // no longer asks for (deleted trigger, untracked table, an operation taken away), or asks for
  // on another table, are dropped first.
  if (prior !== null) {
    for (const [name, table] of installed.triggers) {
      const c = wantedByName.get(name);
      if (c && c.table.schema === table.schema && c.table.name === table.name) continue;
      await tx.query(dropTrigger(name, table));
      if (!c) dropped.push(name);
    }
    for (const name of installed.functions.keys()) {
      if (wantedByName.has(name) || !parseCaptureName(name)) continue;
      await tx.query(dropFunction(name));
      if (!dropped.includes(name)) dropped.push(name);
    }
  }
  for (const [name, c] of wantedByName) {
    const table = installed.triggers.get(name);
    // A function written by another version or with other settings (its body differs) is written again.
    const present = table !== undefined && table.schema === c.table.schema && table.name === c.table.name
      && installed.functions.get(name) === functionBody(c);
    // At start only what is missing; on a change also what the change altered; on recreate all.
    const changed = prior !== null && before.get(name) !== fingerprint(c);
    if (present && !changed && !input.recreate) continue;
    for (const s of installCapture(c)) await tx.query(s);
    created.push(name);
  }
  const archived = prior === null ? [] : await archiveDeleted(tx, prior, input);
  return { created: created.sort(), dropped: dropped.sort(), archived };
}

/** Events of triggers the change deleted stay in the log, archived (no longer fetched for delivery). */
async function archiveDeleted(tx: Runner, prior: readonly EventTriggerDef[], input: SyncInput): Promise<string[]> {
  const kept = new Set(eventTriggersOfSource(input.after, input.source).map((d) => d.name));
  const gone = [...new Set(prior.map((d) => d.name))].filter((n) => !kept.has(n)).sort();
  if (gone.length === 0) return [];
  await tx.query('UPDATE svc_catalog.event_log SET archived = true WHERE trigger_name = ANY($1::text[]) AND NOT archived', [gone]);
  return gone;
}
