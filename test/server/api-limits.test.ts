// Hasura's API limits (set_api_limits) and introspection options, compiled into the bundle model
// and enforced over real sockets: HTTP and WebSocket, global and per-role values, admin exempt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { Client } from '../subscriptions/helpers.js';
import { LIMITS_SCHEMA, limitsMetadata, nested, startLimitsServer, type LimitsServer } from './limits-helpers.js';

let db: TestDatabase;
const servers: LimitsServer[] = [];

beforeAll(async () => {
  db = await createTestDatabase('apilimits', LIMITS_SCHEMA);
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  await db?.drop();
});

async function serve(extra: Record<string, unknown>): Promise<LimitsServer> {
  const s = await startLimitsServer({ databaseUrl: db.url, metadata: limitsMetadata(extra) });
  servers.push(s);
  return s;
}

const error = (body: any): { message: string; code: string } => ({ message: body.errors?.[0]?.message, code: body.errors?.[0]?.extensions?.code });
const DEPTH = { code: 'validation-failed', message: 'The depth limit has been exceeded for this query' };
const NODES = { code: 'validation-failed', message: 'The node limit has been exceeded for this query' };
const BATCH = { code: 'validation-failed', message: 'The batch limit has been exceeded for this request' };
const aliases = (n: number): string => `{ ${Array.from({ length: n }, (_, i) => `a${i}: author(limit: 1) { id }`).join(' ')} }`;

describe('depth, node and batch limits', () => {
  let k: LimitsServer;
  beforeAll(async () => {
    k = await serve({ api_limits: {
      disabled: false,
      depth_limit: { global: 3, per_role: { editor: 1 } },
      node_limit: { global: 4, per_role: { editor: 2 } },
      batch_limit: { global: 2, per_role: { editor: 1 } },
    } });
  });

  it('applies the global depth limit to a role without its own, and the per-role one to a role with one', async () => {
    expect((await k.post({ query: nested(3) }, 'user')).body.errors).toBeUndefined();
    expect(error((await k.post({ query: nested(4) }, 'user')).body)).toEqual(DEPTH);
    expect((await k.post({ query: '{ author(limit: 1) { id } }' }, 'editor')).body).toEqual({ data: { author: [{ id: 1 }] } });
    expect(error((await k.post({ query: nested(2) }, 'editor')).body)).toEqual(DEPTH);
  });

  it('counts depth through fragments, but not through inline fragments or leaves', async () => {
    const viaFragment = '{ author { ...A } } fragment A on author { articles { ... on article { author { articles { id } } } } }';
    expect(error((await k.post({ query: viaFragment }, 'user')).body)).toEqual(DEPTH);
    expect((await k.post({ query: '{ author { ... on author { id name } } }' }, 'editor')).body.errors).toBeUndefined();
  });

  it('applies the node limit (fields with a selection set), globally and per role', async () => {
    expect((await k.post({ query: aliases(4) }, 'user')).body.errors).toBeUndefined();
    expect(error((await k.post({ query: aliases(5) }, 'user')).body)).toEqual(NODES);
    expect((await k.post({ query: aliases(2) }, 'editor')).body.errors).toBeUndefined();
    expect(error((await k.post({ query: aliases(3) }, 'editor')).body)).toEqual(NODES);
  });

  it('applies the batch limit to a whole batched request, globally and per role', async () => {
    const one = { query: '{ author(limit: 1) { id } }' };
    const two = await k.post([one, one], 'user');
    expect(two.body).toEqual([{ data: { author: [{ id: 1 }] } }, { data: { author: [{ id: 1 }] } }]);
    const three = await k.post([one, one, one], 'user');
    expect([three.status, error(three.body)]).toEqual([200, BATCH]);
    expect(error((await k.post([one, one], 'editor')).body)).toEqual(BATCH);
    // /v1alpha1/graphql answers a refused request with its status.
    expect((await k.post([one, one], 'editor', {}, '/v1alpha1/graphql')).status).toBe(400);
  });

  it('never limits admin', async () => {
    expect((await k.post({ query: nested(6) })).body.errors).toBeUndefined();
    expect((await k.post({ query: aliases(8) })).body.errors).toBeUndefined();
    const batch = await k.post(Array.from({ length: 5 }, () => ({ query: '{ author(limit: 1) { id } }' })));
    expect(batch.body).toHaveLength(5);
  });

  it('applies the limits on the WebSocket path: queries and subscription starts', async () => {
    for (const protocol of ['graphql-transport-ws', 'graphql-ws'] as const) {
      const c = await Client.open(k.wsUrl, protocol);
      try {
        await c.init({ 'x-svc-role': 'editor' });
        const start = protocol === 'graphql-transport-ws' ? 'subscribe' : 'start';
        c.send({ type: start, id: 'deep', payload: { query: `subscription ${nested(2)}` } });
        const refused = await c.next((m) => m.id === 'deep');
        expect(JSON.stringify(refused.payload)).toContain(DEPTH.message);
        c.send({ type: start, id: 'q', payload: { query: `query ${nested(2)}` } });
        const q = await c.next((m) => m.id === 'q');
        expect(JSON.stringify(q.payload)).toContain(DEPTH.message);
        c.send({ type: start, id: 'ok', payload: { query: 'subscription { author(order_by: {id: asc}, limit: 1) { name } }' } });
        const ok = await c.next((m) => m.id === 'ok');
        expect(ok.payload).toEqual({ data: { author: [{ name: 'Ann' }] } });
      } finally {
        c.close();
      }
    }
  });
});

describe('disabled limits', () => {
  it('enforces nothing when api_limits.disabled is true', async () => {
    const k = await serve({ api_limits: { disabled: true, depth_limit: { global: 1 }, node_limit: { global: 1 } } });
    expect((await k.post({ query: nested(3) }, 'user')).body.errors).toBeUndefined();
  });
});

describe('rate limits', () => {
  let k: LimitsServer;
  beforeAll(async () => {
    k = await serve({
      api_limits: { rate_limit: {
        global: { max_reqs_per_min: 3, unique_params: 'IP' },
        per_role: { editor: { max_reqs_per_min: 2, unique_params: ['x-svc-user-id'] } },
      } },
      query_collections: [{ name: 'c', definition: { queries: [{ name: 'first', query: 'query first { author(limit: 1, order_by: {id: asc}) { id } }' }] } }],
      rest_endpoints: [{ name: 'first', url: 'first', methods: ['GET'], definition: { query: { collection_name: 'c', query_name: 'first' } } }],
    });
  });
  const q = { query: '{ author(limit: 1) { id } }' };

  it('answers 429 Too many requests past the global limit, counting every operation of a batch', async () => {
    expect((await k.post([q, q], 'user')).status).toBe(200);
    expect((await k.post(q, 'user')).status).toBe(200);
    const refused = await k.post(q, 'user');
    expect(refused).toEqual({ status: 429, body: { errors: [{ message: 'Too many requests', extensions: { path: '$', code: 'too-many-requests' } }] } });
  });

  it('counts per role and per session variable for a per-role limit, and never for admin', async () => {
    const as = (id: string) => ({ 'x-svc-user-id': id });
    expect((await k.post(q, 'editor', as('1'))).status).toBe(200);
    expect((await k.post(q, 'editor', as('1'))).status).toBe(200);
    expect((await k.post(q, 'editor', as('1'))).status).toBe(429);
    expect((await k.post(q, 'editor', as('2'))).status).toBe(200);
    for (let i = 0; i < 6; i++) expect((await k.post(q)).status).toBe(200);
  });

  it('counts REST endpoint calls', async () => {
    const call = () => fetch(`${k.url}/api/rest/first`, { headers: { 'x-svc-role': 'editor', 'x-svc-user-id': '9' } });
    const first = await call();
    expect([first.status, await first.json()]).toEqual([200, { author: [{ id: 1 }] }]);
    expect((await call()).status).toBe(200);
    const refused = await call();
    expect([refused.status, await refused.json()]).toEqual([429, { path: '$', error: 'Too many requests', code: 'too-many-requests' }]);
  });

  it('counts subscription and query starts over WebSocket', async () => {
    const c = await Client.open(k.wsUrl, 'graphql-transport-ws');
    try {
      await c.init({ 'x-svc-role': 'editor', 'x-svc-user-id': '3' });
      c.send({ type: 'subscribe', id: 's1', payload: { query: 'subscription { author(limit: 1) { id } }' } });
      expect((await c.next((m) => m.id === 's1')).type).toBe('next');
      c.send({ type: 'subscribe', id: 'q1', payload: q });
      expect((await c.next((m) => m.id === 'q1')).type).toBe('next');
      c.send({ type: 'subscribe', id: 's2', payload: { query: 'subscription { author(limit: 1) { id } }' } });
      expect(await c.next((m) => m.id === 's2')).toEqual({ type: 'error', id: 's2', payload: [{ message: 'Too many requests', extensions: { path: '$', code: 'too-many-requests' } }] });
    } finally {
      c.close();
    }
  });
});

describe('time limits', () => {
  it('cancels the statement of an operation past the role\'s time limit and keeps serving on the same pool', async () => {
    const k = await serve({ api_limits: { time_limit: { global: 5, per_role: { editor: 0.3 } } } });
    const slow = { query: '{ slow_author(args: {seconds: 3}) { id } }' };
    const start = performance.now();
    const r = await k.post(slow, 'editor');
    const took = performance.now() - start;
    expect(error(r.body)).toEqual({ code: 'time-limit-exceeded', message: 'The time limit has been exceeded for this query' });
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2500);
    // The pool of 4 connections is whole: more queries than connections still run.
    const after = await Promise.all(Array.from({ length: 6 }, () => k.post({ query: '{ slow_author(args: {seconds: 0.05}) { id } }' }, 'editor')));
    for (const a of after) expect(a.body).toEqual({ data: { slow_author: [{ id: 1 }, { id: 2 }] } });
    // The global limit (5 s) lets another role's slower query finish; admin has none.
    expect((await k.post({ query: '{ slow_author(args: {seconds: 0.5}) { id } }' }, 'user')).body.errors).toBeUndefined();
    expect((await k.post({ query: '{ slow_author(args: {seconds: 0.5}) { id } }' })).body.errors).toBeUndefined();
  });

  it('cancels a mutation past the time limit and rolls it back', async () => {
    const k = await serve({ api_limits: { time_limit: { per_role: { editor: 0.3 } } } });
    const insert = (id: number, title: string) => k.post({ query: `mutation { insert_article_one(object: {id: ${id}, author_id: 1, title: "${title}"}) { id } }` }, 'editor');
    expect(error((await insert(10, 'slow')).body)).toEqual({ code: 'time-limit-exceeded', message: 'The time limit has been exceeded for this query' });
    expect((await insert(11, 'fast')).body).toEqual({ data: { insert_article_one: { id: 11 } } });
    expect(await db.query('SELECT id FROM article WHERE id >= 10 ORDER BY id')).toEqual([{ id: 11 }]);
    await db.exec('DELETE FROM article WHERE id >= 10');
  });
});

describe('introspection options', () => {
  it('refuses __schema and __type to a role listed in disabled_for_roles, on HTTP and WebSocket, and allows __typename', async () => {
    const k = await serve({ graphql_schema_introspection: { disabled_for_roles: ['editor'] } });
    const introspect = { query: '{ __schema { queryType { name } } }' };
    const refused = { code: 'not-supported', message: 'introspection is disabled for role: "editor"' };
    expect(error((await k.post(introspect, 'editor')).body)).toEqual(refused);
    expect(error((await k.post({ query: '{ __type(name: "author") { name } }' }, 'editor')).body)).toEqual(refused);
    expect((await k.post({ query: '{ __typename author(limit: 1) { __typename id } }' }, 'editor')).body)
      .toEqual({ data: { __typename: 'query_root', author: [{ __typename: 'author', id: 1 }] } });
    expect((await k.post(introspect, 'user')).body).toEqual({ data: { __schema: { queryType: { name: 'query_root' } } } });
    expect((await k.post(introspect)).body).toEqual({ data: { __schema: { queryType: { name: 'query_root' } } } });
    const c = await Client.open(k.wsUrl, 'graphql-transport-ws');
    try {
      await c.init({ 'x-svc-role': 'editor' });
      c.send({ type: 'subscribe', id: 'i', payload: introspect });
      expect(JSON.stringify((await c.next((m) => m.id === 'i')).payload)).toContain(JSON.stringify(refused.message));
    } finally {
      c.close();
    }
  });
});
