// The settings of the WebSocket service and its pollers (reference/subscriptions.md §3).

/** Timings and batch sizes of subscriptions; every duration in milliseconds. */
export interface SubscriptionSettings {
  /** `ka` (graphql-ws) / `ping` (graphql-transport-ws) interval: SVC_GRAPHQL_WEBSOCKET_KEEPALIVE (seconds). */
  readonly keepAliveMs: number;
  /** Close a graphql-transport-ws socket that sent no `connection_init`: SVC_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT (seconds). */
  readonly initTimeoutMs: number;
  readonly liveRefetchMs: number;
  readonly liveBatchSize: number;
  readonly streamRefetchMs: number;
  readonly streamBatchSize: number;
  /**
   * Refetch live queries and streams when a commit changes a table they read (PostgreSQL sources:
   * statement triggers that NOTIFY, one LISTEN connection per source) instead of on every poll:
   * SVC_GRAPHQL_LIVE_QUERIES_CHANGE_FEED (`false`: poll only, as Hasura does).
   */
  readonly changeFeed: boolean;
  /**
   * While the change feed is healthy, poll anyway after this long without a poll; 0: never:
   * SVC_GRAPHQL_LIVE_QUERIES_SAFETY_REFETCH_INTERVAL (milliseconds).
   */
  readonly safetyRefetchMs: number;
}

/** Hasura's defaults. */
export const DEFAULT_SUBSCRIPTION_SETTINGS: SubscriptionSettings = {
  keepAliveMs: 5000, initTimeoutMs: 3000, liveRefetchMs: 1000, liveBatchSize: 100, streamRefetchMs: 1000, streamBatchSize: 100,
  changeFeed: true, safetyRefetchMs: 0,
};

function positive(raw: string | undefined, scale: number, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? Math.round(n * scale) : fallback;
}

function nonNegative(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : fallback;
}

function flag(raw: string | undefined, fallback: boolean): boolean {
  const v = raw?.trim().toLowerCase();
  if (v === 'true' || v === '1' || v === 'on') return true;
  if (v === 'false' || v === '0' || v === 'off') return false;
  return fallback;
}

/** The settings from SVC_GRAPHQL_* environment variables, defaults for the rest (bad values too). */
export function subscriptionSettingsFromEnv(env: Readonly<Record<string, string | undefined>>): SubscriptionSettings {
  const d = DEFAULT_SUBSCRIPTION_SETTINGS;
  return {
    keepAliveMs: positive(env.SVC_GRAPHQL_WEBSOCKET_KEEPALIVE, 1000, d.keepAliveMs),
    initTimeoutMs: positive(env.SVC_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT, 1000, d.initTimeoutMs),
    liveRefetchMs: positive(env.SVC_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL, 1, d.liveRefetchMs),
    liveBatchSize: positive(env.SVC_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE, 1, d.liveBatchSize),
    streamRefetchMs: positive(env.SVC_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_REFETCH_INTERVAL, 1, d.streamRefetchMs),
    streamBatchSize: positive(env.SVC_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE, 1, d.streamBatchSize),
    changeFeed: flag(env.SVC_GRAPHQL_LIVE_QUERIES_CHANGE_FEED, d.changeFeed),
    safetyRefetchMs: nonNegative(env.SVC_GRAPHQL_LIVE_QUERIES_SAFETY_REFETCH_INTERVAL, d.safetyRefetchMs),
  };
}
