// Network faults under the long-running parts of a served Kiln: a live-query subscription's
// poller, event trigger delivery, and the metadata change listener. After each fault the
// process lives, /healthz answers, and the work resumes: the subscription gets the new rows,
// every captured event reaches the webhook, and a metadata change made by another instance is
// picked up on a re-established LISTEN.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { Client } from '../subscriptions/helpers.js';
import { startWebhook, type Webhook } from '../workers/webhook-server.js';
import { assertServing, eventually, startServed, type Served } from './served.js';

const SETUP = `
CREATE TABLE item (id int PRIMARY KEY, n int NOT NULL);
CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL);
INSERT INTO item VALUES (1, 0);
`;

let s: Served;
let hook: Webhook;

beforeAll(async () => {
  s = await startServed('faultbg', SETUP, ['item', 'note']);
  // Slow answers keep deliveries in flight when the faults hit.
  hook = await startWebhook(() => ({ status: 200, body: '{}', delayMs: 150 }));
});

afterAll(async () => {
  await hook?.close();
  await s?.close();
});

async function queryWorks(): Promise<boolean> {
  const r = await s.gql('{ item(where: {id: {_eq: 1}}) { id } }');
  return JSON.stringify(r.body) === '{"data":{"item":[{"id":1}]}}';
}

describe('faults under subscriptions', () => {
  it('keeps a live query polling through a cut and an outage, and resumes with the new rows', async () => {
    const c = await Client.open(`ws://127.0.0.1:${s.port}/v1/graphql`, 'graphql-transport-ws');
    try {
      await c.init({});
      c.send({ id: '1', type: 'subscribe', payload: { query: 'subscription { note(order_by: {id: asc}) { id } }' } });
      expect((await c.next((m) => m.id === '1' && m.type === 'next')).payload).toEqual({ data: { note: [] } });
      s.proxy.cut();
      s.proxy.refuse(true);
      // While the database cannot be reached the subscriber is told, and stays subscribed.
      const during = await c.next((m) => m.id === '1' && m.type === 'next', 5000);
      expect(during.payload).toEqual({ errors: [{ message: 'connection error', extensions: { path: '$', code: 'postgres-error' } }] });
      s.proxy.refuse(false);
      await s.db.exec(`INSERT INTO note VALUES (1, 'after the outage')`);
      const after = await c.next((m) => m.id === '1' && m.type === 'next', 8000);
      expect(after.payload).toEqual({ data: { note: [{ id: 1 }] } });
      expect(c.closed).toBeNull();
    } finally {
      c.close();
    }
    await assertServing(s, queryWorks);
  });
});

describe('faults under event delivery', () => {
  it('delivers every captured event although connections are cut and reset while events are claimed and sent', async () => {
    const created = await s.metadata({ type: 'pg_create_event_trigger', args: { name: 'note_ev', table: 'note', webhook: `${hook.url}/ev`,
      insert: { columns: '*' }, retry_conf: { num_retries: 5, interval_sec: 1 } } });
    expect(created).toEqual({ status: 200, body: { message: 'success' } });
    await s.db.exec(`INSERT INTO note SELECT i, 'n' || i FROM generate_series(100, 139) i`);
    // Faults while the 40 events are being claimed, delivered and recorded.
    await hook.waitFor(3, 10_000);
    s.proxy.cut();
    await new Promise((r) => setTimeout(r, 300));
    s.proxy.reset();
    await new Promise((r) => setTimeout(r, 300));
    s.proxy.refuse(true);
    await new Promise((r) => setTimeout(r, 500));
    s.proxy.refuse(false);
    // Every event is delivered (at least once: a call whose outcome could not be recorded is
    // sent again) and marked delivered in the log.
    await eventually(async () => {
      const [c] = await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM svc_catalog.event_log WHERE trigger_name = 'note_ev' AND delivered`);
      return c!.n === 40 ? true : undefined;
    }, 30_000);
    const ids = new Set(hook.received.filter((r) => r.url === '/ev').map((r) => r.body.event.data.new.id as number));
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => 100 + i));
    const [pending] = await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM svc_catalog.event_log WHERE NOT delivered`);
    expect(pending!.n).toBe(0);
    await assertServing(s, queryWorks);
  });
});

describe('faults under the metadata listener', () => {
  it('listens again after its connection is cut and picks up a change another instance made meanwhile', async () => {
    // A second instance on the same catalog, connected directly (no proxy): it makes the change.
    const other = await serveCommand({
      databaseUrl: s.db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 2,
      stringifyNumericTypes: false, console: false, eventsFetchInterval: 1000,
    });
    try {
      const listeners = async (): Promise<number[]> => (await s.db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN %' AND client_port IS NOT NULL`, [s.db.name])).map((r) => r.pid);
      const before = await eventually(async () => ((await listeners()).length === 2 ? await listeners() : undefined));
      s.proxy.cut();
      s.proxy.refuse(true);
      // The change is committed and notified while this instance cannot hear it.
      const post = await fetch(`http://127.0.0.1:${other.port}/v1/metadata`, { method: 'POST',
        body: JSON.stringify({ type: 'pg_untrack_table', args: { table: 'item' } }), headers: { 'content-type': 'application/json' } });
      expect(post.status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      s.proxy.refuse(false);
      // A new LISTEN session through the proxy (a backend not seen before) ...
      await eventually(async () => {
        const now = await listeners();
        return now.length === 2 && now.some((p) => !before.includes(p)) ? true : undefined;
      }, 15_000);
      // ... and the change caught up: this instance no longer serves `item`.
      await eventually(async () => {
        const r = await s.gql('{ item { id } }');
        return r.body.errors?.[0]?.extensions?.code === 'validation-failed' ? true : undefined;
      }, 10_000);
      s.assertNoCrash();
      expect(await s.health()).toEqual({ status: 200, text: 'OK' });
      const notes = await s.gql('{ note(where: {id: {_eq: 1}}) { id } }');
      expect(notes.body).toEqual({ data: { note: [{ id: 1 }] } });
    } finally {
      await other.close();
    }
  });
});
