// The scheduled event operations through `kiln serve`'s metadata API over a real socket, with the
// workers `kiln serve` runs: one-off events created, listed, delivered and deleted; cron events
// made, remade and dropped as cron triggers are created, replaced and deleted.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { nextOccurrences } from '../../runtime/workers/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { eventually, startWebhook, type Webhook } from './webhook-server.js';

describe('scheduled event operations of the metadata API', () => {
  let db: TestDatabase;
  let hook: Webhook;
  let server: { port: number; close(): Promise<void> };
  const post = async (body: unknown, path = '/v1/metadata'): Promise<{ status: number; body: any }> => {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return { status: res.status, body: await res.json() };
  };
  const meta = (type: string, args: unknown) => post({ type, args });

  beforeAll(async () => {
    db = await createTestDatabase('schedops');
    hook = await startWebhook();
    server = await serveCommand({
      databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false,
      eventsFetchInterval: 200,
    });
  });
  afterAll(async () => {
    await server?.close();
    await hook?.close();
    await db?.drop();
  });

  it('creates a one-off event that is delivered at schedule_at, then lists it and its invocation', async () => {
    const at = new Date(Date.now() + 1000).toISOString();
    const created = await meta('create_scheduled_event', { webhook: `${hook.url}/once`, schedule_at: at, payload: { a: 1 }, comment: 'c1',
      headers: [{ name: 'X-One', value: 'yes' }] });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ message: 'success', event_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const id = created.body.event_id as string;
    const req = await eventually(async () => hook.received.find((r) => r.body?.id === id), 6000, 'the one-off call');
    expect(req.at).toBeGreaterThanOrEqual(Date.parse(at) - 50);
    expect(req.url).toBe('/once');
    expect(req.headers['x-one']).toBe('yes');
    expect(req.body).toMatchObject({ id, payload: { a: 1 }, comment: 'c1' });
    const listed = await eventually(async () => {
      const r = await meta('get_scheduled_events', { type: 'one_off', get_rows_count: true, status: ['delivered'] });
      return r.body.count === 1 ? r : undefined;
    });
    expect(listed.body.events[0]).toMatchObject({ id, status: 'delivered', tries: 1, payload: { a: 1 }, comment: 'c1', webhook_conf: `${hook.url}/once` });
    const inv = await meta('get_scheduled_event_invocations', { type: 'one_off', event_id: id, get_rows_count: true });
    expect(inv.status).toBe(200);
    expect(inv.body.count).toBe(1);
    expect(inv.body.invocations[0]).toMatchObject({ event_id: id, status: 200, response: { type: 'webhook_response' } });
  });

  it('deletes a one-off event before its time', async () => {
    const created = await meta('create_scheduled_event', { webhook: hook.url, schedule_at: new Date(Date.now() + 3_600_000).toISOString() });
    const id = created.body.event_id as string;
    expect((await meta('get_scheduled_events', { type: 'one_off', status: ['scheduled'] })).body.events.map((e: any) => e.id)).toContain(id);
    expect(await meta('delete_scheduled_event', { type: 'one_off', event_id: id })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await meta('get_scheduled_events', { type: 'one_off' })).body.events.map((e: any) => e.id)).not.toContain(id);
  });

  it('refuses bad arguments with parse-failed at the argument, creating nothing', async () => {
    const before = (await meta('get_scheduled_events', { type: 'one_off', get_rows_count: true })).body.count;
    expect(await meta('create_scheduled_event', { schedule_at: '2030-01-01T00:00:00Z' })).toEqual({
      status: 400, body: { path: '$.args', error: 'key "webhook" not found', code: 'parse-failed' } });
    const badTime = await meta('create_scheduled_event', { webhook: hook.url, schedule_at: 'tomorrow' });
    expect(badTime.status).toBe(400);
    expect(badTime.body).toMatchObject({ path: '$.args.schedule_at', code: 'parse-failed' });
    const badHeader = await meta('create_scheduled_event', { webhook: hook.url, schedule_at: '2030-01-01T00:00:00Z', headers: [{ name: 'a' }] });
    expect(badHeader.body).toEqual({ path: '$.args.headers[0]', error: 'expecting value or value_from_env keys', code: 'parse-failed' });
    const badType = await meta('delete_scheduled_event', { type: 'weekly', event_id: 'x' });
    expect(badType.body).toMatchObject({ path: '$.args.type', code: 'parse-failed' });
    expect((await meta('get_scheduled_events', { type: 'one_off', get_rows_count: true })).body.count).toBe(before);
  });

  it('takes create_scheduled_event and get_cron_triggers on /v1/query too', async () => {
    const r = await post({ type: 'create_scheduled_event', args: { webhook: hook.url, schedule_at: '2031-01-01T00:00:00Z' } }, '/v1/query');
    expect(r.body).toEqual({ message: 'success', event_id: expect.any(String) });
    const missing = await post({ type: 'create_scheduled_event', args: { schedule_at: '2031-01-01T00:00:00Z' } }, '/v1/query');
    expect(missing.body.path).toBe('$');
    expect((await post({ type: 'get_cron_triggers', args: {} }, '/v1/query')).status).toBe(200);
  });

  it('keeps cron events in line with the cron triggers: made on create, remade on replace, dropped on delete', async () => {
    expect((await meta('create_cron_trigger', { name: 'nightly', webhook: hook.url, schedule: '0 3 * * *', include_in_metadata: true, payload: { p: 1 } })).status).toBe(200);
    expect((await meta('create_cron_trigger', { name: 'hidden', webhook: hook.url, schedule: '0 4 * * *', include_in_metadata: false })).status).toBe(200);
    const triggers = await meta('get_cron_triggers', {});
    expect(triggers.body.cron_triggers.map((t: any) => [t.name, t.include_in_metadata])).toEqual([['nightly', true], ['hidden', false]]);

    const first = await meta('get_scheduled_events', { type: 'cron', trigger_name: 'nightly', limit: 3, get_rows_count: true });
    expect(first.body.count).toBe(100);
    expect(first.body.events).toHaveLength(3);
    const expected = nextOccurrences('0 3 * * *', new Date(), 3).map((d) => d.getTime());
    expect(first.body.events.map((e: any) => Date.parse(e.scheduled_time))).toEqual(expected);
    expect(first.body.events[0]).toMatchObject({ name: 'nightly', status: 'scheduled', tries: 0 });

    await meta('create_cron_trigger', { name: 'nightly', webhook: hook.url, schedule: '30 5 * * *', include_in_metadata: true, replace: true });
    const replaced = await meta('get_scheduled_events', { type: 'cron', trigger_name: 'nightly', limit: 2, get_rows_count: true });
    expect(replaced.body.count).toBe(100);
    expect(replaced.body.events.map((e: any) => Date.parse(e.scheduled_time))).toEqual(nextOccurrences('30 5 * * *', new Date(), 2).map((d) => d.getTime()));

    const one = replaced.body.events[0].id as string;
    expect((await meta('delete_scheduled_event', { type: 'cron', event_id: one })).body).toEqual({ message: 'success' });
    expect((await meta('get_scheduled_events', { type: 'cron', trigger_name: 'nightly', get_rows_count: true })).body.count).toBe(99);

    expect((await meta('delete_cron_trigger', { name: 'nightly' })).status).toBe(200);
    expect((await meta('get_scheduled_events', { type: 'cron', trigger_name: 'nightly', get_rows_count: true })).body).toEqual({ events: [], count: 0 });
    expect((await meta('get_scheduled_events', { type: 'cron', trigger_name: 'hidden', get_rows_count: true })).body.count).toBe(100);
    const invocations = await meta('get_scheduled_event_invocations', { type: 'cron', trigger_name: 'hidden' });
    expect(invocations).toEqual({ status: 200, body: { invocations: [] } });
  });

  it('leaves the cron events as they are when a change does not touch cron triggers', async () => {
    const before = await db.query<{ id: string }>(`SELECT id FROM svc_catalog.hdb_cron_events WHERE trigger_name = 'hidden' ORDER BY id`);
    expect((await post({ type: 'run_sql', args: { sql: 'CREATE TABLE t1 (id int PRIMARY KEY)' } }, '/v2/query')).status).toBe(200);
    expect((await meta('pg_track_table', { table: 't1' })).status).toBe(200);
    const after = await db.query<{ id: string }>(`SELECT id FROM svc_catalog.hdb_cron_events WHERE trigger_name = 'hidden' ORDER BY id`);
    expect(after).toEqual(before);
  });
});

describe('cron triggers kept out of the metadata', () => {
  let db: TestDatabase;
  let server: { port: number; close(): Promise<void> };
  const meta = async (type: string, args: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`http://127.0.0.1:${server.port}/v1/metadata`, { method: 'POST', body: JSON.stringify({ type, args }), headers: { 'content-type': 'application/json' } });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    db = await createTestDatabase('cronhidden');
    server = await serveCommand({
      databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false,
    });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('are listed by get_cron_triggers, left out of export_metadata, and survive replace_metadata', async () => {
    const base = { webhook: 'http://127.0.0.1:1/cron', schedule: '0 * * * *' };
    expect((await meta('create_cron_trigger', { ...base, name: 'shown', include_in_metadata: true })).status).toBe(200);
    expect((await meta('create_cron_trigger', { ...base, name: 'hidden', include_in_metadata: false })).status).toBe(200);
    const listed = await meta('get_cron_triggers', {});
    expect(listed.body.cron_triggers.map((t: { name: string }) => t.name).sort()).toEqual(['hidden', 'shown']);
    const exported = (await meta('export_metadata', {})).body;
    expect(exported.cron_triggers.map((t: { name: string }) => t.name)).toEqual(['shown']);
    const v2 = await (await fetch(`http://127.0.0.1:${server.port}/v1/metadata`, {
      method: 'POST', body: JSON.stringify({ type: 'export_metadata', version: 2, args: {} }) })).json() as any;
    expect(v2.metadata.cron_triggers.map((t: { name: string }) => t.name)).toEqual(['shown']);
    // Replacing with the export (as a user applying their metadata files does) keeps the hidden one.
    expect((await meta('replace_metadata', { ...exported, cron_triggers: [] })).status).toBe(200);
    const after = await meta('get_cron_triggers', {});
    expect(after.body.cron_triggers.map((t: { name: string }) => t.name)).toEqual(['hidden']);
    const [events] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM svc_catalog.hdb_cron_events WHERE trigger_name = 'shown'");
    expect(events!.n).toBe(0);
  });
});
