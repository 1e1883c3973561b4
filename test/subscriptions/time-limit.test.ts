// The role's time limit (set_api_limits time_limit) bounds every poll of its live queries, as it
// bounds its queries: PostgreSQL cancels a poll that runs longer, the subscriber gets
// `time-limit-exceeded`, and the connection goes back to the pool, so a slow subscription cannot
// hold the pool and starve the others' polls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { Client, type Msg, type SubsServer, startSubsServer } from './helpers.js';

// Every row of slow_message costs 0.4 s to read: three rows are a 1.2 s poll.
const SETUP = `
CREATE TABLE message (id serial PRIMARY KEY, body text NOT NULL);
INSERT INTO message (body) VALUES ('a'), ('b'), ('c');
CREATE VIEW slow_message AS SELECT m.id, m.body FROM message m, LATERAL (SELECT pg_sleep(0.4) WHERE m.id > 0) s;
`;

const permission = [{ role: 'user', permission: { columns: ['id', 'body'], filter: {} } }];
const METADATA = {
  version: 3,
  sources: [{
    name: 'default', kind: 'postgres', configuration: {}, functions: [],
    tables: [
      { table: { schema: 'public', name: 'message' }, select_permissions: permission },
      { table: { schema: 'public', name: 'slow_message' }, select_permissions: permission },
    ],
  }],
  api_limits: { time_limit: { per_role: { user: 0.3 } } },
};

const USER = { 'x-svc-admin-secret': 'secret', 'x-svc-role': 'user' };
const ADMIN = { 'x-svc-admin-secret': 'secret' };

let db: TestDatabase;
let kiln: SubsServer;

beforeAll(async () => {
  db = await createTestDatabase('subs_timelimit', SETUP);
  kiln = await startSubsServer({ metadata: METADATA, databaseUrl: db.url, adminSecret: 'secret' });
});

afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const errorsOf = (m: Msg): unknown => (m.type === 'error' ? m.payload : (m.payload as { errors?: unknown }).errors);

describe('time limit of live query polls', () => {
  it('cancels a poll past the role\'s time limit with time-limit-exceeded, and admin (no limit) gets its rows', async () => {
    const c = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
    await c.init(USER);
    const started = performance.now();
    c.send({ type: 'subscribe', id: 's', payload: { query: 'subscription { slow_message { id } }' } });
    const first = await c.next((m) => m.id === 's', 5000);
    expect(performance.now() - started).toBeLessThan(1100);
    expect(errorsOf(first)).toEqual([{ message: 'The time limit has been exceeded for this query', extensions: { path: '$', code: 'time-limit-exceeded' } }]);
    c.close();
    const a = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
    await a.init(ADMIN);
    a.send({ type: 'subscribe', id: 's', payload: { query: 'subscription { slow_message(order_by: {id: asc}) { id } }' } });
    const rows = await a.next((m) => m.id === 's', 5000);
    expect(rows.payload).toEqual({ data: { slow_message: [{ id: 1 }, { id: 2 }, { id: 3 }] } });
    a.close();
  });

  it('keeps other subscriptions served while more slow ones than pool connections poll', async () => {
    // The test server's pool has 4 connections; 6 slow subscriptions poll every 100 ms.
    const slow = await Promise.all(Array.from({ length: 6 }, async (_, i) => {
      const c = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
      await c.init({ ...USER, 'x-svc-user-id': String(i) });
      c.send({ type: 'subscribe', id: 's', payload: { query: `subscription { slow_message(where: {id: {_gt: ${-i}}}) { id } }` } });
      return c;
    }));
    const fast = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
    await fast.init(USER);
    fast.send({ type: 'subscribe', id: 'f', payload: { query: 'subscription { message(order_by: {id: asc}) { body } }' } });
    const first = await fast.next((m) => m.id === 'f', 5000);
    expect(first.payload).toEqual({ data: { message: [{ body: 'a' }, { body: 'b' }, { body: 'c' }] } });
    const inserted = performance.now();
    await db.exec(`INSERT INTO message (body) VALUES ('d')`);
    const second = await fast.next((m) => m.id === 'f', 5000);
    expect((second.payload as { data: { message: unknown[] } }).data.message).toHaveLength(4);
    // Polls every 100 ms; slow polls end after 0.3 s, so the fast one waits at most about one of them.
    expect(performance.now() - inserted).toBeLessThan(2000);
    for (const c of slow) expect(errorsOf(await c.next((m) => m.id === 's', 5000))).toMatchObject([{ extensions: { code: 'time-limit-exceeded' } }]);
    for (const c of [...slow, fast]) c.close();
    await db.exec(`DELETE FROM message WHERE body = 'd'`);
  });
});
