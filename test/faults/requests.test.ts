// Network faults between a served Kiln and PostgreSQL during GraphQL queries and mutations: the
// request whose connection dies answers `connection error` (code postgres-error, as Hasura), the
// process lives, /healthz answers, later requests succeed; a mutation cut before its COMMIT left
// nothing behind, one cut after its COMMIT is kept.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertServing, eventually, holdRowLock, startServed, untilLockWait, type Served } from './served.js';

const SETUP = `
CREATE TABLE item (id int PRIMARY KEY, n int NOT NULL);
INSERT INTO item SELECT i, 0 FROM generate_series(1, 20) i;
`;

let s: Served;

beforeAll(async () => {
  s = await startServed('faultreq', SETUP, ['item']);
});

afterAll(async () => {
  await s?.close();
});

afterEach(() => {
  s.proxy.delay(0);
  s.proxy.refuse(false);
});

const CONNECTION_ERROR = { message: 'connection error', extensions: { path: '$', code: 'postgres-error' } };

/** A query answers the rows as stored. */
async function queryWorks(): Promise<boolean> {
  const r = await s.gql('{ item(order_by: {id: asc}, limit: 2) { id } }');
  return r.status === 200 && JSON.stringify(r.body) === '{"data":{"item":[{"id":1},{"id":2}]}}';
}

/** A mutation commits (and is undone so the data stays as set up). */
async function mutationWorks(): Promise<boolean> {
  const r = await s.gql('mutation { update_item_by_pk(pk_columns: {id: 20}, _inc: {n: 1}) { n } }');
  if (r.status !== 200 || r.body.errors) return false;
  await s.db.exec('UPDATE item SET n = 0 WHERE id = 20');
  return true;
}

async function serving(): Promise<void> {
  await assertServing(s, async () => await queryWorks() && await mutationWorks());
}

describe('faults during queries', () => {
  it('answers a connection error when the connection of a query waiting on a lock is cut', async () => {
    await serving();
    const lock = await holdRowLock(s.db.url, 'LOCK TABLE item IN ACCESS EXCLUSIVE MODE');
    let answer: { status: number; body: any };
    try {
      const pending = s.gql('{ item_by_pk(id: 1) { id n } }');
      await untilLockWait(s.db);
      s.proxy.cut();
      answer = await pending;
    } finally {
      await lock.release();
    }
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toEqual([CONNECTION_ERROR]);
    await serving();
  });

  it('answers every query in flight with data or a connection error when all connections are reset', async () => {
    const lock = await holdRowLock(s.db.url, 'LOCK TABLE item IN ACCESS EXCLUSIVE MODE');
    let pending: Promise<{ status: number; body: any }>[];
    try {
      // Eight requests on a pool of four: four wait on the lock, four wait for a connection.
      pending = Array.from({ length: 8 }, (_, i) => s.gql(`{ item_by_pk(id: ${i + 1}) { id } }`));
      await untilLockWait(s.db);
      s.proxy.reset();
    } finally {
      await lock.release();
    }
    const answers = await Promise.all(pending);
    for (const [i, a] of answers.entries()) {
      expect(a.status).toBe(200);
      // A request that had not reached PostgreSQL yet runs on a fresh connection.
      if (a.body.errors) expect(a.body.errors).toEqual([CONNECTION_ERROR]);
      else expect(a.body).toEqual({ data: { item_by_pk: { id: i + 1 } } });
    }
    expect(answers.some((a) => a.body.errors)).toBe(true);
    await serving();
  });

  it('serves through a slow network', async () => {
    s.proxy.delay(100);
    expect(await queryWorks()).toBe(true);
    s.proxy.delay(0);
    await serving();
  });

  it('answers connection errors while PostgreSQL cannot be reached, and serves again when it is back', async () => {
    s.proxy.cut();
    s.proxy.refuse(true);
    const r = await s.gql('{ item_by_pk(id: 1) { id } }');
    expect(r.body.errors).toEqual([CONNECTION_ERROR]);
    expect(await s.health()).toEqual({ status: 200, text: 'OK' });
    s.proxy.refuse(false);
    await serving();
  });
});

describe('faults during mutations', () => {
  it('applies nothing of a mutation cut before its COMMIT', async () => {
    // Two root fields run in one transaction: the first updates item 2, the second waits on a
    // lock of item 3, and the connection is cut there.
    const lock = await holdRowLock(s.db.url, 'SELECT * FROM item WHERE id = 3 FOR UPDATE');
    let answer: { status: number; body: any };
    try {
      const pending = s.gql(`mutation {
        a: update_item_by_pk(pk_columns: {id: 2}, _set: {n: 7}) { n }
        b: update_item_by_pk(pk_columns: {id: 3}, _set: {n: 7}) { n } }`);
      await untilLockWait(s.db);
      s.proxy.cut();
      answer = await pending;
    } finally {
      await lock.release();
    }
    expect(answer.body.errors).toEqual([CONNECTION_ERROR]);
    // PostgreSQL ends the orphaned transaction once it finds the client gone; nothing stays.
    await eventually(async () => {
      const open = await s.db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND state LIKE 'idle in transaction%'`, [s.db.name]);
      return open.length === 0 ? true : undefined;
    });
    expect(await s.db.query('SELECT id, n FROM item WHERE id IN (2, 3) ORDER BY id')).toEqual([{ id: 2, n: 0 }, { id: 3, n: 0 }]);
    await serving();
  });

  it('keeps a mutation whose COMMIT went through when the connection is cut before the answer', async () => {
    // Every byte waits 400 ms in the proxy; once the change is visible in the database (committed)
    // the connection is cut while the COMMIT's answer is still on its way.
    s.proxy.delay(400);
    const pending = s.gql(`mutation {
      a: update_item_by_pk(pk_columns: {id: 4}, _set: {n: 9}) { n }
      b: update_item_by_pk(pk_columns: {id: 5}, _set: {n: 9}) { n } }`);
    await eventually(async () => {
      const rows = await s.db.query<{ n: number }>('SELECT n FROM item WHERE id IN (4, 5)');
      return rows.every((r) => r.n === 9) ? true : undefined;
    }, 15_000);
    s.proxy.cut();
    s.proxy.delay(0);
    const answer = await pending;
    // The outcome was unknown to Kiln: it says so, and the committed change stays.
    expect(answer.body.errors).toEqual([CONNECTION_ERROR]);
    expect(await s.db.query('SELECT id, n FROM item WHERE id IN (4, 5) ORDER BY id')).toEqual([{ id: 4, n: 9 }, { id: 5, n: 9 }]);
    await serving();
  });
});
