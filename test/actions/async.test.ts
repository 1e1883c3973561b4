// Asynchronous actions (reference/actions.md §4) with a real handler on 127.0.0.1: the mutation
// answers an id at once, the call waits in svc_catalog.hdb_action_log, a worker delivers it, and
// `<action>(id:)` gives the output (with relationships) to the session that made the call or to
// admin only. A call pending when the runtime stops is delivered by the next one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { Client } from '../subscriptions/helpers.js';
import { startHandler, type HandlerServer } from './handler-server.js';

describe('asynchronous actions', () => {
  let db: TestDatabase;
  let handler: HandlerServer;
  let server: { port: number; close(): Promise<void> } | null = null;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> =>
    postJson(`http://127.0.0.1:${server!.port}`, path, body, headers);
  const md = (type: string, args: unknown): Promise<{ status: number; body: any }> => post('/v1/metadata', { type, args });
  const gql = (query: string, headers: Record<string, string> = {}) => post('/v1/graphql', { query }, headers);
  const user = (id: string) => ({ 'x-svc-role': 'user', 'x-svc-user-id': id });
  const start = async (intervalMs: number): Promise<void> => {
    process.env['SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL'] = String(intervalMs);
    server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false });
  };
  const result = (id: string, headers: Record<string, string> = {}) =>
    gql(`{ place_order(id: "${id}") { id created_at errors output { order_id account { name } } } }`, headers);
  // Reads the result until the worker has stored it (or 10 s pass).
  const settled = async (id: string, headers: Record<string, string> = {}): Promise<any> => {
    for (let i = 0; i < 100; i++) {
      const r = await result(id, headers);
      if (r.body.data?.place_order?.output || r.body.data?.place_order?.errors) return r.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the call was not delivered');
  };

  beforeAll(async () => {
    handler = await startHandler();
    handler.route('/order', (b) => (b.input.qty > 0 ? { body: { order_id: 100 + b.input.qty, account_id: 1 }, delayMs: b.input.qty === 9 ? 1500 : 0 }
      : { status: 400, body: { message: 'qty must be positive' } }));
    db = await createTestDatabase('actions_async', `CREATE TABLE account (id int PRIMARY KEY, name text NOT NULL);
      INSERT INTO account VALUES (1, 'alice');`);
    await start(100);
    expect((await md('pg_track_table', { table: 'account' })).status).toBe(200);
    expect((await md('pg_create_select_permission', { table: 'account', role: 'user', permission: { columns: ['name'], filter: {} } })).status).toBe(200);
    expect((await md('set_custom_types', { objects: [{ name: 'OrderOut', fields: [{ name: 'order_id', type: 'Int!' }, { name: 'account_id', type: 'Int' }],
      relationships: [{ name: 'account', type: 'object', remote_table: 'account', field_mapping: { account_id: 'id' } }] }] })).status).toBe(200);
    expect((await md('create_action', { name: 'place_order', definition: { kind: 'asynchronous', handler: `${handler.base}/order`, output_type: 'OrderOut',
      arguments: [{ name: 'qty', type: 'Int!' }] } })).status).toBe(200);
    expect((await md('create_action_permission', { action: 'place_order', role: 'user' })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await handler?.close();
    await db?.drop();
    delete process.env['SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL'];
  });

  it('types the mutation as uuid! and the result as <action>(id:) on query and subscription roots', async () => {
    const r = await gql(`{ m: __type(name: "mutation_root") { fields { name type { kind ofType { name } } } }
      q: __type(name: "place_order") { fields { name type { name kind ofType { name } } } }
      s: __type(name: "subscription_root") { fields { name } } }`, user('1'));
    expect(r.body.data.m.fields).toEqual([{ name: 'place_order', type: { kind: 'NON_NULL', ofType: { name: 'uuid' } } }]);
    expect(r.body.data.q.fields.map((f: any) => f.name)).toEqual(['created_at', 'errors', 'id', 'output']);
    expect(r.body.data.s.fields.map((f: any) => f.name)).toContain('place_order');
  });

  it('answers the id at once; the worker delivers; the creator reads the output with its relationship', async () => {
    const m = await gql('mutation { place_order(qty: 3) }', user('1'));
    const id = m.body.data.place_order as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const body = await settled(id, user('1'));
    expect(body.data.place_order).toMatchObject({ id, errors: null, output: { order_id: 103, account: { name: 'alice' } } });
    expect(typeof body.data.place_order.created_at).toBe('string');
    // Hasura's ActionWebhookPayload keeps request_query, Nothing for an asynchronous call, as null.
    expect(handler.received.at(-1)!.body).toEqual({ action: { name: 'place_order' }, input: { qty: 3 }, session_variables: { 'x-svc-role': 'user', 'x-svc-user-id': '1' },
      request_query: null });
    // Another user of the same role reads nothing; admin reads it.
    expect((await result(id, user('2'))).body).toEqual({ data: { place_order: null } });
    expect((await result(id)).body.data.place_order.output.order_id).toBe(103);
  });

  it('stores a handler error as the call\'s errors', async () => {
    const id = (await gql('mutation { place_order(qty: 0) }', user('1'))).body.data.place_order as string;
    const body = await settled(id, user('1'));
    // Hasura stores the QErr itself, {path, error, code} (test/fidelity/async-action-errors.test.ts).
    expect(body.data.place_order).toMatchObject({ output: null, errors: { path: '$', error: 'qty must be positive', code: 'unexpected' } });
  });

  it('delivers a call that was pending, or left processing, when the runtime stopped', async () => {
    await server!.close();
    await start(0);
    const pending = (await gql('mutation { place_order(qty: 5) }', user('1'))).body.data.place_order as string;
    const stuck = (await gql('mutation { place_order(qty: 6) }', user('1'))).body.data.place_order as string;
    await db.exec(`UPDATE svc_catalog.hdb_action_log SET status = 'processing' WHERE id = '${stuck}'`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await result(pending, user('1'))).body.data.place_order.output).toBeNull();
    await server!.close();
    await start(100);
    expect((await settled(pending, user('1'))).data.place_order.output.order_id).toBe(105);
    expect((await settled(stuck, user('1'))).data.place_order.output.order_id).toBe(106);
  });

  it('pushes the result to a subscription when it arrives', async () => {
    const id = (await gql('mutation { place_order(qty: 9) }', user('1'))).body.data.place_order as string;
    const client = await Client.open(`ws://127.0.0.1:${server!.port}/v1/graphql`, 'graphql-transport-ws');
    try {
      await client.init(user('1'));
      client.send({ id: 's', type: 'subscribe', payload: { query: `subscription { place_order(id: "${id}") { output { order_id } } }` } });
      const first = await client.next((m) => m.id === 's' && m.type === 'next');
      expect(first.payload).toEqual({ data: { place_order: { output: null } } });
      const second = await client.next((m) => m.id === 's' && m.type === 'next', 6000);
      expect(second.payload).toEqual({ data: { place_order: { output: { order_id: 109 } } } });
    } finally {
      client.close();
    }
  });

  it('refuses an id that is not a uuid', async () => {
    const r = await result('nope', user('1'));
    expect(r.body.errors[0]).toMatchObject({ message: 'invalid uuid: "nope"', extensions: { code: 'validation-failed' } });
  });

  it('drop_action keeps the logged calls with clear_data false, and deletes them by default', async () => {
    const count = async () => Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM svc_catalog.hdb_action_log WHERE action_name = 'place_order'`))[0]!.n);
    expect(await count()).toBeGreaterThan(0);
    const definition = (await md('export_metadata', {})).body.actions[0];
    expect((await md('drop_action', { name: 'place_order', clear_data: false })).status).toBe(200);
    expect(await count()).toBeGreaterThan(0);
    expect((await gql('mutation { place_order(qty: 1) }')).body.errors[0].message).toContain('place_order');
    expect((await md('create_action', { name: 'place_order', definition: definition.definition })).status).toBe(200);
    expect((await md('drop_action', { name: 'place_order' })).status).toBe(200);
    expect(await count()).toBe(0);
  });
});
