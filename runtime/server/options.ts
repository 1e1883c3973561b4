import type { Authenticator, NormalizedHeaders } from '../auth/index.js';
import type { GraphQLRequest, PersistedQueryModel, RestEndpointModel, Session } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import type { SubscriptionOptions } from '../subscriptions/index.js';
import type { ServerMetrics } from './metrics.js';
import type { LogSettings } from './request-log.js';
import type { CorsPolicy } from './cors.js';
import type { Tracing } from '../tracing/index.js';

/** What the server needs of the GraphQL engine: one request in, the whole response JSON text out. */
export interface GraphQLEngine {
  /**
   * Runs one request for one session and returns the full response body text, e.g.
   * `{"data":{...}}` or `{"errors":[...]}`; the server writes it out without parsing it.
   * Throwing an ApiError is answered as a GraphQL error; anything else as `unexpected`.
   */
  execute(req: GraphQLRequest, session: Session, ctx?: RequestContext): Promise<string>;
  /**
   * Like execute, but a request that fails as a whole throws its ApiError instead of answering
   * it as text (so /v1alpha1/graphql can answer with the error's status). Optional.
   */
  executeOrThrow?(req: GraphQLRequest, session: Session, ctx?: RequestContext): Promise<string>;
  /** Runs one request of the Relay API (POST /v1beta1/relay). Optional: without it the path is not served. */
  executeRelay?(req: GraphQLRequest, session: Session, ctx?: RequestContext): Promise<string>;
  /**
   * Explains a request for a session (POST /v1/graphql/explain); the answer is sent as JSON.
   * Optional: without it the endpoint answers `not-supported`.
   */
  explain?(req: GraphQLRequest, session: Session): Promise<unknown>;
  /** The REST endpoints served now (they change with the metadata). Optional: without it /api/rest/* finds none. */
  restEndpoints?(): readonly RestEndpointModel[];
  /** A query of a collection: its text and declared variables. */
  storedQuery?(collection: string, name: string): PersistedQueryModel | undefined;
  /** Runs a stored query with these variables; answers `{"data":...}`, and throws the ApiError of a failure. */
  executeStored?(collection: string, name: string, variables: { readonly [k: string]: unknown }, session: Session): Promise<string>;
  /**
   * Admits a request before its operations run: counts them against the session's rate limit
   * and, for a batch, checks the batch limit; throws the refusal's ApiError. Optional.
   */
  admitRequest?(session: Session, client: { readonly ip: string | null }, operations: number, batched?: boolean): void;
}

/** Facts about the HTTP request an engine may need (client headers to forward to actions). */
export interface RequestContext {
  readonly headers: NormalizedHeaders;
  /** The request came over HTTP, where a subscription is refused (the engine's RequestContext). */
  readonly overHttp?: boolean;
  /** Where the engine puts the Set-Cookie values of synchronous action handlers, for the response. */
  readonly responseCookies?: string[];
}

/** A management API answer: the status and the body text (JSON). */
export interface ManagementResponse {
  readonly status: number;
  readonly body: string;
}

/** Handles `/v1/metadata`, `/v1/query`, `/v2/query` once the session is known and the body parsed. */
export type ManagementHandler = (call: {
  readonly path: '/v1/metadata' | '/v1/query' | '/v2/query';
  readonly body: unknown;
  readonly session: Session;
}) => Promise<ManagementResponse>;

/** The API groups SVC_GRAPHQL_ENABLED_APIS switches (healthz, version and console are not among them). */
export type ApiGroup = 'graphql' | 'metadata' | 'config' | 'pgdump' | 'developer' | 'metrics';

/** Everything createServer needs. */
export interface ServerOptions {
  readonly engine: GraphQLEngine;
  readonly version: string;
  readonly adminSecret?: string | null;
  /** Several admin secrets at once (SVC_GRAPHQL_ADMIN_SECRETS). */
  readonly adminSecrets?: readonly string[];
  readonly unauthorizedRole?: string | null;
  /** JWT and webhook modes plug in here (see runtime/auth). */
  readonly authenticators?: readonly Authenticator[];
  /** Default `['graphql', 'metadata']`. */
  readonly enabledApis?: readonly string[];
  /** Serve GraphiQL at /console (default true). */
  readonly consoleEnabled?: boolean;
  /** Where the built console files are (default: `build/console` of this package). */
  readonly consoleAssetsDir?: string;
  /** The metadata/query APIs; without it they answer `not-supported`. */
  readonly management?: ManagementHandler;
  /** Health of the metadata: 'ok' (200 OK), 'warn' (200 WARN: ...), 'error' (500 ERROR). */
  readonly health?: () => Promise<HealthState> | HealthState;
  /** Largest request body accepted, in bytes (default 16 MiB; SVC_GRAPHQL_MAX_REQUEST_BODY_BYTES). */
  readonly maxBodyBytes?: number;
  /** Subscriptions over WebSocket on /v1/graphql and /v1alpha1/graphql; without it upgrades are refused. */
  readonly subscriptions?: SubscriptionOptions;
  /** The metrics to count into and print at /v1/metrics (default: a registry of this server's own). */
  readonly metrics?: ServerMetrics;
  /** SVC_GRAPHQL_METRICS_SECRET: /v1/metrics wants it as a bearer token; unset: open to whoever reaches it. */
  readonly metricsSecret?: string | null;
  /** The http-log and query-log lines; without it the server writes none (a server in a test or a library). */
  readonly logging?: LogSettings;
  /** The instance's OpenTelemetry tracing (set_opentelemetry_config); without it no request is traced. */
  readonly tracing?: Tracing;
  /** GET /v1alpha1/config's answer (API group `config`); without it the path is not served. */
  readonly config?: () => Readonly<Record<string, unknown>>;
  /** Which origins get CORS headers (SVC_GRAPHQL_CORS_DOMAIN, --disable-cors); default: every origin. */
  readonly cors?: CorsPolicy;
  /** The databases of the sources served now: /healthz probes them, /v1/metrics reads their pools. */
  readonly sources?: () => ReadonlyMap<string, Driver>;
}

/** What /healthz reports. */
export type HealthState = 'ok' | 'warn' | 'error';

/** The API groups on when SVC_GRAPHQL_ENABLED_APIS is not set (Hasura's). */
export const DEFAULT_ENABLED_APIS: readonly ApiGroup[] = ['graphql', 'metadata', 'pgdump', 'config'];
