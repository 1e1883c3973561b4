// `kiln serve --bundle` delivers the bundle's event triggers: a compiled bundle carries the event
// and cron trigger definitions, and the served bundle installs the capture triggers, makes the cron
// events and runs the workers, with no metadata API involved.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCommand } from '../../compiler/cli/compile.js';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { eventually, startWebhook, type Webhook } from './webhook-server.js';

describe('kiln serve --bundle delivers event triggers', () => {
  let db: TestDatabase;
  let hook: Webhook;
  let dir: string;
  let server: { port: number; close(): Promise<void> } | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('bundleev', 'CREATE TABLE note (id serial PRIMARY KEY, body text NOT NULL, views int NOT NULL DEFAULT 0)');
    hook = await startWebhook();
    dir = await mkdtemp(join(tmpdir(), 'kiln-bundle-ev-'));
    const metadata = {
      version: 3,
      sources: [{
        name: 'default', kind: 'postgres', configuration: {},
        tables: [{
          table: { schema: 'public', name: 'note' },
          insert_permissions: [{ role: 'user', permission: { columns: ['body'], check: {} } }],
          select_permissions: [{ role: 'user', permission: { columns: ['id', 'body'], filter: {} } }],
          event_triggers: [{
            name: 'note_changed', definition: { enable_manual: false, insert: { columns: '*' }, update: { columns: ['body'], payload: ['id', 'body'] } },
            retry_conf: { num_retries: 0, interval_sec: 1, timeout_sec: 5 }, webhook: `${hook.url}/notes`,
          }],
        }],
      }],
      cron_triggers: [{ name: 'every_minute', webhook: `${hook.url}/cron`, schedule: '* * * * *', include_in_metadata: true,
        retry_conf: { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 5, tolerance_seconds: 21600 } }],
    };
    await writeFile(join(dir, 'metadata.json'), JSON.stringify(metadata));
    await compileCommand({ metadata: join(dir, 'metadata.json'), databaseUrl: db.url, out: join(dir, 'bundle'), quiet: true });
    server = await serveCommand({
      bundle: join(dir, 'bundle'), databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4,
      stringifyNumericTypes: false, console: false, eventsFetchInterval: 100,
    });
  });
  afterAll(async () => {
    await server?.close();
    await hook?.close();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('captures a GraphQL insert with its session and an update of a listed column, and delivers both', async () => {
    const res = await fetch(`http://127.0.0.1:${server!.port}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-role': 'user', 'x-svc-user-id': '42' },
      body: JSON.stringify({ query: 'mutation { insert_note_one(object: {body: "hello"}) { id } }' }),
    });
    expect(await res.json()).toEqual({ data: { insert_note_one: { id: 1 } } });
    await db.exec('UPDATE note SET views = 5 WHERE id = 1'); // not a listed column: no event
    await db.exec("UPDATE note SET body = 'edited' WHERE id = 1");
    // The cron trigger may call too (on the minute): only the /notes calls count here.
    const notes = await eventually(async () => {
      const got = hook.received.filter((r) => r.url === '/notes').map((r) => r.body.event);
      return got.length >= 2 ? got : undefined;
    }, 10_000, 'two event deliveries');
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.received.filter((r) => r.url === '/notes')).toHaveLength(2);
    expect(notes[0]).toMatchObject({ op: 'INSERT', data: { old: null, new: { id: 1, body: 'hello', views: 0 } },
      session_variables: { 'x-svc-role': 'user', 'x-svc-user-id': '42' } });
    expect(notes[1]).toMatchObject({ op: 'UPDATE', data: { old: { id: 1, body: 'hello' }, new: { id: 1, body: 'edited' } }, session_variables: null });
    await eventually(async () => {
      const [c] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_catalog.event_log WHERE delivered');
      return c!.n === 2 ? true : undefined;
    });
  });

  it('makes the cron trigger\'s next events at start', async () => {
    // Counted in any status, from the first: when a minute turns during the tests, the first event
    // is already taken (no longer 'scheduled') and the workers' top-up may add the 101st minute.
    const rows = await db.query<{ n: number; first: string }>(
      `WITH e AS (SELECT scheduled_time FROM svc_catalog.hdb_cron_events WHERE trigger_name = 'every_minute')
       SELECT count(*) FILTER (WHERE scheduled_time < (SELECT min(scheduled_time) FROM e) + interval '100 minutes')::int AS n,
              min(scheduled_time)::text AS first FROM e`);
    expect(rows[0]!.n).toBe(100);
    expect(Date.parse(rows[0]!.first) - Date.now()).toBeLessThanOrEqual(60_000);
  });
});
