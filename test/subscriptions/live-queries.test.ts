// Live queries over a real socket, for both sub-protocols: the first result at once, a push
// after a committed insert, nothing when nothing changed, each user's rows only (one shared
// plan), and one multiplexed statement per poll for every subscriber of a plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { Client, sleep, startSubsServer, type Msg, type SubsServer } from './helpers.js';

const SETUP = `
CREATE TABLE message (id serial PRIMARY KEY, user_id int NOT NULL, body text NOT NULL);
INSERT INTO message (user_id, body) VALUES (1, 'u1-a'), (2, 'u2-a');
`;

const METADATA = {
  version: 3,
  sources: [{
    name: 'default', kind: 'postgres', configuration: {}, functions: [],
    tables: [{
      table: { schema: 'public', name: 'message' },
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'user_id', 'body'], filter: { user_id: { _eq: 'X-Svc-User-Id' } }, allow_aggregations: true } }],
    }],
  }],
};

const PROTOCOLS = [
  { protocol: 'graphql-transport-ws', start: 'subscribe', stop: 'complete', result: 'next' },
  { protocol: 'graphql-ws', start: 'start', stop: 'stop', result: 'data' },
] as const;

const ADMIN = { 'x-svc-admin-secret': 'secret' };
const user = (id: number) => ({ 'x-svc-admin-secret': 'secret', 'x-svc-role': 'user', 'x-svc-user-id': String(id) });
const bodies = (m: Msg): string[] => ((m.payload as { data: { message: { body: string }[] } }).data.message).map((r) => r.body);

let db: TestDatabase;
let kiln: SubsServer;

beforeAll(async () => {
  db = await createTestDatabase('subs_live', SETUP);
  kiln = await startSubsServer({ metadata: METADATA, databaseUrl: db.url, adminSecret: 'secret' });
});

afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

describe.each(PROTOCOLS)('live queries over $protocol', ({ protocol, start, stop, result }) => {
  const query = 'subscription { message(order_by: {id: asc}) { id body } }';

  it('sends the current rows at once, then the new rows after an insert commits', async () => {
    const c = await Client.open(kiln.wsUrl, protocol);
    await c.init(ADMIN);
    c.send({ type: start, id: 'a', payload: { query } });
    const first = await c.next((m) => m.id === 'a');
    expect(first.type).toBe(result);
    const before = bodies(first);
    expect(before).toContain('u1-a');
    await db.exec(`INSERT INTO message (user_id, body) VALUES (3, 'pushed-${protocol}')`);
    const second = await c.next((m) => m.id === 'a');
    expect(bodies(second)).toEqual([...before, `pushed-${protocol}`]);
    c.send({ type: stop, id: 'a' });
    c.close();
  });

  it('pushes nothing while nothing changes', async () => {
    const c = await Client.open(kiln.wsUrl, protocol);
    await c.init(ADMIN);
    c.send({ type: start, id: 'q', payload: { query: 'subscription { message_aggregate { aggregate { count } } }' } });
    await c.next((m) => m.id === 'q');
    await sleep(600); // six polls at 100 ms
    expect(c.results('q')).toEqual([]);
    c.close();
  });

  it('gives two users on one plan only their own rows, each pushed only its own change', async () => {
    const sub = 'subscription { message(order_by: {id: asc}) { body user_id } }';
    const a = await Client.open(kiln.wsUrl, protocol);
    const b = await Client.open(kiln.wsUrl, protocol);
    await a.init(user(1));
    await b.init(user(2));
    a.send({ type: start, id: '1', payload: { query: sub } });
    b.send({ type: start, id: '1', payload: { query: sub } });
    const ra = await a.next((m) => m.id === '1');
    const rb = await b.next((m) => m.id === '1');
    const rows = (m: Msg) => (m.payload as { data: { message: { user_id: number }[] } }).data.message;
    expect(rows(ra).every((r) => r.user_id === 1)).toBe(true);
    expect(rows(rb).every((r) => r.user_id === 2)).toBe(true);
    await db.exec(`INSERT INTO message (user_id, body) VALUES (2, 'only-b-${protocol}')`);
    const pushed = await b.next((m) => m.id === '1');
    expect(rows(pushed).map((r) => (r as unknown as { body: string }).body)).toContain(`only-b-${protocol}`);
    await sleep(400);
    expect(a.results('1')).toEqual([]);
    a.close();
    b.close();
  });
});

describe('multiplexing', () => {
  it('runs one statement per poll for all subscribers of a plan, whatever their variables and sessions', async () => {
    const sub = 'subscription ($min: Int!) { message(where: {id: {_gte: $min}}, order_by: {id: asc}) { id } }';
    const clients: Client[] = [];
    for (let i = 0; i < 6; i++) {
      const c = await Client.open(kiln.wsUrl, i % 2 ? 'graphql-ws' : 'graphql-transport-ws');
      await c.init(user(1 + (i % 3)));
      c.send({ type: i % 2 ? 'start' : 'subscribe', id: 's', payload: { query: sub, variables: { min: i } } });
      await c.next((m) => m.id === 's');
      clients.push(c);
    }
    kiln.resetStatements();
    await sleep(1050); // about ten polls at 100 ms
    const statements = kiln.statements();
    expect(new Set(statements).size).toBe(1);
    expect(statements.length).toBeGreaterThanOrEqual(7);
    expect(statements.length).toBeLessThanOrEqual(12);
    // Every parameter is an array column of the cohorts, never a per-subscriber placeholder.
    expect(statements[0]).toMatch(/FROM unnest\(\$1::int4\[\], \$2::text\[\]/);
    for (const c of clients) c.close();
  });

  it('stops polling when the last subscriber goes', async () => {
    const c = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
    await c.init(ADMIN);
    c.send({ type: 'subscribe', id: 'x', payload: { query: 'subscription { message_by_pk(id: 1) { body } }' } });
    const first = await c.next((m) => m.id === 'x');
    expect(first.payload).toEqual({ data: { message_by_pk: { body: 'u1-a' } } });
    c.close();
    await c.waitClosed();
    await sleep(150);
    kiln.resetStatements();
    await sleep(400);
    expect(kiln.statements()).toEqual([]);
  });
});
