// The pollers of multiplexed subscriptions (reference/subscriptions.md §4, §5). Subscribers
// whose plans print the same multiplexed statement on the same source share one poller; the
// poller runs ONE statement per batch of cohorts per poll, every cohort's parameter values in
// arrays, and hands each cohort its row. Fetches of one poller never overlap, so a cohort sees
// its results in commit order.
//
// When the source's change feed is healthy for the tables the plan reads (change-feed.ts), a poll
// runs when a commit notified one of them, and otherwise only every safety interval (none when
// it is 0): no statement runs while nothing changes. A stream whose last batch moved its cursor
// is the exception: it polls on the interval until a batch comes back empty. A burst of notifications costs at most one
// poll running and one waiting. Without the feed the poll runs every refetch interval, as
// before. Either way a timer ticks every refetch interval to notice a replaced engine (no SQL).

import { ApiError } from '../errors/index.js';
import type { Driver } from '../drivers/index.js';
import { multiplexParams, type MultiplexedSql } from '../sql/index.js';
import type { FeedWatch, FeedWatcher } from './change-feed.js';

/** One row of the statement's relation: a set of parameter values and what receives its result. */
export interface Cohort {
  readonly id: number;
  /** The parameter values in text form, in slot order (read at every poll: a stream's cursor moves). */
  values(): readonly (string | null)[];
  /** The result text of this cohort's row. */
  receive(text: string): void;
  /** The poll failed: the error response text for everyone in the cohort. */
  fail(errorText: string): void;
  /** The plan is stale (the metadata changed): its subscribers plan again. */
  replan(): void;
  /**
   * True when its last result moved a stream cursor: rows after it may already be committed, and
   * no change notification will announce them, so the next poll is due at the refetch interval.
   */
  morePending?(): boolean;
}

/** How a poller runs: its statement, where it runs, how often and how many cohorts per statement. */
export interface PollerSpec {
  readonly key: string;
  readonly statement: MultiplexedSql;
  readonly driver: () => Driver;
  readonly refetchMs: number;
  /** While the change feed is healthy: poll anyway after this long without a poll (0: never). */
  readonly safetyMs: number;
  /** Watches the tables the plan reads on the source's change feed; null: no feed, poll every refetch interval. */
  readonly watch: ((w: FeedWatcher) => FeedWatch) | null;
  readonly batchSize: number;
  /** Called when a poll failed with something that is not an ApiError (logged once per poll). */
  readonly onUnexpected: (e: unknown) => void;
  /** The error response text for an ApiError. */
  readonly errorText: (e: ApiError) => string;
  /** True once the engine the statement was planned with has been replaced (metadata changed). */
  readonly isStale: () => boolean;
}

let nextCohortId = 1;

/** A fresh cohort id, unique in the process. */
export function newCohortId(): number {
  const id = nextCohortId;
  nextCohortId = nextCohortId >= 0x7fffffff ? 1 : nextCohortId + 1;
  return id;
}

/** One shared statement and the cohorts it serves. */
export class Poller {
  private readonly cohorts = new Map<string, Cohort>();
  private fresh: Cohort[] = [];
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private freshScheduled = false;
  /** A poll is queued and has not started: a change arriving now is covered by it. */
  private pollQueued = false;
  private lastPollStart = Date.now();
  private stopped = false;
  private readonly watch: FeedWatch | null;
  /** Statements run so far (for the scale figures and tests). */
  statements = 0;
  polls = 0;
  /** Seconds spent in polls so far (statement time, for /v1/metrics). */
  pollSeconds = 0;

  constructor(readonly spec: PollerSpec, private readonly onEmpty: (p: Poller) => void) {
    this.watch = spec.watch?.({
      changed: () => this.poll(),
      // Healthy again: what changed while it was not is fetched now. Not healthy: the tick polls.
      health: (healthy) => { if (healthy) this.poll(); },
    }) ?? null;
  }

  /** The cohort of `valuesKey`, created with `make` (and fetched at once) when new. */
  join(valuesKey: string, make: () => Cohort): Cohort {
    let c = this.cohorts.get(valuesKey);
    if (c) return c;
    c = make();
    this.cohorts.set(valuesKey, c);
    this.fresh.push(c);
    this.scheduleFresh();
    if (this.timer === null && !this.stopped) this.arm(this.spec.refetchMs);
    return c;
  }

  /** Drops a cohort; the poller stops when none is left. */
  leave(valuesKey: string, cohort: Cohort): void {
    if (this.cohorts.get(valuesKey) !== cohort) return;
    this.cohorts.delete(valuesKey);
    this.fresh = this.fresh.filter((c) => c !== cohort);
    if (this.cohorts.size === 0) this.stop();
  }

  get size(): number {
    return this.cohorts.size;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.watch?.close();
    this.onEmpty(this);
  }

  // New cohorts get their first result at once, together (one statement for all that arrived in
  // the same turn of the event loop), instead of waiting for the next poll.
  private scheduleFresh(): void {
    if (this.freshScheduled) return;
    this.freshScheduled = true;
    setImmediate(() => {
      this.freshScheduled = false;
      const batch = this.fresh;
      this.fresh = [];
      if (batch.length > 0 && !this.stopped) this.enqueue(() => this.fetch(batch));
    });
  }

  private arm(wait: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tick();
    }, wait);
  }

  /** True while the change feed is healthy for this poller's tables. */
  get fed(): boolean {
    return this.watch?.healthy() ?? false;
  }

  // Every refetch interval: a replaced engine replans; a poll runs when one is due (always
  // without a healthy feed, after the safety interval with one). Otherwise nothing runs.
  private tick(): void {
    if (this.stopped) return;
    if (this.spec.isStale()) {
      this.replanAll();
      return;
    }
    // A stream whose cursor just moved is fetched again on the interval, as Hasura polls every
    // stream (its next batch may be committed already); the feed only saves polls that find nothing.
    const every = this.fed && !this.morePending() ? this.spec.safetyMs : this.spec.refetchMs;
    // A timer may fire a little early; a poll within a tenth of the interval (at most 50 ms) is due.
    const due = every > 0 && Date.now() - this.lastPollStart >= every - Math.min(50, every / 10);
    if (due) this.poll();
    else this.arm(this.spec.refetchMs);
  }

  private morePending(): boolean {
    for (const c of this.cohorts.values()) if (c.morePending?.()) return true;
    return false;
  }

  private replanAll(): void {
    const cohorts = [...this.cohorts.values()];
    this.cohorts.clear();
    this.stop();
    for (const c of cohorts) c.replan();
  }

  // Polls every cohort now, unless a poll is already queued (it will see this change too). The
  // next tick is counted from the start of the poll; a slow poll delays it rather than overlapping it.
  private poll(): void {
    if (this.stopped || this.pollQueued) return;
    if (this.spec.isStale()) {
      this.replanAll();
      return;
    }
    this.pollQueued = true;
    void this.enqueue(async () => {
      this.pollQueued = false;
      this.lastPollStart = Date.now();
      this.polls++;
      const t0 = performance.now();
      try {
        await this.fetch([...this.cohorts.values()]);
      } finally {
        this.pollSeconds += (performance.now() - t0) / 1000;
      }
    }).finally(() => {
      if (this.stopped || this.cohorts.size === 0 || this.pollQueued) return;
      this.arm(Math.max(0, this.spec.refetchMs - (Date.now() - this.lastPollStart)));
    });
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return this.chain;
  }

  private async fetch(cohorts: readonly Cohort[]): Promise<void> {
    if (cohorts.length === 0 || this.stopped) return;
    const batches: Cohort[][] = [];
    for (let i = 0; i < cohorts.length; i += this.spec.batchSize) batches.push(cohorts.slice(i, i + this.spec.batchSize));
    await Promise.all(batches.map((b) => this.fetchBatch(b)));
  }

  private async fetchBatch(batch: readonly Cohort[]): Promise<void> {
    const { statement } = this.spec;
    const params = multiplexParams(batch.map((c) => ({ id: c.id, values: c.values() })), statement.slots.length);
    let rows: readonly unknown[][];
    try {
      this.statements++;
      rows = (await this.spec.driver().query(statement.text, params)).rows;
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError('unexpected', 'database query error', 500, [], e);
      if (!(e instanceof ApiError)) this.spec.onUnexpected(e);
      const text = this.spec.errorText(err);
      for (const c of batch) c.fail(text);
      return;
    }
    const byId = new Map<number, Cohort>(batch.map((c) => [c.id, c]));
    for (const row of rows) {
      const c = byId.get(Number(row[0]));
      if (c) c.receive(row[1] === null || row[1] === undefined ? 'null' : String(row[1]));
    }
  }
}
