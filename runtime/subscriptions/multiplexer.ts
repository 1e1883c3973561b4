// The registry of pollers: live-query subscribers with the same multiplexed statement share a
// poller, and those whose parameter values are equal share a cohort (one row, one result);
// each subscriber is pushed a result only when it differs from the last one it was sent.
// Stream subscribers share pollers too, but each is its own cohort: its cursor is its own.

import type { Driver } from '../drivers/index.js';
import type { ApiError } from '../errors/index.js';
import type { MultiplexedSql, QualifiedName } from '../sql/index.js';
import type { ChangeFeed } from './change-feed.js';
import { newCohortId, Poller, type Cohort } from './poller.js';
import type { SubscriptionSettings } from './settings.js';
import { splitStreamResult } from './stream.js';

/** Where a subscriber's results go. */
export interface SubscriberSink {
  /** A response text (`{"data":...}` or `{"errors":[...]}`) to send as the operation's next result. */
  push(payload: string): void;
  /** The metadata changed under the plan: plan the operation again. */
  replan(): void;
}

/** What a subscription registers: its statement and where it runs. */
export interface Registration {
  readonly source: string;
  readonly statement: MultiplexedSql;
  readonly driver: () => Driver;
  /**
   * The role it runs as: subscribers share a poller only within one role, because the driver
   * carries the role's time limit (and Hasura keys its pollers by role too).
   */
  readonly role: string;
  /** True once the engine that planned it was replaced. */
  readonly isStale: () => boolean;
  /**
   * The tables whose changes may change its result, when the IR names them all (runtime/sql
   * relationsRead); null when it does not (a function's rows) or when the subscriber's values
   * depend on the clock (`now()`): such a plan polls every refetch interval.
   */
  readonly tables: readonly QualifiedName[] | null;
}

/** Figures of the running pollers. */
export interface MultiplexerStats {
  readonly pollers: number;
  readonly cohorts: number;
  readonly statements: number;
  readonly polls: number;
  /** Pollers refetching on the change feed now (the others poll on their interval). */
  readonly fedPollers: number;
  /** Change notifications received so far. */
  readonly notifications: number;
  /** Seconds spent polling so far. */
  readonly pollSeconds: number;
  /** Subscriptions (live and stream) served now. */
  readonly subscribers: number;
}

class LiveCohort implements Cohort {
  readonly id = newCohortId();
  readonly sinks = new Map<SubscriberSink, { last: string | undefined }>();
  last: string | undefined;

  constructor(private readonly vals: readonly (string | null)[]) {}

  values(): readonly (string | null)[] {
    return this.vals;
  }

  receive(text: string): void {
    this.offerAll(`{"data":${text}}`);
  }

  fail(errorText: string): void {
    this.offerAll(errorText);
  }

  replan(): void {
    for (const sink of [...this.sinks.keys()]) sink.replan();
  }

  offerAll(payload: string): void {
    if (payload === this.last) return;
    this.last = payload;
    for (const [sink, state] of this.sinks) offer(sink, state, payload);
  }
}

function offer(sink: SubscriberSink, state: { last: string | undefined }, payload: string): void {
  if (payload === state.last) return;
  state.last = payload;
  sink.push(payload);
}

class StreamCohort implements Cohort {
  readonly id = newCohortId();
  private moved = false;

  constructor(private readonly bind: (cursor: unknown) => readonly (string | null)[], private cursor: unknown,
    private readonly sink: SubscriberSink) {}

  values(): readonly (string | null)[] {
    return this.bind(this.cursor);
  }

  receive(text: string): void {
    const r = splitStreamResult(text);
    this.moved = r.rows > 0;
    if (r.rows === 0) return;
    this.cursor = r.last;
    this.sink.push(`{"data":${r.data}}`);
  }

  fail(errorText: string): void {
    this.sink.push(errorText);
  }

  morePending(): boolean {
    return this.moved;
  }

  replan(): void {
    this.sink.replan();
  }
}

/** All pollers of one server. */
export class Multiplexer {
  private readonly pollers = new Map<string, Poller>();
  private retired = { statements: 0, polls: 0, pollSeconds: 0 };
  private subscribers = 0;

  /** `feedFor`: the change feed of a source, null when it has none (off, or not PostgreSQL). */
  constructor(private readonly settings: SubscriptionSettings, private readonly errorText: (e: ApiError) => string,
    private readonly log: (line: string) => void, private readonly feedFor: (source: string) => ChangeFeed | null = () => null) {}

  /** Adds a live-query subscriber with its parameter values (text form); answers its unsubscribe. */
  live(reg: Registration, values: readonly (string | null)[], sink: SubscriberSink, lastSent?: string): () => void {
    const poller = this.poller(`live\u0000${reg.role}\u0000${reg.source}\u0000${reg.tables ? 'fed' : 'polled'}\u0000${reg.statement.text}`, reg, this.settings.liveRefetchMs, this.settings.liveBatchSize);
    const key = JSON.stringify(values);
    const cohort = poller.join(key, () => new LiveCohort(values)) as LiveCohort;
    const state = { last: lastSent };
    cohort.sinks.set(sink, state);
    if (cohort.last !== undefined) offer(sink, state, cohort.last);
    this.subscribers++;
    return () => {
      if (!cohort.sinks.delete(sink)) return;
      this.subscribers--;
      if (cohort.sinks.size === 0) poller.leave(key, cohort);
    };
  }

  /** Adds a stream subscriber whose values depend on its cursor; answers its unsubscribe. */
  stream(reg: Registration, bind: (cursor: unknown) => readonly (string | null)[], cursor: unknown, sink: SubscriberSink): () => void {
    const poller = this.poller(`stream\u0000${reg.role}\u0000${reg.source}\u0000${reg.tables ? 'fed' : 'polled'}\u0000${reg.statement.text}`, reg, this.settings.streamRefetchMs, this.settings.streamBatchSize);
    const cohort = new StreamCohort(bind, cursor, sink);
    const key = `#${cohort.id}`;
    poller.join(key, () => cohort);
    this.subscribers++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.subscribers--;
      poller.leave(key, cohort);
    };
  }

  stats(): MultiplexerStats {
    let cohorts = 0;
    let statements = this.retired.statements;
    let polls = this.retired.polls;
    let pollSeconds = this.retired.pollSeconds;
    let fedPollers = 0;
    for (const p of this.pollers.values()) {
      if (p.fed) fedPollers++;
      cohorts += p.size;
      statements += p.statements;
      polls += p.polls;
      pollSeconds += p.pollSeconds;
    }
    return { pollers: this.pollers.size, cohorts, statements, polls, fedPollers, notifications: this.notifications(), pollSeconds, subscribers: this.subscribers };
  }

  /** Notifications the change feeds received (a hook the service fills in). */
  notifications: () => number = () => 0;

  /** Stops every poller. */
  close(): void {
    for (const p of [...this.pollers.values()]) p.stop();
  }

  private poller(key: string, reg: Registration, refetchMs: number, batchSize: number): Poller {
    const existing = this.pollers.get(key);
    if (existing && !existing.spec.isStale()) return existing;
    const feed = reg.tables ? this.feedFor(reg.source) : null;
    const tables = reg.tables;
    const p = new Poller({
      key, statement: reg.statement, driver: reg.driver, refetchMs, batchSize, isStale: reg.isStale, errorText: this.errorText,
      safetyMs: this.settings.safetyRefetchMs, watch: feed && tables ? (w) => feed.watch(tables, w) : null,
      onUnexpected: (e) => this.log(`kiln: subscription poll failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`),
    }, (stopped) => {
      this.retired = { statements: this.retired.statements + stopped.statements, polls: this.retired.polls + stopped.polls,
        pollSeconds: this.retired.pollSeconds + stopped.pollSeconds };
      if (this.pollers.get(key) === stopped) this.pollers.delete(key);
    });
    this.pollers.set(key, p);
    return p;
  }
}
