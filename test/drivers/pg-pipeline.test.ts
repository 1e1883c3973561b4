// The pipeline lane (pg-pipeline.ts) against the real PostgreSQL: reads sent together come back each
// with its own answer, one failing fails alone, a slow statement holds no quick one up, a lost
// lane connection fails only what was on it, and reads that are not marked as such, or that set a
// timeout of their own, never go there.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import pg from 'pg';
import { LANE_APPLICATION_NAME, MAX_DEPTH, MAX_READ_DEPTH, QUEUE_BUDGET_MS } from '../../runtime/drivers/pg-pipeline.js';
import { sourceDefaults } from '../../runtime/start/settings.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { failure } from '../helpers/failure.js';

let db: TestDatabase;
const drivers: Driver[] = [];
const logged: string[] = [];
const ALONE = { alone: true } as const;
const ALONE_WRITE = { alone: true, write: true } as const;

beforeAll(async () => {
  db = await createTestDatabase('pglane', `CREATE TABLE item (id int PRIMARY KEY, label text NOT NULL);
    INSERT INTO item SELECT g, 'item ' || g FROM generate_series(1, 50) g;
    CREATE TABLE guarded (id int PRIMARY KEY, n int NOT NULL);
    INSERT INTO guarded VALUES (1, 0);
    CREATE TABLE entry (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, n int NOT NULL);`);
});

afterAll(async () => {
  await Promise.all(drivers.map((d) => d.close()));
  await db?.drop();
});

function driver(pipelineConnections: number, max = 6, maxLifetimeSeconds?: number): Driver {
  const d = createPgDriver({ url: db.url, max, pipelineConnections, log: (l) => logged.push(l), ...(maxLifetimeSeconds ? { maxLifetimeSeconds } : {}) });
  drivers.push(d);
  return d;
}

// Each test's drivers are closed at its end, so that the sessions a test counts are its own.
afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.close()));
  await until('no session left', async () => (await sessions()).length === 0);
});

/** The backends of this database by application_name, with what they ran last. */
async function sessions(): Promise<{ name: string; query: string; pid: number; state: string }[]> {
  return db.query(`SELECT application_name AS name, query, pid, state FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [db.name]);
}

async function until(what: string, ok: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never: ${what}`);
}

const laneSessions = async (): Promise<number> => (await sessions()).filter((s) => s.name === LANE_APPLICATION_NAME).length;

/** A read on `d`, then the wait until its lane has `n` sessions open (a lane opens on first use, in the background). */
async function warm(d: Driver, n: number): Promise<void> {
  await d.queryText(LABEL, [1], 'label', false, ALONE);
  await until(`${n} lane sessions`, async () => {
    await d.queryText(LABEL, [1], 'label', false, ALONE);
    return (await laneSessions()) >= n;
  });
}

const LABEL = 'SELECT json_build_object(\'id\', id, \'label\', label)::text FROM item WHERE id = $1';

describe('pg driver: the pipeline lane', () => {
  it('answers each of many reads sent at once with its own row, on the lane\'s sessions', async () => {
    const d = driver(2);
    await warm(d, 1);
    // Twice: the first round times the statement (it may then go behind others), the second pipelines it.
    for (let round = 0; round < 2; round++) {
      const ids = Array.from({ length: 50 }, (_, i) => i + 1);
      const answers = await Promise.all(ids.map((id) => d.queryText(LABEL, [id], 'label', false, ALONE)));
      expect(answers.map((a) => JSON.parse(a) as { id: number; label: string })).toEqual(ids.map((id) => ({ id, label: `item ${id}` })));
    }
    const lane = (await sessions()).filter((s) => s.name === LANE_APPLICATION_NAME);
    expect(lane.length).toBe(2);
    expect(lane.some((s) => s.query.includes('FROM item WHERE id = $1'))).toBe(true);
    // Taken from the pool's size: 6 in all, 2 of them the lane's.
    expect(d.poolStats?.().max).toBe(6);
  });

  it('fails a read that fails alone: those sent with it on the same connection answer', async () => {
    const d = driver(1);
    await warm(d, 1);
    const text = 'SELECT json_build_object(\'q\', 10 / $1::int)::text';
    await d.queryText(text, [1], 'divide', false, ALONE);
    const runs = [5, 0, 2, 0, 1].map((n) => d.queryText(text, [n], 'divide', false, ALONE).then((t) => t, (e: unknown) => e));
    const answers = await Promise.all(runs);
    expect(answers[0]).toBe('{"q" : 2}');
    expect(answers[2]).toBe('{"q" : 5}');
    expect(answers[4]).toBe('{"q" : 10}');
    for (const i of [1, 3]) {
      const e = answers[i] as { code: string; message: string };
      expect([e.code, e.message]).toEqual(['data-exception', 'division by zero']);
    }
  });

  it('sends nothing behind a slow statement: a quick read answers while it runs', async () => {
    const d = driver(1);
    await warm(d, 1);
    const sleep = 'SELECT pg_sleep($1::float8)::text';
    const slow = d.queryText(sleep, [1.5], 'sleep', false, ALONE);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const quick = await d.queryText(LABEL, [7], 'label', false, ALONE);
    expect(JSON.parse(quick)).toEqual({ id: 7, label: 'item 7' });
    // Behind the sleep it would have taken 1.4 s more.
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await slow).toBe('');
  });

  it('fails only the reads on a lane connection that is lost, and serves the next ones', async () => {
    const d = driver(1);
    await warm(d, 1);
    const pending = failure(d.queryText('SELECT pg_sleep(5)::text', [], 'long', false, ALONE));
    let pid: number | undefined;
    for (let i = 0; i < 100 && pid === undefined; i++) {
      pid = (await sessions()).find((s) => s.name === LANE_APPLICATION_NAME && s.state === 'active' && s.query.includes('pg_sleep'))?.pid;
      if (pid === undefined) await new Promise((r) => setTimeout(r, 20));
    }
    expect(pid).toBeDefined();
    await db.query('SELECT pg_terminate_backend($1)', [pid]);
    const e = await pending;
    expect([e.code, e.message]).toEqual(['postgres-error', 'connection error']);
    await until('the loss logged', async () => logged.some((l) => l.includes('connection lost (pipeline lane)')));
    const answers = await Promise.all([3, 4].map((id) => d.queryText(LABEL, [id], 'label', false, ALONE)));
    expect(answers.map((a) => (JSON.parse(a) as { id: number }).id)).toEqual([3, 4]);
  });

  it('closes a lane connection past the pool\'s connection lifetime, and opens another', async () => {
    const d = driver(1, 4, 1);
    await warm(d, 1);
    const lanePids = async (): Promise<number[]> => (await sessions()).filter((s) => s.name === LANE_APPLICATION_NAME).map((s) => s.pid);
    const [first] = await lanePids();
    await new Promise((r) => setTimeout(r, 1100));
    await until('the old lane session closed and a new one open', async () => {
      await d.queryText(LABEL, [2], 'label', false, ALONE);
      const now = await lanePids();
      return first !== undefined && !now.includes(first) && now.length === 1;
    });
  });

  it('runs on the pool what is not sent alone, or asks for its own timeout', async () => {
    const d = driver(2, 4);
    await warm(d, 1);
    const name = 'SELECT json_build_object(\'app\', current_setting(\'application_name\'), \'t\', current_setting(\'statement_timeout\'))::text';
    const plain = JSON.parse(await d.queryText(name, [], 'app')) as { app: string };
    expect(plain.app).not.toBe(LANE_APPLICATION_NAME);
    const timed = JSON.parse(await d.queryText(name, [], 'app', false, { alone: true, timeoutMs: 2500 })) as { app: string; t: string };
    expect(timed).toEqual({ app: plain.app, t: '2500ms' });
    const read = JSON.parse(await d.queryText(name, [], 'app', false, ALONE)) as { app: string; t: string };
    expect(read).toEqual({ app: LANE_APPLICATION_NAME, t: '0' });
    // The lane's sessions give up on a lock after the queue budget; the pool's keep the server's default.
    const lockWait = 'SELECT current_setting(\'lock_timeout\')';
    expect(await d.queryText(lockWait, [], 'lock', false, ALONE)).toBe(`${QUEUE_BUDGET_MS}ms`);
    expect(await d.queryText(lockWait, [], 'lock')).toBe('0');
    // Inside a transaction the statement runs on the transaction's connection.
    const inTx = await d.transaction((tx) => tx.queryText(name, [], 'app', false, ALONE));
    expect((JSON.parse(inTx) as { app: string }).app).toBe(plain.app);
  });

  it('sends a statement that waits on a lock to the pool: those queued behind it on the lane answer meanwhile', async () => {
    const d = driver(1, 4);
    const blocked = 'SELECT json_build_object(\'n\', n, \'app\', current_setting(\'application_name\'))::text FROM guarded WHERE id = $1';
    const quick = 'SELECT json_build_object(\'id\', id, \'app\', current_setting(\'application_name\'))::text FROM item WHERE id = $1';
    // Both timed (and quick) first, and the connection's time between answers learnt, so that the
    // quick ones go behind the other one.
    for (let i = 0; i < 30; i++) {
      await Promise.all([d.queryText(blocked, [1], 'blocked', false, ALONE), ...[1, 2, 3].map((id) => d.queryText(quick, [id], 'quick', false, ALONE))]);
    }
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      // The quick reads go behind the blocked one when the lane's timings allow it at that moment;
      // a busy machine may send them to the pool instead, so a few attempts until they do.
      let queuedBehind = 0;
      for (let attempt = 0; attempt < 5 && queuedBehind === 0; attempt++) {
        await holder.query('BEGIN');
        await holder.query('LOCK TABLE guarded IN ACCESS EXCLUSIVE MODE');
        let blockedDone = false;
        const waiting = d.queryText(blocked, [1], 'blocked', false, ALONE).finally(() => { blockedDone = true; });
        const behind = (await Promise.all([2, 3, 4].map((id) => d.queryText(quick, [id], 'quick', false, ALONE)))).map((t) => JSON.parse(t) as { id: number; app: string });
        // Answered while the lock is still held, those on the lane's one connection sent after the blocked read.
        expect(behind.map((r) => r.id)).toEqual([2, 3, 4]);
        expect(blockedDone).toBe(false);
        queuedBehind = behind.filter((r) => r.app === LANE_APPLICATION_NAME).length;
        await until('the blocked read waiting on the pool', async () => (await sessions()).some((s) => s.name !== LANE_APPLICATION_NAME && s.state === 'active' && s.query.includes('FROM guarded')));
        await holder.query('COMMIT');
        expect(JSON.parse(await waiting)).toEqual({ n: 0, app: expect.not.stringMatching(LANE_APPLICATION_NAME) as unknown });
      }
      expect(queuedBehind).toBeGreaterThan(0);
    } finally {
      await holder.end();
    }
  });

  it('takes a mutation\'s statement sent alone; one that waits on a row lock is applied once, on the pool, and stays there while the lock lasts', async () => {
    const d = driver(1, 4);
    await warm(d, 1);
    const bump = 'UPDATE guarded SET n = n + 1 WHERE id = $1 RETURNING json_build_object(\'n\', n, \'app\', current_setting(\'application_name\'))::text';
    const before = (await db.query<{ n: number }>('SELECT n FROM guarded WHERE id = 1'))[0]!.n;
    const onLane = { n: before + 1, app: LANE_APPLICATION_NAME };
    expect(JSON.parse(await d.queryText(bump, [1], 'bump', false, ALONE))).toEqual(onLane);
    const pooled = (n: number): unknown => ({ n, app: expect.not.stringMatching(LANE_APPLICATION_NAME) as unknown });
    const waitingOnPool = async (k: number): Promise<boolean> =>
      (await sessions()).filter((s) => s.name !== LANE_APPLICATION_NAME && s.state === 'active' && s.query.startsWith('UPDATE guarded')).length === k;
    const laneLast = async (): Promise<string | undefined> => (await sessions()).find((s) => s.name === LANE_APPLICATION_NAME)?.query;
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    let first: Promise<string>;
    let second: Promise<string>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT n FROM guarded WHERE id = 1 FOR UPDATE');
      first = d.queryText(bump, [1], 'bump', false, ALONE);
      await until('the write waiting on the pool', () => waitingOnPool(1));
      // The lane's session runs something else; the next run of the write, the lock still held,
      // goes straight to the pool: the lane's session never runs it again.
      await d.queryText(LABEL, [5], 'label', false, ALONE);
      await until('the lane ran the read', async () => (await laneLast()) === LABEL);
      second = d.queryText(bump, [1], 'bump', false, ALONE);
      await until('both writes waiting on the pool', () => waitingOnPool(2));
      expect(await laneLast()).toBe(LABEL);
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    // Each rolled back on the lane, or never sent there, and run once on the pool: one increment each.
    const answers = (await Promise.all([first, second])).map((t) => JSON.parse(t) as { n: number });
    expect(answers.map((a) => a.n).sort()).toEqual([before + 2, before + 3]);
    expect(answers).toEqual(expect.arrayContaining([pooled(before + 2), pooled(before + 3)]));
    // Back on the lane once a run on the pool is quick again: the first after the lock on the pool, the next on the lane.
    // (On a busy machine a pool run may take longer than the lane's budget: the next runs stay there until one does not.)
    expect(JSON.parse(await d.queryText(bump, [1], 'bump', false, ALONE))).toEqual(pooled(before + 4));
    let last = { n: before + 4, app: '' };
    for (let i = 0; i < 20 && last.app !== LANE_APPLICATION_NAME; i++) {
      const next = JSON.parse(await d.queryText(bump, [1], 'bump', false, ALONE)) as { n: number; app: string };
      expect(next.n).toBe(last.n + 1);
      last = next;
    }
    expect(last.app).toBe(LANE_APPLICATION_NAME);
    expect((await db.query<{ n: number }>('SELECT n FROM guarded WHERE id = 1'))[0]!.n).toBe(last.n);
  });

  it('sends a mutation\'s statement to the pool while it has a connection free, and queues it on the lane past the wait bound, up to its depth, while it has none', async () => {
    // Lane of 1, pool of MAX_DEPTH + 1: every write of a batch below finds a pool connection free.
    const d = driver(1, MAX_DEPTH + 2);
    await warm(d, 1);
    const app = 'json_build_object(\'n\', n, \'app\', current_setting(\'application_name\'))::text';
    // At least 1.5 ms in PostgreSQL: within the budget (QUEUE_BUDGET_MS), so it may go behind others.
    const write = `INSERT INTO entry (n) SELECT $1::int FROM pg_sleep(0.0015) RETURNING ${app}`;
    const onLane = (answers: string[]): number => answers.filter((a) => (JSON.parse(a) as { app: string }).app === LANE_APPLICATION_NAME).length;
    const batch = async (ns: number[]): Promise<string[]> => {
      const answers = await Promise.all(ns.map((n) => d.queryText(write, [n], 'write', false, ALONE_WRITE)));
      expect(answers.map((a) => (JSON.parse(a) as { n: number }).n)).toEqual(ns);
      return answers;
    };
    // Timed on the lane and on the pool; each batch has one on the lane (its connection is idle
    // when the batch is sent) and the others each on a pool connection of its own, never behind it.
    let lane = 0;
    for (let i = 0; i < 10; i++) {
      const sent = await batch(Array.from({ length: MAX_DEPTH }, () => 0));
      expect(onLane(sent)).toBeLessThanOrEqual(1);
      lane += onLane(sent);
    }
    expect(lane).toBeGreaterThan(0);
    // The pool's connections held for half a second, with as many checkouts again waiting behind them.
    const hold = Array.from({ length: 2 * (MAX_DEPTH + 1) }, () => d.queryText('SELECT pg_sleep(0.5)::text', [], 'hold'));
    await until('the pool busy', async () => (await sessions()).filter((s) => s.name !== LANE_APPLICATION_NAME && s.query.includes('pg_sleep(0.5)') && s.state === 'active').length === MAX_DEPTH + 1);
    const ns = Array.from({ length: MAX_DEPTH + 4 }, (_, i) => i + 1);
    const queued = batch(ns);
    // More than the lane takes: the rest wait for the held pool.
    const settledEarly = await Promise.race([queued.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 300))]);
    expect(settledEarly).toBe(false);
    const answers = await queued;
    expect(onLane(answers)).toBeGreaterThan(1);
    expect(onLane(answers)).toBeLessThanOrEqual(MAX_DEPTH);
    // Every row written once.
    expect((await db.query<{ c: string }>('SELECT count(*) AS c FROM entry WHERE n > 0'))[0]!.c).toBe(String(ns.length));
    expect(await Promise.all(hold)).toEqual(hold.map(() => ''));
  });

  it('keeps at most MAX_READ_DEPTH reads in flight on a lane connection, however quick they are', async () => {
    // A lane of one and a pool with a connection free for every read below: the budget is QUEUE_BUDGET_MS.
    const d = driver(1, 30);
    await warm(d, 1);
    const quick = 'SELECT json_build_object(\'n\', $1::int, \'app\', current_setting(\'application_name\'))::text';
    const app = (t: string): string => (JSON.parse(t) as { app: string }).app;
    // Timed, one at a time (each goes to the idle lane connection), so that its estimate and the
    // connection's time between answers are a quick statement's: the budget would let many more queue.
    for (let i = 0; i < 20; i++) await d.queryText(quick, [0], 'quick', false, ALONE);
    expect(MAX_READ_DEPTH).toBeLessThan(MAX_DEPTH);
    for (let round = 0; round < 5; round++) {
      // Sent in one turn: none is answered before the last is placed.
      const ns = Array.from({ length: 24 }, (_, i) => i + 1);
      const answers = await Promise.all(ns.map((n) => d.queryText(quick, [n], 'quick', false, ALONE)));
      expect(answers.map((a) => (JSON.parse(a) as { n: number }).n)).toEqual(ns);
      const onLane = answers.filter((a) => app(a) === LANE_APPLICATION_NAME).length;
      expect(onLane).toBeGreaterThan(0);
      expect(onLane).toBeLessThanOrEqual(MAX_READ_DEPTH);
    }
  });

  it('queues a read past the budget when the pool has no connection free, up to the wait it would have there', async () => {
    // Lane of 1, pool of 2.
    const d = driver(1, 3);
    await warm(d, 1);
    // 20 ms each: longer than the budget, so while the pool has a connection free it never goes behind another.
    const slowish = 'SELECT json_build_object(\'n\', $1::int, \'app\', current_setting(\'application_name\'))::text FROM pg_sleep(0.02)';
    expect(QUEUE_BUDGET_MS).toBeLessThan(20);
    const app = (t: string): string => (JSON.parse(t) as { app: string }).app;
    // Timed on both: sent three at a time, one goes to the idle lane connection and the others to the
    // pool, which learns its mean statement time from them.
    for (let i = 0; i < 4; i++) {
      const three = await Promise.all([1, 2, 3].map((n) => d.queryText(slowish, [n], 'slowish', false, ALONE)));
      expect(three.filter((t) => app(t) === LANE_APPLICATION_NAME).length).toBeLessThanOrEqual(1);
    }
    // The pool's two connections held for half a second, and ten more checkouts waiting behind them.
    const hold = Array.from({ length: 12 }, () => d.queryText('SELECT pg_sleep(0.5)::text', [], 'hold'));
    await until('the pool busy', async () => (await sessions()).filter((s) => s.name !== LANE_APPLICATION_NAME && s.query.includes('pg_sleep(0.5)') && s.state === 'active').length === 2);
    const started = performance.now();
    const two = await Promise.all([4, 5].map((n) => d.queryText(slowish, [n], 'slowish', false, ALONE)));
    const ms = performance.now() - started;
    // Both on the lane, one behind the other: on the pool the second would have waited seconds.
    expect(two.map(app)).toEqual([LANE_APPLICATION_NAME, LANE_APPLICATION_NAME]);
    expect(ms).toBeLessThan(500);
    expect(await Promise.all(hold)).toEqual(Array.from({ length: 12 }, () => ''));
  });

  it('has no lane when it is off or the pool is too small to give it half', async () => {
    for (const [d, max] of [[driver(0, 6), 6], [driver(2, 1), 1]] as const) {
      const out = await Promise.all([1, 2, 3].map((id) => d.queryText(LABEL, [id], 'label', false, ALONE)));
      expect(out.map((a) => (JSON.parse(a) as { id: number }).id)).toEqual([1, 2, 3]);
      expect(d.poolStats?.().max).toBe(max);
    }
    expect(await laneSessions()).toBe(0);
  });

  it('reads its size from SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS, 2 by default, and refuses a bad one', () => {
    expect(sourceDefaults({}).pipelineConnections).toBe(2);
    expect(sourceDefaults({ SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS: '0' }).pipelineConnections).toBe(0);
    expect(sourceDefaults({ SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS: '4' }).pipelineConnections).toBe(4);
    for (const bad of ['-1', 'two', '1.5', '65']) {
      expect(() => sourceDefaults({ SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS: bad })).toThrow(/^SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS must be a whole number from 0 to 64, not /);
    }
  });
});
