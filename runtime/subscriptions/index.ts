/** The WebSocket service (both sub-protocols) the HTTP server delegates upgrades to. */
export { createSubscriptionService, type SubscriptionOptions, type SubscriptionService } from './service.js';
/** What the service needs of the GraphQL engine. */
export type { SubscriptionEngine } from './operation.js';
/** Subscription settings, their defaults and SVC_GRAPHQL_* environment variables. */
export { DEFAULT_SUBSCRIPTION_SETTINGS, subscriptionSettingsFromEnv, type SubscriptionSettings } from './settings.js';
/** Figures of the live-query and stream pollers. */
export type { MultiplexerStats } from './multiplexer.js';
/** websocket-log lines in Hasura's shape. */
export type { WebsocketLog } from './websocket-log.js';
/** How many connection_init messages one socket may have waiting at once (past it: 4429), and operations running. */
export { MAX_OPERATIONS, MAX_PENDING_INITS } from './connection.js';
