// run_sql runs in a transaction that records the caller's session before the statements, as
// every Postgres transaction of the engine does (Hasura RunSQL.hs runRunSQL: runTxWithCtx, and
// withUserInfo around the statements it checks for metadata changes; MonadTx.setHeadersTx sets
// `hasura.user`). So a row changed by run_sql gives an event whose session_variables are the
// caller's (`{"x-svc-role": "admin"}`), like a change made with the v1 `insert`; a change made
// outside the engine still has none. Kiln recorded nothing for run_sql, so the event said null.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startWebhook, type Received, type Webhook } from '../workers/webhook-server.js';

describe('run_sql records the session for event capture', () => {
  let server: ServedDatabase;
  let hook: Webhook;

  beforeAll(async () => {
    hook = await startWebhook(() => ({ status: 200 }));
    server = await serveDatabase('fidrunsqlsess', 'CREATE SCHEMA lab; CREATE TABLE lab.sample (id int PRIMARY KEY, note text);', {
      eventsFetchInterval: 100,
      track: [{ schema: 'lab', name: 'sample' }],
      metadata: [{ type: 'pg_create_event_trigger', args: { name: 'sampled', table: { schema: 'lab', name: 'sample' }, webhook: `${hook.url}/s`,
        insert: { columns: '*' }, update: { columns: '*' } } }],
    });
  });

  afterAll(async () => {
    await server?.close();
    await hook?.close();
  });

  const next = async (id: number): Promise<Received> => {
    for (let i = 0; i < 100; i++) {
      const found = hook.received.find((r) => r.body?.event?.data?.new?.id === id);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no event for row ${id}`);
  };

  it('on /v2/query and /v1/query, and not outside the engine', async () => {
    const a = await server.post('/v2/query', { type: 'run_sql', args: { sql: "INSERT INTO lab.sample VALUES (1, 'a')" } });
    expect(a.status).toBe(200);
    expect((await next(1)).body.event.session_variables).toEqual({ 'x-svc-role': 'admin' });
    const b = await server.post('/v1/query', { type: 'bulk', args: [{ type: 'run_sql', args: { sql: "INSERT INTO lab.sample VALUES (2, 'b')" } }] });
    expect(b.status).toBe(200);
    expect((await next(2)).body.event.session_variables).toEqual({ 'x-svc-role': 'admin' });
    await server.db.query("INSERT INTO lab.sample VALUES (3, 'c')");
    expect((await next(3)).body.event.session_variables).toBeNull();
  });
});
