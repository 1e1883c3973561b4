// A change made with the v1 data API (`insert`, `update`, `delete` of /v1/query, alone or in a
// bulk) records who made it, as a GraphQL mutation does: the event it captures carries the
// session variables (`{"x-svc-role": "admin"}` for the admin; every x-svc-* header sent beside the
// admin secret). Hasura runs each v1 data operation in a transaction that sets the session first
// (runTxWithCtx -> withUserInfo -> setHeadersTx); tests-py test_events.py check_event expects
// `{'x-hasura-role': 'admin'}` of rows written with v1 `insert`. Kiln left session_variables null.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startWebhook, type Received, type Webhook } from '../workers/webhook-server.js';

const SECRET = 'fid-v1-session';

describe('session variables of events from v1 writes', () => {
  let server: ServedDatabase;
  let hook: Webhook;
  const table = { schema: 'public', name: 'crate' };
  const v1 = (body: unknown, headers: Record<string, string> = {}) => server.post('/v1/query', body, headers);

  beforeAll(async () => {
    hook = await startWebhook(() => ({ status: 200 }));
    server = await serveDatabase('fidv1session', 'CREATE TABLE crate (id int PRIMARY KEY, label text);', {
      adminSecret: SECRET, eventsFetchInterval: 100, track: ['crate'],
      metadata: [{ type: 'pg_create_event_trigger', args: { name: 'moved', table, webhook: hook.url,
        insert: { columns: '*' }, update: { columns: '*' }, delete: { columns: '*' } } }],
    });
  });

  afterAll(async () => {
    await server?.close();
    await hook?.close();
  });

  const next = async (op: string): Promise<Received> => {
    for (let i = 0; i < 100; i++) {
      const found = hook.received.find((r) => r.body?.event?.op === op);
      if (found) {
        hook.received.splice(hook.received.indexOf(found), 1);
        return found;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${op} event`);
  };

  it('insert, update and delete carry the session that made them', async () => {
    const ins = await v1({ type: 'insert', args: { table, objects: [{ id: 1, label: 'a' }] } });
    expect(ins.status).toBe(200);
    expect((await next('INSERT')).body.event.session_variables).toEqual({ 'x-svc-role': 'admin' });

    const headers = { 'X-Svc-Role': 'admin', 'X-Svc-User-Id': '7', 'X-Other': 'not a session variable' };
    const upd = await v1({ type: 'update', args: { table, where: { id: 1 }, $set: { label: 'b' } } }, headers);
    expect(upd.status).toBe(200);
    expect((await next('UPDATE')).body.event.session_variables).toEqual({ 'x-svc-role': 'admin', 'x-svc-user-id': '7' });

    const bulk = await v1({ type: 'bulk', args: [{ type: 'delete', args: { table, where: { id: 1 } } }] }, { 'X-Svc-Trace': 'x1' });
    expect(bulk.status).toBe(200);
    expect((await next('DELETE')).body.event.session_variables).toEqual({ 'x-svc-role': 'admin', 'x-svc-trace': 'x1' });
  });

  it('a change outside the engine still has none', async () => {
    await server.db.query("INSERT INTO crate VALUES (2, 'c')");
    expect((await next('INSERT')).body.event.session_variables).toBeNull();
  });
});
