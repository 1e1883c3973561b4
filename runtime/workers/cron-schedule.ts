// The events of cron triggers are made ahead of time (reference/events.md §6): each trigger keeps
// its next occurrences as `scheduled` rows of hdb_cron_events. Occurrences come from croner, a
// five-field expression evaluated in UTC. New rows start after the latest row the trigger has in
// any state, so an occurrence already sent is never made again; the partial unique index with
// ON CONFLICT DO NOTHING makes generators of several instances running at once harmless.

import { Cron } from 'croner';
import type { SqlRunner } from '../metadata-api/index.js';
import type { CronTriggerDef } from './scheduled-definitions.js';

/** How many future events each cron trigger keeps. */
export const UPCOMING_CRON_EVENTS = 100;

// Taken by every change of the cron events (a metadata change's upkeep, a worker's top-up) until
// its transaction ends. A worker may still hold the document from before a change; with the lock
// it reads the events only after that change committed, and it tops up only triggers that still
// have events, so it never brings back the events of a trigger the change deleted.
const CRON_EVENTS_LOCK = 7_242_003;

/** Takes the cron events lock for the rest of the caller's transaction. */
export async function lockCronEvents(db: SqlRunner): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1)', [CRON_EVENTS_LOCK]);
}

const crons = new Map<string, Cron | Error>();

function cronOf(schedule: string): Cron {
  let c = crons.get(schedule);
  if (c === undefined) {
    try {
      c = new Cron(schedule, { mode: '5-part', timezone: 'UTC' });
    } catch (e) {
      c = e instanceof Error ? e : new Error(String(e));
    }
    crons.set(schedule, c);
  }
  if (c instanceof Error) throw c;
  return c;
}

/** The next `n` times the schedule fires strictly after `after` (fewer when it stops firing). */
export function nextOccurrences(schedule: string, after: Date, n: number): Date[] {
  return n > 0 ? cronOf(schedule).nextRuns(n, after) : [];
}

/**
 * Tops up the future events of these triggers to UPCOMING_CRON_EVENTS each, as seen at `now`.
 * With `existingOnly`, a trigger without any event row is left alone (the workers' top-up: new
 * triggers get their first events from the metadata change that made them). Returns how many rows
 * were added; a trigger whose schedule does not parse is reported to `log`.
 */
export async function generateCronEvents(db: SqlRunner, triggers: readonly CronTriggerDef[], now: Date,
  log: (line: string) => void = () => undefined, existingOnly = false): Promise<number> {
  if (triggers.length === 0) return 0;
  const stats = await db.query(
    `SELECT trigger_name, count(*) FILTER (WHERE status = 'scheduled' AND scheduled_time > $2::timestamptz),
            extract(epoch FROM max(scheduled_time))::float8
       FROM svc_catalog.hdb_cron_events WHERE trigger_name = ANY($1::text[]) GROUP BY trigger_name`,
    [triggers.map((t) => t.name), now.toISOString()]);
  const seen = new Map(stats.rows.map((r) => [String(r[0]), { upcoming: Number(r[1]), latest: r[2] === null ? null : Number(r[2]) * 1000 }]));
  const names: string[] = [];
  const times: string[] = [];
  for (const t of triggers) {
    const s = seen.get(t.name);
    if (existingOnly && !s) continue;
    const need = UPCOMING_CRON_EVENTS - (s?.upcoming ?? 0);
    if (need <= 0) continue;
    const from = new Date(Math.max(now.getTime(), s?.latest ?? 0));
    let next: Date[];
    try {
      next = nextOccurrences(t.schedule, from, need);
    } catch (e) {
      log(`cron trigger ${t.name}: cannot read schedule ${JSON.stringify(t.schedule)}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    for (const d of next) {
      names.push(t.name);
      times.push(d.toISOString());
    }
  }
  if (names.length === 0) return 0;
  const res = await db.query(
    `INSERT INTO svc_catalog.hdb_cron_events (trigger_name, scheduled_time)
     SELECT * FROM unnest($1::text[], $2::timestamptz[])
     ON CONFLICT (trigger_name, scheduled_time) WHERE status = 'scheduled' DO NOTHING`,
    [names, times]);
  return res.rowCount;
}

/** Deletes every event of these triggers (deleted triggers; their invocation logs go with them). */
export async function deleteCronEvents(db: SqlRunner, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await db.query('DELETE FROM svc_catalog.hdb_cron_events WHERE trigger_name = ANY($1::text[])', [[...names]]);
}

/** Deletes the future events still waiting of these triggers (replaced triggers: made again after). */
export async function deleteFutureCronEvents(db: SqlRunner, names: readonly string[], now: Date): Promise<void> {
  if (names.length === 0) return;
  await db.query(
    `DELETE FROM svc_catalog.hdb_cron_events
      WHERE trigger_name = ANY($1::text[]) AND status = 'scheduled' AND scheduled_time > $2::timestamptz`,
    [[...names], now.toISOString()]);
}
