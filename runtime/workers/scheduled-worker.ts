// Delivery of cron and one-off scheduled events (reference/events.md §6), from the metadata
// database. One loop keeps the cron triggers' future events made (cron-schedule.ts) and claims due
// events of both kinds (status scheduled → locked, SKIP LOCKED). An event later than its
// tolerance is marked dead without a call; 2xx is delivered; a failure is tried again after
// retry_interval_seconds (or Retry-After) until num_retries is used up, then error.
//
// The catalog has no lock-time column for these events, and Hasura's answer (unlock every
// locked event at start) sends an event twice when another instance is delivering it. So while
// an event is `locked` its next_retry_at holds the time it was claimed (renewed while its call
// runs, lock-keeper.ts), and a claim older than the lock timeout counts as free, as for event
// triggers.
//
// Time comes from `clock` (tests move it), passed to every statement instead of now().

import type { Json } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { ensureScheduledCatalog } from './catalog.js';
import { generateCronEvents, lockCronEvents } from './cron-schedule.js';
import { headerConfs } from './definitions.js';
import { deliverWebhook, type Attempt, type WebhookCall } from './deliver.js';
import type { HttpPool } from './http-pool.js';
import { LockKeeper, UnsettledClaims } from './lock-keeper.js';
import { cronTriggersOf, retryConfST, type CronTriggerDef, type ScheduledRetryConf } from './scheduled-definitions.js';
import type { WorkerSettings } from './settings.js';
import { sleep } from './sleep.js';
import { isoUtc } from './time-text.js';

export interface ScheduledWorkerOptions {
  /** The metadata database (svc_catalog). */
  readonly catalog: Driver;
  /** The served document (its cron triggers). */
  readonly metadata: () => Json;
  readonly pool: HttpPool;
  readonly settings: WorkerSettings;
  readonly log: (line: string) => void;
  readonly clock?: () => Date;
  /** Milliseconds between two top-ups of the cron events (and at every change of the document). Default 60 s. */
  readonly generateEveryMs?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/** A claimed event, of either kind, with what its call needs. */
interface Claimed {
  readonly kind: 'cron' | 'one_off';
  readonly id: string;
  readonly scheduledTime: string;
  readonly tries: number;
  readonly retry: ScheduledRetryConf;
  readonly call: Omit<WebhookCall, 'timeoutSec'>;
}

const CLAIM_CRON = `
UPDATE svc_catalog.hdb_cron_events SET status = 'locked', next_retry_at = $1::timestamptz, claim_id = $5
WHERE id IN (
  SELECT id FROM svc_catalog.hdb_cron_events
  WHERE trigger_name = ANY($4::text[])
    AND ((status = 'scheduled' AND scheduled_time <= $1::timestamptz AND (next_retry_at IS NULL OR next_retry_at <= $1::timestamptz))
      OR (status = 'locked' AND next_retry_at < $1::timestamptz - make_interval(secs => $3)))
  ORDER BY scheduled_time LIMIT $2
  FOR UPDATE SKIP LOCKED)
RETURNING id, trigger_name, scheduled_time::text, tries`;

const CLAIM_ONE_OFF = `
UPDATE svc_catalog.hdb_scheduled_events SET status = 'locked', next_retry_at = $1::timestamptz, claim_id = $4
WHERE id IN (
  SELECT id FROM svc_catalog.hdb_scheduled_events
  WHERE (status = 'scheduled' AND scheduled_time <= $1::timestamptz AND (next_retry_at IS NULL OR next_retry_at <= $1::timestamptz))
     OR (status = 'locked' AND next_retry_at < $1::timestamptz - make_interval(secs => $3))
  ORDER BY scheduled_time LIMIT $2
  FOR UPDATE SKIP LOCKED)
RETURNING id, webhook_conf::text, scheduled_time::text, retry_conf::text, payload::text, header_conf::text, tries,
  created_at::text, comment, request_transform::text`;

// Puts back the events of fetches that failed and may have committed (lock-keeper.ts
// UnsettledClaims), as shutdown puts back a claimed event not sent. A cron occurrence made again
// meanwhile (the generator keeps one scheduled event per trigger and time) keeps its place.
const RELEASE_UNSETTLED = {
  cron: `UPDATE svc_catalog.hdb_cron_events e SET status = 'scheduled', next_retry_at = NULL
    WHERE claim_id = ANY($1::text[]) AND status = 'locked'
      AND NOT EXISTS (SELECT 1 FROM svc_catalog.hdb_cron_events o
        WHERE o.trigger_name = e.trigger_name AND o.scheduled_time = e.scheduled_time AND o.status = 'scheduled')`,
  one_off: `UPDATE svc_catalog.hdb_scheduled_events SET status = 'scheduled', next_retry_at = NULL
    WHERE claim_id = ANY($1::text[]) AND status = 'locked'`,
} as const;

// Renews this instance's claims (lock-keeper.ts): a locked event's next_retry_at is its claim time.
const RENEW = {
  cron: `UPDATE svc_catalog.hdb_cron_events SET next_retry_at = $2::timestamptz WHERE id = ANY($1::text[]) AND status = 'locked'`,
  one_off: `UPDATE svc_catalog.hdb_scheduled_events SET next_retry_at = $2::timestamptz WHERE id = ANY($1::text[]) AND status = 'locked'`,
} as const;

// One statement: the event's new state and (when there was a call) its invocation log. An event
// deleted meanwhile (delete_scheduled_event) gets neither.
const RECORD = {
  cron: `WITH u AS (
    UPDATE svc_catalog.hdb_cron_events SET status = $2, tries = tries + $3, next_retry_at = $4::timestamptz WHERE id = $1 RETURNING id)
  INSERT INTO svc_catalog.hdb_cron_event_invocation_logs (event_id, status, request, response)
  SELECT id, $5, $6::json, $7::json FROM u WHERE $6::text IS NOT NULL`,
  one_off: `WITH u AS (
    UPDATE svc_catalog.hdb_scheduled_events SET status = $2, tries = tries + $3, next_retry_at = $4::timestamptz WHERE id = $1 RETURNING id)
  INSERT INTO svc_catalog.hdb_scheduled_event_invocation_logs (event_id, status, request, response)
  SELECT id, $5, $6::json, $7::json FROM u WHERE $6::text IS NOT NULL`,
} as const;

function json(text: unknown): Json {
  return typeof text === 'string' ? JSON.parse(text) as Json : null;
}

/** The cron body: {id, name, scheduled_time, payload, comment?} (reference/events.md §6). */
function cronClaimed(r: readonly unknown[], def: CronTriggerDef): Claimed {
  const id = String(r[0]);
  const scheduledTime = String(r[2]);
  const body: Record<string, Json> = { id, name: def.name, scheduled_time: isoUtc(scheduledTime), payload: def.payload ?? null };
  if (def.comment !== undefined) body['comment'] = def.comment;
  return {
    kind: 'cron', id, scheduledTime, tries: Number(r[3]), retry: def.retry_conf,
    call: {
      webhook: { kind: 'url', url: def.webhook }, body: JSON.stringify(body), headers: def.headers,
      ...(def.request_transform !== undefined ? { transform: def.request_transform, sessionVariables: null } : {}),
    },
  };
}

/** The one-off body: {id, scheduled_time, payload, comment?, created_at}; the payload as stored. */
function oneOffClaimed(r: readonly unknown[]): Claimed {
  const id = String(r[0]);
  const webhook = json(r[1]);
  const scheduledTime = String(r[2]);
  const q = JSON.stringify;
  const comment = r[8] === null ? '' : `,"comment":${q(String(r[8]))}`;
  const payload = r[4] === null ? 'null' : String(r[4]);
  const transform = json(r[9]);
  return {
    kind: 'one_off', id, scheduledTime, tries: Number(r[6]), retry: retryConfST(json(r[3])),
    call: {
      webhook: { kind: 'url', url: typeof webhook === 'string' ? webhook : '' },
      body: `{"id":${q(id)},"scheduled_time":${q(isoUtc(scheduledTime))},"payload":${payload}${comment},"created_at":${q(isoUtc(String(r[7])))}}`,
      headers: headerConfs(json(r[5])),
      ...(transform !== null ? { transform, sessionVariables: null } : {}),
    },
  };
}

/** The running cron and one-off workers. */
export interface ScheduledWorkers {
  /** Stops claiming, waits for calls in flight (up to the grace period), puts back what is left. */
  stop(): Promise<void>;
}

class ScheduledLoop {
  readonly done: Promise<void>;
  readonly fetching = new AbortController();
  readonly inflight = new AbortController();
  readonly calls = new Set<Promise<void>>();
  private readonly clock: () => Date;
  private lastGenerated = -Infinity;
  private generatedFor: Json | undefined = undefined;
  private lastError = '';
  readonly claims: { readonly [K in Claimed['kind']]: LockKeeper };
  private readonly unsettled: { readonly [K in Claimed['kind']]: UnsettledClaims };

  constructor(private readonly o: ScheduledWorkerOptions) {
    this.clock = o.clock ?? (() => new Date());
    const keeper = (kind: Claimed['kind']): LockKeeper => new LockKeeper(o.catalog, RENEW[kind], o.settings.lockTimeoutSec,
      (line) => o.log(`scheduled events: ${line}`), () => [this.clock().toISOString()]);
    this.claims = { cron: keeper('cron'), one_off: keeper('one_off') };
    this.unsettled = {
      cron: new UnsettledClaims(o.catalog, RELEASE_UNSETTLED.cron),
      one_off: new UnsettledClaims(o.catalog, RELEASE_UNSETTLED.one_off),
    };
    this.done = this.run();
  }

  private problem(what: string, e: unknown): void {
    const internal = (e as { internal?: { error?: { message?: string } } }).internal?.error?.message;
    const message = `${what}: ${internal ?? (e instanceof Error ? e.message : String(e))}`;
    if (message !== this.lastError) this.o.log(`scheduled events: ${message}`);
    this.lastError = message;
  }

  private async run(): Promise<void> {
    const { settings, pool, catalog } = this.o;
    let ready = false;
    while (!this.fetching.signal.aborted) {
      try {
        if (!ready) await ensureScheduledCatalog(catalog);
        ready = true;
        const metadata = this.o.metadata();
        const triggers = new Map(cronTriggersOf(metadata).map((t) => [t.name, t]));
        await this.generate(metadata, [...triggers.values()]);
        await pool.slots.untilFree(this.fetching.signal);
        if (this.fetching.signal.aborted) break;
        const now = this.clock().toISOString();
        await this.unsettled.cron.settle();
        await this.unsettled.one_off.settle();
        const cron = triggers.size === 0 ? [] : (await this.unsettled.cron.claim((token) =>
          catalog.query(CLAIM_CRON, [now, settings.fetchBatchSize, settings.lockTimeoutSec, [...triggers.keys()], token]))).rows;
        // The cron events claimed are sent even when the one-off fetch then fails.
        let oneOff: readonly (readonly unknown[])[] = [];
        let oneOffFailed: { readonly error: unknown } | null = null;
        try {
          oneOff = (await this.unsettled.one_off.claim((token) =>
            catalog.query(CLAIM_ONE_OFF, [now, settings.fetchBatchSize, settings.lockTimeoutSec, token]))).rows;
        } catch (e) {
          oneOffFailed = { error: e };
        }
        const claimed = [
          ...cron.map((r) => cronClaimed(r, triggers.get(String(r[1]))!)),
          ...oneOff.map(oneOffClaimed),
        ];
        if (claimed.length > 0) await this.dispatch(claimed);
        if (oneOffFailed) throw oneOffFailed.error;
        this.lastError = '';
        if (claimed.length === 0) await sleep(settings.fetchIntervalMs, this.fetching.signal);
      } catch (e) {
        this.problem(ready ? 'cannot fetch events' : 'cannot create the scheduled event tables', e);
        await sleep(settings.fetchIntervalMs, this.fetching.signal);
      }
    }
  }

  /** On shutdown: puts back what failed fetches may have claimed (else it waits for the lock timeout). */
  async settle(): Promise<void> {
    for (const u of [this.unsettled.cron, this.unsettled.one_off]) {
      await u.settle().catch((e: unknown) => this.problem('cannot put back the events of a failed fetch (they wait for the lock timeout)', e));
    }
  }

  private async generate(metadata: Json, triggers: readonly CronTriggerDef[]): Promise<void> {
    const every = this.o.generateEveryMs ?? 60_000;
    const now = this.clock();
    if (metadata === this.generatedFor && now.getTime() - this.lastGenerated < every) return;
    await this.o.catalog.transaction(async (tx) => {
      await lockCronEvents(tx);
      await generateCronEvents(tx, triggers, now, this.o.log, true);
    });
    this.generatedFor = metadata;
    this.lastGenerated = now.getTime();
  }

  private async dispatch(claimed: readonly Claimed[]): Promise<void> {
    for (const c of claimed) this.claims[c.kind].hold(c.id);
    for (const [i, c] of claimed.entries()) {
      if (!await this.o.pool.slots.acquire(this.fetching.signal)) {
        await Promise.all(claimed.slice(i).map((x) => this.record(x, 'scheduled', 0, null)));
        return;
      }
      const call = this.process(c).finally(() => {
        this.o.pool.slots.release();
        this.calls.delete(call);
      });
      this.calls.add(call);
    }
  }

  private async process(c: Claimed): Promise<void> {
    try {
      const now = this.clock();
      const late = (now.getTime() - Date.parse(isoUtc(c.scheduledTime))) / 1000;
      if (late > c.retry.tolerance_seconds) {
        await this.record(c, 'dead', 0, null);
        return;
      }
      const attempt = await deliverWebhook(this.o.pool, { ...c.call, timeoutSec: c.retry.timeout_seconds }, this.inflight.signal, this.o.env);
      await this.judge(c, attempt);
    } catch (e) {
      this.problem(`recording ${c.kind} event ${c.id}`, e);
    }
  }

  private async judge(c: Claimed, a: Attempt): Promise<void> {
    if (a.outcome.kind === 'aborted') return this.record(c, 'scheduled', 0, null);
    if (a.success) return this.record(c, 'delivered', 1, null, a);
    const retryAfter = a.outcome.kind === 'response' ? a.outcome.retryAfter : null;
    // Retry-After asks for one more try even with the retries used up, as for event triggers.
    if (retryAfter === null && c.tries + 1 > c.retry.num_retries) return this.record(c, 'error', 1, null, a);
    const at = new Date(this.clock().getTime() + (retryAfter ?? c.retry.retry_interval_seconds) * 1000);
    return this.record(c, 'scheduled', 1, at.toISOString(), a);
  }

  private async record(c: Claimed, status: string, tries: number, nextRetryAt: string | null, a?: Attempt): Promise<void> {
    try {
      await this.o.catalog.query(RECORD[c.kind], [c.id, status, tries, nextRetryAt, a?.status ?? null, a?.request ?? null, a?.response ?? null]);
    } finally {
      // Written, or not writable: either way this instance stops renewing the claim (an unwritten
      // outcome leaves the event locked until the claim lapses, then it is sent again).
      this.claims[c.kind].release(c.id);
    }
  }
}

/** Starts the cron and one-off scheduled event worker on the metadata database. */
export function startScheduledWorkers(o: ScheduledWorkerOptions): ScheduledWorkers {
  const loop = new ScheduledLoop(o);
  return {
    async stop() {
      loop.fetching.abort();
      await loop.done;
      const graceOver = new Promise<void>((r) => setTimeout(r, o.settings.gracefulShutdownMs).unref());
      await Promise.race([Promise.all([...loop.calls]), graceOver]);
      loop.inflight.abort();
      await Promise.all([...loop.calls]);
      await Promise.all([loop.claims.cron.stop(), loop.claims.one_off.stop()]);
      await loop.settle();
    },
  };
}
