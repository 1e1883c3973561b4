// `kiln serve` (catalog mode) reports its event deliveries at /v1/metrics: a webhook that answers
// 200 counts as delivered, one that answers 500 as a retry and then, with its retries used up, an
// error. Also the catalog mode's health report (catalog and source) and plan cache feed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { parsePrometheusText, valueOf, type Exposition } from '../server/prom-text.js';
import { eventually, startWebhook, type Webhook } from './webhook-server.js';

describe('event delivery metrics', () => {
  let db: TestDatabase;
  let hook: Webhook;
  let server: { port: number; close(): Promise<void> };
  const base = (): string => `http://127.0.0.1:${server.port}`;
  const meta = async (body: unknown): Promise<number> => {
    const res = await fetch(`${base()}/v1/metadata`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    await res.text();
    return res.status;
  };
  const scrape = async (): Promise<Exposition> => parsePrometheusText(await (await fetch(`${base()}/v1/metrics`)).text());

  beforeAll(async () => {
    db = await createTestDatabase('evmetrics', 'CREATE TABLE author (id int PRIMARY KEY); CREATE TABLE book (id int PRIMARY KEY)');
    hook = await startWebhook((req) => ({ status: req.url === '/bad' ? 500 : 200, body: '{}' }));
    server = await serveCommand({
      databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false,
      enabledApis: 'graphql,metadata,metrics', eventsFetchInterval: 100, eventsHttpPoolSize: 4, eventsFetchBatchSize: 10,
    });
  });
  afterAll(async () => {
    await server?.close();
    await hook?.close();
    await db?.drop();
  });

  it('counts delivered, retried and failed attempts per trigger', async () => {
    expect(await meta({ type: 'pg_track_table', args: { table: 'author' } })).toBe(200);
    expect(await meta({ type: 'pg_track_table', args: { table: 'book' } })).toBe(200);
    expect(await meta({ type: 'pg_create_event_trigger', args: { name: 'good_ev', table: 'author', webhook: `${hook.url}/good`, insert: { columns: '*' } } })).toBe(200);
    expect(await meta({ type: 'pg_create_event_trigger', args: { name: 'bad_ev', table: 'book', webhook: `${hook.url}/bad`, insert: { columns: '*' },
      retry_conf: { num_retries: 1, interval_sec: 1 } } })).toBe(200);
    await db.exec('INSERT INTO author SELECT generate_series(1, 3); INSERT INTO book VALUES (1)');
    const e = await eventually(async () => {
      const x = await scrape();
      return valueOf(x, 'svc_event_deliveries_total', { trigger_name: 'bad_ev', outcome: 'error' }) === 1
        && valueOf(x, 'svc_event_deliveries_total', { trigger_name: 'good_ev', outcome: 'delivered' }) === 3 ? x : undefined;
    }, 10_000, 'the deliveries counted');
    expect(valueOf(e, 'svc_event_deliveries_total', { trigger_name: 'bad_ev', outcome: 'retry' })).toBe(1);
    expect(valueOf(e, 'svc_event_deliveries_total', { trigger_name: 'bad_ev', outcome: 'delivered' })).toBe(0);
    expect(valueOf(e, 'svc_event_deliveries_total', { trigger_name: 'good_ev', outcome: 'retry' })).toBe(0);
    expect(hook.received.filter((r) => r.url === '/bad')).toHaveLength(2);
    expect(e.types.get('svc_event_trigger_http_workers')).toBe('gauge');
  });

  it('reports the catalog and the source in /healthz, and the plan cache of the engine served now', async () => {
    const report = await fetch(`${base()}/healthz?strict=true`, { headers: { accept: 'application/json' } });
    expect(report.status).toBe(200);
    expect(await report.json()).toEqual({ status: 'ok', strict: true, catalog: 'ok', sources: { default: { status: 'ok' } } });
    const before = await scrape();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${base()}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ author { id } }' }) });
      expect((await res.json()).data.author).toHaveLength(3);
    }
    const after = await scrape();
    expect(valueOf(after, 'svc_plan_cache_misses_total') - valueOf(before, 'svc_plan_cache_misses_total')).toBe(1);
    expect(valueOf(after, 'svc_plan_cache_hits_total') - valueOf(before, 'svc_plan_cache_hits_total')).toBe(1);
  });
});
