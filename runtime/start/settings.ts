// What starting a server takes: the settings `kiln serve` and `kiln-runtime` read from their flags
// and the SVC_GRAPHQL_* environment, and what a started server hands back.

import { RateLimiter, queryCapsFromEnv, type QueryCaps } from '../graphql/index.js';
import { CORS_ALLOW_ALL, parseCorsDomain, type CorsPolicy } from '../server/index.js';
import type { AuthFlags } from './auth-config.js';
import { StartError } from './start-error.js';
import { intInput } from './input-check.js';
import type { WorkerFlags } from './serve-workers.js';

/** The settings of a served instance (flags, or their SVC_GRAPHQL_* variables). */
export interface ServeSettings extends AuthFlags, WorkerFlags {
  readonly databaseUrl?: string;
  /** The embedded database's folder, used when no database URL is given. */
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly adminSecret?: string;
  readonly unauthorizedRole?: string;
  readonly enabledApis?: string;
  readonly pgConnections: number;
  readonly stringifyNumericTypes: boolean;
  /** SVC_GRAPHQL_INFER_FUNCTION_PERMISSIONS (absent: true): false shows a query function only to roles given a function permission. */
  readonly inferFunctionPermissions?: boolean;
  /** SVC_GRAPHQL_V1_BOOLEAN_NULL_COLLAPSE (absent: false): a null comparison operand is no condition, as in Hasura v1. */
  readonly v1BooleanNullCollapse?: boolean;
  readonly console: boolean;
  /** SVC_GRAPHQL_ENABLE_ALLOWLIST: non-admin roles run only allow-listed queries. */
  readonly enableAllowlist?: boolean;
  /** SVC_GRAPHQL_MAX_REQUEST_BODY_BYTES: the largest request body accepted (default 16 MiB). */
  readonly maxRequestBodyBytes?: number;
  /** --cors-domain / SVC_GRAPHQL_CORS_DOMAIN: `*` (the default) or the origins answered with CORS headers. */
  readonly corsDomain?: string;
  /** --disable-cors / SVC_GRAPHQL_DISABLE_CORS: no CORS header for any origin. */
  readonly disableCors?: boolean;
}

/** A listening server. */
export interface RunningServer {
  readonly port: number;
  /** Stops HTTP, the workers, and closes every database it opened. */
  close(): Promise<void>;
}

/** Where start-up progress and warnings go. */
export type Log = (line: string) => void;

/** Progress on stderr, as the command lines print it. */
export const stderrLog: Log = (line) => { process.stderr.write(`${line}\n`); };

/** The API groups of --enabled-apis, or undefined for the default. */
export function enabledApiList(value: string | undefined): string[] | undefined {
  return value ? value.split(',').map((s) => s.trim()) : undefined;
}

/** The CORS policy of the settings: none when disabled, else the domains (unset: every origin). */
export function corsPolicy(o: { readonly corsDomain?: string; readonly disableCors?: boolean }): CorsPolicy {
  if (o.disableCors) return { kind: 'disabled' };
  if (o.corsDomain === undefined) return CORS_ALLOW_ALL;
  try {
    return parseCorsDomain(o.corsDomain);
  } catch (e) {
    throw new StartError(`--cors-domain (or SVC_GRAPHQL_CORS_DOMAIN): ${(e as Error).message}`, 2);
  }
}

/** The address printed in the start-up line (0.0.0.0 is reached on 127.0.0.1). */
export function baseUrl(host: string, port: number): string {
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
}

/**
 * Settings every source database's pool gets: SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT (seconds, 0 or
 * unset: none) becomes each session's statement_timeout. Hasura has no such setting (its
 * pool_settings have no statement timeout), so it is an environment variable, not metadata.
 * SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS: the connections of a PostgreSQL source's pipeline lane, taken
 * from its pool (pg-pipeline.ts; default 2, 0 turns it off).
 */
export function sourceDefaults(env: NodeJS.ProcessEnv = process.env): { statementTimeoutMs: number; pipelineConnections: number } {
  return { statementTimeoutMs: statementTimeoutMs(env), pipelineConnections: pipelineConnections(env) };
}

/** The pipeline lane's size when SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS is not set. */
export const DEFAULT_PIPELINE_CONNECTIONS = 2;

function statementTimeoutMs(env: NodeJS.ProcessEnv): number {
  const raw = env.SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT;
  if (raw === undefined || raw.trim() === '') return 0;
  const sec = Number(raw);
  if (!Number.isFinite(sec) || sec < 0) {
    throw new StartError(`SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT must be a number of seconds (0: none), got ${JSON.stringify(raw)}`, 2);
  }
  return Math.round(sec * 1000);
}

function pipelineConnections(env: NodeJS.ProcessEnv): number {
  const raw = env.SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_PIPELINE_CONNECTIONS;
  return intInput(raw, { env: 'SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS' }, 0, 64);
}

/** The server's caps on one operation and the rate-limit counts every engine of this process shares. */
export interface RequestLimits {
  readonly caps: QueryCaps;
  readonly rateLimiter: RateLimiter;
}

/** Reads the SVC_GRAPHQL_MAX_QUERY_* caps; a bad value is refused (exit 2) before anything starts. */
export function requestLimits(env: NodeJS.ProcessEnv = process.env): RequestLimits {
  try {
    return { caps: queryCapsFromEnv(env), rateLimiter: new RateLimiter() };
  } catch (e) {
    throw new StartError((e as Error).message, 2);
  }
}
