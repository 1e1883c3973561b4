// Graceful shutdown of the built `kiln serve` (a child process, real sockets): SIGTERM while
// clients keep writing loses no acknowledged request (every insert answered with its row is in
// the table), a request in flight is answered, nothing is answered 5xx, and the process exits 0.
// A request that would outlast SVC_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT does not hold the process:
// it exits once the grace period is over.

import pg from 'pg';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort, serve } from './cli-helpers.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';

let db: TestDatabase;

beforeAll(async () => {
  await ensureBuilt();
  db = await createTestDatabase('graceful', `
    CREATE TABLE entry (id serial PRIMARY KEY, client int NOT NULL, seq int NOT NULL);
    CREATE FUNCTION slow_entries(seconds float8) RETURNS SETOF entry LANGUAGE sql STABLE AS $$ SELECT e.* FROM entry e, pg_sleep(seconds) $$;`);
}, 120_000);

afterAll(async () => {
  await db?.drop();
});

async function startKiln(env: Record<string, string> = {}) {
  const kiln = await serve(['--database-url', db.url, '--port', String(await freePort()), '--host', '127.0.0.1', '--no-console', '--pg-connections', '4'],
    { env: { SVC_GRAPHQL_ENABLED_LOG_TYPES: 'startup', ...env } });
  for (const step of [
    { type: 'pg_track_table', args: { table: 'entry' } },
    { type: 'pg_track_function', args: { function: 'slow_entries' } },
  ]) {
    const r = await postJson(kiln.base, '/v1/metadata', step);
    if (r.status !== 200 && r.body?.code !== 'already-tracked') throw new Error(`${step.type}: ${JSON.stringify(r.body)}`);
  }
  return kiln;
}

const INSERT = 'mutation ($c: Int!, $s: Int!) { insert_entry_one(object: {client: $c, seq: $s}) { id } }';

describe('graceful shutdown', () => {
  it('SIGTERM while clients write: every acknowledged insert is kept, the request in flight is answered, no 5xx, exit 0', async () => {
    const kiln = await startKiln();
    const agent = new Agent({ connections: 2, keepAliveTimeout: 30_000 });
    const acknowledged: number[] = [];
    const fiveHundreds: number[] = [];
    let refused = 0;
    let stopping = false;
    // Eight clients on keep-alive connections, each writing until the server stops answering.
    const client = async (c: number): Promise<void> => {
      for (let s = 0; ; s++) {
        try {
          const res = await request(`${kiln.base}/v1/graphql`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: INSERT, variables: { c, s } }) });
          const body = await res.body.json() as { data?: { insert_entry_one?: { id: number } } };
          if (res.statusCode >= 500) fiveHundreds.push(res.statusCode);
          const id = body.data?.insert_entry_one?.id;
          if (id !== undefined) acknowledged.push(id);
        } catch {
          // Refused or reset: the server is going away; this request was never acknowledged.
          refused++;
          if (stopping) return;
          await new Promise((r) => setTimeout(r, 20));
        }
        if (stopping && refused > 50) return;
      }
    };
    const clients = Array.from({ length: 8 }, (_, c) => client(c));
    // A subscriber: its socket is closed with "going away" (1001), not dropped.
    const ws = new WebSocket(`${kiln.base.replace('http', 'ws')}/v1/graphql`, 'graphql-transport-ws');
    const wsClosed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    const wsAcked = new Promise<void>((r) => ws.on('message', (m) => { if (String(m).includes('connection_ack')) r(); }));
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    await wsAcked;
    ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { entry_aggregate { aggregate { count } } }' } }));
    // Writes are acknowledged before the signal (on a loaded machine 400 ms may hold fewer than
    // the count checked below), then a slow read is put in flight: it must still be answered.
    await new Promise((r) => setTimeout(r, 400));
    for (let waited = 0; acknowledged.length <= 20 && waited < 20_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const slow = postJson(kiln.base, '/v1/graphql', { query: '{ slow_entries(args: {seconds: 1.5}, limit: 1) { id } }' });
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    stopping = true;
    const code = await kiln.stop();
    const tookMs = Date.now() - signalled;
    await Promise.all(clients);
    await agent.close();

    expect(code).toBe(0);
    expect(await wsClosed).toBe(1001);
    expect(fiveHundreds).toEqual([]);
    const slowAnswer = await slow;
    expect(slowAnswer.status).toBe(200);
    expect(slowAnswer.body.errors).toBeUndefined();
    // The slow read held the process open until it was answered.
    expect(tookMs).toBeGreaterThan(500);
    expect(acknowledged.length).toBeGreaterThan(20);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const stored = new Set((await c.query<{ id: number }>('SELECT id FROM entry')).rows.map((r) => r.id));
      const lost = acknowledged.filter((id) => !stored.has(id));
      expect(lost).toEqual([]);
    } finally {
      await c.end();
    }
  }, 120_000);

  it('a request that would outlast the grace period does not keep the process: it exits when the grace period is over', async () => {
    const kiln = await startKiln({ SVC_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: '2' });
    const stuck = postJson(kiln.base, '/v1/graphql', { query: '{ slow_entries(args: {seconds: 60}, limit: 1) { id } }' }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 500));
    const signalled = Date.now();
    const code = await kiln.stop();
    const tookMs = Date.now() - signalled;
    // Within the grace period plus a margin; the test helper's own SIGKILL comes only after 5 s.
    expect(tookMs).toBeLessThan(4_500);
    expect(tookMs).toBeGreaterThanOrEqual(1_900);
    expect(code).not.toBeNull();
    expect(kiln.log()).toMatch(/grace period/);
    await stuck;
  }, 60_000);
});
