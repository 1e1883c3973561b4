// `kiln serve` in catalog mode runs the event trigger workers: the changes captured by an event
// trigger created through the metadata API (inserts and an update on a listed column) all reach
// the webhook, once each.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { eventually, startWebhook, type Webhook } from './webhook-server.js';

describe('kiln serve delivers event triggers', () => {
  let db: TestDatabase;
  let hook: Webhook;
  let server: { port: number; close(): Promise<void> };
  const post = async (body: unknown, path = '/v1/metadata'): Promise<{ status: number; body: any }> => {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    db = await createTestDatabase('serveev', 'CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL)');
    hook = await startWebhook();
    server = await serveCommand({
      databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false,
      eventsFetchInterval: 100, eventsHttpPoolSize: 4, eventsFetchBatchSize: 10,
    });
  });
  afterAll(async () => {
    await server?.close();
    await hook?.close();
    await db?.drop();
  });

  it('sends each captured change to the webhook, once', async () => {
    expect((await post({ type: 'pg_track_table', args: { table: 'author' } })).status).toBe(200);
    const created = await post({ type: 'pg_create_event_trigger', args: { name: 'author_ev', table: 'author', webhook: `${hook.url}/ev`,
      insert: { columns: '*' }, update: { columns: ['name'] }, retry_conf: { num_retries: 1, interval_sec: 1 } } });
    expect(created).toEqual({ status: 200, body: { message: 'success' } });
    await db.exec(`INSERT INTO author SELECT i, 'a' || i FROM generate_series(1, 25) i`);
    await db.exec(`UPDATE author SET name = 'renamed' WHERE id = 1`);
    await hook.waitFor(26, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.received).toHaveLength(26);
    const inserts = hook.received.filter((r) => r.body.event.op === 'INSERT').map((r) => r.body.event.data.new.id).sort((a, b) => a - b);
    expect(inserts).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const update = hook.received.find((r) => r.body.event.op === 'UPDATE');
    expect(update?.body).toMatchObject({ trigger: { name: 'author_ev' }, table: { schema: 'public', name: 'author' },
      event: { data: { old: { id: 1, name: 'a1' }, new: { id: 1, name: 'renamed' } } }, delivery_info: { max_retries: 1, current_retry: 0 } });
    await eventually(async () => {
      const [c] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_catalog.event_log WHERE delivered');
      return c!.n === 26 ? true : undefined;
    });
  });
});
