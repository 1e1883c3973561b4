/** The runtime's HTTP server. */
export { createServer, type KilnServer } from './server.js';
/** Server options and the engine and management interfaces it calls. */
export {
  DEFAULT_ENABLED_APIS, type ServerOptions, type GraphQLEngine, type RequestContext, type ManagementHandler,
  type ManagementResponse, type ApiGroup, type HealthState,
} from './options.js';
/** The metrics of one server (a prom-client registry of its own) and what it reads when scraped. */
export { ServerMetrics, type MetricFeeds, type OperationType } from './metrics.js';
/** Log settings (SVC_GRAPHQL_LOG_LEVEL, SVC_GRAPHQL_ENABLED_LOG_TYPES) and Hasura's default log types. */
export { logs, logSettingsFromEnv, logTimestamp, maskUrlPassword, DEFAULT_LOG_TYPES, type LogSettings, type LogLevel } from './request-log.js';
/** Wraps the engine's drivers so query-log lines carry the SQL of the request that ran it. */
export { queryLogDrivers } from './query-log.js';
/** CORS: SVC_GRAPHQL_CORS_DOMAIN read as Hasura reads it, and the policy createServer takes. */
export { parseCorsDomain, CORS_ALLOW_ALL, type CorsPolicy } from './cors.js';
/** webhook-log lines: a failed auth webhook call in Hasura's WebHookLog shape. */
export { webhookLogWriter } from './webhook-log.js';
