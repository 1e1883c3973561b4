// Live queries on the change feed (statement triggers that NOTIFY, one LISTEN connection per
// source), over a real socket against a real PostgreSQL whose tables the server's own login role
// owns: a commit is pushed long before the poll interval, nothing runs while nothing changes, a
// change of a table the plan does not read refetches nothing, the refetch keeps each role's filter,
// and with the LISTEN connection gone the interval poll serves until LISTEN holds again.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, PG_ROOT, type TestDatabase } from '../helpers/database.js';
import { Client, sleep, startSubsServer, type Msg, type SubsServer } from './helpers.js';

const ROLE = `kiln_livenotify_${Math.random().toString(36).slice(2, 8)}`;

const SETUP = `
CREATE ROLE ${ROLE} LOGIN;
GRANT CREATE, CONNECT ON DATABASE :db TO ${ROLE};
GRANT CREATE, USAGE ON SCHEMA public TO ${ROLE};
SET ROLE ${ROLE};
CREATE TABLE message (id serial PRIMARY KEY, user_id int NOT NULL, body text NOT NULL, at timestamptz NOT NULL DEFAULT now());
CREATE TABLE other (id serial PRIMARY KEY, note text NOT NULL);
CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL);
INSERT INTO message (user_id, body) VALUES (1, 'u1-a'), (2, 'u2-a');
INSERT INTO author VALUES (1, 'ann'), (2, 'bob');
RESET ROLE;
-- Not the server role's: it may read the table but not put a trigger on it.
CREATE TABLE notice (id serial PRIMARY KEY, body text NOT NULL);
GRANT SELECT ON notice TO ${ROLE};
INSERT INTO notice (body) VALUES ('n-1');
`;

const table = (name: string, select: unknown[]) => ({ table: { schema: 'public', name }, select_permissions: select });
const METADATA = {
  version: 3,
  sources: [{
    name: 'default', kind: 'postgres', configuration: {}, functions: [],
    tables: [
      { ...table('message', [{ role: 'user', permission: { columns: ['id', 'user_id', 'body'], filter: { user_id: { _eq: 'X-Svc-User-Id' } } } }]),
        object_relationships: [{ name: 'author', using: { manual_configuration: { remote_table: { schema: 'public', name: 'author' }, column_mapping: { user_id: 'id' } } } }] },
      table('author', []),
      table('other', []),
      table('notice', []),
    ],
  }],
};

const ADMIN = { 'x-svc-admin-secret': 'secret' };
const user = (id: number) => ({ 'x-svc-admin-secret': 'secret', 'x-svc-role': 'user', 'x-svc-user-id': String(id) });
const bodies = (m: Msg): string[] => ((m.payload as { data: { message: { body: string }[] } }).data.message).map((r) => r.body);
const SUB = 'subscription { message(order_by: {id: asc}) { body } }';

let db: TestDatabase;
let roleUrl: string;

// The server's LISTEN session, once it holds (null while there is none).
async function listenerPid(): Promise<number | null> {
  const rows = await db.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'kiln-change-feed' AND query LIKE 'LISTEN%'`, [db.name]);
  return rows[0]?.pid ?? null;
}

async function until<T>(what: string, f: () => Promise<T | null | false>, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== null && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// A subscriber whose first result arrived, once the feed watches its tables (trigger in place, LISTEN holding).
async function subscribe(kiln: SubsServer, headers: Record<string, string>, query = SUB): Promise<Client> {
  const c = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
  await c.init(headers);
  c.send({ type: 'subscribe', id: 's', payload: { query } });
  await c.next((m) => m.id === 's' && m.type === 'next');
  await until('the change trigger', async () => (await db.query(`SELECT 1 FROM pg_trigger WHERE tgname = 'svc_live_change' AND tgrelid = 'message'::regclass`)).length > 0);
  await until('LISTEN', listenerPid);
  await sleep(150); // the catch-up refetch made when the feed turned healthy
  return c;
}

beforeAll(async () => {
  db = await createTestDatabase('livenotify');
  await db.exec(SETUP.replace(':db', `"${db.name}"`));
  roleUrl = `${PG_ROOT.replace('://postgres@', `://${ROLE}@`)}/${db.name}`;
});

afterAll(async () => {
  await db?.drop();
  const admin = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
  await admin.connect();
  await admin.query(`DROP ROLE IF EXISTS ${ROLE}`);
  await admin.end();
});

describe('live queries on the change feed, with a 10 s poll interval', () => {
  let kiln: SubsServer;
  beforeAll(async () => {
    kiln = await startSubsServer({ metadata: METADATA, databaseUrl: roleUrl, adminSecret: 'secret', changeFeed: true,
      settings: { liveRefetchMs: 10_000, streamRefetchMs: 10_000, changeFeed: true, safetyRefetchMs: 0 } });
  });
  afterAll(async () => { await kiln?.close(); });

  it('pushes a committed insert within 1 s, and runs no statement while nothing changes', async () => {
    const c = await subscribe(kiln, ADMIN);
    kiln.resetStatements();
    await sleep(2500);
    expect(kiln.allStatements()).toEqual([]);
    expect(c.results('s')).toEqual([]);
    const t0 = Date.now();
    await db.exec(`INSERT INTO message (user_id, body) VALUES (3, 'fed-1')`);
    const pushed = await c.next((m) => m.id === 's', 1000);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(bodies(pushed)).toContain('fed-1');
    expect(kiln.statements()).toHaveLength(1);
    c.close();
  });

  it('refetches once for a transaction of many statements, and not at all for a table the plan does not read', async () => {
    const c = await subscribe(kiln, ADMIN);
    kiln.resetStatements();
    await db.exec(`INSERT INTO other (note) VALUES ('x'); UPDATE other SET note = 'y'; DELETE FROM other`);
    await sleep(600);
    expect(kiln.allStatements()).toEqual([]);
    expect(c.results('s')).toEqual([]);
    await db.exec(`BEGIN; ${Array.from({ length: 20 }, (_, i) => `INSERT INTO message (user_id, body) VALUES (3, 'burst-${i}');`).join(' ')} COMMIT;`);
    const pushed = await c.next((m) => m.id === 's', 1000);
    expect(bodies(pushed)).toContain('burst-19');
    await sleep(300);
    expect(kiln.statements()).toHaveLength(1);
    c.close();
  });

  it('refetches when a table read through a relationship changes', async () => {
    const c = await subscribe(kiln, ADMIN, 'subscription { message(where: {user_id: {_eq: 1}}, order_by: {id: asc}) { body author { name } } }');
    await until('the trigger on author', async () => (await db.query(`SELECT 1 FROM pg_trigger WHERE tgname = 'svc_live_change' AND tgrelid = 'author'::regclass`)).length > 0);
    await sleep(150);
    kiln.resetStatements();
    await db.exec(`UPDATE author SET name = 'ann-2' WHERE id = 1`);
    const pushed = await c.next((m) => m.id === 's', 1000);
    expect(JSON.stringify(pushed.payload)).toContain('ann-2');
    expect(kiln.statements()).toHaveLength(1);
    c.close();
  });

  it('puts back a trigger dropped meanwhile when a new plan reads the table', async () => {
    await db.exec('DROP TRIGGER svc_live_change ON message');
    const c = await subscribe(kiln, ADMIN, 'subscription { message(order_by: {id: desc}, limit: 1) { body } }');
    kiln.resetStatements();
    await db.exec(`INSERT INTO message (user_id, body) VALUES (3, 'after-drop')`);
    expect(bodies(await c.next((m) => m.id === 's', 1000))).toEqual(['after-drop']);
    c.close();
  });

  it('refetches with each role\'s filter: a change of user 1\'s rows reaches user 1 only', async () => {
    const a = await subscribe(kiln, user(1));
    const b = await subscribe(kiln, user(2));
    expect(a.results('s')).toEqual([]);
    kiln.resetStatements();
    await db.exec(`INSERT INTO message (user_id, body) VALUES (1, 'u1-fed')`);
    const pushed = await a.next((m) => m.id === 's', 1000);
    expect(bodies(pushed)).toEqual(['u1-a', 'u1-fed']);
    await sleep(400);
    expect(b.results('s')).toEqual([]);
    // One statement for both users' cohorts, with user 1's filter in it.
    expect(kiln.statements()).toHaveLength(1);
    await db.exec(`UPDATE message SET body = 'u2-b' WHERE user_id = 2`);
    expect(bodies(await b.next((m) => m.id === 's', 1000))).toEqual(['u2-b']);
    expect(a.results('s')).toEqual([]);
    a.close();
    b.close();
  });
});

describe('streaming subscriptions on the change feed, with a 10 s poll interval', () => {
  let kiln: SubsServer;
  beforeAll(async () => {
    kiln = await startSubsServer({ metadata: METADATA, databaseUrl: roleUrl, adminSecret: 'secret', changeFeed: true,
      settings: { liveRefetchMs: 10_000, streamRefetchMs: 10_000, changeFeed: true, safetyRefetchMs: 0 } });
  });
  afterAll(async () => { await kiln?.close(); });

  it('streams a committed row within 1 s and runs nothing in between', async () => {
    const top = (await db.query<{ id: number }>('SELECT max(id) AS id FROM message'))[0]!.id;
    const c = await subscribe(kiln, ADMIN, `subscription { message_stream(batch_size: 10, cursor: {initial_value: {id: ${top - 1}}}) { id body } }`);
    kiln.resetStatements();
    await sleep(1500);
    expect(kiln.allStatements()).toEqual([]);
    const t0 = Date.now();
    await db.exec(`INSERT INTO message (user_id, body) VALUES (3, 'streamed')`);
    const pushed = await c.next((m) => m.id === 's', 1000);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(JSON.stringify(pushed.payload)).toContain('streamed');
    expect(kiln.statements()).toHaveLength(1);
    c.close();
  });
});

describe('the interval poll as the fallback', () => {
  let kiln: SubsServer;
  const logged: string[] = [];
  beforeAll(async () => {
    kiln = await startSubsServer({ metadata: METADATA, databaseUrl: roleUrl, adminSecret: 'secret', changeFeed: true, log: (l) => logged.push(l),
      settings: { liveRefetchMs: 500, streamRefetchMs: 500, changeFeed: true, safetyRefetchMs: 0 } });
  });
  afterAll(async () => {
    await db.exec(`ALTER ROLE ${ROLE} CONNECTION LIMIT -1`);
    await kiln?.close();
  });

  it('polls a plan whose value is relative to the clock (now()): its result changes with no commit', async () => {
    const c = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
    await c.init(ADMIN);
    c.send({ type: 'subscribe', id: 's', payload: { query: 'subscription { message_aggregate(where: {at: {_gt: "now()"}}) { aggregate { count } } }' } });
    await c.next((m) => m.id === 's');
    kiln.resetStatements();
    await sleep(1200);
    // On the interval (500 ms), not on the feed: it watches no table, so no LISTEN is opened for it.
    expect(kiln.statements().length).toBeGreaterThanOrEqual(2);
    expect(await listenerPid()).toBeNull();
    c.close();
    await sleep(100);
  });

  it('polls while the LISTEN connection is gone, and stops polling once LISTEN holds again', async () => {
    const c = await subscribe(kiln, ADMIN);
    kiln.resetStatements();
    await sleep(1200);
    expect(kiln.allStatements()).toEqual([]);
    // Kill the LISTEN session and keep it from coming back: the role may open no more connections than its pool has.
    const pid = (await listenerPid())!;
    const open = await db.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE usename = $1 AND pid <> $2`, [ROLE, pid]);
    await db.exec(`ALTER ROLE ${ROLE} CONNECTION LIMIT ${Number(open[0]!.n)}`);
    await db.query('SELECT pg_terminate_backend($1)', [pid]);
    await until('the listener to go', async () => (await listenerPid()) === null);
    await sleep(300);
    kiln.resetStatements();
    await db.exec(`INSERT INTO message (user_id, body) VALUES (3, 'polled')`);
    expect(bodies(await c.next((m) => m.id === 's', 2000))).toContain('polled');
    await sleep(1100);
    expect(kiln.statements().length).toBeGreaterThanOrEqual(2); // the poll runs on its interval now
    // LISTEN again: the polls stop, and changes come on notifications.
    await db.exec(`ALTER ROLE ${ROLE} CONNECTION LIMIT -1`);
    const again = await until('LISTEN again', listenerPid, 8000);
    expect(again).not.toBe(pid);
    await sleep(600);
    kiln.resetStatements();
    await sleep(1200);
    expect(kiln.allStatements()).toEqual([]);
    await db.exec(`INSERT INTO message (user_id, body) VALUES (3, 'fed-again')`);
    expect(bodies(await c.next((m) => m.id === 's', 1000))).toContain('fed-again');
    c.close();
  });

  it('gives up a trigger that waits for a busy table after 2 s (writers queued behind it wait no longer), and polls the table', async () => {
    const holder = new pg.Client({ connectionString: `${PG_ROOT}/${db.name}` });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`INSERT INTO other (note) VALUES ('held')`);
    const c = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
    await c.init(ADMIN);
    c.send({ type: 'subscribe', id: 'o', payload: { query: 'subscription { other(order_by: {id: asc}) { note } }' } });
    await c.next((m) => m.id === 'o');
    await sleep(300); // CREATE TRIGGER is waiting for the holder's transaction now
    // A writer arriving meanwhile queues behind it, but only until its lock timeout, not until the holder commits.
    const t0 = Date.now();
    await db.exec(`INSERT INTO other (note) VALUES ('free')`);
    expect(Date.now() - t0).toBeLessThan(3000);
    await until('the warning', async () => logged.some((l) => l.includes('public.other')), 3000);
    await holder.query('COMMIT');
    await holder.end();
    expect(await db.query(`SELECT 1 FROM pg_trigger WHERE tgname = 'svc_live_change' AND tgrelid = 'other'::regclass`)).toEqual([]);
    const seen = async () => c.results('o').some((m) => JSON.stringify(m.payload).includes('held'));
    await until('the held row by polling', seen, 3000);
    c.close();
  });

  it('polls a table it may not put a trigger on, and says so once', async () => {
    const c = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
    await c.init(ADMIN);
    c.send({ type: 'subscribe', id: 'n', payload: { query: 'subscription { notice(order_by: {id: asc}) { body } }' } });
    await c.next((m) => m.id === 'n');
    await until('the warning', async () => logged.some((l) => l.includes('cannot create their change trigger') && l.includes('public.notice')));
    await db.exec(`INSERT INTO notice (body) VALUES ('n-2')`);
    const pushed = await c.next((m) => m.id === 'n', 2000);
    expect(JSON.stringify(pushed.payload)).toContain('n-2');
    expect(logged.filter((l) => l.includes('public.notice'))).toHaveLength(1);
    c.close();
  });
});
