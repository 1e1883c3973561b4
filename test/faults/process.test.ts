// The built `kiln serve`, as a child process, with its database behind the fault proxy: the
// faults that used to end the process (a connection cut while a query waits on a lock, a reset
// of every connection) leave it running, answering /healthz and requests, and it still stops
// cleanly on SIGTERM.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort, serve, type Served } from '../cli/cli-helpers.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { holdRowLock, untilLockWait } from './served.js';
import { postJson } from '../helpers/http.js';

let db: TestDatabase;
let proxy: TcpProxy;
let kiln: Served;

const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => postJson(kiln.base, path, body);

beforeAll(async () => {
  await ensureBuilt();
  db = await createTestDatabase('faultproc', 'CREATE TABLE item (id int PRIMARY KEY); INSERT INTO item VALUES (1), (2);');
  proxy = await startTcpProxy();
  kiln = await serve(['--database-url', proxy.via(db.url), '--port', String(await freePort()), '--host', '127.0.0.1', '--no-console', '--pg-connections', '2']);
  expect(await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'item' } })).toEqual({ status: 200, body: { message: 'success' } });
}, 180_000);

afterAll(async () => {
  await kiln?.stop();
  await proxy?.close();
  await db?.drop();
});

async function healthy(): Promise<void> {
  const h = await fetch(`${kiln.base}/healthz`);
  expect([h.status, await h.text()]).toEqual([200, 'OK']);
  // The first request after a fault may meet a pooled connection whose loss is not seen yet.
  for (let i = 0; i < 50; i++) {
    const r = await post('/v1/graphql', { query: '{ item(order_by: {id: asc}) { id } }' });
    if (!r.body.errors) break;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  expect(await post('/v1/graphql', { query: '{ item(order_by: {id: asc}) { id } }' })).toEqual({ status: 200, body: { data: { item: [{ id: 1 }, { id: 2 }] } } });
}

describe('kiln serve (child process) under database faults', () => {
  it('lives through a connection cut while a query waits on a lock', async () => {
    await healthy();
    const lock = await holdRowLock(db.url, 'LOCK TABLE item IN ACCESS EXCLUSIVE MODE');
    let answer: { status: number; body: any };
    try {
      const pending = post('/v1/graphql', { query: '{ item { id } }' });
      await untilLockWait(db);
      proxy.cut();
      answer = await pending;
    } finally {
      await lock.release();
    }
    expect(answer).toEqual({ status: 200, body: { errors: [{ message: 'connection error', extensions: { path: '$', code: 'postgres-error' } }] } });
    await healthy();
    expect(kiln.log()).not.toMatch(/Unhandled|uncaught/i);
  });

  it('lives through a reset of every connection (catalog, listener, workers, sources)', async () => {
    proxy.reset();
    await new Promise((r) => setTimeout(r, 300));
    proxy.reset();
    await healthy();
    // The metadata API (the catalog connection) works again too.
    expect(await post('/v1/metadata', { type: 'export_metadata', args: {} })).toMatchObject({ status: 200 });
  });

  it('still stops cleanly on SIGTERM', async () => {
    expect(await kiln.stop()).toBe(0);
  });
});
