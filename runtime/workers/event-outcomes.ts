// What became of each claimed event, written to the source's event log in batches: every
// outcome that arrives while a write is running waits for the next one (group commit), so a
// busy worker makes one statement per batch instead of three per event, and a quiet one writes
// at once. One statement writes both the invocation logs and the event rows, so they agree; the
// ids are also given as an array, so the rows are found by primary key, not by a scan of the log.
// An outcome not yet written when the process dies leaves its event locked: it is fetched again
// once the lock times out (at-least-once, reference/events.md §4).

import type { Driver } from '../drivers/index.js';

/** delivered | error (retries used up) | retry (after `delaySec`) | unlock (put back untouched). */
export type EventOutcome =
  | { readonly kind: 'delivered' | 'error'; readonly id: string; readonly trigger: string; readonly status: number | null; readonly request: string; readonly response: string }
  | { readonly kind: 'retry'; readonly id: string; readonly trigger: string; readonly delaySec: number; readonly status: number | null; readonly request: string; readonly response: string }
  | { readonly kind: 'unlock'; readonly id: string };

const MAX_BATCH = 1000;

// The batch travels as one JSON array (the logs are JSON already and are spliced in as they are):
// PostgreSQL parses it once, where array parameters would be escaped element by element here.
const WRITE = `
WITH o AS (
  SELECT * FROM json_to_recordset($1::json)
    AS t(id text, trigger_name text, kind text, delay float8, status int, request json, response json)
), logs AS (
  INSERT INTO svc_catalog.event_invocation_logs (trigger_name, event_id, status, request, response)
  SELECT trigger_name, id, status, request, response FROM o WHERE kind <> 'unlock'
)
UPDATE svc_catalog.event_log e SET
  tries = CASE WHEN o.kind = 'unlock' THEN e.tries ELSE e.tries + 1 END,
  delivered = (o.kind = 'delivered'),
  error = (o.kind = 'error'),
  next_retry_at = CASE WHEN o.kind = 'retry' THEN now() + make_interval(secs => o.delay) ELSE e.next_retry_at END,
  locked = NULL
FROM o WHERE e.id = ANY($2::text[]) AND e.id = o.id`;

function batchJson(batch: readonly EventOutcome[]): string {
  const q = JSON.stringify;
  return `[${batch.map((o) => (o.kind === 'unlock'
    ? `{"id":${q(o.id)},"kind":"unlock"}`
    : `{"id":${q(o.id)},"trigger_name":${q(o.trigger)},"kind":"${o.kind}","delay":${o.kind === 'retry' ? o.delaySec : 'null'},`
      + `"status":${o.status ?? 'null'},"request":${o.request},"response":${o.response}}`)).join(',')}]`;
}

/** The outcome writer of one source database. */
export class EventRecorder {
  private buffer: EventOutcome[] = [];
  private running: Promise<void> | null = null;
  private giveUpAt = Infinity;

  /** `written` hears of every outcome once it is in the database. */
  constructor(private readonly db: Pick<Driver, 'query'>, private readonly log: (line: string) => void,
    private readonly written: (ids: readonly string[]) => void = () => {}) {}

  add(o: EventOutcome): void {
    this.buffer.push(o);
    this.kick();
  }

  /** Waits until everything added is written, retrying a failed write until `deadlineMs` from now. */
  async flush(deadlineMs: number): Promise<void> {
    this.giveUpAt = Date.now() + deadlineMs;
    while (this.running) await this.running;
    if (this.buffer.length > 0) {
      this.log(`event triggers: ${this.buffer.length} outcome(s) could not be written; those events stay locked until the lock times out`);
      this.buffer = [];
    }
  }

  private kick(): void {
    if (this.running || this.buffer.length === 0) return;
    this.running = this.drain().finally(() => {
      this.running = null;
      if (Date.now() < this.giveUpAt) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, MAX_BATCH);
      try {
        const ids = batch.map((o) => o.id);
        await this.db.query(WRITE, [batchJson(batch), ids]);
        this.written(ids);
      } catch (e) {
        // Keep them: the database may come back. Nothing is lost by waiting; the events stay locked.
        this.buffer.unshift(...batch);
        this.log(`event triggers: cannot record delivery outcomes (will retry): ${e instanceof Error ? e.message : String(e)}`);
        if (Date.now() >= this.giveUpAt) return;
        await new Promise((r) => setTimeout(r, Math.min(1000, Math.max(0, this.giveUpAt - Date.now()))));
      }
    }
  }
}
