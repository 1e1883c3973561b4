// Statement counts of actions with a real handler on 127.0.0.1 and real PostgreSQL (issue 18):
// the relationships of every output row (and the relationships nested under them) are read in one
// statement per source, under the caller's permissions.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
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
