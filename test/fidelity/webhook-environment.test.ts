// A webhook's environment is resolved when the object is defined, as Hasura resolves it while
// building the schema cache: an action's handler and an event or cron trigger's webhook given as a
// URL template (`{{VAR}}`) need every variable set ("Value for environment variables not found:
// A, B"), a cron trigger's header from the environment needs its variable ("environment variable
// 'X' not set"). The change is refused (invalid-configuration, the object in `internal`) and
// nothing of it is stored: no metadata, no database trigger, no cron event.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

let server: ServedDatabase;
let handler: http.Server;
const calls: string[] = [];

// Names no other test sets; the "set" one is set (and the "gone" one unset again) by this file.
const BASE = 'KILN_FID_WEBHOOK_ENV_BASE';
const UNSET_A = 'KILN_FID_WEBHOOK_ENV_UNSET_A';
const UNSET_B = 'KILN_FID_WEBHOOK_ENV_UNSET_B';
const GONE = 'KILN_FID_WEBHOOK_ENV_GONE';

beforeAll(async () => {
  handler = http.createServer((req, res) => {
    calls.push(req.url ?? '');
    req.resume();
    req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"litres": 3}'); });
  });
  await new Promise<void>((ok) => handler.listen(0, '127.0.0.1', ok));
  process.env[BASE] = `http://127.0.0.1:${(handler.address() as AddressInfo).port}`;
  delete process.env[UNSET_A];
  delete process.env[UNSET_B];
  server = await serveDatabase('fidwebhookenv', 'CREATE TABLE tank (id serial PRIMARY KEY, litres int);', { track: ['tank'], metadata: [
    { type: 'set_custom_types', args: { objects: [{ name: 'Fill', fields: [{ name: 'litres', type: 'Int' }] }] } }] });
});
afterAll(async () => {
  await server?.close();
  await new Promise((ok) => handler?.close(ok));
  delete process.env[BASE];
  delete process.env[GONE];
});

const exported = async (): Promise<{ resource_version: number; metadata: any }> =>
  server.ok('/v1/metadata', { type: 'export_metadata', version: 2, args: {} });

async function sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: server.db.url });
  await c.connect();
  try { return (await c.query(text, params)).rows as T[]; } finally { await c.end(); }
}

const action = (name: string, handlerUrl: string) => ({
  type: 'create_action',
  args: { name, definition: { kind: 'synchronous', arguments: [], output_type: 'Fill', handler: handlerUrl } },
});

describe('webhook templates and headers from the environment', () => {
  it('refuses an action whose handler template names unset variables, all of them in order, and stores nothing', async () => {
    const before = await exported();
    const res = await server.post('/v1/metadata', action('fill_tank', `{{${UNSET_A}}}/fill/{{${BASE}}}/{{ ${UNSET_B} }}`));
    const reason = `Inconsistent object: Value for environment variables not found: ${UNSET_A}, ${UNSET_B}`;
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid-configuration', path: '$.args', error: reason });
    expect(res.body.internal).toEqual([expect.objectContaining({ type: 'action', name: 'action fill_tank', reason })]);
    const after = await exported();
    expect(after.resource_version).toBe(before.resource_version);
    expect(after.metadata.actions ?? []).toEqual([]);
  });

  it('takes an action whose variables are set and calls the URL they make', async () => {
    expect(await server.ok('/v1/metadata', action('fill_tank', `{{${BASE}}}/fill`))).toEqual({ message: 'success' });
    expect(await server.ok('/v1/graphql', { query: 'mutation { fill_tank { litres } }' })).toEqual({ data: { fill_tank: { litres: 3 } } });
    expect(calls).toContain('/fill');
  });

  it('refuses update_action to an unresolvable handler and keeps the old one', async () => {
    const res = await server.post('/v1/metadata', {
      type: 'update_action',
      args: { name: 'fill_tank', definition: { kind: 'synchronous', arguments: [], output_type: 'Fill', handler: `{{${UNSET_A}}}/other` } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Inconsistent object: Value for environment variables not found: ${UNSET_A}`);
    calls.length = 0;
    expect(await server.ok('/v1/graphql', { query: 'mutation { fill_tank { litres } }' })).toEqual({ data: { fill_tank: { litres: 3 } } });
    expect(calls).toEqual(['/fill']);
  });

  it('refuses an event trigger whose webhook template cannot be resolved, before any database trigger exists', async () => {
    const res = await server.post('/v1/metadata', {
      type: 'pg_create_event_trigger',
      args: { name: 'tank_watch', table: 'tank', webhook: `{{${UNSET_B}}}/hook`, insert: { columns: '*' } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      // Resolved while the trigger is built (buildEventTriggerInfo): the reason carries the trigger's context.
      code: 'invalid-configuration', error: `Inconsistent object: in table "tank": in event trigger "tank_watch": Value for environment variables not found: ${UNSET_B}`,
      internal: [{ type: 'event_trigger', name: 'event_trigger tank_watch in table tank in source default' }],
    });
    expect(JSON.stringify((await exported()).metadata)).not.toContain('tank_watch');
    expect(await sql(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'tank'::regclass AND NOT tgisinternal`)).toEqual([]);
    // The same trigger with its variable set is created.
    await server.ok('/v1/metadata', {
      type: 'pg_create_event_trigger',
      args: { name: 'tank_watch', table: 'tank', webhook: `{{${BASE}}}/hook`, insert: { columns: '*' } },
    });
    expect((await sql(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'tank'::regclass AND NOT tgisinternal`)).length).toBeGreaterThan(0);
  });

  it('refuses a cron trigger whose webhook template or header cannot be resolved, and makes no cron event', async () => {
    const cron = (name: string, webhook: string, headers: unknown[] = []) => ({
      type: 'create_cron_trigger', args: { name, webhook, schedule: '0 3 * * *', include_in_metadata: true, headers },
    });
    const a = await server.post('/v1/metadata', cron('nightly_fill', `{{${UNSET_A}}}/cron`));
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ code: 'invalid-configuration', path: '$.args', error: `Inconsistent object: Value for environment variables not found: ${UNSET_A}` });
    expect(a.body.internal).toEqual([expect.objectContaining({ type: 'cron_trigger', name: 'cron_trigger nightly_fill' })]);
    const b = await server.post('/v1/metadata', cron('nightly_fill', `{{${BASE}}}/cron`, [{ name: 'X-Tank', value_from_env: UNSET_B }]));
    expect(b.status).toBe(400);
    expect(b.body.error).toBe(`Inconsistent object: environment variable '${UNSET_B}' not set`);
    expect((await server.ok('/v1/metadata', { type: 'get_cron_triggers', args: {} })).cron_triggers).toEqual([]);
    expect(await sql(`SELECT count(*)::int AS n FROM svc_catalog.hdb_cron_events WHERE trigger_name = $1`, ['nightly_fill'])).toEqual([{ n: 0 }]);
    await server.ok('/v1/metadata', cron('nightly_fill', `{{${BASE}}}/cron`, [{ name: 'X-Tank', value: 'full' }]));
    expect((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM svc_catalog.hdb_cron_events WHERE trigger_name = $1`, ['nightly_fill']))[0]!.n).toBeGreaterThan(0);
  });

  it('judges replace_metadata the same way, and leaves objects already stored alone', async () => {
    const before = await exported();
    const md = structuredClone(before.metadata);
    md.actions = [...(md.actions ?? []), { name: 'drain_tank', definition: { kind: 'synchronous', arguments: [], output_type: 'Fill', handler: `{{${UNSET_B}}}/drain` } }];
    const res = await server.post('/v1/metadata', { type: 'replace_metadata', version: 2, args: { metadata: md } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Inconsistent object: Value for environment variables not found: ${UNSET_B}`);
    expect((await exported()).resource_version).toBe(before.resource_version);

    // An action defined while its variable was set keeps working through later, unrelated changes.
    process.env[GONE] = process.env[BASE];
    await server.ok('/v1/metadata', action('top_up', `{{${GONE}}}/top-up`));
    delete process.env[GONE];
    expect(await server.ok('/v1/metadata', { type: 'pg_set_table_customization', args: { table: 'tank', configuration: { custom_name: 'tanks' } } }))
      .toEqual({ message: 'success' });
  });
});
