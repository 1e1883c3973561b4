// How the delivery workers fetch and send (reference/events.md §5), read from the SVC_GRAPHQL_*
// environment with Hasura's defaults; the command line's flags override these.

/** Delivery settings shared by the event trigger and the scheduled event workers. */
export interface WorkerSettings {
  /** Webhook calls in flight at once, all sources and kinds together (SVC_GRAPHQL_EVENTS_HTTP_POOL_SIZE). */
  readonly httpPoolSize: number;
  /** Events claimed by one fetch (SVC_GRAPHQL_EVENTS_FETCH_BATCH_SIZE). */
  readonly fetchBatchSize: number;
  /** Milliseconds to wait after a fetch that found nothing (SVC_GRAPHQL_EVENTS_FETCH_INTERVAL). */
  readonly fetchIntervalMs: number;
  /** Milliseconds that deliveries in flight get to finish on shutdown (SVC_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT, seconds). */
  readonly gracefulShutdownMs: number;
  /**
   * Seconds after which a claim not renewed counts as abandoned (SVC_GRAPHQL_EVENTS_LOCK_TIMEOUT).
   * A live instance renews its claims every third of this (lock-keeper.ts), whatever its webhook
   * timeouts, so only an instance that died leaves a claim this old: its events are sent again by
   * another instance about a minute later.
   */
  readonly lockTimeoutSec: number;
}

export const DEFAULT_WORKER_SETTINGS: WorkerSettings = {
  httpPoolSize: 100,
  fetchBatchSize: 100,
  fetchIntervalMs: 1000,
  gracefulShutdownMs: 60_000,
  lockTimeoutSec: 60,
};

function positive(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function nonNegative(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The settings the environment asks for; a missing or unreadable value keeps its default. */
export function workerSettingsFromEnv(env: NodeJS.ProcessEnv): WorkerSettings {
  const d = DEFAULT_WORKER_SETTINGS;
  const grace = nonNegative(env.SVC_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT);
  return {
    httpPoolSize: Math.floor(positive(env.SVC_GRAPHQL_EVENTS_HTTP_POOL_SIZE) ?? d.httpPoolSize),
    fetchBatchSize: Math.floor(positive(env.SVC_GRAPHQL_EVENTS_FETCH_BATCH_SIZE) ?? d.fetchBatchSize),
    fetchIntervalMs: nonNegative(env.SVC_GRAPHQL_EVENTS_FETCH_INTERVAL) ?? d.fetchIntervalMs,
    gracefulShutdownMs: grace === undefined ? d.gracefulShutdownMs : grace * 1000,
    lockTimeoutSec: positive(env.SVC_GRAPHQL_EVENTS_LOCK_TIMEOUT) ?? d.lockTimeoutSec,
  };
}
