// Inherited roles: a role made of others takes, per table, the mutation permission its parents
// agree on (one parent having it, or all the same), lists Hasura's "inherited role permission
// inconsistency" when they disagree (until a permission of its own settles it), and the union of
// the parents' select permissions when they grant the same columns (rows any parent may see).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';

describe('inherited roles', () => {
  let db: TestDatabase;
  let server: { port: number; close(): Promise<void> };
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> =>
    (await postJson(`http://127.0.0.1:${server.port}`, path, body, headers)).body;
  const staff = (query: string, user = '1') => post('/v1/graphql', { query }, { 'x-svc-role': 'staff', 'x-svc-user-id': user });
  const perm = (type: string, table: string, role: string, permission: unknown) => ({ type: `pg_create_${type}_permission`, args: { table, role, permission } });

  beforeAll(async () => {
    db = await createTestDatabase('inhroles', `CREATE TABLE ticket (id serial PRIMARY KEY, title text, owner int, flagged boolean DEFAULT false);
      INSERT INTO ticket (title, owner, flagged) VALUES ('mine', 1, false), ('theirs', 2, false), ('flagged', 2, true);
      CREATE TABLE note (id serial PRIMARY KEY, body text);`);
    server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false });
    const setup = await post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'ticket' } },
      { type: 'pg_track_table', args: { table: 'note' } },
      perm('select', 'ticket', 'clerk', { columns: ['id', 'title'], filter: { owner: { _eq: 'X-Svc-User-Id' } } }),
      perm('select', 'ticket', 'auditor', { columns: ['id', 'title'], filter: { flagged: { _eq: true } }, limit: 5 }),
      perm('insert', 'ticket', 'clerk', { columns: ['title'], check: {}, set: { owner: 'X-Svc-User-Id' } }),
      perm('delete', 'ticket', 'auditor', { filter: { flagged: { _eq: true } } }),
      perm('update', 'ticket', 'clerk', { columns: ['title'], filter: { owner: { _eq: 'X-Svc-User-Id' } } }),
      perm('update', 'ticket', 'auditor', { columns: ['flagged'], filter: {} }),
      perm('select', 'note', 'clerk', { columns: ['id', 'body'], filter: {} }),
      perm('select', 'note', 'auditor', { columns: ['id'], filter: {} }),
      { type: 'add_inherited_role', args: { role_name: 'staff', role_set: ['clerk', 'auditor'] } },
    ] });
    expect(setup).toHaveLength(11);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('selects the rows any parent may see when the parents grant the same columns', async () => {
    expect(await staff('{ ticket(order_by: {id: asc}) { title } }')).toEqual({ data: { ticket: [{ title: 'mine' }, { title: 'flagged' }] } });
    // Different columns per parent would need per-row nulling: the table is left out.
    expect((await staff('{ note { id } }')).errors[0].message).toBe(`field "note" not found in type: 'query_root'`);
  });

  it('inherits an insert from its one parent and a delete from the other, presets and filters included', async () => {
    expect(await staff('mutation { insert_ticket_one(object: {title: "new"}) { id } }', '7')).toEqual({ data: { insert_ticket_one: { id: 4 } } });
    expect(await db.query('SELECT owner FROM ticket WHERE id = 4')).toEqual([{ owner: 7 }]);
    expect(await staff('mutation { delete_ticket(where: {}) { affected_rows } }')).toEqual({ data: { delete_ticket: { affected_rows: 1 } } });
    expect(await db.query('SELECT title FROM ticket ORDER BY id')).toEqual([{ title: 'mine' }, { title: 'theirs' }, { title: 'new' }]);
  });

  it('lists parents that disagree as an inconsistency, and a permission of its own settles it', async () => {
    expect(await post('/v1/metadata', { type: 'get_inconsistent_metadata', args: {} })).toEqual({ is_consistent: false, inconsistent_objects: [{
      type: 'inherited role permission inconsistency', name: 'staff', entity: { permission_type: 'update', source: 'default', table: 'ticket' },
      reason: "Could not inherit permission for the role 'staff' for the entity: 'update permission, table: ticket, source: 'default''" }] });
    expect((await staff('mutation { update_ticket(where: {}, _set: {title: "x"}) { affected_rows } }')).errors[0].message)
      .toBe(`field "update_ticket" not found in type: 'mutation_root'`);
    expect(await post('/v1/metadata', perm('update', 'ticket', 'staff', { columns: ['title'], filter: { id: { _eq: 1 } } }))).toEqual({ message: 'success' });
    expect(await post('/v1/metadata', { type: 'get_inconsistent_metadata', args: {} })).toEqual({ is_consistent: true, inconsistent_objects: [] });
    expect(await staff('mutation { update_ticket(where: {}, _set: {title: "edited"}) { affected_rows } }')).toEqual({ data: { update_ticket: { affected_rows: 1 } } });
  });
});
