// Issue 15: fragments that spread each other twice per level must cost time linear in the text,
// not in the expansion. The cost check refuses such a bomb under the default caps; here the caps
// are raised out of the way so that the checks and the planner themselves are measured. Each
// fragment is checked (check.ts), parsed (validate.ts) and collected (fields.ts) once per
// selection set, so a 24-level bomb (2^25 fields expanded, under 3 KB of text) plans in well
// under a second of work; before, every spread was walked and 20 levels took 88 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { LIMITS_SCHEMA, startLimitsServer, type LimitsServer } from './limits-helpers.js';

let db: TestDatabase;
let k: LimitsServer;

beforeAll(async () => {
  db = await createTestDatabase('fragplan', LIMITS_SCHEMA);
  k = await startLimitsServer({ databaseUrl: db.url, caps: { maxFields: 1e15, maxNodes: 1e15, maxDepth: 100 } });
}, 60_000);

afterAll(async () => {
  await k?.close();
  await db?.drop();
});

// F(i) spreads F(i-1) twice: once in place, once under `a: author { articles { ... } } }`. The
// response key `a` merges across the copies, so the answer is `levels` relationships deep.
function mergingBomb(levels: number): string {
  const frags = ['fragment F0 on article { id title }'];
  for (let i = 1; i <= levels; i++) frags.push(`fragment F${i} on article { ...F${i - 1} a: author { articles { ...F${i - 1} } } }`);
  return `{ article(order_by: {id: asc}) { ...F${levels} } }\n${frags.join('\n')}`;
}

// The same selection written out without fragments.
function written(levels: number): string {
  let inner = 'id title';
  for (let i = 0; i < levels; i++) inner = `id title a: author { articles { ${inner} } }`;
  return `{ article(order_by: {id: asc}) { ${inner} } }`;
}

const explainSql = async (query: string): Promise<string> => {
  const r = await k.post({ query: { query }, user: {} }, 'admin', {}, '/v1/graphql/explain');
  expect(r.status).toBe(200);
  return (r.body as { sql: string }[])[0]!.sql;
};

describe('fragments spread many times', () => {
  it('plans a 24-level doubling bomb in time linear in its text, into the SQL of the query written out', async () => {
    const text = mergingBomb(24);
    expect(text.length).toBeLessThan(3000);
    const started = performance.now();
    const sql = await explainSql(text);
    // Exponential work would be hours (20 levels took 88 s); linear work is milliseconds (the
    // bound leaves room for a loaded machine).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(sql).toBe(await explainSql(written(24)));
  });

  it('answers the bomb as the written-out query, for admin and for a role', async () => {
    for (const role of ['admin', 'user']) {
      const bomb = await k.post({ query: mergingBomb(6) }, role);
      const plain = await k.post({ query: written(6) }, role);
      expect(bomb.body).toEqual(plain.body);
      expect(JSON.stringify(bomb.body)).toContain('"a":{"articles":[{"id":1,"title":"One","a":');
    }
  });

  it('keeps GraphQL merging rules when a fragment is spread again: conflicts are still found, @skip spreads still count', async () => {
    const conflict = await k.post({ query: '{ article { ...A ...B ...A } } fragment A on article { x: id } fragment B on article { x: title }' });
    expect((conflict.body as { errors: { message: string }[] }).errors[0]!.message).toContain('"x"');
    const skipped = await k.post({ query: '{ article(order_by: {id: asc}, limit: 1) { ...A @skip(if: true) ...A } } fragment A on article { id }' });
    expect(skipped.body).toEqual({ data: { article: [{ id: 1 }] } });
  });
});
