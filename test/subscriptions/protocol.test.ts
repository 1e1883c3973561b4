// The two sub-protocols' rules over a real socket: auth at connection_init, errors in each
// protocol's shape, keep-alives, queries over the socket, close codes, shutdown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { MAX_OPERATIONS, MAX_PENDING_INITS } from '../../runtime/subscriptions/index.js';
import { Client, startSubsServer, type SubsServer } from './helpers.js';

const SETUP = `CREATE TABLE note (id int PRIMARY KEY, owner int NOT NULL, body text NOT NULL);
INSERT INTO note VALUES (1, 1, 'one'), (2, 2, 'two');`;
const METADATA = {
  version: 3,
  sources: [{
    name: 'default', kind: 'postgres', configuration: {}, functions: [],
    tables: [{
      table: { schema: 'public', name: 'note' },
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'body'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } }],
    }],
  }],
};
const ADMIN = { 'x-svc-admin-secret': 'secret' };

let db: TestDatabase;
let kiln: SubsServer;

beforeAll(async () => {
  db = await createTestDatabase('subs_proto', SETUP);
  kiln = await startSubsServer({ metadata: METADATA, databaseUrl: db.url, adminSecret: 'secret', settings: { initTimeoutMs: 300, keepAliveMs: 150 } });
});

afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

describe('graphql-transport-ws', () => {
  const open = () => Client.open(kiln.wsUrl, 'graphql-transport-ws');

  it('refuses bad credentials with 4403', async () => {
    const c = await open();
    c.send({ type: 'connection_init', payload: { headers: { 'x-svc-admin-secret': 'wrong' } } });
    const closed = await c.waitClosed();
    expect(closed.code).toBe(4403);
    expect(closed.reason).toContain('invalid x-svc-admin-secret/x-svc-access-key');
    expect(c.messages).toEqual([]);
  });

  it('answers a bad query with an error message in the protocol shape, and the socket stays usable', async () => {
    const c = await open();
    await c.init(ADMIN);
    c.send({ type: 'subscribe', id: '1', payload: { query: 'subscription { nope { id } }' } });
    const err = await c.next((m) => m.id === '1');
    expect(err).toEqual({ type: 'error', id: '1', payload: [{ message: 'field "nope" not found in type: \'query_root\'', extensions: { path: '$.selectionSet.nope', code: 'validation-failed' } }] });
    c.send({ type: 'subscribe', id: '2', payload: { query: 'subscription { note_by_pk(id: 1) { body } }' } });
    expect(await c.next((m) => m.id === '2')).toEqual({ type: 'next', id: '2', payload: { data: { note_by_pk: { body: 'one' } } } });
    c.close();
  });

  it('runs queries over the socket: one result, then complete', async () => {
    const c = await open();
    await c.init({ ...ADMIN, 'x-svc-role': 'user', 'x-svc-user-id': '2' });
    c.send({ type: 'subscribe', id: 'q', payload: { query: 'query { note { id body } }' } });
    expect(await c.next((m) => m.id === 'q')).toEqual({ type: 'next', id: 'q', payload: { data: { note: [{ id: 2, body: 'two' }] } } });
    expect(await c.next((m) => m.id === 'q')).toEqual({ type: 'complete', id: 'q' });
    c.close();
  });

  it('reports a missing session variable the permission needs', async () => {
    const c = await open();
    await c.init({ ...ADMIN, 'x-svc-role': 'user' });
    c.send({ type: 'subscribe', id: 'm', payload: { query: 'subscription { note { id } }' } });
    const err = await c.next((m) => m.id === 'm');
    expect(err.type).toBe('error');
    expect((err.payload as { message: string }[])[0]!.message).toBe('missing session variable: "x-svc-user-id"');
    c.close();
  });

  it('closes with 4401 on subscribe before init, 4409 on a duplicate id, 4400 on garbage', async () => {
    const a = await open();
    a.send({ type: 'subscribe', id: '1', payload: { query: 'subscription { note { id } }' } });
    expect((await a.waitClosed()).code).toBe(4401);

    const b = await open();
    await b.init(ADMIN);
    b.send({ type: 'subscribe', id: '1', payload: { query: 'subscription { note { id } }' } });
    b.send({ type: 'subscribe', id: '1', payload: { query: 'subscription { note { id } }' } });
    expect(await b.waitClosed()).toEqual({ code: 4409, reason: 'Subscriber for 1 already exists' });

    const d = await open();
    d.ws.send('not json');
    expect((await d.waitClosed()).code).toBe(4400);
  });

  it('closes with 4408 when no connection_init comes in time', async () => {
    const c = await open();
    expect((await c.waitClosed(2000)).code).toBe(4408);
  });

  it('answers ping with pong and pings while idle', async () => {
    const c = await open();
    await c.init(ADMIN);
    c.send({ type: 'ping', payload: { n: 1 } });
    expect(await c.next((m) => m.type === 'pong')).toEqual({ type: 'pong', payload: { n: 1 } });
    expect((await c.next((m) => m.type === 'ping', 1000)).type).toBe('ping');
    c.close();
  });
});

describe('graphql-ws (legacy)', () => {
  const open = () => Client.open(kiln.wsUrl, 'graphql-ws');

  it('refuses bad credentials with connection_error, then closes', async () => {
    const c = await open();
    c.send({ type: 'connection_init', payload: { headers: { 'x-svc-admin-secret': 'wrong' } } });
    expect(await c.next()).toEqual({ type: 'connection_error', payload: 'invalid x-svc-admin-secret/x-svc-access-key' });
    expect((await c.waitClosed()).code).toBe(1000);
  });

  it('acks with a keep-alive, keeps sending ka, and answers a bad query with an error message', async () => {
    const c = await open();
    c.send({ type: 'connection_init', payload: { headers: ADMIN } });
    expect(await c.next()).toEqual({ type: 'connection_ack' });
    expect(await c.next()).toEqual({ type: 'ka' });
    expect(await c.next((m) => m.type === 'ka', 1000)).toEqual({ type: 'ka' });
    c.send({ type: 'start', id: '1', payload: { query: 'subscription { note { id nope } }' } });
    const err = await c.next((m) => m.id === '1');
    expect(err).toEqual({ type: 'error', id: '1', payload: { errors: [{ message: 'field "nope" not found in type: \'note\'', extensions: { path: '$.selectionSet.note.selectionSet.nope', code: 'validation-failed' } }] } });
    c.send({ type: 'start', id: '2', payload: { query: 'query { note_by_pk(id: 2) { body } }' } });
    expect(await c.next((m) => m.id === '2')).toEqual({ type: 'data', id: '2', payload: { data: { note_by_pk: { body: 'two' } } } });
    expect(await c.next((m) => m.id === '2')).toEqual({ type: 'complete', id: '2' });
    c.send({ type: 'connection_terminate' });
    expect((await c.waitClosed()).code).toBe(1000);
  });

  it('uses the upgrade request headers when connection_init carries none', async () => {
    const c = await open();
    c.send({ type: 'connection_init', payload: {} });
    expect(await c.next()).toEqual({ type: 'connection_error', payload: 'x-svc-admin-secret/x-svc-access-key required, but not found' });
  });
});

describe('connection_init floods', () => {
  // Every init is answered (re-initialising is allowed), but a socket holds at most
  // MAX_PENDING_INITS of them waiting at once: a burst past that closes it with 4429.
  for (const protocol of ['graphql-transport-ws', 'graphql-ws'] as const) {
    it(`${protocol}: a few inits back to back are each acknowledged`, async () => {
      const c = await Client.open(kiln.wsUrl, protocol);
      for (let i = 0; i < 3; i++) c.send({ type: 'connection_init', payload: { headers: ADMIN } });
      for (let i = 0; i < 3; i++) await c.next((m) => m.type === 'connection_ack');
      expect(c.closed).toBeNull();
      c.close();
    });

    it(`${protocol}: a burst of inits past the bound closes the socket with 4429`, async () => {
      const c = await Client.open(kiln.wsUrl, protocol);
      // Sent in one synchronous burst: the server reads them before any init has resolved.
      for (let i = 0; i < MAX_PENDING_INITS + 4; i++) c.send({ type: 'connection_init', payload: { headers: ADMIN } });
      const closed = await c.waitClosed();
      expect(closed).toEqual({ code: 4429, reason: 'Too many initialisation requests' });
    });
  }
});

describe('operations per socket', () => {
  it(`a socket runs at most MAX_OPERATIONS operations at once; a start past it is refused alone`, async () => {
    const c = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
    await c.init(ADMIN);
    const query = 'subscription { note(order_by: {id: asc}) { id } }';
    for (let i = 0; i < MAX_OPERATIONS; i++) c.send({ type: 'subscribe', id: `s${i}`, payload: { query } });
    await c.next((m) => m.id === `s${MAX_OPERATIONS - 1}` && m.type === 'next', 10_000);
    c.send({ type: 'subscribe', id: 'over', payload: { query } });
    const refused = await c.next((m) => m.id === 'over');
    expect(refused.type).toBe('error');
    expect((refused.payload as { message: string }[])[0]!.message).toBe(`too many operations running on this connection (at most ${MAX_OPERATIONS}); stop one or open another connection`);
    expect(await c.next((m) => m.id === 'over')).toEqual({ type: 'complete', id: 'over' });
    // Stopping one makes room; the socket was never closed.
    c.send({ type: 'complete', id: 's0' });
    c.send({ type: 'subscribe', id: 'room', payload: { query } });
    expect(await c.next((m) => m.id === 'room')).toEqual({ type: 'next', id: 'room', payload: { data: { note: [{ id: 1 }, { id: 2 }] } } });
    expect(c.closed).toBeNull();
    c.close();
  });
});

describe('shutdown', () => {
  it('closes every socket with 1001 and stops polling', async () => {
    const own = await startSubsServer({ metadata: METADATA, databaseUrl: db.url, adminSecret: 'secret' });
    const a = await Client.open(own.wsUrl, 'graphql-transport-ws');
    const b = await Client.open(own.wsUrl, 'graphql-ws');
    await a.init(ADMIN);
    await b.init(ADMIN);
    a.send({ type: 'subscribe', id: '1', payload: { query: 'subscription { note { id } }' } });
    b.send({ type: 'start', id: '1', payload: { query: 'subscription { note { id } }' } });
    await a.next((m) => m.id === '1');
    await b.next((m) => m.id === '1');
    await own.close();
    expect((await a.waitClosed()).code).toBe(1001);
    expect((await b.waitClosed()).code).toBe(1001);
    own.resetStatements();
    await new Promise((r) => setTimeout(r, 300));
    expect(own.statements()).toEqual([]);
  });
});
