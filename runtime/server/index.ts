/** The runtime's HTTP server. */
export { createServer, type KilnServer } from './server.js';
/** Server options and the engine and management interfaces it calls. */
export {
  DEFAULT_ENABLED_APIS, type ServerOptions, type GraphQLEngine, type RequestContext, type ManagementHandler,
  type ManagementResponse, type ApiGroup, type HealthState,
} from './options.js';
