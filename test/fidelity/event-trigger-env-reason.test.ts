// An event trigger whose webhook or header names an environment variable that is not set fails
// while Hasura builds it (buildEventTriggerInfo's getEnv), so its reason carries the trigger's
// context (`in table "t": in event trigger "e": `) and the object is reported whole: type, name,
// the stored definition with its source and table, and the reason. In pg_create_event_trigger
// (webhook_from_env, a header's value_from_env) and replace_metadata alike; nothing is installed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('event trigger with an unset environment variable', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const md = (type: string, args: unknown) => post('/v1/metadata', { type, args });
  const triggers = async (): Promise<string[]> => (await server.db.query<{ n: string }>(
    "SELECT tgname AS n FROM pg_trigger WHERE tgname LIKE 'notify\\_svc\\_%' ORDER BY 1")).map((r) => r.n);

  beforeAll(async () => {
    delete process.env.KILN_FID_UNSET_HOOK;
    delete process.env.KILN_FID_UNSET_TOKEN;
    server = await serveDatabase('fidetenv', 'CREATE SCHEMA shop; CREATE TABLE shop.parcel (id int PRIMARY KEY, weight int);', {
      track: [{ schema: 'shop', name: 'parcel' }] });
  });

  afterAll(() => server?.close());

  it('pg_create_event_trigger: the webhook, then a header, with the trigger context and the whole object', async () => {
    const args = { name: 'weighed', table: { schema: 'shop', name: 'parcel' }, webhook_from_env: 'KILN_FID_UNSET_HOOK', update: { columns: ['weight'] } };
    const reason = 'Inconsistent object: in table "shop.parcel": in event trigger "weighed": environment variable \'KILN_FID_UNSET_HOOK\' not set';
    const r = await md('pg_create_event_trigger', args);
    expect(r).toEqual({ status: 400, body: { path: '$.args', code: 'invalid-configuration', error: reason, internal: [{
      type: 'event_trigger', name: 'event_trigger weighed in table shop.parcel in source default', reason,
      definition: expect.objectContaining({ name: 'weighed', webhook_from_env: 'KILN_FID_UNSET_HOOK', source: 'default',
        table: { schema: 'shop', name: 'parcel' }, definition: expect.objectContaining({ update: { columns: ['weight'] } }) }),
    }] } });
    const h = await md('pg_create_event_trigger', { name: 'weighed', table: { schema: 'shop', name: 'parcel' }, webhook: 'http://127.0.0.1:9/hook',
      insert: { columns: '*' }, headers: [{ name: 'x-token', value_from_env: 'KILN_FID_UNSET_TOKEN' }] });
    expect(h.body.error).toBe('Inconsistent object: in table "shop.parcel": in event trigger "weighed": environment variable \'KILN_FID_UNSET_TOKEN\' not set');
    expect(h.body.internal[0].definition.headers).toEqual([{ name: 'x-token', value_from_env: 'KILN_FID_UNSET_TOKEN' }]);
    expect(await triggers()).toEqual([]);
  });

  it('replace_metadata refuses the same trigger with the same reason, and changes nothing', async () => {
    const current = (await md('export_metadata', {})).body;
    const next = structuredClone(current);
    next.sources[0].tables[0].event_triggers = [{ name: 'weighed', webhook_from_env: 'KILN_FID_UNSET_HOOK',
      definition: { enable_manual: true }, retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60 } }];
    const r = await md('replace_metadata', next);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('Inconsistent object: in table "shop.parcel": in event trigger "weighed": environment variable \'KILN_FID_UNSET_HOOK\' not set');
    expect(r.body.internal[0]).toMatchObject({ type: 'event_trigger', definition: { name: 'weighed', source: 'default' } });
    expect((await md('export_metadata', {})).body.sources[0].tables[0].event_triggers).toBeUndefined();
  });
});
