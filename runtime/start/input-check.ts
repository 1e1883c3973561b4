// The command line's input, checked before a command opens a database, starts a worker or
// writes a file: numbers (ports, pool sizes), JSON arguments, URLs and paths. A bad value is a
// message naming the flag (and its SVC_GRAPHQL_* variable when it came from there) and exit 2,
// never a stack trace and never a half-started server. (`kiln diff` and `kiln check` read their
// bundle directories first thing, with the same exit code: compiler/cli/bundle-dir.ts.) It lives
// with the runtime's start-up so that `kiln serve` and `kiln-runtime` check the same way.

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { parseCorsDomain, type ApiGroup } from '../server/index.js';
import { StartError } from './start-error.js';

/** A flag's name as the user sees it: `--port` (or `SVC_GRAPHQL_SERVER_PORT`); a setting without a flag by its variable alone. */
type Flag = { readonly flag: string; readonly env?: string } | { readonly flag?: undefined; readonly env: string };

function label(f: Flag): string {
  if (f.flag === undefined) return f.env;
  return f.env ? `${f.flag} (or ${f.env})` : f.flag;
}

function bad(message: string): never {
  throw new StartError(message, 2);
}

/** A whole number within [min, max], given as a number or as the text of a flag or variable. */
export function intInput(value: unknown, f: Flag, min: number, max: number): number {
  const text = typeof value === 'string' ? value.trim() : value;
  const n = typeof text === 'number' ? text : typeof text === 'string' && /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    bad(`${label(f)} must be a whole number from ${min} to ${max}, not ${JSON.stringify(typeof value === 'number' ? String(value) : value)}`);
  }
  return n;
}

/** `true` or `false` (any letter case), given as a boolean or as the text of a flag or variable. */
export function boolInput(value: unknown, f: Flag): boolean {
  if (typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (text === 'true' || text === 'false') return text === 'true';
  return bad(`${label(f)} must be true or false, not ${JSON.stringify(value)}`);
}

/** A JSON text that must hold an object (variables, JWT configuration). */
export function jsonObjectInput(text: string, f: Flag): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    bad(`${label(f)} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) bad(`${label(f)} must be a JSON object`);
  return value as Record<string, unknown>;
}

/** A PostgreSQL URL: `postgres://` or `postgresql://`, parseable. */
export function databaseUrlInput(url: string, f: Flag): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    bad(`${label(f)} is not a URL (expected postgres://user:password@host:port/database)`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    bad(`${label(f)} must be a postgres:// or postgresql:// URL, not ${parsed.protocol}//...`);
  }
}

function kindOf(path: string): 'file' | 'directory' | null {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch {
    return null;
  }
}

/** A path that must exist: a file, a directory, or either. */
export function existingPath(path: string, f: Flag, want: 'file' | 'directory' | 'either'): void {
  const kind = kindOf(path);
  if (kind === null) bad(`${label(f)}: ${path} does not exist`);
  if (want !== 'either' && kind !== want) bad(`${label(f)}: ${path} is a ${kind}, not a ${want}`);
}

/** A bundle directory: exists, and has the manifest `kiln compile` writes. */
export function bundleInput(dir: string, f: Flag): void {
  if (kindOf(dir) === null) bad(`${label(f)}: ${dir} is not a kiln bundle (no manifest.json: the directory does not exist)`);
  existingPath(dir, f, 'directory');
  if (kindOf(join(dir, 'manifest.json')) !== 'file') bad(`${label(f)}: ${dir} is not a kiln bundle (no manifest.json; write one with kiln compile)`);
}

/** A path the command will write: where a directory is wanted, not an existing file. */
function outputDirInput(dir: string, f: Flag): void {
  if (kindOf(dir) === 'file') bad(`${label(f)}: ${dir} is a file, not a directory`);
}

// The groups runtime/server knows (SVC_GRAPHQL_ENABLED_APIS); typed so a renamed group fails to compile.
const API_GROUPS = ['graphql', 'metadata', 'config', 'pgdump', 'developer', 'metrics'] as const satisfies readonly ApiGroup[];

const DATABASE_URL: Flag = { flag: '--database-url', env: 'SVC_GRAPHQL_DATABASE_URL' };

/** What `kiln serve` takes, as commander hands it over (numbers may still be text from the environment). */
export interface RawServeInput {
  readonly bundle?: string;
  readonly metadata?: string;
  readonly databaseUrl?: string;
  readonly dataDir: string;
  readonly port: unknown;
  readonly host: string;
  readonly pgConnections: unknown;
  readonly eventsHttpPoolSize?: unknown;
  readonly eventsFetchBatchSize?: unknown;
  readonly eventsFetchInterval?: unknown;
  readonly jwtSecret?: string;
  readonly authHook?: string;
  readonly enabledApis?: string;
  readonly maxRequestBodyBytes?: unknown;
  readonly inferFunctionPermissions?: unknown;
  readonly v1BooleanNullCollapse?: unknown;
  readonly corsDomain?: string;
}

/** `kiln serve`: every flag checked, numbers turned into numbers. */
export function checkServeInput<T extends RawServeInput>(o: T): Omit<T, 'inferFunctionPermissions' | 'v1BooleanNullCollapse'>
  & { port: number; pgConnections: number; inferFunctionPermissions: boolean; v1BooleanNullCollapse: boolean } {
  if (o.bundle && o.metadata) bad('--bundle and --metadata cannot be given together (a bundle already holds its metadata)');
  if (o.bundle !== undefined) bundleInput(o.bundle, { flag: '--bundle' });
  if (o.metadata !== undefined) existingPath(o.metadata, { flag: '--metadata' }, 'either');
  if (o.databaseUrl) databaseUrlInput(o.databaseUrl, DATABASE_URL);
  else if (kindOf(o.dataDir) === 'file') bad(`--data-dir: ${o.dataDir} is a file, not a directory`);
  if (o.host.trim() === '') bad('--host (or SVC_GRAPHQL_SERVER_HOST) must not be empty');
  if (o.jwtSecret) jsonObjectInput(o.jwtSecret, { flag: '--jwt-secret', env: 'SVC_GRAPHQL_JWT_SECRET' });
  if (o.authHook) {
    try {
      new URL(o.authHook);
    } catch {
      bad(`--auth-hook (or SVC_GRAPHQL_AUTH_HOOK) is not a URL: ${o.authHook}`);
    }
  }
  if (o.corsDomain !== undefined) {
    try {
      parseCorsDomain(o.corsDomain);
    } catch (e) {
      bad(`--cors-domain (or SVC_GRAPHQL_CORS_DOMAIN): ${(e as Error).message}`);
    }
  }
  for (const raw of (o.enabledApis ?? '').split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '')) {
    if (!(API_GROUPS as readonly string[]).includes(raw)) bad(`--enabled-apis (or SVC_GRAPHQL_ENABLED_APIS): unknown API "${raw}" (expected some of ${API_GROUPS.join(', ')})`);
  }
  const counts = {
    ...(o.eventsHttpPoolSize !== undefined ? { eventsHttpPoolSize: intInput(o.eventsHttpPoolSize, { flag: '--events-http-pool-size', env: 'SVC_GRAPHQL_EVENTS_HTTP_POOL_SIZE' }, 1, 100_000) } : {}),
    ...(o.eventsFetchBatchSize !== undefined ? { eventsFetchBatchSize: intInput(o.eventsFetchBatchSize, { flag: '--events-fetch-batch-size', env: 'SVC_GRAPHQL_EVENTS_FETCH_BATCH_SIZE' }, 1, 100_000) } : {}),
    ...(o.maxRequestBodyBytes !== undefined ? { maxRequestBodyBytes: intInput(o.maxRequestBodyBytes, { flag: '--max-request-body-bytes', env: 'SVC_GRAPHQL_MAX_REQUEST_BODY_BYTES' }, 1, 2 ** 31 - 1) } : {}),
    ...(o.eventsFetchInterval !== undefined ? { eventsFetchInterval: intInput(o.eventsFetchInterval, { flag: '--events-fetch-interval', env: 'SVC_GRAPHQL_EVENTS_FETCH_INTERVAL' }, 1, 86_400_000) } : {}),
  };
  return {
    ...o,
    ...counts,
    port: intInput(o.port, { flag: '--port', env: 'SVC_GRAPHQL_SERVER_PORT' }, 0, 65535),
    inferFunctionPermissions: boolInput(o.inferFunctionPermissions ?? true, INFER_FUNCTION_PERMISSIONS),
    v1BooleanNullCollapse: boolInput(o.v1BooleanNullCollapse ?? false, { flag: '--v1-boolean-null-collapse', env: 'SVC_GRAPHQL_V1_BOOLEAN_NULL_COLLAPSE' }),
    pgConnections: intInput(o.pgConnections, { flag: '--pg-connections', env: 'SVC_GRAPHQL_PG_CONNECTIONS' }, 1, 10_000),
  };
}

/** The flag and variable of Hasura's function permission inference (default true). */
export const INFER_FUNCTION_PERMISSIONS: Flag = { flag: '--infer-function-permissions', env: 'SVC_GRAPHQL_INFER_FUNCTION_PERMISSIONS' };

/** `kiln compile`. */
export function checkCompileInput(o: { metadata: string; databaseUrl?: string; introspection?: string; out: string; remoteSnapshot?: string; inferFunctionPermissions?: unknown }): void {
  if (o.inferFunctionPermissions !== undefined) boolInput(o.inferFunctionPermissions, INFER_FUNCTION_PERMISSIONS);
  existingPath(o.metadata, { flag: '--metadata' }, 'either');
  if (o.remoteSnapshot !== undefined) existingPath(o.remoteSnapshot, { flag: '--remote-snapshot' }, 'directory');
  if (o.introspection !== undefined) existingPath(o.introspection, { flag: '--introspection' }, 'file');
  else if (o.databaseUrl) databaseUrlInput(o.databaseUrl, DATABASE_URL);
  outputDirInput(o.out, { flag: '--out' });
}

/** `kiln introspect`. */
export function checkIntrospectInput(o: { databaseUrl: string; out?: string }): void {
  databaseUrlInput(o.databaseUrl, DATABASE_URL);
  if (o.out !== undefined && kindOf(o.out) === 'directory') bad(`--out: ${o.out} is a directory, not a file`);
}

/** `kiln inspect`. */
export function checkInspectInput(o: { bundle: string; query?: string; variables?: string; field?: string; operationName?: string }): void {
  bundleInput(o.bundle, { flag: '--bundle' });
  if (o.query !== undefined) existingPath(o.query, { flag: '--query' }, 'file');
  if (o.variables !== undefined) {
    if (o.query === undefined) bad('--variables needs --query (the variables of that query)');
    jsonObjectInput(o.variables, { flag: '--variables' });
  }
  if (o.operationName !== undefined && o.query === undefined) bad('--operation-name needs --query');
  if (o.field !== undefined && o.query !== undefined) bad('--field and --query cannot be given together');
}
