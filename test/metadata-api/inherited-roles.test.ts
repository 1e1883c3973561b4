// Inherited roles: a role made of others takes, per table, the mutation permission its parents
// agree on (one parent having it, or all the same), lists Hasura's "inherited role permission
// inconsistency" when they disagree (until a permission of its own settles it), and the union of
// the parents' select permissions (rows any parent may see); a column only some parents grant is
// read on those parents' rows and is null elsewhere, and filters and orders by it only there.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('inherited roles', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> =>
    (await server.post(path, body, headers)).body;
  const staff = (query: string, user = '1') => post('/v1/graphql', { query }, { 'x-svc-role': 'staff', 'x-svc-user-id': user });
  const perm = (type: string, table: string, role: string, permission: unknown) => ({ type: `pg_create_${type}_permission`, args: { table, role, permission } });

  beforeAll(async () => {
    server = await serveDatabase('inhroles', `CREATE TABLE ticket (id serial PRIMARY KEY, title text, owner int, flagged boolean DEFAULT false);
      INSERT INTO ticket (title, owner, flagged) VALUES ('mine', 1, false), ('theirs', 2, false), ('flagged', 2, true);
      CREATE TABLE note (id serial PRIMARY KEY, body text); INSERT INTO note (body) VALUES ('n1');
      CREATE TABLE shift (id serial PRIMARY KEY, worker int, pay int, memo text);
      INSERT INTO shift (worker, pay, memo) VALUES (1, 100, 'a'), (2, 200, 'b'), (1, 300, 'c');`);
    db = server.db;
    const setup = await post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'ticket' } },
      { type: 'pg_track_table', args: { table: 'note' } },
      { type: 'pg_track_table', args: { table: 'shift' } },
      perm('select', 'shift', 'clerk', { columns: ['id', 'pay'], filter: { worker: { _eq: 'X-Svc-User-Id' } }, allow_aggregations: true }),
      perm('select', 'shift', 'auditor', { columns: ['id', 'memo'], filter: { pay: { _gte: 200 } } }),
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
    expect(setup).toHaveLength(14);
  }, 60_000);
  afterAll(() => server?.close());

  it('selects the rows any parent may see when the parents grant the same columns', async () => {
    expect(await staff('{ ticket(order_by: {id: asc}) { title } }')).toEqual({ data: { ticket: [{ title: 'mine' }, { title: 'flagged' }] } });
    // A column one parent grants on every row is read on every row.
    expect(await staff('{ note { id body } }')).toEqual({ data: { note: [{ id: 1, body: 'n1' }] } });
  });

  it('reads a column only some parents grant on their rows only, null on the others', async () => {
    // clerk (user 1) sees shifts 1 and 3 with pay; auditor sees shifts 2 and 3 with memo.
    expect(await staff('{ shift(order_by: {id: asc}) { id pay memo } }')).toEqual({ data: { shift: [
      { id: 1, pay: 100, memo: null }, { id: 2, pay: null, memo: 'b' }, { id: 3, pay: 300, memo: 'c' }] } });
    // A condition on a hidden value does not match (it would reveal it): shift 2's pay is 200.
    expect(await staff('{ shift(where: {pay: {_gte: 150}}) { id } }')).toEqual({ data: { shift: [{ id: 3 }] } });
    // Ordering sees null where the value is hidden (nulls last ascending).
    expect(await staff('{ shift(order_by: [{memo: asc}, {id: asc}]) { id } }')).toEqual({ data: { shift: [{ id: 2 }, { id: 3 }, { id: 1 }] } });
    // As in Hasura, aggregates run over every row the role sees, partly granted columns included.
    expect(await staff('{ shift_aggregate { aggregate { count sum { pay } } nodes { pay } } }')).toEqual({ data: { shift_aggregate: {
      aggregate: { count: 3, sum: { pay: 600 } }, nodes: [{ pay: 100 }, { pay: null }, { pay: 300 }] } } });
    // A column no parent grants is not in the type, with Hasura's path.
    expect(await staff('{ shift { worker } }')).toEqual({ errors: [{ message: `field "worker" not found in type: 'shift'`,
      extensions: { path: '$.selectionSet.shift.selectionSet.worker', code: 'validation-failed' } }] });
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
