// A backlog of events keeps two batches claimed ahead of the webhook calls: while one batch waits
// for the HTTP pool, the next is fetched (Hasura's processEventQueue runs popEventsBatch under
// withAsync while it works through the current batch; tests-py test_events.py
// TestEventFloodPostgresMSSQL: with a pool of 8 and batches of 100, 8 calls block and 200 events
// are locked). Kiln fetched the next batch only once the whole batch had started, so one batch was
// claimed. Past the two batches fetching pauses, and every event is still delivered once.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startWebhook, type Webhook } from '../workers/webhook-server.js';

describe('event batches fetched ahead of a busy pool', () => {
  let server: ServedDatabase;
  let hook: Webhook;
  let release: () => void = () => undefined;
  const released = new Promise<void>((r) => { release = r; });

  beforeAll(async () => {
    hook = await startWebhook(async () => {
      await released;
      return { status: 204 };
    });
    server = await serveDatabase('fidevprefetch', 'CREATE TABLE parcel (id int PRIMARY KEY);', {
      eventsHttpPoolSize: 2, eventsFetchBatchSize: 5, eventsFetchInterval: 50,
      track: ['parcel'],
      metadata: [{ type: 'pg_create_event_trigger', args: { name: 'sent', table: { schema: 'public', name: 'parcel' }, webhook: hook.url, insert: { columns: '*' } } }],
    });
  });

  afterAll(async () => {
    release();
    await server?.close();
    await hook?.close();
  });

  const locked = async (): Promise<number> =>
    (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_catalog.event_log WHERE locked IS NOT NULL'))[0]!.n;

  it('two batches are claimed while the pool is full, no more; then each event is delivered once', async () => {
    await server.db.query('INSERT INTO parcel SELECT g FROM generate_series(1, 30) g');
    const deadline = Date.now() + 10_000;
    while ((hook.received.length < 2 || await locked() < 10) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(hook.received).toHaveLength(2);
    expect(await locked()).toBe(10);
    // Stable: nothing more is claimed while the calls hang.
    await new Promise((r) => setTimeout(r, 600));
    expect(await locked()).toBe(10);
    expect(hook.received).toHaveLength(2);

    release();
    await hook.waitFor(30, 15_000);
    const ids = hook.received.map((r) => r.body.event.data.new.id as number).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.received).toHaveLength(30);
  });
});
