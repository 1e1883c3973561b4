// Event trigger delivery on a real PostgreSQL with real webhooks: events are written straight into
// svc_catalog.event_log (as the capture triggers write them) and the workers deliver them.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import {
  DEFAULT_WORKER_SETTINGS, ensureSourceEventCatalog, HttpPool, startEventWorkers, type EventWorkers, type WorkerSettings,
} from '../../runtime/workers/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { loseAnswers } from '../helpers/lost-answer.js';
import { eventually, freePort, startWebhook, type Webhook } from './webhook-server.js';

const FAST: WorkerSettings = { ...DEFAULT_WORKER_SETTINGS, fetchIntervalMs: 100, gracefulShutdownMs: 2000 };

interface TriggerSpec {
  readonly name: string;
  readonly webhook?: string;
  readonly webhook_from_env?: string;
  readonly retry_conf?: { num_retries?: number; interval_sec?: number; timeout_sec?: number };
  readonly headers?: readonly unknown[];
  readonly request_transform?: unknown;
}

function metadataWith(triggers: readonly TriggerSpec[]): any {
  return {
    version: 3,
    sources: [{
      name: 'default', kind: 'postgres', configuration: {},
      tables: [{ table: { schema: 'public', name: 'author' }, event_triggers: triggers.map((t) => ({
        definition: { enable_manual: true, insert: { columns: '*' } },
        retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60, ...t.retry_conf },
        ...t,
      })) }],
    }],
  };
}

describe('event trigger delivery', () => {
  let db: TestDatabase;
  let driver: Driver;
  const running: { workers: EventWorkers; pool: HttpPool }[] = [];
  const hooks: Webhook[] = [];
  const logs: string[] = [];

  const start = (metadata: unknown, settings: WorkerSettings = FAST, d: Driver = driver): EventWorkers => {
    const pool = new HttpPool(settings.httpPoolSize, 'svc-graphql-engine/test');
    const workers = startEventWorkers({
      current: () => ({ metadata: metadata as never, drivers: new Map([['default', d]]) }), pool, settings,
      log: (l) => logs.push(l), env: { ...process.env, EVENT_SECRET: 's3cret', HOOK_URL: '' },
    });
    running.push({ workers, pool });
    return workers;
  };
  const hook = async (...args: Parameters<typeof startWebhook>): Promise<Webhook> => {
    const h = await startWebhook(...args);
    hooks.push(h);
    return h;
  };
  /** Writes `n` events as the capture would; `lockedAgoSec` claims them that long ago. */
  const insertEvents = async (trigger: string, n: number, lockedAgoSec: number | null = null): Promise<string[]> => {
    const rows = await db.query<{ id: string }>(
      `INSERT INTO svc_catalog.event_log (schema_name, table_name, trigger_name, payload, locked)
       SELECT 'public', 'author', $1, jsonb_build_object('op', 'INSERT', 'data', jsonb_build_object('old', null, 'new',
         jsonb_build_object('id', i, 'big', 9007199254740993, 'name', 'n' || i)), 'session_variables',
         jsonb_build_object('x-svc-role', 'user', 'x-svc-user-id', '7'), 'trace_context', null),
         CASE WHEN $3::float8 IS NULL THEN NULL ELSE now() - make_interval(secs => $3::float8) END
       FROM generate_series(1, $2::int) i RETURNING id`, [trigger, n, lockedAgoSec]);
    return rows.map((r) => r.id);
  };
  const eventRow = async (id: string) => (await db.query<any>(
    'SELECT delivered, error, tries, locked, next_retry_at, archived FROM svc_catalog.event_log WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    db = await createTestDatabase('evdeliver', 'CREATE TABLE author (id int PRIMARY KEY, name text)');
    driver = createPgDriver({ url: db.url, max: 6 });
    await ensureSourceEventCatalog(driver);
  });
  afterEach(async () => {
    for (const r of running.splice(0)) {
      await r.workers.stop();
      await r.pool.close();
    }
    for (const h of hooks.splice(0)) await h.close();
    await db.exec('DELETE FROM svc_catalog.event_invocation_logs; DELETE FROM svc_catalog.event_log');
  });
  afterAll(async () => {
    await driver?.close();
    await db?.drop();
  });

  it('posts the event body with the engine and configured headers, marks 2xx delivered and logs the call', async () => {
    const h = await hook(() => ({ status: 200, body: '{"ok":true}' }));
    const [id] = await insertEvents('t_ok', 1);
    start(metadataWith([{ name: 't_ok', webhook: `${h.url}/hook`, retry_conf: { num_retries: 2 },
      headers: [{ name: 'X-Static', value: 'v' }, { name: 'X-Secret', value_from_env: 'EVENT_SECRET' }] }]));
    const [req] = await h.waitFor(1);
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/hook');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['user-agent']).toBe('svc-graphql-engine/test');
    expect(req!.headers['x-static']).toBe('v');
    expect(req!.headers['x-secret']).toBe('s3cret');
    expect(Object.keys(req!.body)).toEqual(['id', 'created_at', 'trigger', 'table', 'event', 'delivery_info']);
    expect(req!.body).toMatchObject({
      id, trigger: { name: 't_ok' }, table: { schema: 'public', name: 'author' },
      event: { op: 'INSERT', data: { old: null, new: { id: 1, name: 'n1' } }, session_variables: { 'x-svc-role': 'user', 'x-svc-user-id': '7' }, trace_context: null },
      delivery_info: { max_retries: 2, current_retry: 0 },
    });
    expect(req!.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    // The payload goes out as the database printed it: a bigint past 2^53 keeps its digits.
    expect(req!.text).toContain('9007199254740993');
    const row = await eventually(async () => { const r = await eventRow(id!); return r.delivered ? r : undefined; });
    expect(row).toMatchObject({ delivered: true, error: false, tries: 1, locked: null });
    const [log] = await db.query<any>('SELECT trigger_name, status, request, response FROM svc_catalog.event_invocation_logs WHERE event_id = $1', [id]);
    expect(log.trigger_name).toBe('t_ok');
    expect(log.status).toBe(200);
    expect(log.request.version).toBe('2');
    expect(log.request.payload.id).toBe(id);
    expect(log.request.headers).toContainEqual({ name: 'X-Static', value: 'v' });
    expect(log.response).toMatchObject({ type: 'webhook_response', version: '2', data: { status: 200, body: '{"ok":true}' } });
  });

  it('retries a failing webhook every interval_sec, counting current_retry, then marks the event error', async () => {
    const h = await hook(() => ({ status: 500, body: 'boom' }));
    const [id] = await insertEvents('t_fail', 1);
    start(metadataWith([{ name: 't_fail', webhook: h.url, retry_conf: { num_retries: 2, interval_sec: 1 } }]));
    const calls = await h.waitFor(3, 8000);
    expect(calls.map((c) => c.body.delivery_info.current_retry)).toEqual([0, 1, 2]);
    for (const [a, b] of [[0, 1], [1, 2]] as const) {
      const gap = calls[b]!.at - calls[a]!.at;
      expect(gap).toBeGreaterThanOrEqual(900);
      expect(gap).toBeLessThan(3000);
    }
    const row = await eventually(async () => { const r = await eventRow(id!); return r.error ? r : undefined; });
    expect(row).toMatchObject({ delivered: false, error: true, tries: 3, locked: null });
    const logs = await db.query<any>('SELECT status, response FROM svc_catalog.event_invocation_logs WHERE event_id = $1', [id]);
    expect(logs.map((l) => l.status)).toEqual([500, 500, 500]);
    expect(logs[0].response.data.body).toBe('boom');
    await new Promise((r) => setTimeout(r, 1300));
    expect(h.received).toHaveLength(3);
  });

  it('gives up on a webhook slower than timeout_sec and logs a client error', async () => {
    const h = await hook(() => ({ status: 200, delayMs: 4000 }));
    const [id] = await insertEvents('t_slow', 1);
    start(metadataWith([{ name: 't_slow', webhook: h.url, retry_conf: { num_retries: 0, timeout_sec: 1 } }]));
    const t0 = Date.now();
    const row = await eventually(async () => { const r = await eventRow(id!); return r.error ? r : undefined; }, 5000);
    expect(Date.now() - t0).toBeLessThan(3500);
    expect(row).toMatchObject({ delivered: false, error: true, tries: 1 });
    const [log] = await db.query<any>('SELECT status, response FROM svc_catalog.event_invocation_logs WHERE event_id = $1', [id]);
    expect(log.status).toBeNull();
    expect(log.response.type).toBe('client_error');
    expect(log.response.data.message).toContain('timeout_sec');
  });

  it('delivers to a webhook that was down at first and came up before the next retry', async () => {
    const port = await freePort();
    const [id] = await insertEvents('t_down', 1);
    start(metadataWith([{ name: 't_down', webhook: `http://127.0.0.1:${port}/in`, retry_conf: { num_retries: 3, interval_sec: 1 } }]));
    await eventually(async () => ((await eventRow(id!)).tries >= 1 ? true : undefined));
    const h = await hook(() => ({ status: 200 }), port);
    await h.waitFor(1, 5000);
    const row = await eventually(async () => { const r = await eventRow(id!); return r.delivered ? r : undefined; });
    expect(row.error).toBe(false);
    const logs = await db.query<any>('SELECT status, response FROM svc_catalog.event_invocation_logs WHERE event_id = $1 ORDER BY created_at', [id]);
    expect(logs[0].status).toBeNull();
    expect(logs[0].response.data.message).toContain('ECONNREFUSED');
    expect(logs.at(-1).status).toBe(200);
  });

  it('waits Retry-After seconds before the next try, even with no retries configured', async () => {
    const h = await hook((_, i) => (i === 0 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 }));
    const [id] = await insertEvents('t_later', 1);
    start(metadataWith([{ name: 't_later', webhook: h.url, retry_conf: { num_retries: 0, interval_sec: 30 } }]));
    const calls = await h.waitFor(2, 6000);
    const gap = calls[1]!.at - calls[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(1800);
    expect(gap).toBeLessThan(4000);
    const row = await eventually(async () => { const r = await eventRow(id!); return r.delivered ? r : undefined; });
    expect(row.tries).toBe(2);
  });

  it('fetches only the triggers of the served metadata, and takes over a lock older than the lock timeout', async () => {
    const h = await hook();
    const [gone] = await insertEvents('t_gone', 1);
    const [stale] = await insertEvents('t_here', 1, 7200);
    const [fresh] = await insertEvents('t_here', 1, 0);
    const [free] = await insertEvents('t_here', 1);
    start(metadataWith([{ name: 't_here', webhook: h.url }]), { ...FAST, lockTimeoutSec: 3600 });
    await h.waitFor(2);
    await new Promise((r) => setTimeout(r, 400));
    expect(h.received.map((r) => r.body.id).sort()).toEqual([stale, free].sort());
    expect((await eventRow(gone!)).delivered).toBe(false);
    expect((await eventRow(fresh!)).delivered).toBe(false);
  });

  it('puts back at once the events of a fetch that committed but whose answer was lost, instead of leaving them to the lock timeout', async () => {
    const h = await hook();
    const ids = await insertEvents('t_lost', 5);
    const losing = loseAnswers(driver, (text) => text.startsWith('\nUPDATE svc_catalog.event_log SET locked = now()'));
    start(metadataWith([{ name: 't_lost', webhook: h.url }]), { ...FAST, lockTimeoutSec: 600 }, losing.driver);
    // The lost fetch claimed all five; with a ten-minute lock timeout only the put-back sends them now.
    await h.waitFor(5, 5000);
    expect(losing.lost()).toBe(1);
    await eventually(async () => ((await Promise.all(ids.map(eventRow))).every((r) => r.delivered) ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(h.received.map((r) => r.body.id).sort()).toEqual([...ids].sort());
    expect(logs.some((l) => l.includes('cannot fetch events: Connection terminated unexpectedly'))).toBe(true);
  });

  it('leaves alone the claims of another fetch when it puts back a lost one', async () => {
    const h = await hook();
    const [other] = await insertEvents('t_mine', 1, 0);
    await db.query(`UPDATE svc_catalog.event_log SET claim_id = 'someone-else' WHERE id = $1`, [other]);
    const mine = await insertEvents('t_mine', 2);
    const losing = loseAnswers(driver, (text) => text.startsWith('\nUPDATE svc_catalog.event_log SET locked = now()'));
    start(metadataWith([{ name: 't_mine', webhook: h.url }]), { ...FAST, lockTimeoutSec: 600 }, losing.driver);
    await h.waitFor(2, 5000);
    await new Promise((r) => setTimeout(r, 400));
    expect(h.received.map((r) => r.body.id).sort()).toEqual([...mine].sort());
    const row = await eventRow(other!);
    expect(row.delivered).toBe(false);
    expect(row.locked).not.toBeNull();
  });

  it('applies the request transform of the trigger', async () => {
    const h = await hook();
    await insertEvents('t_tr', 1);
    start(metadataWith([{ name: 't_tr', webhook: h.url, request_transform: {
      version: 2, template_engine: 'Kriti', method: 'PUT', url: '{{$base_url}}/users/{{$body.event.data.new.id}}',
      body: { action: 'transform', template: '{"who": {{$session_variables["x-svc-user-id"]}}, "name": {{$body.event.data.new.name}}}' },
    } }]));
    const [req] = await h.waitFor(1);
    expect(req!.method).toBe('PUT');
    expect(req!.url).toBe('/users/1');
    expect(req!.body).toEqual({ who: '7', name: 'n1' });
  });

  it('never delivers one event twice from two workers sharing the database', async () => {
    const h = await hook(() => ({ status: 200, delayMs: Math.floor(Math.random() * 5) }));
    const ids = await insertEvents('t_many', 400);
    const md = metadataWith([{ name: 't_many', webhook: h.url }]);
    const other = createPgDriver({ url: db.url, max: 4 });
    try {
      const small = { ...FAST, httpPoolSize: 8, fetchBatchSize: 20, fetchIntervalMs: 20 };
      start(md, small);
      start(md, small, other);
      await h.waitFor(400, 20_000);
      await eventually(async () => {
        const [c] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_catalog.event_log WHERE delivered');
        return c!.n === 400 ? true : undefined;
      }, 10_000);
      await new Promise((r) => setTimeout(r, 300));
      const seen = h.received.map((r) => r.body.id as string);
      expect(seen).toHaveLength(400);
      expect(new Set(seen).size).toBe(400);
      expect(new Set(seen)).toEqual(new Set(ids));
      const [logs] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_catalog.event_invocation_logs');
      expect(logs!.n).toBe(400);
    } finally {
      for (const r of running.splice(0)) {
        await r.workers.stop();
        await r.pool.close();
      }
      await other.close();
    }
  });

  it('leaves pending, not failed, the events of a trigger whose webhook_from_env is unset here', async () => {
    const h = await hook();
    const [waiting] = await insertEvents('t_noenv', 1);
    const [sent] = await insertEvents('t_env', 1);
    process.env.KILN_TEST_EVENT_HOOK = h.url;
    try {
      start(metadataWith([{ name: 't_noenv', webhook_from_env: 'KILN_TEST_UNSET_HOOK' }, { name: 't_env', webhook_from_env: 'KILN_TEST_EVENT_HOOK' }]));
      await h.waitFor(1, 5000);
      await new Promise((r) => setTimeout(r, 500));
      expect(h.received.map((r) => r.body.id)).toEqual([sent]);
      expect(await eventRow(waiting!)).toMatchObject({ delivered: false, error: false, tries: 0, locked: null });
      expect(logs.some((l) => l.includes('KILN_TEST_UNSET_HOOK is not set'))).toBe(true);
    } finally {
      delete process.env.KILN_TEST_EVENT_HOOK;
    }
  });

  it('renews the claims of calls in flight, so a call longer than the lock timeout is not started again elsewhere', async () => {
    const h = await hook(() => ({ status: 200, delayMs: 3500 }));
    const [id] = await insertEvents('t_slow', 1);
    const md = metadataWith([{ name: 't_slow', webhook: h.url, retry_conf: { timeout_sec: 10 } }]);
    const other = createPgDriver({ url: db.url, max: 2 });
    try {
      // Claims lapse after 1 s unless renewed (every third of a second); the call takes 3.5 s.
      const short = { ...FAST, lockTimeoutSec: 1, fetchIntervalMs: 50 };
      start(md, short);
      await eventually(async () => ((await eventRow(id!)).locked ? true : undefined), 5000);
      start(md, short, other);
      await h.waitFor(1, 10_000);
      await eventually(async () => ((await eventRow(id!)).delivered ? true : undefined), 5000);
      await new Promise((r) => setTimeout(r, 500));
      expect(h.received.map((r) => r.body.id)).toEqual([id]);
    } finally {
      for (const r of running.splice(0)) {
        await r.workers.stop();
        await r.pool.close();
      }
      await other.close();
    }
  });

  it('on shutdown lets calls in flight finish within the grace period and unlocks the events it claimed but did not send', async () => {
    const h = await hook(() => ({ status: 200, delayMs: 300 }));
    const ids = await insertEvents('t_stop', 10);
    const workers = start(metadataWith([{ name: 't_stop', webhook: h.url }]), { ...FAST, httpPoolSize: 2, fetchBatchSize: 10, gracefulShutdownMs: 3000 });
    await h.waitFor(2);
    const [locked] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_catalog.event_log WHERE locked IS NOT NULL');
    expect(locked!.n).toBe(10);
    await workers.stop();
    const rows = await db.query<any>('SELECT id, delivered, locked, tries FROM svc_catalog.event_log WHERE id = ANY($1)', [ids]);
    const delivered = rows.filter((r) => r.delivered);
    expect(delivered.length).toBe(h.received.length);
    expect(delivered.length).toBeGreaterThanOrEqual(2);
    expect(delivered.length).toBeLessThan(10);
    expect(rows.every((r) => r.locked === null)).toBe(true);
    expect(rows.filter((r) => !r.delivered).every((r) => r.tries === 0)).toBe(true);
  });

  it('on shutdown past the grace period cuts off calls in flight and puts their events back', async () => {
    const h = await hook(() => ({ status: 200, delayMs: 10_000 }));
    const ids = await insertEvents('t_hang', 3);
    const workers = start(metadataWith([{ name: 't_hang', webhook: h.url }]), { ...FAST, httpPoolSize: 5, gracefulShutdownMs: 300 });
    await h.waitFor(3);
    const t0 = Date.now();
    await workers.stop();
    expect(Date.now() - t0).toBeLessThan(3000);
    const rows = await db.query<any>('SELECT delivered, error, locked, tries FROM svc_catalog.event_log WHERE id = ANY($1)', [ids]);
    expect(rows).toEqual(ids.map(() => ({ delivered: false, error: false, locked: null, tries: 0 })));
    const [logs] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_catalog.event_invocation_logs');
    expect(logs!.n).toBe(0);
  });
});

describe('event catalog of an earlier Kiln', () => {
  it('gains the claim_id column when a catalog made without it is ensured, and ensuring again changes nothing', async () => {
    const db = await createTestDatabase('evcatold', `CREATE SCHEMA svc_catalog;
      CREATE TABLE svc_catalog.event_log (id text PRIMARY KEY, schema_name text NOT NULL, table_name text NOT NULL,
        trigger_name text NOT NULL, payload jsonb NOT NULL, delivered boolean NOT NULL DEFAULT false,
        error boolean NOT NULL DEFAULT false, tries integer NOT NULL DEFAULT 0, created_at timestamp DEFAULT now(),
        locked timestamptz, next_retry_at timestamp, archived boolean NOT NULL DEFAULT false);
      INSERT INTO svc_catalog.event_log (id, schema_name, table_name, trigger_name, payload) VALUES ('e1', 'public', 't', 'tr', '{}');`);
    const driver = createPgDriver({ url: db.url, max: 2 });
    try {
      const columns = async (): Promise<string[]> => (await db.query<{ c: string }>(
        `SELECT attname AS c FROM pg_attribute WHERE attrelid = 'svc_catalog.event_log'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`)).map((r) => r.c);
      await ensureSourceEventCatalog(driver);
      expect(await columns()).toEqual(['id', 'schema_name', 'table_name', 'trigger_name', 'payload', 'delivered', 'error',
        'tries', 'created_at', 'locked', 'next_retry_at', 'archived', 'claim_id']);
      await ensureSourceEventCatalog(driver);
      expect((await columns()).filter((c) => c === 'claim_id')).toHaveLength(1);
      expect(await db.query('SELECT id, claim_id FROM svc_catalog.event_log')).toEqual([{ id: 'e1', claim_id: null }]);
    } finally {
      await driver.close();
      await db.drop();
    }
  });
});
