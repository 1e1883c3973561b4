import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AuthOptions } from '../auth/index.js';
import { ApiError } from '../errors/index.js';
import { createSubscriptionService } from '../subscriptions/index.js';
import { CONSOLE_ASSETS_PATH, createConsoleSite, type ConsoleSite } from './console.js';
import { handleGraphQLGet, handleGraphQLPost, type GraphQLRouteContext } from './graphql-route.js';
import { handleAdminRead } from './admin-read.js';
import { handleExplainPost } from './explain-route.js';
import { headWith, responseBytes, send, sendJsonText, sendManagementError, unexpectedError } from './http-io.js';
import { applyCors, CORS_ALLOW_ALL } from './cors.js';
import { handleManagementPost, type ManagementPath, type ManagementRouteContext } from './management-route.js';
import { handleRest, REST_PREFIX, type RestRouteContext } from './rest-route.js';
import { handleSwagger } from './rest-swagger.js';
import { DEFAULT_ENABLED_APIS, type ApiGroup, type ServerOptions } from './options.js';
import { handlePgDump } from './pg-dump.js';
import { developerRoutes } from './dev-routes.js';
import { handleHealth } from './health.js';
import { ServerMetrics } from './metrics.js';
import { handleMetrics } from './metrics-route.js';
import { queryLogOn, requestScope } from './query-log.js';
import { beginRecord, writeHttpLog, type RequestRecord } from './request-log.js';
import { traceRequest } from './request-trace.js';
import { withWebsocketLog } from './websocket-log.js';

/** A running (or ready) HTTP server. */
export interface KilnServer {
  listen(port: number, host: string): Promise<{ port: number }>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** One path: the API group that can switch it off (null: always on) and a handler per method. */
interface Route {
  readonly group: ApiGroup | null;
  readonly methods: Readonly<Record<string, Handler>>;
}

const API_GROUPS: readonly ApiGroup[] = ['graphql', 'metadata', 'config', 'pgdump', 'developer', 'metrics'];
const MANAGEMENT_PATHS: readonly ManagementPath[] = ['/v1/metadata', '/v1/query', '/v2/query'];
// 16 MiB: far above any GraphQL request or exported metadata seen in practice, small enough that a
// burst of refused bodies cannot exhaust memory; SVC_GRAPHQL_MAX_REQUEST_BODY_BYTES changes it.
const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

function parseEnabledApis(list: readonly string[] | undefined): Set<ApiGroup> {
  if (list === undefined) return new Set(DEFAULT_ENABLED_APIS);
  const out = new Set<ApiGroup>();
  for (const raw of list) {
    const name = raw.trim().toLowerCase();
    if (name === '') continue;
    if (!(API_GROUPS as readonly string[]).includes(name)) {
      throw new Error(`unknown API "${raw}" in enabled APIs (expected one of ${API_GROUPS.join(', ')})`);
    }
    out.add(name as ApiGroup);
  }
  return out;
}

function buildRoutes(opts: ServerOptions, auth: AuthOptions, metrics: ServerMetrics): Map<string, Route> {
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const gql: GraphQLRouteContext = { engine: opts.engine, auth, maxBodyBytes };
  const mgmt: ManagementRouteContext = { auth, handler: opts.management, maxBodyBytes };
  const healthContext = { ...(opts.health ? { catalog: opts.health } : {}), ...(opts.sources ? { sources: opts.sources } : {}) };
  const health: Handler = (req, res) => handleHealth(req, res, healthContext);
  const metricsSecret = opts.metricsSecret ?? null;
  const version = JSON.stringify({ version: opts.version, server_type: 'ce' });
  const routes = new Map<string, Route>([
    ['/healthz', { group: null, methods: { GET: health } }],
    ['/svc/healthz', { group: null, methods: { GET: health } }],
    ['/v1/version', { group: null, methods: { GET: (_req, res) => sendJsonText(res, 200, version) } }],
    ['/v1/graphql', {
      group: 'graphql',
      methods: { POST: (req, res) => handleGraphQLPost(req, res, gql, false), GET: (_req, res) => handleGraphQLGet(res) },
    }],
    ['/v1alpha1/graphql', { group: 'graphql', methods: { POST: (req, res) => handleGraphQLPost(req, res, gql, true) } }],
    ['/api/swagger/json', { group: 'metadata', methods: { GET: (req, res) => handleSwagger(req, res, opts.engine, auth) } }],
    ['/v1/graphql/explain', { group: 'metadata', methods: { POST: (req, res) => handleExplainPost(req, res, gql) } }],
    ['/v1/metrics', { group: 'metrics', methods: { GET: (req, res) => handleMetrics(req, res, metrics, metricsSecret) } }],
  ]);
  // GET /v1alpha1/config (admin): the server's settings as Hasura's config API shows them (reference/endpoints.md).
  const config = opts.config;
  if (config) routes.set('/v1alpha1/config', { group: 'config', methods: { GET: (req, res) => handleAdminRead(req, res, auth, config) } });
  // The Relay API (beyond the specification), when the engine serves it.
  if (opts.engine.executeRelay) {
    routes.set('/v1beta1/relay', { group: 'graphql', methods: { POST: (req, res) => handleGraphQLPost(req, res, { ...gql, relay: true }, false) } });
  }
  for (const [path, route] of developerRoutes(auth, metrics)) routes.set(path, route);
  // POST /v1alpha1/pg_dump (admin): pg_dump of a PostgreSQL source, when the server knows its sources.
  const sources = opts.sources;
  if (sources) {
    const dump = { auth, maxBodyBytes, sources };
    routes.set('/v1alpha1/pg_dump', { group: 'pgdump', methods: { POST: (req, res) => handlePgDump(req, res, dump) } });
  }
  for (const path of MANAGEMENT_PATHS) {
    routes.set(path, { group: 'metadata', methods: { POST: (req, res) => handleManagementPost(req, res, path, mgmt) } });
  }
  return routes;
}

function notFound(res: ServerResponse): void {
  sendManagementError(res, new ApiError('not-found', 'resource does not exist', 404));
}

/** Routes /console, /console/<anything> (the single-page app) and /console/assets/<file>. */
function consoleHandler(site: ConsoleSite): (req: IncomingMessage, res: ServerResponse, path: string) => void {
  return (req, res, path) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const e = new ApiError('method-not-allowed', 'Allowed methods: GET', 405);
      sendManagementError(res, e, { allow: 'GET' });
      return;
    }
    if (path.startsWith(CONSOLE_ASSETS_PATH)) site.asset(req, res, path.slice(CONSOLE_ASSETS_PATH.length));
    else site.page(res);
  };
}

/**
 * The HTTP server of the runtime on node:http (reference/endpoints.md): /v1/graphql and
 * /v1alpha1/graphql, the management paths, /healthz, /v1/version and the console; groups
 * that SVC_GRAPHQL_ENABLED_APIS leaves out answer 404 like an unknown path.
 */
export function createServer(opts: ServerOptions): KilnServer {
  const enabled = parseEnabledApis(opts.enabledApis);
  const auth: AuthOptions = {
    adminSecret: opts.adminSecret ?? null,
    adminSecrets: opts.adminSecrets ?? [],
    unauthorizedRole: opts.unauthorizedRole ?? null,
    authenticators: opts.authenticators ?? [],
  };
  const cors = opts.cors ?? CORS_ALLOW_ALL;
  const metrics = opts.metrics ?? new ServerMetrics();
  const routes = buildRoutes(opts, auth, metrics);
  const logging = opts.logging;
  const scoped = queryLogOn(logging);
  const rest: RestRouteContext = { engine: opts.engine, auth, maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY };
  const consoleOn = opts.consoleEnabled ?? true;
  const site = consoleOn
    ? createConsoleSite({ ...(opts.consoleAssetsDir ? { assetsDir: opts.consoleAssetsDir } : {}),
      adminSecretSet: Boolean(opts.adminSecret) || (opts.adminSecrets?.length ?? 0) > 0 })
    : undefined;
  const serveConsole = site ? consoleHandler(site) : undefined;

  // Not async: the route's own promise is returned as it is (serve awaits it, and catches what
  // throws here before it), one promise and one resumption fewer per request.
  function dispatch(req: IncomingMessage, res: ServerResponse, record: RequestRecord): Promise<void> | void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    // The metrics' endpoint label: a known path as it is, never a client's made-up one.
    if (routes.has(path)) record.endpoint = path;
    else if (path.startsWith(REST_PREFIX)) record.endpoint = REST_PREFIX;
    else if (path === '/console' || path.startsWith('/console/')) record.endpoint = '/console';
    if (applyCors(req, res, cors)) return;
    if (serveConsole && (path === '/console' || path.startsWith('/console/'))) return serveConsole(req, res, path);
    if (serveConsole && path === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(302, headWith(res, { location: '/console', 'content-length': '0' }));
      res.end();
      return;
    }
    // REST endpoints run GraphQL queries, so they are switched with the graphql group.
    if (path.startsWith(REST_PREFIX)) return enabled.has('graphql') ? handleRest(req, res, rest) : notFound(res);
    const route = routes.get(path);
    if (!route || (route.group !== null && !enabled.has(route.group))) return notFound(res);
    const method = req.method === 'HEAD' ? 'GET' : req.method ?? 'GET';
    const handler = route.methods[method];
    if (!handler) {
      const allowed = Object.keys(route.methods).join(', ');
      sendManagementError(res, new ApiError('method-not-allowed', `Allowed methods: ${allowed}`, 405), { allow: allowed });
      return;
    }
    return handler(req, res);
  }

  const finish = (req: IncomingMessage, res: ServerResponse, record: RequestRecord): void => {
    const ms = performance.now() - record.started;
    metrics.finished(record.endpoint, record.operationType, res.statusCode, record.failed || res.statusCode >= 400, ms / 1000);
    if (logging) writeHttpLog(logging, record, req, res, responseBytes(res), ms);
  };
  // Counted once the route is done with the request (its answer written, or the client gone): a
  // 'close' listener per response cost more than the counting itself.
  // One async function rather than catch() and finally() chained on dispatch's promise: two
  // promises fewer per request.
  const serve = async (req: IncomingMessage, res: ServerResponse, record: RequestRecord): Promise<void> => {
    try {
      await dispatch(req, res, record);
    } catch (e) {
      const err = e instanceof ApiError ? e : unexpectedError(e);
      if (!res.headersSent) sendManagementError(res, err);
      else res.destroy();
    } finally {
      try {
        finish(req, res, record);
      } catch {
        // counting and logging never fail a request, nor the process
      }
    }
  };
  const scopedServe = (req: IncomingMessage, res: ServerResponse, record: RequestRecord): void => {
    // The query-log scope only when query-log is on: an async context per request is not free.
    if (scoped) requestScope.run(record, serve, req, res, record);
    else serve(req, res, record);
  };
  const tracing = opts.tracing ?? null;
  // Once close() is called: each answer ends its connection (no more keep-alive), so that clients
  // that keep sending move on instead of holding the server open.
  let closing = false;
  const server = createHttpServer((req, res) => {
    if (closing) res.shouldKeepAlive = false;
    const record = beginRecord(req, res, scoped);
    metrics.started();
    // A span per request only while set_opentelemetry_config has traces exported.
    if (tracing !== null && tracing.on) traceRequest(tracing, req, res, record, () => scopedServe(req, res, record));
    else scopedServe(req, res, record);
  });
  // WebSocket upgrades on the GraphQL paths go to the subscription service; anything else is refused.
  const subscriptions = opts.subscriptions && enabled.has('graphql') ? createSubscriptionService(withWebsocketLog(opts.subscriptions, logging), auth) : null;
  metrics.feed({
    subscriptions: () => subscriptions?.stats() ?? null,
    pools: function* pools() {
      for (const [name, d] of opts.sources?.() ?? []) {
        const stats = d.poolStats?.();
        if (stats) yield [name, stats] as const;
      }
    },
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    // With CORS disabled, the upgrade request's cookie is not read (Hasura's onConn, Transport/WebSocket.hs).
    if (cors.kind === 'disabled') delete req.headers.cookie;
    if (subscriptions && (path === '/v1/graphql' || path === '/v1alpha1/graphql' || (path === '/v1beta1/relay' && opts.engine.executeRelay))) {
      subscriptions.handleUpgrade(req, socket, head);
    }
    else socket.destroy();
  });
  // Longer than the idle timeout of common load balancers (60 s), so they close first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  return {
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve({ port: (server.address() as AddressInfo).port });
        });
      });
    },
    async close() {
      closing = true;
      await subscriptions?.close();
      if (!server.listening) return;
      return new Promise((resolve, reject) => {
        // No new connection is taken; a connection is closed as soon as it has no request in
        // flight (checked again and again: an answer in flight now leaves its connection idle later).
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        server.close((e) => {
          clearInterval(idle);
          if (e) reject(e);
          else resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}
