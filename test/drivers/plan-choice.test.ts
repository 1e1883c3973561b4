// Generic or per-run plans for a value-sensitive statement, chosen by timing both: the choice
// itself (pure), then the PostgreSQL driver on a real database, where each kind of statement must
// end on the plan that is really faster. The statements report the plan_cache_mode of the session
// that ran them, which says which way the driver sent them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { PlanChoice, PlanChoices, WARMUP } from '../../runtime/drivers/plan-choice.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

describe('PlanChoice', () => {
  it('alternates while measuring, then keeps per-run plans when they are clearly quicker', () => {
    const c = new PlanChoice(4, 100, 0);
    const modes: boolean[] = [];
    for (let i = 0; i < 8; i++) {
      const custom = c.next();
      modes.push(custom);
      c.record(custom, custom ? 1 : 5);
    }
    expect(modes).toEqual([false, true, false, true, false, true, false, true]);
    expect(c.chosen).toBe(true);
    expect(Array.from({ length: 10 }, () => c.next())).toEqual(Array(10).fill(true));
  });

  it('keeps the generic plan when per-run plans are only a little quicker', () => {
    const c = new PlanChoice(4, 100, 0);
    for (let i = 0; i < 8; i++) {
      const custom = c.next();
      c.record(custom, custom ? 0.9 : 1);
    }
    expect(c.chosen).toBe(false);
  });

  it('is not moved by a few slow first runs', () => {
    const c = new PlanChoice(5, 100, 0);
    // The first generic runs parse and plan (slow); the rest are fast. Per-run plans cost 2 each time.
    const generic = [40, 40, 1, 1, 1];
    let g = 0;
    for (let i = 0; i < 10; i++) {
      const custom = c.next();
      c.record(custom, custom ? 2 : generic[g++]!);
    }
    expect(c.chosen).toBe(false);
  });

  it('measures again after its interval, from scratch', () => {
    const c = new PlanChoice(2, 5, 0);
    for (let i = 0; i < 4; i++) {
      const custom = c.next();
      c.record(custom, custom ? 1 : 9);
    }
    expect(c.chosen).toBe(true);
    for (let i = 0; i < 4; i++) c.next();
    expect(c.chosen).toBe(true);
    c.next(); // the fifth run since the choice starts a new round
    expect(c.chosen).toBeNull();
    for (let i = 0; i < 4; i++) {
      const custom = c.next();
      c.record(custom, custom ? 9 : 1);
    }
    expect(c.chosen).toBe(false);
  });

  it('keeps per-run plans only when they take less than half the generic plan\'s time', () => {
    const c = new PlanChoice(4, 100, 0);
    for (let i = 0; i < 8; i++) {
      const custom = c.next();
      c.record(custom, custom ? 0.6 : 1);
    }
    expect(c.chosen).toBe(false);
  });

  it('runs the generic plan, unmeasured, for its first runs', () => {
    const c = new PlanChoice(2, 100, 3);
    const modes: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      expect(c.warming).toBe(true);
      const custom = c.next();
      modes.push(custom);
      c.record(custom, 100); // ignored: a cold start's times say nothing of the plans
    }
    expect(modes).toEqual([false, false, false]);
    expect(c.warming).toBe(false);
    for (let i = 0; i < 4; i++) {
      const custom = c.next();
      c.record(custom, custom ? 1 : 5);
    }
    expect(c.chosen).toBe(true);
  });

  it('keeps one choice per statement name, within a bound', () => {
    const cs = new PlanChoices(2);
    const a = cs.for('a');
    expect(cs.for('a')).toBe(a);
    cs.for('b');
    cs.for('c'); // over the bound: the map starts again
    expect(cs.for('a')).not.toBe(a);
  });
});

// 200,000 rows in id order; k is 0 everywhere but the last row. A generic plan of
// `k = $1 ORDER BY id LIMIT 10` guesses half the rows match and walks the id index (every row, for
// k = 1); a plan for k = 1 reads its one row through the k index.
const SETUP = `
CREATE TABLE skewed (id int PRIMARY KEY, k int NOT NULL, pad text NOT NULL);
INSERT INTO skewed SELECT i, CASE WHEN i = 200000 THEN 1 ELSE 0 END, 'x' FROM generate_series(1, 200000) i;
CREATE INDEX skewed_k ON skewed (k);
ANALYZE skewed;
CREATE TABLE t1 (id int PRIMARY KEY, v int); CREATE TABLE t2 (id int PRIMARY KEY, v int); CREATE TABLE t3 (id int PRIMARY KEY, v int);
CREATE TABLE t4 (id int PRIMARY KEY, v int); CREATE TABLE t5 (id int PRIMARY KEY, v int); CREATE TABLE t6 (id int PRIMARY KEY, v int);
CREATE TABLE t7 (id int PRIMARY KEY, v int); CREATE TABLE t8 (id int PRIMARY KEY, v int);
INSERT INTO t1 VALUES (1, 1); INSERT INTO t2 VALUES (1, 2); INSERT INTO t3 VALUES (1, 3); INSERT INTO t4 VALUES (1, 4);
INSERT INTO t5 VALUES (1, 5); INSERT INTO t6 VALUES (1, 6); INSERT INTO t7 VALUES (1, 7); INSERT INTO t8 VALUES (1, 8);
ANALYZE t1, t2, t3, t4, t5, t6, t7, t8;
`;

const MODE = "current_setting('plan_cache_mode')";
const SKEWED = `SELECT json_build_object('mode', ${MODE}, 'ids', (SELECT json_agg(s.id) FROM (SELECT id FROM skewed WHERE k = ($1)::int ORDER BY id LIMIT 10) s))::text`;
// Eight one-row tables joined: searching the join orders takes milliseconds, running them microseconds.
const MANY_JOINS = `SELECT json_build_object('mode', ${MODE}, 'n', (SELECT count(*) FROM t1
  JOIN t2 ON t2.v = t1.v JOIN t3 ON t3.v = t1.v JOIN t4 ON t4.v = t1.v JOIN t5 ON t5.v = t1.v
  JOIN t6 ON t6.v = t1.v JOIN t7 ON t7.v = t1.v JOIN t8 ON t8.v = t1.v WHERE t1.id = ($1)::int))::text`;

describe('the PostgreSQL driver on a value-sensitive statement', () => {
  let db: TestDatabase;
  let driver: Driver;

  beforeAll(async () => {
    db = await createTestDatabase('plan_choice', SETUP);
    driver = createPgDriver({ url: db.url, max: 2 });
  });

  afterAll(async () => {
    await driver?.close();
    await db?.drop();
  });

  async function modesOf(text: string, name: string, value: number, runs: number): Promise<string[]> {
    const modes: string[] = [];
    for (let i = 0; i < runs; i++) modes.push((JSON.parse(await driver.queryText(text, [value], name, true)) as { mode: string }).mode);
    return modes;
  }

  it('plans each run for its values where the generic plan reads the whole table', async () => {
    expect(new Set(await modesOf(SKEWED, 'kiln_test_skewed', 1, WARMUP))).toEqual(new Set(['force_generic_plan']));
    const measuring = await modesOf(SKEWED, 'kiln_test_skewed', 1, 96);
    expect(new Set(measuring)).toEqual(new Set(['force_generic_plan', 'force_custom_plan']));
    expect(await modesOf(SKEWED, 'kiln_test_skewed', 1, 20)).toEqual(Array(20).fill('force_custom_plan'));
    // Both ways give the same rows.
    expect(JSON.parse(await driver.queryText(SKEWED, [1], 'kiln_test_skewed', true))).toMatchObject({ ids: [200000] });
  });

  it('keeps the generic plan where planning costs more than running', async () => {
    await modesOf(MANY_JOINS, 'kiln_test_joins', 1, WARMUP + 96);
    expect(await modesOf(MANY_JOINS, 'kiln_test_joins', 1, 20)).toEqual(Array(20).fill('force_generic_plan'));
  });

  it('times the statement, not the wait for a connection of the busier pool', async () => {
    // Other statements keep the main pool busy (per-run plans have an idle pool of their own):
    // timed from the call, every generic run would wait for a connection and per-run plans win.
    let busy = true;
    const background = async (): Promise<void> => {
      while (busy) await driver.queryText("SELECT pg_sleep(0.01)::text", [], 'kiln_test_sleep');
    };
    const load = [background(), background(), background(), background()];
    try {
      await modesOf(MANY_JOINS, 'kiln_test_joins_busy', 1, WARMUP + 96);
    } finally {
      busy = false;
      await Promise.all(load);
    }
    expect(await modesOf(MANY_JOINS, 'kiln_test_joins_busy', 1, 20)).toEqual(Array(20).fill('force_generic_plan'));
  });

  it('leaves other statements on the generic plan, unmeasured', async () => {
    const modes: string[] = [];
    for (let i = 0; i < 6; i++) modes.push((JSON.parse(await driver.queryText(SKEWED, [0], 'kiln_test_plain')) as { mode: string }).mode);
    expect(modes).toEqual(Array(6).fill('force_generic_plan'));
  });
});
