// Three runtimes on one database make each cron occurrence once and deliver it once: three
// `kiln serve --bundle` of a bundle with a cron trigger start at the same moment (each makes the
// trigger's next events at start, and each worker tops them up), and three catalog servers where
// one of them creates a cron trigger through the metadata API. An occurrence is made due at once
// by moving its time into the past, so delivery is checked without waiting for the minute.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCommand } from '../../compiler/cli/compile.js';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { eventually, startWebhook, type Webhook } from './webhook-server.js';

interface Server { port: number; close(): Promise<void> }

const counts = (db: TestDatabase, trigger: string) => db.query<{ n: number; distinct: number }>(
  `SELECT count(*)::int AS n, count(DISTINCT scheduled_time)::int AS distinct
     FROM svc_catalog.hdb_cron_events WHERE trigger_name = $1`, [trigger]).then((r) => r[0]!);

/** Moves the trigger's first waiting occurrence a second into the past; answers its id. */
async function makeDueNow(db: TestDatabase, trigger: string): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `UPDATE svc_catalog.hdb_cron_events SET scheduled_time = now() - interval '1 second'
      WHERE id = (SELECT id FROM svc_catalog.hdb_cron_events WHERE trigger_name = $1 AND status = 'scheduled' ORDER BY scheduled_time LIMIT 1)
      RETURNING id`, [trigger]);
  return row!.id;
}

describe('cron triggers with three runtimes on one database', () => {
  let db: TestDatabase;
  let hook: Webhook;
  let dir: string;
  const servers: Server[] = [];
  const serveOpts = { dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 3, stringifyNumericTypes: false, console: false, eventsFetchInterval: 100 };

  beforeAll(async () => {
    db = await createTestDatabase('cron3', 'CREATE TABLE note (id serial PRIMARY KEY)');
    hook = await startWebhook();
    dir = await mkdtemp(join(tmpdir(), 'kiln-cron3-'));
  });
  afterAll(async () => {
    for (const s of servers) await s.close().catch(() => undefined);
    await hook?.close();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('makes each occurrence of a bundle\'s cron trigger once and delivers a due one once', async () => {
    const metadata = {
      version: 3,
      sources: [{ name: 'default', kind: 'postgres', configuration: {}, tables: [{ table: { schema: 'public', name: 'note' } }] }],
      cron_triggers: [{ name: 'every_minute', webhook: `${hook.url}/bundle`, schedule: '* * * * *', include_in_metadata: true,
        retry_conf: { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 5, tolerance_seconds: 21600 } }],
    };
    await writeFile(join(dir, 'metadata.json'), JSON.stringify(metadata));
    await compileCommand({ metadata: join(dir, 'metadata.json'), databaseUrl: db.url, out: join(dir, 'bundle'), quiet: true });
    // Started at the same moment: each makes the trigger's next events at start.
    servers.push(...await Promise.all([1, 2, 3].map(() => serveCommand({ bundle: join(dir, 'bundle'), databaseUrl: db.url, ...serveOpts }))));
    expect(await counts(db, 'every_minute')).toEqual({ n: 100, distinct: 100 });

    const id = await makeDueNow(db, 'every_minute');
    const calls = () => hook.received.filter((r) => r.url === '/bundle' && r.body?.id === id);
    await eventually(async () => (calls().length > 0 ? true : undefined), 10_000, 'the due cron event to be delivered');
    // Three workers polling every 100 ms had time to take it again.
    await new Promise((r) => setTimeout(r, 1000));
    expect(calls()).toHaveLength(1);
    const [row] = await db.query<{ status: string }>('SELECT status FROM svc_catalog.hdb_cron_events WHERE id = $1', [id]);
    expect(row!.status).toBe('delivered');
    // The workers' top-ups after the delivery add no second row for any time.
    const after = await counts(db, 'every_minute');
    expect(after.n).toBe(after.distinct);
    expect(after.n).toBeGreaterThanOrEqual(100);
  }, 60_000);

  it('makes the occurrences of a cron trigger created through one of three catalog servers once', async () => {
    for (const s of servers.splice(0)) await s.close();
    const catalog = await Promise.all([1, 2, 3].map(async (i) => {
      // The first creates svc_catalog's metadata tables; the others start on it.
      if (i > 1) await new Promise((r) => setTimeout(r, 50 * i));
      return serveCommand({ databaseUrl: db.url, ...serveOpts });
    }));
    servers.push(...catalog);
    const res = await fetch(`http://127.0.0.1:${catalog[0]!.port}/v1/metadata`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'create_cron_trigger', args: { name: 'made_live', webhook: `${hook.url}/catalog`, schedule: '*/5 * * * *', include_in_metadata: true } }),
    });
    expect(res.status).toBe(200);
    expect(await counts(db, 'made_live')).toEqual({ n: 100, distinct: 100 });
    const id = await makeDueNow(db, 'made_live');
    const calls = () => hook.received.filter((r) => r.url === '/catalog' && r.body?.id === id);
    await eventually(async () => (calls().length > 0 ? true : undefined), 10_000, 'the due cron event to be delivered');
    await new Promise((r) => setTimeout(r, 1000));
    expect(calls()).toHaveLength(1);
    const after = await counts(db, 'made_live');
    expect(after.n).toBe(after.distinct);
  }, 60_000);
});
