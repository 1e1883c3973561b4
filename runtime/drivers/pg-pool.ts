// The pg pools behind the PostgreSQL driver, and what makes a client safe to hand out.
//
// pg-pool listens for a client's 'error' only while the client is idle; while it is checked out
// nothing does, and a socket that breaks mid-query (ECONNRESET, "Connection terminated
// unexpectedly") is an unhandled 'error' event that ends the process. So every client gets its
// own listener when it is opened, for its whole life: the failure is recorded, the query in
// flight fails on its own, and the client is destroyed when it is released, never reused.

import pg from 'pg';
import { DEFAULT_MAX_MESSAGE_BYTES, guardedClient } from './pg-guard.js';

/** Settings every pool of one driver shares. */
export interface PoolSettings {
  readonly url: string;
  readonly max: number;
  readonly connectionTimeoutMillis: number;
  /** The session's statement_timeout in milliseconds, sent as a startup parameter; 0 = none. */
  readonly statementTimeoutMs: number;
  /** Milliseconds an idle connection is kept open. */
  readonly idleTimeoutMillis: number;
  /** Seconds after which a connection is closed when released; 0 = never. */
  readonly maxLifetimeSeconds: number;
  /** Where warnings about lost connections go. */
  readonly log: (line: string) => void;
  /** The largest message (row) accepted from PostgreSQL; default DEFAULT_MAX_MESSAGE_BYTES. */
  readonly maxMessageBytes?: number;
}

// Session settings every connection starts with: UTC timestamps and PostgreSQL's default
// (shortest exact) float output, whatever the server or role defaults say.
export const SESSION_SETUP = "SET TIME ZONE 'UTC'; SET extra_float_digits = 1";

// New clients whose setup statement is still queued (the pool hands a client over from inside
// pg's ready handler, before pg sends what it queued): a caller checking out with a callback sends
// its first statement a microtask later, as an awaited checkout does, so that it is not queued
// behind one (pg deprecates calling query() while a query is queued).
const fresh = new WeakSet<pg.PoolClient | pg.Client>();

/** True the first time it is asked of a client the pool has just connected. */
export function justConnected(client: pg.PoolClient): boolean {
  return fresh.delete(client);
}

// Clients whose connection failed. A client in here is never given back to the pool.
const failed = new WeakSet<pg.PoolClient | pg.Client>();

/** True when this client's connection broke (socket error, server gone): destroy it on release. */
export function connectionFailed(client: pg.PoolClient): boolean {
  return failed.has(client);
}

// The `options` parameter of a connection URL (PostgreSQL's `-c name=value` settings of every
// session, e.g. `?options=-c%20statement_timeout%3D5000`): a source's own settings, kept beside Kiln's.
function urlOptions(url: string): string {
  try {
    return new URL(url).searchParams.get('options')?.trim() ?? '';
  } catch {
    return '';
  }
}

/**
 * What every connection of a driver is opened with: the URL, the `-c` settings of its `options`
 * parameter and `options` (extra ones), and the default statement timeout as a startup parameter
 * (no round trip, and RESET statement_timeout comes back to it). A `statement_timeout` set in the
 * URL's options is the source's own and wins over the default of every source
 * (SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT).
 */
export function connectionConfig(s: PoolSettings, options?: string): pg.ClientConfig {
  const own = urlOptions(s.url);
  const allOptions = [own, options ?? ''].filter((o) => o !== '').join(' ');
  const sourceTimeout = /\bstatement_timeout\b/.test(own);
  return {
    connectionString: s.url,
    ...(s.statementTimeoutMs > 0 && !sourceTimeout ? { statement_timeout: s.statementTimeoutMs } : {}),
    ...(allOptions ? { options: allOptions } : {}),
  };
}

/** Creates a pool whose clients always have an error listener; `options` are extra `-c` settings (connectionConfig). */
export function createPool(s: PoolSettings, options?: string): pg.Pool {
  const pool = new pg.Pool({
    ...connectionConfig(s, options),
    max: s.max,
    connectionTimeoutMillis: s.connectionTimeoutMillis,
    idleTimeoutMillis: s.idleTimeoutMillis,
    maxLifetimeSeconds: s.maxLifetimeSeconds,
    allowExitOnIdle: true,
    // Rows over the cap close their connection instead of ending the process (pg-guard.ts).
    Client: guardedClient(s.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES),
  });
  pool.on('connect', (client) => {
    client.on('error', (e: Error) => {
      if (failed.has(client)) return;
      failed.add(client);
      s.log(`kiln: PostgreSQL connection lost: ${e.message}`);
    });
    // pg queues this before anything the pool's caller sends on the new client.
    client.query(SESSION_SETUP).catch(() => { /* the caller's first query reports the broken connection */ });
    fresh.add(client);
  });
  // pg-pool re-emits an idle client's error here after dropping the client; the client's own
  // listener above has logged it already.
  pool.on('error', () => undefined);
  return pool;
}
