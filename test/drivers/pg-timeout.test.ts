// Statement timeouts of the pg driver on the real PostgreSQL: the source default is a startup
// parameter of every session (no statement per call), a call may ask for its own, and a
// statement cancelled by either answers a clear error while its connection stays in the pool.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { failure } from '../helpers/failure.js';

let db: TestDatabase;
let driver: Driver;

beforeAll(async () => {
  db = await createTestDatabase('pgtimeout', 'CREATE TABLE item (id int PRIMARY KEY, n int NOT NULL); INSERT INTO item VALUES (1, 0);');
  // One connection: the cancelled statements and the later ones share it.
  driver = createPgDriver({ url: db.url, max: 1, statementTimeoutMs: 300 });
});

afterAll(async () => {
  await driver?.close();
  await db?.drop();
});

const backend = async (): Promise<number> => Number((await driver.query('SELECT pg_backend_pid()')).rows[0]![0]);
const setting = async (): Promise<string> => String((await driver.query("SELECT current_setting('statement_timeout')")).rows[0]![0]);

describe('pg driver: statement timeouts', () => {
  it('sets the source default on every session as a startup parameter', async () => {
    expect(await setting()).toBe('300ms');
    const e = await failure(driver.queryText('SELECT pg_sleep(2)::text', []));
    expect([e.code, e.message, e.status]).toEqual(['postgres-error', 'canceling statement due to statement timeout', 400]);
    expect((e.internal as { error: { status_code: string } }).error.status_code).toBe('57014');
  });

  it('keeps the connection of a cancelled statement', async () => {
    const before = await backend();
    await failure(driver.query('SELECT pg_sleep(2)'));
    expect(await backend()).toBe(before);
  });

  it('runs a call under its own timeout, then puts the session back to the default', async () => {
    // A longer bound lets the statement finish; a shorter one cancels it.
    expect(await driver.queryText("SELECT 'done' FROM pg_sleep(0.5)", [], undefined, false, { timeoutMs: 2000 })).toBe('done');
    const started = Date.now();
    const e = await failure(driver.query('SELECT pg_sleep(2)', [], { timeoutMs: 100 }));
    expect(e.message).toBe('canceling statement due to statement timeout');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await driver.query("SELECT current_setting('statement_timeout')", [], { timeoutMs: 0 })).toMatchObject({ rows: [['0']] });
    // A call without a timeout: the source default again.
    expect(await setting()).toBe('300ms');
  });

  it('bounds every statement of a transaction, rolls it back when one is cancelled, and keeps the connection', async () => {
    const before = await backend();
    const e = await failure(driver.transaction(async (tx) => {
      await tx.query('UPDATE item SET n = 1 WHERE id = 1');
      await tx.query('SELECT pg_sleep(2)');
    }, { timeoutMs: 150 }));
    expect(e.message).toBe('canceling statement due to statement timeout');
    expect(await db.query('SELECT n FROM item')).toEqual([{ n: 0 }]);
    expect(await backend()).toBe(before);
    // A call inside a transaction may ask for its own bound; it ends with the transaction.
    const inside = await driver.transaction(async (tx) => {
      await tx.query('SELECT pg_sleep(0.4)', [], { timeoutMs: 1000 });
      return (await tx.query("SELECT current_setting('statement_timeout')")).rows[0]![0];
    });
    expect(inside).toBe('1s');
    expect(await setting()).toBe('300ms');
  });

  it('runs with no timeout when the source has none', async () => {
    const free = createPgDriver({ url: db.url, max: 1 });
    try {
      expect((await free.query("SELECT current_setting('statement_timeout')")).rows).toEqual([['0']]);
      expect((await free.query("SELECT 'done' FROM pg_sleep(0.4)")).rows).toEqual([['done']]);
    } finally {
      await free.close();
    }
  });
});
