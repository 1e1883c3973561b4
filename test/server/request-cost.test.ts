// Issue 15: a few KB of query must not hang the server or exhaust PostgreSQL. The fragment bomb,
// the alias flood and deep nesting are refused before planning and before any SQL, fast, for
// every role (admin too), while /healthz stays answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { aliasFlood, fragmentBomb, LIMITS_SCHEMA, nested, startLimitsServer, type LimitsServer } from './limits-helpers.js';

let db: TestDatabase;
let k: LimitsServer;

beforeAll(async () => {
  db = await createTestDatabase('reqcost', LIMITS_SCHEMA);
  k = await startLimitsServer({ databaseUrl: db.url });
}, 60_000);

afterAll(async () => {
  await k?.close();
  await db?.drop();
});

const error = (body: any): { message: string; code: string } => ({ message: body.errors?.[0]?.message, code: body.errors?.[0]?.extensions?.code });

describe('the cost of a request is checked before planning', () => {
  it("refuses the 29-level fragment bomb of issue 15 at once, for a role and for admin, running no SQL and planning nothing", async () => {
    const text = fragmentBomb(29);
    expect(text.length).toBeLessThan(3000);
    const before = { statements: k.statements(), plans: k.engine.stats.plans };
    for (const role of ['user', 'admin']) {
      const start = performance.now();
      const r = await k.post({ query: text }, role);
      expect(performance.now() - start).toBeLessThan(1000);
      expect(r.status).toBe(200);
      expect(error(r.body)).toEqual({ code: 'validation-failed', message: 'the query nests fields more than 50 deep; the server allows 50' });
    }
    // Twenty levels stay under the depth cap: the expanded size refuses it.
    const r = await k.post({ query: fragmentBomb(20) }, 'user');
    expect(error(r.body)).toEqual({ code: 'validation-failed', message: `the query has ${3 * 2 ** 20 - 1} fields once its fragments are expanded; the server allows 10000` });
    expect({ statements: k.statements(), plans: k.engine.stats.plans }).toEqual(before);
  });

  it('answers /healthz and other queries while bombs arrive', async () => {
    const bombs = Array.from({ length: 20 }, () => k.post({ query: fragmentBomb(24) }, 'user'));
    const health = await fetch(`${k.url}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, 'OK']);
    const ok = await k.post({ query: '{ author(order_by: {id: asc}) { name } }' }, 'user');
    expect(ok.body).toEqual({ data: { author: [{ name: 'Ann' }, { name: 'Bo' }] } });
    for (const r of await Promise.all(bombs)) expect(error(r.body).code).toBe('validation-failed');
  });

  it('refuses the alias flood (3,000 root selections) before it reaches PostgreSQL, and serves 1,000', async () => {
    const before = k.statements();
    const r = await k.post({ query: aliasFlood(3000) }, 'user');
    expect(error(r.body)).toEqual({ code: 'validation-failed', message: 'the query has 3000 selections once its fragments are expanded; the server allows 1000' });
    expect(k.statements()).toBe(before);
    const fine = await k.post({ query: aliasFlood(1000) }, 'user');
    expect(Object.keys(fine.body.data)).toHaveLength(1000);
  });

  it('answers 500 nested selections with a clear error, not an internal error, and serves 50 fields deep', async () => {
    const r = await k.post({ query: nested(500) }, 'user');
    expect(error(r.body)).toEqual({ code: 'validation-failed', message: 'the query nests fields more than 50 deep; the server allows 50' });
    // 49 selections and the leaf inside them: 50 fields deep.
    const deepest = await k.post({ query: nested(49) }, 'user');
    expect(deepest.body.errors).toBeUndefined();
    expect(JSON.stringify(deepest.body.data)).toContain('"articles"');
  });

  it('checks every element of a batch on its own', async () => {
    const r = await k.post([{ query: fragmentBomb(29) }, { query: '{ author(limit: 1, order_by: {id: asc}) { id } }' }], 'user');
    expect(r.body).toHaveLength(2);
    expect(error(r.body[0]).code).toBe('validation-failed');
    expect(r.body[1]).toEqual({ data: { author: [{ id: 1 }] } });
  });
});

describe('caps set for the server', () => {
  it('uses the caps it is given (SVC_GRAPHQL_MAX_QUERY_*), for admin too', async () => {
    const small = await startLimitsServer({ databaseUrl: db.url, caps: { maxFields: 6, maxNodes: 2, maxDepth: 3 } });
    try {
      expect(error((await small.post({ query: '{ a: author { id } b: author { id } c: author { id } }' })).body).message)
        .toBe('the query has 3 selections once its fragments are expanded; the server allows 2');
      expect(error((await small.post({ query: '{ author { id name a: id b: name c: id d: id } }' })).body).message)
        .toBe('the query has 7 fields once its fragments are expanded; the server allows 6');
      expect(error((await small.post({ query: nested(4) })).body).message).toBe('the query nests fields more than 3 deep; the server allows 3');
      expect((await small.post({ query: '{ a: author(order_by: {id: asc}, limit: 1) { id } b: author(order_by: {id: asc}, limit: 1) { name } }' })).body)
        .toEqual({ data: { a: [{ id: 1 }], b: [{ name: 'Ann' }] } });
    } finally {
      await small.close();
    }
  });
});
