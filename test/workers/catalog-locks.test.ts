// Ensuring the event catalogs and the action log that exist already takes no lock a write of them
// waits for. A metadata change ensures the cron tables inside its own transaction; CREATE INDEX IF
// NOT EXISTS used to take a SHARE lock on the table there, so a change that then waited for a cron
// top-up (which holds the cron events lock and inserts events) deadlocked with it, and the change
// failed with an unexpected error. Real PostgreSQL, one connection per party.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { ensureActionLog } from '../../runtime/actions/index.js';
import { lockCronEvents } from '../../runtime/workers/cron-schedule.js';
import { ensureScheduledCatalog, ensureSourceEventCatalog } from '../../runtime/workers/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let db: TestDatabase;
let driver: Driver;
const clients: pg.Client[] = [];

async function client(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  clients.push(c);
  return c;
}

// A pg client as the runner the catalog functions take inside a caller's transaction.
const runner = (c: pg.Client) => ({ query: (text: string, params?: unknown[]) => c.query(text, params) }) as never;

beforeAll(async () => {
  db = await createTestDatabase('catalog_locks');
  driver = createPgDriver({ url: db.url, max: 2 });
  await ensureScheduledCatalog(driver);
  await ensureSourceEventCatalog(driver);
});

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => undefined);
  await driver?.close();
  await db?.drop();
});

describe('ensuring an existing catalog inside an open transaction', () => {
  it('holds no lock on its tables that an insert waits for', async () => {
    const change = await client();
    await change.query('BEGIN');
    try {
      await ensureThenWriteFromAnother(change);
    } finally {
      await change.query('ROLLBACK');
    }
    expect((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM svc_catalog.hdb_cron_events WHERE trigger_name = 't'"))[0]!.n).toBe(1);
  });

  async function ensureThenWriteFromAnother(change: pg.Client): Promise<void> {
    await ensureScheduledCatalog(runner(change));
    await ensureSourceEventCatalog(runner(change));
    // The transaction's locks on the catalog's tables: at most ROW EXCLUSIVE (none stronger).
    const strong = await change.query<{ relname: string; mode: string }>(
      `SELECT c.relname, l.mode FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE l.pid = pg_backend_pid() AND n.nspname = 'svc_catalog' AND l.mode NOT IN ('AccessShareLock', 'RowShareLock', 'RowExclusiveLock')`);
    expect(strong.rows).toEqual([]);

    // Another connection writes each table at once (a wait would run into the statement timeout).
    const worker = await client();
    await worker.query("SET statement_timeout = '3s'");
    await worker.query("INSERT INTO svc_catalog.hdb_cron_events (trigger_name, scheduled_time) VALUES ('t', '2031-01-01T00:00:00Z')");
    await worker.query("INSERT INTO svc_catalog.hdb_scheduled_events (webhook_conf, scheduled_time) VALUES ('\"http://127.0.0.1:1/\"', '2031-01-01T00:00:00Z')");
    await worker.query(`INSERT INTO svc_catalog.event_log (schema_name, table_name, trigger_name, payload) VALUES ('public', 'a', 't', '{}')`);
    await worker.query(`INSERT INTO svc_catalog.event_invocation_logs (trigger_name, event_id, status) VALUES ('t', 'x', 200)`);
  }

  it('lets a metadata change and a cron top-up that wait for each other both finish', async () => {
    // The top-up holds the cron events lock first; the change ensures the catalog, then asks for
    // the lock and waits; the top-up inserts events and commits; the change goes on and commits.
    const topUp = await client();
    const change = await client();
    await topUp.query('BEGIN');
    await lockCronEvents(runner(topUp));
    await change.query('BEGIN');
    await ensureScheduledCatalog(runner(change));
    const changeLocked = lockCronEvents(runner(change)).then(() => 'locked', (e: { code?: string }) => `failed: ${e.code}`);
    await topUp.query(`INSERT INTO svc_catalog.hdb_cron_events (trigger_name, scheduled_time)
      SELECT 'nightly', t FROM generate_series('2031-01-01'::timestamptz, '2031-01-03', '1 day') t`);
    await topUp.query('COMMIT');
    expect(await changeLocked).toBe('locked');
    await change.query("DELETE FROM svc_catalog.hdb_cron_events WHERE trigger_name = 'nightly' AND scheduled_time > '2031-01-02'");
    await change.query('COMMIT');
    expect((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM svc_catalog.hdb_cron_events WHERE trigger_name = 'nightly'"))[0]!.n).toBe(2);
  });
});

describe('ensuring an existing action log', () => {
  it('lets an action\'s insert through while another start ensures it', async () => {
    await ensureActionLog(driver);
    const start = await client();
    await start.query('BEGIN');
    try {
      // What ensureActionLog runs, inside a transaction kept open here.
      await ensureActionLog({ transaction: async (fn: (tx: never) => Promise<void>) => fn(runner(start)) } as never);
      const caller = await client();
      await caller.query("SET statement_timeout = '3s'");
      await caller.query(`INSERT INTO svc_catalog.hdb_action_log (action_name, input_payload, request_headers, session_variables, status)
        VALUES ('a', '{}', '{}', '{}', 'created')`);
    } finally {
      await start.query('ROLLBACK');
    }
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_catalog.hdb_action_log'))[0]!.n).toBe(1);
  });
});
