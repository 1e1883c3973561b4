// The Prometheus metrics of one server, in a registry of its own (several servers in one process,
// as in the tests, never share counters). Request counters are bumped on the hot path; everything
// the server can ask for when scraped (pools, pollers, the plan cache) is read then, in `collect`.
// Names follow Hasura EE's where it has one (hasura_* → svc_*).

import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../drivers/index.js';
import type { MultiplexerStats } from '../subscriptions/index.js';
import { RequestTally, type Tally } from './request-tally.js';

/** The tallies one kind of request adds to, found once per (endpoint, operation type, status, outcome). */
interface Slot {
  readonly endpointName: string;
  readonly operationType: OperationType;
  readonly status: number;
  readonly failed: boolean;
  readonly request: Tally;
  readonly endpoint: Tally;
  readonly graphql: Tally | null;
  readonly execution: Tally | null;
}

/** What kind of GraphQL operation a request ran; `unknown` when its body did not say. */
export type OperationType = 'query' | 'mutation' | 'subscription' | 'unknown' | 'none';

/** Figures read when /v1/metrics is scraped. */
export interface MetricFeeds {
  /** The connection pool of each source served now. */
  pools?(): Iterable<readonly [string, PoolStats]>;
  /** The plan cache of the engine served now (hits, and misses: requests parsed afresh). */
  planCache?(): { readonly hits: number; readonly misses: number } | null;
  /** The pollers and sockets of the subscription service. */
  subscriptions?(): (MultiplexerStats & { readonly sockets: number }) | null;
  /** Event trigger webhook calls in flight. */
  eventsInFlight?(): number;
}

/** The server's figures now, for GET /dev/ekg, /dev/plan_cache and /dev/subscriptions. */
export interface DeveloperView {
  readonly httpInFlight: number;
  readonly planCache: { readonly hits: number; readonly misses: number } | null;
  readonly subscriptions: (MultiplexerStats & { readonly sockets: number }) | null;
  readonly pools: Readonly<Record<string, PoolStats>>;
  readonly eventsInFlight: number;
}

// Hasura's execution-time buckets, with two finer ones below 10 ms (most cached queries).
const LATENCY_BUCKETS = [0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1, 3, 10];

/**
 * A counter that mirrors a running total kept elsewhere: on each scrape it adds what the total
 * grew by. A total that went down belongs to a new object (an engine swapped in on a metadata
 * change), so all of it is new.
 */
function mirror(last: Map<string, number>, key: string, now: number, inc: (by: number) => void): void {
  const before = last.get(key) ?? 0;
  const by = now >= before ? now - before : now;
  if (by > 0) inc(by);
  last.set(key, now);
}

/** The metrics of one server; `registry` is what /v1/metrics prints. */
export class ServerMetrics {
  readonly registry = new Registry();
  private feeds: MetricFeeds = {};
  private readonly last = new Map<string, number>();
  private readonly events: Counter<'trigger_name' | 'outcome'>;
  private inFlightCount = 0;
  // Bumped per request in plain numbers; prom-client is filled from them when scraped.
  private readonly byRequest = new RequestTally(LATENCY_BUCKETS);
  private readonly byEndpoint = new RequestTally(LATENCY_BUCKETS);
  private readonly byGraphql = new RequestTally(LATENCY_BUCKETS);
  private readonly byExecution = new RequestTally(LATENCY_BUCKETS);
  // Request kinds seen so far (a handful): their tallies, so that a request costs a lookup and some additions.
  private readonly slots = new Map<string, Slot>();
  private lastSlot: Slot | null = null;

  constructor() {
    const registers = [this.registry];
    const self = this;
    new Counter({ name: 'svc_http_requests_total', help: 'HTTP requests answered, by endpoint, GraphQL operation type and HTTP status',
      labelNames: ['endpoint', 'operation_type', 'status'], registers, collect() { self.byRequest.flushCounter(this); } });
    new Histogram({ name: 'svc_http_request_duration_seconds', help: 'Time from receiving a request to having written its answer',
      labelNames: ['endpoint'], buckets: LATENCY_BUCKETS, registers, collect() { self.byEndpoint.fillHistogram(this); } });
    new Counter({ name: 'svc_graphql_requests_total', help: 'GraphQL requests over HTTP (excluding subscriptions)',
      labelNames: ['operation_type', 'response_status'], registers, collect() { self.byGraphql.flushCounter(this); } });
    new Histogram({ name: 'svc_graphql_execution_time_seconds', help: 'Execution time of successful GraphQL requests over HTTP',
      labelNames: ['operation_type'], buckets: LATENCY_BUCKETS, registers, collect() { self.byExecution.fillHistogram(this); } });
    new Gauge({ name: 'svc_http_connections', help: 'HTTP requests being served now (excluding WebSocket connections)', registers,
      collect() { this.set(self.inFlightCount); } });
    this.events = new Counter({ name: 'svc_event_deliveries_total', help: 'Event trigger webhook attempts by outcome: delivered, retry (failed, tried again later), error (retries used up)',
      labelNames: ['trigger_name', 'outcome'], registers });
    this.scraped(registers);
  }

  /** Where the scraped figures come from; set once the server's parts exist. */
  feed(feeds: MetricFeeds): void {
    this.feeds = { ...this.feeds, ...feeds };
  }

  /** What the feeds say now, as the /dev endpoints show it (developer API group). */
  developerView(): DeveloperView {
    const pools: Record<string, PoolStats> = {};
    for (const [name, stats] of this.feeds.pools?.() ?? []) pools[name] = stats;
    return { httpInFlight: this.inFlightCount, planCache: this.feeds.planCache?.() ?? null,
      subscriptions: this.feeds.subscriptions?.() ?? null, pools, eventsInFlight: this.feeds.eventsInFlight?.() ?? 0 };
  }

  /** A request began (the in-flight gauge). */
  started(): void {
    this.inFlightCount++;
  }

  /** A request was answered; `seconds` from its start. */
  finished(endpoint: string, operationType: OperationType, status: number, failed: boolean, seconds: number): void {
    this.inFlightCount--;
    // Requests come in runs of one kind: the last kind's slot is compared first, with no key made.
    let slot = this.lastSlot;
    if (slot === null || slot.endpointName !== endpoint || slot.operationType !== operationType || slot.status !== status || slot.failed !== failed) {
      const key = `${endpoint}\u0000${operationType}\u0000${status}\u0000${failed ? 1 : 0}`;
      let known = this.slots.get(key);
      if (!known) {
        known = this.slotOf(endpoint, operationType, status, failed);
        this.slots.set(key, known);
      }
      this.lastSlot = slot = known;
    }
    this.byRequest.record(slot.request, null);
    this.byEndpoint.record(slot.endpoint, seconds);
    if (slot.graphql) this.byGraphql.record(slot.graphql, null);
    if (slot.execution) this.byExecution.record(slot.execution, seconds);
  }

  private slotOf(endpoint: string, operationType: OperationType, status: number, failed: boolean): Slot {
    const outcome = failed ? 'failed' : 'success';
    const counted = operationType !== 'none';
    return {
      endpointName: endpoint, operationType, status, failed,
      request: this.byRequest.tally(`${endpoint}\u0000${operationType}\u0000${status}`, () => ({ endpoint, operation_type: operationType, status })),
      endpoint: this.byEndpoint.tally(endpoint, () => ({ endpoint })),
      graphql: counted ? this.byGraphql.tally(`${operationType}\u0000${outcome}`, () => ({ operation_type: operationType, response_status: outcome })) : null,
      execution: counted && !failed ? this.byExecution.tally(operationType, () => ({ operation_type: operationType })) : null,
    };
  }

  /** An event trigger attempt's outcome (the workers call it). */
  readonly eventOutcome = (trigger: string, outcome: 'delivered' | 'retry' | 'error'): void => {
    this.events.inc({ trigger_name: trigger, outcome });
  };

  /** The Prometheus text of every metric now. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  // Gauges and counters whose values are read from the server's parts when scraped.
  private scraped(registers: Registry[]): void {
    const self = this;
    new Gauge({ name: 'svc_websocket_connections', help: 'WebSocket connections open now', registers,
      collect() { this.set(self.feeds.subscriptions?.()?.sockets ?? 0); } });
    new Gauge({ name: 'svc_active_subscriptions', help: 'Subscriptions (live queries and streams) served now', registers,
      collect() { this.set(self.feeds.subscriptions?.()?.subscribers ?? 0); } });
    new Gauge({ name: 'svc_live_query_cohorts', help: 'Cohorts now: subscribers sharing one statement and one set of values', registers,
      collect() { this.set(self.feeds.subscriptions?.()?.cohorts ?? 0); } });
    new Gauge({ name: 'svc_live_query_pollers', help: 'Pollers now: one per distinct subscription statement', registers,
      collect() { this.set(self.feeds.subscriptions?.()?.pollers ?? 0); } });
    new Counter({ name: 'svc_subscription_polls_total', help: 'Polls of live queries and streams', registers,
      collect() { mirror(self.last, 'polls', self.feeds.subscriptions?.()?.polls ?? 0, (n) => this.inc(n)); } });
    new Counter({ name: 'svc_subscription_statements_total', help: 'Statements run by the pollers of live queries and streams (one per batch of cohorts per poll)', registers,
      collect() { mirror(self.last, 'statements', self.feeds.subscriptions?.()?.statements ?? 0, (n) => this.inc(n)); } });
    new Gauge({ name: 'svc_live_query_pollers_on_change_feed', help: 'Pollers now refetching on change notifications (the others poll on their interval)', registers,
      collect() { this.set(self.feeds.subscriptions?.()?.fedPollers ?? 0); } });
    new Counter({ name: 'svc_change_feed_notifications_total', help: 'Change notifications received from the sources (a committed statement on a table a live query reads)', registers,
      collect() { mirror(self.last, 'notifications', self.feeds.subscriptions?.()?.notifications ?? 0, (n) => this.inc(n)); } });
    new Counter({ name: 'svc_subscription_poll_seconds_total', help: 'Seconds spent in polls (divide by svc_subscription_polls_total for the mean poll time)', registers,
      collect() { mirror(self.last, 'pollSeconds', self.feeds.subscriptions?.()?.pollSeconds ?? 0, (n) => this.inc(n)); } });
    new Counter({ name: 'svc_plan_cache_hits_total', help: 'GraphQL requests whose parsed and validated operation came from the plan cache', registers,
      collect() { mirror(self.last, 'hits', self.feeds.planCache?.()?.hits ?? 0, (n) => this.inc(n)); } });
    new Counter({ name: 'svc_plan_cache_misses_total', help: 'GraphQL requests parsed and validated afresh', registers,
      collect() { mirror(self.last, 'misses', self.feeds.planCache?.()?.misses ?? 0, (n) => this.inc(n)); } });
    new Gauge({ name: 'svc_event_trigger_http_workers', help: 'Event trigger webhook calls in flight now', registers,
      collect() { this.set(self.feeds.eventsInFlight?.() ?? 0); } });
    this.poolMetrics(registers);
  }

  private poolMetrics(registers: Registry[]): void {
    const self = this;
    const each = (f: (source: string, s: PoolStats) => void): void => {
      for (const [source, stats] of self.feeds.pools?.() ?? []) f(source, stats);
    };
    new Gauge({ name: 'svc_postgres_connections', help: 'Open PostgreSQL connections of a source\'s pool, by state (idle or busy)',
      labelNames: ['source_name', 'state'], registers,
      collect() {
        this.reset();
        each((source, s) => {
          this.set({ source_name: source, state: 'idle' }, s.idle);
          this.set({ source_name: source, state: 'busy' }, s.total - s.idle);
        });
      } });
    new Gauge({ name: 'svc_postgres_pool_max_connections', help: 'Largest size of a source\'s pool', labelNames: ['source_name'], registers,
      collect() { this.reset(); each((source, s) => this.set({ source_name: source }, s.max)); } });
    new Gauge({ name: 'svc_postgres_pool_waiting', help: 'Checkouts waiting now for a connection of a source\'s pool', labelNames: ['source_name'], registers,
      collect() { this.reset(); each((source, s) => this.set({ source_name: source }, s.waiting)); } });
    new Counter({ name: 'svc_postgres_pool_waits_total', help: 'Checkouts that found every connection of the pool busy', labelNames: ['source_name'], registers,
      collect() { each((source, s) => mirror(self.last, `waits\u0000${source}`, s.waits, (n) => this.inc({ source_name: source }, n))); } });
    new Counter({ name: 'svc_postgres_pool_wait_seconds_total', help: 'Seconds checkouts spent waiting for a connection', labelNames: ['source_name'], registers,
      collect() { each((source, s) => mirror(self.last, `waitSeconds\u0000${source}`, s.waitSeconds, (n) => this.inc({ source_name: source }, n))); } });
  }
}
