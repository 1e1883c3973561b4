// Delivery of event triggers (reference/events.md §3–§5). Per source database a fetch loop claims
// up to a batch of due events in one statement (FOR UPDATE SKIP LOCKED, so instances sharing the
// database never claim the same event), hands each to a slot of the shared HTTP pool, and
// records what happened in batches (event-outcomes.ts). The next batch is fetched while one waits
// for the pool; past those two batches, polling pauses until the pool takes them.
// Shutdown: stop claiming, let calls in flight finish within the grace period, then put back
// (unlock) whatever was claimed and not done.

import type { Json } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { ensureSourceEventCatalog } from './catalog.js';
import { eventTriggersOf, unsetVariable, type EventTriggerDef } from './definitions.js';
import { deliverWebhook, type Attempt } from './deliver.js';
import { EventRecorder, type EventOutcome } from './event-outcomes.js';
import type { HttpPool } from './http-pool.js';
import { LockKeeper, UnsettledClaims } from './lock-keeper.js';
import type { WorkerSettings } from './settings.js';
import { sleep } from './sleep.js';
import { isoUtc } from './time-text.js';

/** What the workers read at every fetch: the served document and its open databases. */
export interface ServedSources {
  readonly metadata: Json;
  readonly drivers: ReadonlyMap<string, Driver>;
}

export interface EventWorkerOptions {
  readonly current: () => ServedSources;
  readonly pool: HttpPool;
  readonly settings: WorkerSettings;
  readonly log: (line: string) => void;
  readonly env?: NodeJS.ProcessEnv;
  /** Told each attempt's outcome (for /v1/metrics): delivered, retry (failed, tried again later) or error (retries used up). */
  readonly observe?: (trigger: string, outcome: 'delivered' | 'retry' | 'error') => void;
}

/** A claimed event. */
interface EventRow {
  readonly id: string;
  readonly schema: string;
  readonly table: string;
  readonly trigger: string;
  /** The payload as the database printed it (numbers keep every digit). */
  readonly payload: string;
  readonly tries: number;
  readonly createdAt: string;
}

// Claims due events: not delivered, not failed for good, not archived, past their retry time,
// and free (never claimed, or claimed longer ago than the lock timeout: its instance died).
// Written so the plan stays cheap as the log grows: the lock test is one expression (an OR of
// two lock conditions makes the planner sort every pending row), so the inner query walks the
// event_log_fetch_events index in order and stops at the limit; and `= ANY(ARRAY(...))` makes
// the ids one value looked up by primary key (`IN (...)` gets a hash join over the whole table).
const CLAIM = `
UPDATE svc_catalog.event_log SET locked = now(), claim_id = $4
WHERE id = ANY(ARRAY(
  SELECT id FROM svc_catalog.event_log
  WHERE delivered = false AND error = false AND archived = false
    AND coalesce(locked, '-infinity') < now() - make_interval(secs => $3)
    AND (next_retry_at IS NULL OR next_retry_at <= now())
    AND trigger_name = ANY($1::text[])
  ORDER BY locked NULLS FIRST, next_retry_at NULLS FIRST, created_at
  LIMIT $2
  FOR UPDATE SKIP LOCKED))
RETURNING id, schema_name, table_name, trigger_name, payload::text, tries, created_at::text`;

// Puts back the events of fetches that failed and may have committed (lock-keeper.ts
// UnsettledClaims); the predicate is the fetch index's, so only pending rows are looked at.
const RELEASE_UNSETTLED = `
UPDATE svc_catalog.event_log SET locked = NULL
WHERE claim_id = ANY($1::text[]) AND locked IS NOT NULL AND delivered = false AND error = false AND archived = false`;

// Renews this instance's claims (lock-keeper.ts); a claim already released or finished stays so.
const RENEW = `
UPDATE svc_catalog.event_log SET locked = now()
WHERE id = ANY($1::text[]) AND locked IS NOT NULL AND delivered = false AND error = false`;

const byMetadata = new WeakMap<object, ReadonlyMap<string, ReadonlyMap<string, EventTriggerDef>>>();

/** The event triggers of the document by source, then by name (computed once per document). */
function triggersBySource(metadata: Json): ReadonlyMap<string, ReadonlyMap<string, EventTriggerDef>> {
  const key = metadata !== null && typeof metadata === 'object' ? metadata : null;
  const cached = key ? byMetadata.get(key) : undefined;
  if (cached) return cached;
  const out = new Map<string, Map<string, EventTriggerDef>>();
  for (const t of eventTriggersOf(metadata)) {
    let m = out.get(t.source);
    if (!m) out.set(t.source, (m = new Map()));
    m.set(t.name, t);
  }
  if (key) byMetadata.set(key, out);
  return out;
}

const deliverable = new WeakMap<object, ReadonlyMap<string, EventTriggerDef>>();

/**
 * The triggers whose webhook and headers can be resolved from the environment. The metadata API
 * refuses a trigger naming an unset variable; one that was stored before (another instance,
 * another environment) keeps its events pending, not failed, until a server that has it serves.
 */
function deliverableOf(all: ReadonlyMap<string, EventTriggerDef>, env: NodeJS.ProcessEnv, log: (line: string) => void): ReadonlyMap<string, EventTriggerDef> {
  const cached = deliverable.get(all);
  if (cached) return cached;
  const out = new Map<string, EventTriggerDef>();
  for (const [name, t] of all) {
    const missing = unsetVariable(t, env);
    if (missing === undefined) out.set(name, t);
    else log(`event trigger ${t.name} (source ${t.source}): environment variable ${missing} is not set; its events wait until a server that has it runs`);
  }
  deliverable.set(all, out);
  return out;
}

/** The webhook body of reference/events.md §3; the payload goes in as the database printed it. */
function eventBody(row: EventRow, maxRetries: number): string {
  const q = JSON.stringify;
  return `{"id":${q(row.id)},"created_at":${q(isoUtc(row.createdAt))},"trigger":{"name":${q(row.trigger)}},`
    + `"table":{"schema":${q(row.schema)},"name":${q(row.table)}},"event":${row.payload},`
    + `"delivery_info":{"max_retries":${maxRetries},"current_retry":${row.tries}}}`;
}

function sessionVariablesOf(payload: string): { [k: string]: Json } | null {
  const s = (JSON.parse(payload) as { session_variables?: unknown }).session_variables;
  return s !== null && typeof s === 'object' && !Array.isArray(s) ? s as { [k: string]: Json } : null;
}

/** The outcome of an attempt, by the trigger's retry_conf: 2xx delivered; else retry or error. */
function judgeAttempt(row: Pick<EventRow, 'id' | 'trigger' | 'tries'>, def: Pick<EventTriggerDef, 'retry_conf'>, a: Attempt): EventOutcome {
  const logged = { id: row.id, trigger: row.trigger, status: a.status, request: a.request, response: a.response };
  if (a.outcome.kind === 'aborted') return { kind: 'unlock', id: row.id };
  if (a.success) return { kind: 'delivered', ...logged };
  const tries = row.tries + 1;
  // Retry-After on a failed answer asks for one more try after that many seconds, even when the
  // retries are used up (Hasura: "the event will be redelivered once more").
  const retryAfter = a.outcome.kind === 'response' ? a.outcome.retryAfter : null;
  if (retryAfter !== null) return { kind: 'retry', ...logged, delaySec: retryAfter };
  if (tries > def.retry_conf.num_retries) return { kind: 'error', ...logged };
  return { kind: 'retry', ...logged, delaySec: def.retry_conf.interval_sec };
}

/** The fetch loop of one source database. */
class SourceLoop {
  readonly done: Promise<void>;
  private readonly recorder: EventRecorder;
  private readonly claims: LockKeeper;
  private readonly unsettled: UnsettledClaims;
  private lastError = '';

  constructor(
    private readonly o: EventWorkerOptions,
    readonly source: string,
    readonly driver: Driver,
    private readonly fetching: AbortSignal,
    private readonly inflight: AbortSignal,
    private readonly calls: Set<Promise<void>>,
  ) {
    this.unsettled = new UnsettledClaims(driver, RELEASE_UNSETTLED);
    this.claims = new LockKeeper(driver, RENEW, o.settings.lockTimeoutSec, (line) => o.log(`event triggers (source ${source}): ${line}`));
    // A claim is renewed until its outcome is written, so a slow or failed write never frees an
    // event another instance would then send again.
    this.recorder = new EventRecorder(driver, o.log, (ids) => { for (const id of ids) this.claims.release(id); });
    this.done = this.run();
  }

  private triggers(): ReadonlyMap<string, EventTriggerDef> | undefined {
    const cur = this.o.current();
    if (cur.drivers.get(this.source) !== this.driver) return undefined;
    const all = triggersBySource(cur.metadata).get(this.source);
    return all && deliverableOf(all, this.o.env ?? process.env, this.o.log);
  }

  /** True while the document still has event triggers on this source, served by this driver. */
  wanted(): boolean {
    return (this.triggers()?.size ?? 0) > 0;
  }

  private problem(what: string, e: unknown): void {
    const internal = (e as { internal?: { error?: { message?: string } } }).internal?.error?.message;
    const message = `${what}: ${internal ?? (e instanceof Error ? e.message : String(e))}`;
    if (message !== this.lastError) this.o.log(`event triggers (source ${this.source}): ${message}`);
    this.lastError = message;
  }

  /** Claims up to a batch of due events of the served triggers; each claim is renewed until its outcome is written. */
  private async fetch(defs: ReadonlyMap<string, EventTriggerDef>): Promise<EventRow[]> {
    const { settings } = this.o;
    await this.unsettled.settle();
    const res = await this.unsettled.claim((token) =>
      this.driver.query(CLAIM, [[...defs.keys()], settings.fetchBatchSize, settings.lockTimeoutSec, token]));
    this.lastError = '';
    const rows = res.rows.map(rowOf);
    for (const row of rows) this.claims.hold(row.id);
    return rows;
  }

  /**
   * Fetch, dispatch, repeat. As Hasura's processEventQueue does (popEventsBatch under withAsync),
   * the next batch is fetched while this one waits for the pool, so a backlog keeps two batches
   * claimed ahead of the webhook calls; fetching pauses after that until the pool takes them.
   */
  private async run(): Promise<void> {
    const { settings, pool } = this.o;
    let ready = false;
    let next: Promise<EventRow[] | null> | null = null;
    while (!this.fetching.aborted && this.wanted()) {
      try {
        if (!ready) await ensureSourceEventCatalog(this.driver);
        ready = true;
        let rows: EventRow[];
        if (next !== null) {
          const prefetched = next;
          next = null;
          rows = (await prefetched) ?? [];
        } else {
          await pool.slots.untilFree(this.fetching);
          const defs = this.triggers();
          if (this.fetching.aborted || !defs || defs.size === 0) break;
          rows = await this.fetch(defs);
        }
        if (rows.length === 0) {
          await sleep(settings.fetchIntervalMs, this.fetching);
          continue;
        }
        const defs = this.triggers();
        if (defs && defs.size > 0 && !this.fetching.aborted) {
          next = this.fetch(defs).catch((e: unknown) => {
            this.problem('cannot fetch events', e);
            return null;
          });
        }
        await this.dispatch(rows);
      } catch (e) {
        this.problem(ready ? 'cannot fetch events' : 'cannot create svc_catalog.event_log', e);
        await sleep(settings.fetchIntervalMs, this.fetching);
      }
    }
    // A batch fetched ahead and never started goes back at once.
    const left = next === null ? null : await next;
    for (const row of left ?? []) this.recorder.add({ kind: 'unlock', id: row.id });
  }

  /** Starts each claimed event as a slot frees; on shutdown the ones not started are put back. */
  private async dispatch(rows: readonly EventRow[]): Promise<void> {
    for (const [i, row] of rows.entries()) {
      if (!await this.o.pool.slots.acquire(this.fetching)) {
        for (const r of rows.slice(i)) this.recorder.add({ kind: 'unlock', id: r.id });
        return;
      }
      const call = this.deliver(row).finally(() => {
        this.o.pool.slots.release();
        this.calls.delete(call);
      });
      this.calls.add(call);
    }
  }

  private async deliver(row: EventRow): Promise<void> {
    const def = this.triggers()?.get(row.trigger);
    if (!def) {
      // The trigger left the document since the fetch: leave its event for whoever serves it.
      this.recorder.add({ kind: 'unlock', id: row.id });
      return;
    }
    try {
      const attempt = await deliverWebhook(this.o.pool, {
        webhook: def.webhook_from_env !== undefined ? { kind: 'env', name: def.webhook_from_env } : { kind: 'url', url: def.webhook ?? '' },
        body: eventBody(row, def.retry_conf.num_retries),
        headers: def.headers,
        timeoutSec: def.retry_conf.timeout_sec,
        ...(def.request_transform !== undefined ? { transform: def.request_transform, sessionVariables: sessionVariablesOf(row.payload) } : {}),
      }, this.inflight, this.o.env);
      const outcome = judgeAttempt(row, def, attempt);
      if (outcome.kind !== 'unlock') this.o.observe?.(row.trigger, outcome.kind);
      this.recorder.add(outcome);
    } catch (e) {
      this.problem(`delivering event ${row.id}`, e);
      this.recorder.add({ kind: 'unlock', id: row.id });
    }
  }

  async flush(deadlineMs: number): Promise<void> {
    await this.recorder.flush(deadlineMs);
    await this.unsettled.settle().catch((e: unknown) => this.problem(
      'cannot put back the events of a failed fetch (they wait for the lock timeout)', e));
    await this.claims.stop();
  }
}

function rowOf(r: readonly unknown[]): EventRow {
  return {
    id: String(r[0]), schema: String(r[1]), table: String(r[2]), trigger: String(r[3]),
    payload: String(r[4]), tries: Number(r[5]), createdAt: String(r[6]),
  };
}

/** The running event trigger workers. */
export interface EventWorkers {
  /** Stops claiming, waits for calls in flight (up to the grace period), puts back what is left. */
  stop(): Promise<void>;
  /** Webhook calls in flight now. */
  inFlight(): number;
}

/** Starts the event trigger workers: one fetch loop per source that has event triggers, as the served document changes. */
export function startEventWorkers(o: EventWorkerOptions): EventWorkers {
  const fetching = new AbortController();
  const inflight = new AbortController();
  const calls = new Set<Promise<void>>();
  const loops = new Map<string, SourceLoop>();
  const retired = new Set<SourceLoop>();

  const reconcile = (): void => {
    if (fetching.signal.aborted) return;
    const cur = o.current();
    for (const source of triggersBySource(cur.metadata).keys()) {
      const driver = cur.drivers.get(source);
      const loop = loops.get(source);
      if (!driver || (loop && loop.driver === driver)) continue;
      if (loop) retired.add(loop);
      const next = new SourceLoop(o, source, driver, fetching.signal, inflight.signal, calls);
      loops.set(source, next);
      // A loop ends when its source has no event triggers left; a later reconcile starts another.
      void next.done.then(() => {
        if (loops.get(source) === next && !fetching.signal.aborted) loops.delete(source);
        void next.flush(o.settings.gracefulShutdownMs).then(() => retired.delete(next));
      });
    }
  };
  reconcile();
  const timer = setInterval(reconcile, Math.max(100, Math.min(o.settings.fetchIntervalMs, 1000)));

  return {
    inFlight: () => calls.size,
    async stop() {
      clearInterval(timer);
      fetching.abort();
      const all = [...loops.values(), ...retired];
      await Promise.all(all.map((l) => l.done));
      const graceOver = new Promise<void>((r) => setTimeout(r, o.settings.gracefulShutdownMs).unref());
      await Promise.race([Promise.all([...calls]), graceOver]);
      inflight.abort();
      await Promise.all([...calls]);
      await Promise.all(all.map((l) => l.flush(Math.max(5000, o.settings.gracefulShutdownMs))));
    },
  };
}
