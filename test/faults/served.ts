// A real `kiln serve` (catalog mode, in this process) whose every database connection — sources,
// catalog, event workers, the metadata listener — goes through a fault-injecting TCP proxy, and
// a guard that records any uncaught exception (the crash the faults used to cause).

import { expect } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { postJson } from '../helpers/http.js';

export interface Served {
  readonly db: TestDatabase;
  readonly proxy: TcpProxy;
  readonly port: number;
  gql(query: string, variables?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  metadata(body: unknown): Promise<{ status: number; body: any }>;
  /** GET /healthz: status and body text. */
  health(): Promise<{ status: number; text: string }>;
  /** Fails the test when the process saw an uncaught exception or rejection since the start. */
  assertNoCrash(): void;
  close(): Promise<void>;
}

/** Creates a database with `setup`, serves it through a proxy, and tracks `tables` (public schema). */
export async function startServed(prefix: string, setup: string, tables: readonly string[],
  extra: { eventsFetchInterval?: number } = {}): Promise<Served> {
  const crashes: unknown[] = [];
  const onCrash = (e: unknown): void => { crashes.push(e); };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  const db = await createTestDatabase(prefix, setup);
  const proxy = await startTcpProxy();
  const server = await serveCommand({
    databaseUrl: proxy.via(db.url), dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4,
    stringifyNumericTypes: false, console: false,
    eventsFetchInterval: extra.eventsFetchInterval ?? 100, eventsHttpPoolSize: 8, eventsFetchBatchSize: 10,
  });
  const base = `http://127.0.0.1:${server.port}`;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => postJson(base, path, body);
  const served: Served = {
    db, proxy, port: server.port,
    gql: (query, variables) => post('/v1/graphql', { query, variables: variables ?? null }),
    metadata: (body) => post('/v1/metadata', body),
    async health() {
      const res = await fetch(`${base}/healthz`);
      return { status: res.status, text: await res.text() };
    },
    assertNoCrash() {
      expect(crashes).toEqual([]);
    },
    async close() {
      await server.close();
      await proxy.close();
      await db.drop();
      process.off('uncaughtException', onCrash);
      process.off('unhandledRejection', onCrash);
    },
  };
  for (const t of tables) {
    const r = await served.metadata({ type: 'pg_track_table', args: { table: t } });
    if (r.status !== 200) throw new Error(`cannot track ${t}: ${JSON.stringify(r.body)}`);
  }
  return served;
}

/** The server is alive and serving after a fault: /healthz answers OK and `probe` succeeds (retried while the pool heals). */
export async function assertServing(s: Served, probe: () => Promise<boolean>): Promise<void> {
  s.assertNoCrash();
  expect(await s.health()).toEqual({ status: 200, text: 'OK' });
  // Requests right after a fault may still meet a connection whose loss the pool has not seen
  // yet; within a short while every request must succeed.
  const until = Date.now() + 5000;
  let ok = false;
  while (!ok && Date.now() < until) {
    ok = await probe();
    if (!ok) await new Promise((r) => setTimeout(r, 100));
  }
  expect(ok).toBe(true);
  // And then consistently: five in a row.
  for (let i = 0; i < 5; i++) expect(await probe()).toBe(true);
}

/** Holds a row lock from a session outside the proxy (and outside Kiln) until released. */
export async function holdRowLock(url: string, statement: string): Promise<{ release(): Promise<void> }> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('BEGIN');
  await c.query(statement);
  return { release: async () => { await c.query('ROLLBACK'); await c.end(); } };
}

/** Resolves once a backend of `db` waits on a lock. */
export async function untilLockWait(db: TestDatabase): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const rows = await db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [db.name]);
    if (rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no statement ever waited on the lock');
}

/** Polls `check` until it returns a value (not undefined), up to `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
