// The pg driver under network faults, through a real TCP proxy to the real PostgreSQL: a
// connection cut, reset or refused while a statement runs (or waits on a lock another session
// holds) fails that call with a connection error, never the process; the broken connection is
// destroyed and the next calls run on fresh ones.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { failure } from '../helpers/failure.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

let db: TestDatabase;
let proxy: TcpProxy;
let driver: Driver;
const logged: string[] = [];
const uncaught: unknown[] = [];
const onUncaught = (e: unknown): void => { uncaught.push(e); };

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  db = await createTestDatabase('pgfault', `CREATE TABLE item (id int PRIMARY KEY, n int NOT NULL); INSERT INTO item VALUES (1, 0), (2, 0);`);
  proxy = await startTcpProxy();
  driver = createPgDriver({ url: proxy.via(db.url), max: 2, log: (l) => logged.push(l) });
});

afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await driver?.close();
  await proxy?.close();
  await db?.drop();
});

afterEach(() => {
  proxy.delay(0);
  proxy.refuse(false);
  expect(uncaught).toEqual([]);
});

/** Holds a row lock on item 1 from a session outside the proxy until `release` is called. */
async function holdLock(): Promise<{ release(): Promise<void> }> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await c.query('BEGIN');
  await c.query('SELECT * FROM item WHERE id = 1 FOR UPDATE');
  return { release: async () => { await c.query('ROLLBACK'); await c.end(); } };
}

/** Resolves once some backend of this database waits on a lock. */
async function untilWaiting(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const rows = await db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [db.name]);
    if (rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no statement ever waited on the lock');
}

/** Lets the sockets' close and error events of a fault reach the pool (the other idle clients). */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 100));

async function healthy(): Promise<void> {
  // Two calls at once: both pool slots work again.
  const answers = await Promise.all([1, 2].map((i) => driver.queryText('SELECT json_build_object($1::int, n)::text FROM item WHERE id = $1', [i], 'health')));
  expect(answers).toEqual(['{"1" : 0}', '{"2" : 0}']);
}

describe('pg driver: faults during a statement', () => {
  it('answers a connection error when the connection is cut while the statement waits on a lock', async () => {
    await healthy();
    const lock = await holdLock();
    try {
      const pending = failure(driver.query('SELECT n FROM item WHERE id = 1 FOR UPDATE'));
      await untilWaiting();
      proxy.cut();
      const e = await pending;
      expect([e.code, e.status, e.message]).toEqual(['postgres-error', 500, 'connection error']);
      expect((e.internal as { error: { exec_status: string } }).error.exec_status).toBe('ConnectionError');
    } finally {
      await lock.release();
    }
    await settle();
    await healthy();
    expect(logged.some((l) => l.includes('PostgreSQL connection lost'))).toBe(true);
  });

  it('answers a connection error when the connection is reset (RST) mid-statement', async () => {
    const pending = failure(driver.queryText('SELECT pg_sleep(5)::text', []));
    await proxy.waitForConnections(1);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    proxy.reset();
    const e = await pending;
    expect([e.code, e.message]).toEqual(['postgres-error', 'connection error']);
    expect(Date.now() - started).toBeLessThan(2000);
    await settle();
    await healthy();
  });

  it('answers a connection error for a transaction cut between two statements, and nothing of it stays', async () => {
    const lock = await holdLock();
    try {
      const pending = failure(driver.transaction(async (tx) => {
        await tx.query('UPDATE item SET n = 5 WHERE id = 2');
        await tx.query('UPDATE item SET n = 5 WHERE id = 1');
      }));
      await untilWaiting();
      proxy.cut();
      const e = await pending;
      expect(e.message).toBe('connection error');
    } finally {
      await lock.release();
    }
    // The server rolls the orphaned transaction back once it notices the client is gone.
    for (let i = 0; i < 100; i++) {
      const rows = await db.query<{ n: number }>('SELECT n FROM item ORDER BY id');
      const active = await db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND state LIKE 'idle in transaction%'`, [db.name]);
      if (active.length === 0) {
        expect(rows.map((r) => r.n)).toEqual([0, 0]);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await db.query('SELECT n FROM item ORDER BY id')).toEqual([{ n: 0 }, { n: 0 }]);
    await settle();
    await healthy();
  });

  it('answers a connection error while the server refuses connections, and serves again when it is back', async () => {
    proxy.cut();
    proxy.refuse(true);
    const e = await failure(driver.query('SELECT 1'));
    expect([e.code, e.status, e.message]).toEqual(['postgres-error', 500, 'connection error']);
    proxy.refuse(false);
    await settle();
    await healthy();
  });

  it('survives idle connections dropped while checked in', async () => {
    await healthy();
    proxy.reset();
    await new Promise((r) => setTimeout(r, 50));
    // pg-pool drops the idle clients that failed; the next calls open new ones.
    await healthy();
  });

  it('waits out a slow network instead of failing', async () => {
    proxy.delay(150);
    const started = Date.now();
    await healthy();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });
});
