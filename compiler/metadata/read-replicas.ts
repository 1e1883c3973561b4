// A source's `configuration.read_replicas` as the runtime uses it: each replica's URL (written in
// the metadata or named by an environment variable) and the pool settings the runtime applies.
// Parsing has already reported a malformed list; this reads what parsed and never throws.

import { databaseUrl, type ResolvedDatabaseUrl } from './database-url.js';

/** A pool's settings as the runtime applies them (seconds, as Hasura writes them). */
export interface Pool {
  maxConnections?: number;
  /** Hasura's cap over every instance of the server (MSSQL); one instance here, so a cap on this pool. */
  totalMaxConnections?: number;
  idleTimeout?: number;
  connectionLifetime?: number;
  poolTimeout?: number;
}

/** One read replica: its URL and pool settings (the bundle model's ReplicaModel). */
export interface ReadReplica {
  readonly databaseUrl: ResolvedDatabaseUrl;
  readonly pool: Readonly<Pool>;
}

// Hasura's pool_settings keys, in seconds, and where they go in the model.
const POOL_KEYS: ReadonlyArray<readonly [string, keyof Pool]> = [
  ['max_connections', 'maxConnections'], ['total_max_connections', 'totalMaxConnections'], ['idle_timeout', 'idleTimeout'],
  ['connection_lifetime', 'connectionLifetime'], ['pool_timeout', 'poolTimeout'],
];

/** A `pool_settings` object as the runtime applies it: the numeric keys it knows, in seconds where they are times. */
export function poolOf(settings: unknown): Pool {
  const pool: Pool = {};
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return pool;
  for (const [key, name] of POOL_KEYS) {
    const v = (settings as Record<string, unknown>)[key];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) pool[name] = v;
  }
  return pool;
}

/** The pool settings of a source's own connection_info (empty when it gives none). */
export function sourcePool(source: { readonly configuration?: unknown }): Pool {
  const cfg = (source as { configuration?: { connection_info?: { pool_settings?: unknown } } }).configuration;
  return poolOf(cfg?.connection_info?.pool_settings);
}

/** The read replicas of a source (empty when it has none). */
export function readReplicas(source: { readonly configuration?: unknown }): readonly ReadReplica[] {
  const cfg = (source as { configuration?: { read_replicas?: unknown } }).configuration;
  const list = cfg?.read_replicas;
  if (!Array.isArray(list)) return [];
  const out: ReadReplica[] = [];
  for (const info of list) {
    const url = databaseUrl({ configuration: { connection_info: info } });
    if (url !== null) out.push({ databaseUrl: url, pool: poolOf((info as { pool_settings?: unknown } | null)?.pool_settings) });
  }
  return out;
}
