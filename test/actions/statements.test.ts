// Statement counts of actions with a real handler on 127.0.0.1 and real PostgreSQL (issue 18):
// the relationships of every output row (and the relationships nested under them) are read in one
// statement per source, under the caller's permissions.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { Client } from '../subscriptions/helpers.js';
import { startCountingServer, type CountingServer } from './counting-server.js';
import { startHandler, type HandlerServer } from './handler-server.js';

const asUser = { 'x-svc-role': 'user', 'x-svc-user-id': '7' };

describe('relationships from action output', () => {
  let db: TestDatabase;
  let handler: HandlerServer;
  let kiln: CountingServer;
  const gql = (query: string, headers: Record<string, string> = {}) => postJson(kiln.url, '/v1/graphql', { query }, headers);

  beforeAll(async () => {
    handler = await startHandler();
    handler.route('/find', (b) => ({ body: b.input.ids.map((id: number) => ({ id, account_id: id })) }));
    db = await createTestDatabase('actions_stmts', `CREATE TABLE account (id int PRIMARY KEY, name text NOT NULL, level int NOT NULL);
      INSERT INTO account SELECT i, 'acc' || i, i FROM generate_series(1, 40) i;
      CREATE TABLE note (id int PRIMARY KEY, account_id int NOT NULL REFERENCES account (id), body text NOT NULL, private boolean NOT NULL);
      INSERT INTO note SELECT i, 1 + i % 40, 'n' || i, i % 3 = 0 FROM generate_series(1, 200) i;`);
    kiln = await startCountingServer({ databases: { default: db.url }, metadata: { version: 3,
      sources: [{ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: db.url } }, tables: [
        { table: { schema: 'public', name: 'account' },
          array_relationships: [{ name: 'notes', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'note' }, column: 'account_id' } } }],
          select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: { level: { _lt: 30 } } } }] },
        { table: { schema: 'public', name: 'note' },
          object_relationships: [{ name: 'account', using: { foreign_key_constraint_on: 'account_id' } }],
          select_permissions: [{ role: 'user', permission: { columns: ['id', 'body'], filter: { private: { _eq: false } } } }] },
      ] }],
      custom_types: { objects: [{ name: 'Row', fields: [{ name: 'id', type: 'Int!' }, { name: 'account_id', type: 'Int' }],
        relationships: [{ name: 'account', type: 'object', remote_table: 'account', field_mapping: { account_id: 'id' } },
          { name: 'notes', type: 'array', remote_table: 'note', field_mapping: { account_id: 'account_id' } }] }] },
      actions: [{ name: 'find', definition: { type: 'query', handler: `${handler.base}/find`, output_type: '[Row!]!', arguments: [{ name: 'ids', type: '[Int!]!' }] },
        permissions: [{ role: 'user' }] }],
    } });
  });
  afterAll(async () => {
    await kiln?.close();
    await handler?.close();
    await db?.drop();
  });

  it('reads every output row\'s relationships, and those nested under them, in one statement under the role\'s permissions', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => i + 1);
    const query = `{ find(ids: [${ids.join(', ')}]) { id account { name notes(order_by: {id: asc}) { id account { id } } }
      notes(order_by: {id: asc}, limit: 2) { body } } }`;
    kiln.resetStatements();
    const r = await gql(query, asUser);
    expect(r.body.errors).toBeUndefined();
    const rows = r.body.data.find as any[];
    expect(rows).toHaveLength(40);
    // Rows the role cannot see: accounts of level 30 and more are null; private notes are left out.
    for (const row of rows) {
      if (row.id >= 30) expect(row.account).toBeNull();
      else expect(row.account.name).toBe(`acc${row.id}`);
    }
    const expected = (account: number): number[] => Array.from({ length: 200 }, (_, i) => i + 1).filter((n) => 1 + (n % 40) === account && n % 3 !== 0);
    expect(rows[4].account.notes.map((n: any) => n.id)).toEqual(expected(5));
    expect(rows[4].account.notes.every((n: any) => n.account.id === 5)).toBe(true);
    expect(rows[35].notes.map((n: any) => n.body)).toEqual(expected(36).slice(0, 2).map((n) => `n${n}`));
    const statements = kiln.statements('default');
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/FROM unnest\(\$1::int4\[\], \$2::text\[\]/);
    // The same statement text for 3 output rows as for 40: the rows are one parameter, not one subquery each.
    kiln.resetStatements();
    expect((await gql(query.replace(ids.join(', '), '1, 2, 3'), asUser)).body.data.find).toHaveLength(3);
    expect(kiln.statements('default')).toEqual(statements);
    // Admin reads the rows the role may not.
    kiln.resetStatements();
    const admin = await gql('{ find(ids: [35]) { account { name } } }');
    expect(admin.body).toEqual({ data: { find: [{ account: { name: 'acc35' } }] } });
    expect(kiln.statements('default')).toHaveLength(1);
  });

  it('runs no statement when the selection reaches no relationship', async () => {
    kiln.resetStatements();
    expect((await gql('{ find(ids: [1, 2]) { id } }', asUser)).body).toEqual({ data: { find: [{ id: 1 }, { id: 2 }] } });
    expect(kiln.statements('default')).toEqual([]);
  });
});

describe('relationships from action output to a second PostgreSQL source', () => {
  let main: TestDatabase;
  let second: TestDatabase;
  let handler: HandlerServer;
  let kiln: CountingServer;
  const gql = (query: string, headers: Record<string, string> = {}) => postJson(kiln.url, '/v1/graphql', { query }, headers);

  beforeAll(async () => {
    handler = await startHandler();
    handler.route('/orders', (b) => ({ body: b.input.ids.map((id: number) => ({ order_id: id, customer_id: id % 4, line: { sku: `s${id % 3}` } })) }));
    main = await createTestDatabase('actions_src1', `CREATE TABLE product (sku text PRIMARY KEY, title text NOT NULL, hidden boolean NOT NULL);
      INSERT INTO product VALUES ('s0', 'zero', false), ('s1', 'one', true), ('s2', 'two', false);`);
    second = await createTestDatabase('actions_src2', `CREATE TABLE customer (id int PRIMARY KEY, name text NOT NULL, owner text NOT NULL);
      INSERT INTO customer VALUES (0, 'c0', '7'), (1, 'c1', '7'), (2, 'c2', '8'), (3, 'c3', '7');
      CREATE TABLE visit (id int PRIMARY KEY, customer_id int NOT NULL, at int NOT NULL);
      INSERT INTO visit SELECT i, i % 4, i FROM generate_series(1, 20) i;`);
    kiln = await startCountingServer({ databases: { default: main.url, crm: second.url }, metadata: { version: 3,
      sources: [
        { name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: main.url } }, tables: [
          { table: { schema: 'public', name: 'product' }, select_permissions: [{ role: 'user', permission: { columns: ['sku', 'title'], filter: { hidden: { _eq: false } } } }] }] },
        { name: 'crm', kind: 'postgres', configuration: { connection_info: { database_url: second.url } }, tables: [
          { table: { schema: 'public', name: 'customer' }, select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } }] },
          { table: { schema: 'public', name: 'visit' }, select_permissions: [{ role: 'user', permission: { columns: ['at'], filter: {}, limit: 3 } }] }] },
      ],
      custom_types: { objects: [
        { name: 'Order', fields: [{ name: 'order_id', type: 'Int!' }, { name: 'customer_id', type: 'Int' }, { name: 'line', type: 'Line' }],
          relationships: [{ name: 'customer', type: 'object', source: 'crm', remote_table: { schema: 'public', name: 'customer' }, field_mapping: { customer_id: 'id' } },
            { name: 'visits', type: 'array', source: 'crm', remote_table: 'visit', field_mapping: { customer_id: 'customer_id' } }] },
        { name: 'Line', fields: [{ name: 'sku', type: 'String!' }],
          relationships: [{ name: 'product', type: 'object', remote_table: 'product', field_mapping: { sku: 'sku' } }] },
      ] },
      actions: [{ name: 'orders', definition: { type: 'query', handler: `${handler.base}/orders`, output_type: '[Order!]!', arguments: [{ name: 'ids', type: '[Int!]!' }] },
        permissions: [{ role: 'user' }, { role: 'guest' }] }],
    } });
  });
  afterAll(async () => {
    await kiln?.close();
    await handler?.close();
    await main?.drop();
    await second?.drop();
  });

  it('reads each source\'s relationships in one statement on that source, under the role\'s permission there', async () => {
    const query = '{ orders(ids: [1, 2, 3, 4, 5, 6]) { order_id customer { name } visits(order_by: {at: desc}) { at } line { sku product { title } } } }';
    kiln.resetStatements();
    const r = await gql(query, { 'x-svc-role': 'user', 'x-svc-user-id': '7' });
    expect(r.body.errors).toBeUndefined();
    const customer = (id: number) => (id % 4 === 2 ? null : { name: `c${id % 4}` });
    const product = (id: number) => (id % 3 === 1 ? null : { title: id % 3 === 0 ? 'zero' : 'two' });
    const visits = (c: number) => Array.from({ length: 20 }, (_, i) => 20 - i).filter((at) => at % 4 === c).slice(0, 3).map((at) => ({ at }));
    expect(r.body.data.orders).toEqual([1, 2, 3, 4, 5, 6].map((id) => ({ order_id: id, customer: customer(id), visits: visits(id % 4),
      line: { sku: `s${id % 3}`, product: product(id) } })));
    expect(kiln.statements('crm')).toHaveLength(1);
    expect(kiln.statements('default')).toHaveLength(1);
    expect(kiln.statements('crm')[0]).toContain('"customer"');
    expect(kiln.statements('default')[0]).toContain('"product"');
    // Admin sees every row of both sources.
    const admin = await gql('{ orders(ids: [2]) { customer { name } line { product { title } } } }');
    expect(admin.body).toEqual({ data: { orders: [{ customer: { name: 'c2' }, line: { product: { title: 'two' } } }] } });
  });

  it('shows a relationship on the second source only to roles that may select its table', async () => {
    const fields = async (role: string) => (await gql('{ __type(name: "Order") { fields { name } } }', { 'x-svc-role': role })).body.data.__type.fields.map((f: any) => f.name);
    expect(await fields('user')).toEqual(expect.arrayContaining(['order_id', 'customer', 'visits']));
    const guest = await fields('guest');
    expect(guest).toContain('order_id');
    expect(guest).not.toContain('customer');
    expect(guest).not.toContain('visits');
    const r = await gql('{ orders(ids: [1]) { customer { name } } }', { 'x-svc-role': 'guest' });
    expect(r.body.errors[0].message).toBe('field "customer" not found in type: \'Order\'');
  });
});

describe('subscriptions to asynchronous action results', () => {
  let db: TestDatabase;
  let handler: HandlerServer;
  let kiln: CountingServer;
  const gql = (query: string, headers: Record<string, string> = {}) => postJson(kiln.url, '/v1/graphql', { query }, headers);
  const user = (id: number) => ({ 'x-svc-role': 'user', 'x-svc-user-id': String(id) });

  beforeAll(async () => {
    handler = await startHandler();
    handler.route('/slow', (b) => ({ body: { n: b.input.n * 10, ref: b.input.n }, delayMs: 2500 }));
    handler.route('/coded', (b) => ({ body: { code: b.input.code } }));
    db = await createTestDatabase('actions_subs', "CREATE TABLE t (id int PRIMARY KEY, label text NOT NULL); INSERT INTO t SELECT i, 't' || i FROM generate_series(0, 9) i");
    kiln = await startCountingServer({ databases: { default: db.url }, metadata: { version: 3,
      sources: [{ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: db.url } }, tables: [
        { table: { schema: 'public', name: 't' }, select_permissions: [{ role: 'user', permission: { columns: ['label'], filter: {} } }] }] }],
      custom_types: { objects: [{ name: 'Slow', fields: [{ name: 'n', type: 'Int!' }, { name: 'ref', type: 'Int' }],
        relationships: [{ name: 'thing', type: 'object', remote_table: 't', field_mapping: { ref: 'id' } }] },
        { name: 'Coded', fields: [{ name: 'code', type: 'String' }], relationships: [{ name: 'thing', type: 'object', remote_table: 't', field_mapping: { code: 'id' } }] }] },
      actions: [{ name: 'slow', definition: { kind: 'asynchronous', handler: `${handler.base}/slow`, output_type: 'Slow', arguments: [{ name: 'n', type: 'Int!' }] },
        permissions: [{ role: 'user' }] },
      { name: 'coded', definition: { kind: 'asynchronous', handler: `${handler.base}/coded`, output_type: 'Coded', arguments: [{ name: 'code', type: 'String!' }] },
        permissions: [{ role: 'user' }] }],
    } });
  });
  afterAll(async () => {
    await kiln?.close();
    await handler?.close();
    await db?.drop();
  });

  it('runs the shared relationship statement again subscriber by subscriber when one\'s keys make it fail', async () => {
    const clients: Client[] = [];
    try {
      const open = async (code: string): Promise<{ c: Client; first: any }> => {
        const id = (await gql(`mutation { coded(code: "${code}") }`, user(1))).body.data.coded as string;
        let done = false;
        for (let i = 0; i < 50 && !done; i++) {
          done = (await gql(`{ coded(id: "${id}") { errors output { code } } }`, user(1))).body.data.coded.output !== null;
          if (!done) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const c = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
        clients.push(c);
        await c.init(user(1));
        c.send({ id: 's', type: 'subscribe', payload: { query: `subscription { coded(id: "${id}") { output { code thing { label } } } }` } });
        const first = await c.next((m) => m.id === 's');
        return { c, first: first.payload as any };
      };
      const { c: good } = await open('9');
      const { c: bad, first } = await open('x');
      expect(first.errors[0].message).toMatch(/invalid input syntax for type integer/);
      // Both are polled in one tick: "x" is no int4, so the shared statement fails and each runs alone.
      kiln.resetStatements();
      await db.exec("UPDATE t SET label = 'nine' WHERE id = 9");
      const pushed = await good.next((m) => m.id === 's', 3000);
      expect(pushed.payload).toEqual({ data: { coded: { output: { code: '9', thing: { label: 'nine' } } } } });
      const ticks = kiln.catalogStatements().filter((t) => t.includes('hdb_action_log WHERE id = ANY')).length;
      // Three statements per tick (a tick may have read the log just before the counts were reset).
      const statements = kiln.statements('default').length;
      expect(statements % 3).toBe(0);
      expect(statements).toBeGreaterThanOrEqual(3);
      expect(statements).toBeLessThanOrEqual(3 * (ticks + 1));
      expect(bad.results('s')).toEqual([]);
    } finally {
      for (const c of clients) c.close();
    }
  });

  it('reads the results of N subscribers in one statement per poll interval, and pushes each its own result', async () => {
    const subscribers = 6;
    const clients: Client[] = [];
    const ids: string[] = [];
    try {
      for (let i = 0; i < subscribers; i++) {
        const id = (await gql(`mutation { slow(n: ${i}) }`, user(i % 3))).body.data.slow as string;
        ids.push(id);
        const c = await Client.open(kiln.wsUrl, i % 2 ? 'graphql-ws' : 'graphql-transport-ws');
        await c.init(user(i % 3));
        c.send({ id: 's', type: i % 2 ? 'start' : 'subscribe', payload: { query: `subscription { slow(id: "${id}") { id output { n thing { label } } } }` } });
        const first = await c.next((m) => m.id === 's');
        expect(first.payload).toEqual({ data: { slow: { id, output: null } } });
        clients.push(c);
      }
      const reads = () => kiln.catalogStatements().filter((t) => t.includes('hdb_action_log WHERE id = ANY'));
      kiln.resetStatements();
      await new Promise((resolve) => setTimeout(resolve, 2200)); // two polls at 1 s
      const polled = reads().length;
      expect(polled).toBeGreaterThanOrEqual(1);
      expect(polled).toBeLessThanOrEqual(3);
      // Each subscriber gets its own call's output once the worker stored it, with its relationship.
      for (let i = 0; i < subscribers; i++) {
        const pushed = await clients[i]!.next((m) => m.id === 's' && (m.payload as any)?.data?.slow?.output !== null, 6000);
        expect(pushed.payload).toEqual({ data: { slow: { id: ids[i], output: { n: i * 10, thing: { label: `t${i}` } } } } });
      }
      // Delivered results keep being read (the table may change): one log read and one relationship statement per interval.
      kiln.resetStatements();
      await new Promise((resolve) => setTimeout(resolve, 2200));
      expect(reads().length).toBeGreaterThanOrEqual(1);
      expect(reads().length).toBeLessThanOrEqual(3);
      // One relationship statement per tick (a tick may have read the log just before the counts were reset).
      expect(kiln.statements('default').length).toBeGreaterThanOrEqual(reads().length);
      expect(kiln.statements('default').length).toBeLessThanOrEqual(reads().length + 1);
      await db.exec("UPDATE t SET label = 'changed' WHERE id = 2");
      const changed = await clients[2]!.next((m) => m.id === 's', 3000);
      expect(changed.payload).toEqual({ data: { slow: { id: ids[2], output: { n: 20, thing: { label: 'changed' } } } } });
      // A subscriber of another user's call reads null, in the same batched read.
      const other = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
      clients.push(other);
      await other.init(user(9));
      other.send({ id: 'x', type: 'subscribe', payload: { query: `subscription { slow(id: "${ids[0]}") { id } }` } });
      expect((await other.next((m) => m.id === 'x')).payload).toEqual({ data: { slow: null } });
    } finally {
      for (const c of clients) c.close();
    }
  });
});
