// Cron and one-off scheduled events on a real PostgreSQL with real webhooks. The cron tests move
// the workers' clock to just before a minute boundary, so an every-minute trigger fires within
// two seconds of real time.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import {
  DEFAULT_WORKER_SETTINGS, ensureScheduledCatalog, generateCronEvents, cronTriggersOf, HttpPool, nextOccurrences,
  startScheduledWorkers, type ScheduledWorkers, type WorkerSettings,
} from '../../runtime/workers/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { loseAnswers } from '../helpers/lost-answer.js';
import { eventually, startWebhook, type Webhook } from './webhook-server.js';

const FAST: WorkerSettings = { ...DEFAULT_WORKER_SETTINGS, fetchIntervalMs: 100, gracefulShutdownMs: 2000 };

function cronMetadata(triggers: readonly Record<string, unknown>[]): any {
  return { version: 3, sources: [], cron_triggers: triggers.map((t) => ({ include_in_metadata: true, ...t })) };
}

describe('cron and one-off scheduled event delivery', () => {
  let db: TestDatabase;
  let driver: Driver;
  const running: { workers: ScheduledWorkers; pool: HttpPool }[] = [];
  const hooks: Webhook[] = [];

  const start = (metadata: unknown, clock?: () => Date, settings: WorkerSettings = FAST, catalog: Driver = driver): ScheduledWorkers => {
    const pool = new HttpPool(settings.httpPoolSize, 'svc-graphql-engine/test');
    const workers = startScheduledWorkers({ catalog, metadata: () => metadata as never, pool, settings, log: () => undefined, ...(clock ? { clock } : {}) });
    running.push({ workers, pool });
    return workers;
  };
  const hook = async (...args: Parameters<typeof startWebhook>): Promise<Webhook> => {
    const h = await startWebhook(...args);
    hooks.push(h);
    return h;
  };
  const oneOff = async (webhook: string, secondsFromNow: number, retry: Record<string, number> = {}, extra: { payloadJson?: string; comment?: string } = {}): Promise<string> => {
    const [row] = await db.query<{ id: string }>(
      `INSERT INTO svc_catalog.hdb_scheduled_events (webhook_conf, scheduled_time, retry_conf, payload, header_conf, comment)
       VALUES ($1::json, now() + make_interval(secs => $2), $3::json, $4::json, '[]', $5) RETURNING id`,
      [JSON.stringify(webhook), secondsFromNow, JSON.stringify(retry), extra.payloadJson ?? null, extra.comment ?? null]);
    return row!.id;
  };
  const oneOffRow = async (id: string) => (await db.query<any>('SELECT status, tries FROM svc_catalog.hdb_scheduled_events WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    db = await createTestDatabase('evsched');
    driver = createPgDriver({ url: db.url, max: 6 });
    await ensureScheduledCatalog(driver);
  });
  afterEach(async () => {
    for (const r of running.splice(0)) {
      await r.workers.stop();
      await r.pool.close();
    }
    for (const h of hooks.splice(0)) await h.close();
    await db.exec('DELETE FROM svc_catalog.hdb_cron_events; DELETE FROM svc_catalog.hdb_scheduled_events');
  });
  afterAll(async () => {
    await driver?.close();
    await db?.drop();
  });

  it('reads five-field schedules in UTC with croner', () => {
    const from = new Date('2024-01-01T10:07:30Z');
    expect(nextOccurrences('*/15 * * * *', from, 3).map((d) => d.toISOString())).toEqual([
      '2024-01-01T10:15:00.000Z', '2024-01-01T10:30:00.000Z', '2024-01-01T10:45:00.000Z']);
    expect(nextOccurrences('0 9 * * 1', from, 1).map((d) => d.toISOString())).toEqual(['2024-01-08T09:00:00.000Z']);
    expect(() => nextOccurrences('61 * * * *', from, 1)).toThrow();
  });

  it('fires an every-minute cron trigger at the minute with the cron body, keeping 100 events ahead', async () => {
    const h = await hook();
    const now = Date.now();
    const minute = Math.ceil((now + 2000) / 60_000) * 60_000;
    const offset = minute - now - 1500;
    const clock = (): Date => new Date(Date.now() + offset);
    const md = cronMetadata([{ name: 'every_minute', webhook: `${h.url}/cron`, schedule: '* * * * *', payload: { k: 'v' }, comment: 'tick',
      headers: [{ name: 'X-Cron', value: '1' }] }]);
    // The first events come from the metadata change that made the trigger (scheduled-ops' settle).
    await generateCronEvents(driver, cronTriggersOf(md), clock());
    await db.exec(`DELETE FROM svc_catalog.hdb_cron_events WHERE scheduled_time > now() + interval '30 minutes'`);
    start(md, clock);
    const [req] = await h.waitFor(1, 5000);
    const firedAt = req!.at + offset;
    expect(firedAt).toBeGreaterThanOrEqual(minute);
    expect(firedAt - minute).toBeLessThan(2000);
    expect(req!.headers['x-cron']).toBe('1');
    expect(Object.keys(req!.body)).toEqual(['id', 'name', 'scheduled_time', 'payload', 'comment']);
    expect(req!.body).toMatchObject({ name: 'every_minute', scheduled_time: new Date(minute).toISOString().replace('.000Z', 'Z'), payload: { k: 'v' }, comment: 'tick' });
    const row = await eventually(async () => {
      const [r] = await db.query<any>('SELECT status, tries FROM svc_catalog.hdb_cron_events WHERE id = $1', [req!.body.id]);
      return r?.status === 'delivered' ? r : undefined;
    });
    expect(row.tries).toBe(1);
    // The worker topped the trigger up again to 100 future events.
    const [ahead] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM svc_catalog.hdb_cron_events WHERE status = 'scheduled'`);
    expect(ahead!.n).toBeGreaterThanOrEqual(99);
    const [logs] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_catalog.hdb_cron_event_invocation_logs WHERE event_id = $1', [req!.body.id]);
    expect(logs!.n).toBe(1);
  });

  it('tops up only triggers that have events: a trigger whose events a change deleted gets none back', async () => {
    start(cronMetadata([{ name: 'dropped_meanwhile', webhook: 'http://127.0.0.1:1/', schedule: '* * * * *' }]));
    await new Promise((r) => setTimeout(r, 400));
    const [c] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_catalog.hdb_cron_events');
    expect(c!.n).toBe(0);
  });

  it('makes each occurrence once when several generators run at the same time', async () => {
    const triggers = cronTriggersOf(cronMetadata([{ name: 'hourly', webhook: 'http://127.0.0.1:1/', schedule: '0 * * * *' }]));
    const other = createPgDriver({ url: db.url, max: 2 });
    try {
      const now = new Date();
      await Promise.all([generateCronEvents(driver, triggers, now), generateCronEvents(other, triggers, now), generateCronEvents(driver, triggers, now)]);
      await generateCronEvents(other, triggers, now);
    } finally {
      await other.close();
    }
    const [c] = await db.query<{ n: number; d: number }>('SELECT count(*)::int AS n, count(DISTINCT scheduled_time)::int AS d FROM svc_catalog.hdb_cron_events');
    expect(c).toEqual({ n: 100, d: 100 });
  });

  it('marks a cron event dead when it is later than tolerance_seconds, without calling the webhook', async () => {
    const h = await hook();
    const [row] = await db.query<{ id: string }>(
      `INSERT INTO svc_catalog.hdb_cron_events (trigger_name, scheduled_time) VALUES ('late', now() - interval '2 hours') RETURNING id`);
    start(cronMetadata([{ name: 'late', webhook: h.url, schedule: '0 0 1 1 *', retry_conf: { tolerance_seconds: 3600 } }]));
    await eventually(async () => {
      const [r] = await db.query<any>('SELECT status FROM svc_catalog.hdb_cron_events WHERE id = $1', [row!.id]);
      return r.status === 'dead' ? true : undefined;
    });
    expect(h.received).toHaveLength(0);
  });

  it('delivers a one-off event at its time with the one-off body', async () => {
    const h = await hook();
    const id = await oneOff(h.url, 1, {}, { payloadJson: '{"n": 12345678901234567890}', comment: 'once' });
    start({ version: 3, sources: [] });
    const t0 = Date.now();
    const [req] = await h.waitFor(1, 5000);
    expect(req!.at - t0).toBeGreaterThanOrEqual(700);
    expect(Object.keys(req!.body)).toEqual(['id', 'scheduled_time', 'payload', 'comment', 'created_at']);
    expect(req!.body).toMatchObject({ id, comment: 'once' });
    expect(req!.body.scheduled_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(req!.text).toContain('12345678901234567890');
    await eventually(async () => ((await oneOffRow(id)).status === 'delivered' ? true : undefined));
  });

  it('retries a one-off event retry_interval_seconds apart, then marks it error', async () => {
    const h = await hook(() => ({ status: 500 }));
    const id = await oneOff(h.url, 0, { num_retries: 1, retry_interval_seconds: 1 });
    start({ version: 3, sources: [] });
    const calls = await h.waitFor(2, 5000);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(900);
    const row = await eventually(async () => { const r = await oneOffRow(id); return r.status === 'error' ? r : undefined; });
    expect(row.tries).toBe(2);
    const logs = await db.query<any>('SELECT status, request, response FROM svc_catalog.hdb_scheduled_event_invocation_logs WHERE event_id = $1', [id]);
    expect(logs.map((l) => l.status)).toEqual([500, 500]);
    expect(logs[0].request.payload.id).toBe(id);
    expect(logs[0].response.type).toBe('webhook_response');
  });

  it('marks a one-off event dead past its tolerance', async () => {
    const h = await hook();
    const id = await oneOff(h.url, -120, { tolerance_seconds: 60 });
    start({ version: 3, sources: [] });
    await eventually(async () => ((await oneOffRow(id)).status === 'dead' ? true : undefined));
    expect(h.received).toHaveLength(0);
  });

  it('takes over a one-off event whose lock is older than the lock timeout, and leaves a fresh lock alone', async () => {
    const h = await hook();
    const stale = await oneOff(h.url, -10);
    const fresh = await oneOff(h.url, -10);
    await db.query(`UPDATE svc_catalog.hdb_scheduled_events SET status = 'locked', next_retry_at = now() - interval '2 hours' WHERE id = $1`, [stale]);
    await db.query(`UPDATE svc_catalog.hdb_scheduled_events SET status = 'locked', next_retry_at = now() WHERE id = $1`, [fresh]);
    start({ version: 3, sources: [] }, undefined, { ...FAST, lockTimeoutSec: 600 });
    const [req] = await h.waitFor(1);
    expect(req!.body.id).toBe(stale);
    await new Promise((r) => setTimeout(r, 400));
    expect(h.received).toHaveLength(1);
    expect((await oneOffRow(fresh)).status).toBe('locked');
  });

  it('puts back at once a one-off event whose fetch committed but whose answer was lost, instead of leaving it to the lock timeout', async () => {
    const h = await hook();
    const id = await oneOff(h.url, -1);
    const losing = loseAnswers(driver, (text) => text.includes('UPDATE svc_catalog.hdb_scheduled_events SET status = \'locked\''));
    start({ version: 3, sources: [] }, undefined, { ...FAST, lockTimeoutSec: 600 }, losing.driver);
    const [req] = await h.waitFor(1, 5000);
    expect(losing.lost()).toBe(1);
    expect(req!.body.id).toBe(id);
    await eventually(async () => ((await oneOffRow(id)).status === 'delivered' ? true : undefined));
    expect(await oneOffRow(id)).toEqual({ status: 'delivered', tries: 1 });
    expect(h.received).toHaveLength(1);
  });

  it('puts a call cut off by shutdown back to scheduled, untried', async () => {
    const h = await hook(() => ({ status: 200, delayMs: 10_000 }));
    const id = await oneOff(h.url, 0);
    const workers = start({ version: 3, sources: [] }, undefined, { ...FAST, gracefulShutdownMs: 200 });
    await h.waitFor(1);
    expect((await oneOffRow(id)).status).toBe('locked');
    await workers.stop();
    expect(await oneOffRow(id)).toEqual({ status: 'scheduled', tries: 0 });
  });
});
