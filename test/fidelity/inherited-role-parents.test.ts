// An inherited role's parents must be roles the metadata grants something: a table permission in
// any source, a remote schema or action permission, or another inherited role (Hasura's
// allRoleNames, Schema/Cache.hs). A missing parent makes the inherited role an inconsistent object
// ("the following parent role(s) are not found: a, b which are required to construct the
// inherited role: "r"", RQL/DDL/InheritedRoles.hs resolveInheritedRole), so add_inherited_role
// and replace_metadata refuse it and an edit that removes a parent's last grant is refused. As
// Hasura's runAddInheritedRole inserts into its map, adding a role of an existing name replaces
// it; dropping an unknown one answers ""x" inherited role doesn't exist".

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { postJson } from '../helpers/http.js';

describe('the parents of an inherited role', () => {
  let server: ServedDatabase;
  const post = (body: unknown): Promise<{ status: number; body: any }> => server.post('/v1/metadata', body);
  const inherited = async (): Promise<unknown> => (await server.ok('/v1/metadata', { type: 'export_metadata', args: {} })).inherited_roles;
  const notFound = (missing: string, role: string) =>
    `Inconsistent object: the following parent role(s) are not found: ${missing} which are required to construct the inherited role: "${role}"`;

  beforeAll(async () => {
    server = await serveDatabase('fidinhparents', 'CREATE TABLE ledger (id int PRIMARY KEY, amount int); INSERT INTO ledger VALUES (1, 10);', { metadata: [{ type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'ledger' } },
      { type: 'pg_create_select_permission', args: { table: 'ledger', role: 'clerk', permission: { columns: ['id'], filter: {} } } },
      { type: 'pg_create_update_permission', args: { table: 'ledger', role: 'cashier', permission: { columns: ['amount'], filter: {} } } },
    ] }] });
  });

  afterAll(() => server?.close());

  it('a parent no permission names is refused with every missing one, sorted', async () => {
    const res = await post({ type: 'add_inherited_role', args: { role_name: 'auditor', role_set: ['clerk', 'zeta', 'ghost'] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ path: '$.args', code: 'invalid-configuration', error: notFound('ghost, zeta', 'auditor') });
    expect(res.body.internal).toEqual([{ type: 'inherited_role', name: 'inherited_role auditor',
      definition: { role_name: 'auditor', role_set: ['clerk', 'zeta', 'ghost'] }, reason: notFound('ghost, zeta', 'auditor') }]);
    expect(await inherited()).toBeUndefined();
  });

  it('roles of any permission kind and inherited roles are parents; the same name again replaces the role', async () => {
    await server.ok('/v1/metadata', { type: 'add_inherited_role', args: { role_name: 'auditor', role_set: ['clerk'] } });
    await server.ok('/v1/metadata', { type: 'add_inherited_role', args: { role_name: 'teller', role_set: ['cashier', 'auditor'] } });
    await server.ok('/v1/metadata', { type: 'add_inherited_role', args: { role_name: 'auditor', role_set: ['clerk', 'cashier'] } });
    expect(await inherited()).toEqual([{ role_name: 'auditor', role_set: ['clerk', 'cashier'] }, { role_name: 'teller', role_set: ['cashier', 'auditor'] }]);
    const read = await server.post('/v1/graphql', { query: '{ ledger { id } }' });
    expect(read.status).toBe(200);
  });

  it("removing a parent's last grant is refused: the inherited role would lose it", async () => {
    const res = await post({ type: 'pg_drop_update_permission', args: { table: 'ledger', role: 'cashier' } });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('cannot continue due to newly found inconsistent metadata');
    expect(res.body.internal.map((o: { reason: string }) => o.reason).sort()).toEqual([notFound('cashier', 'auditor'), notFound('cashier', 'teller')]);
    const md = await server.ok('/v1/metadata', { type: 'export_metadata', args: {} });
    expect(md.sources[0].tables[0].update_permissions).toHaveLength(1);
  });

  it('dropping an inherited role that does not exist', async () => {
    expect(await post({ type: 'drop_inherited_role', args: { role_name: 'nobody' } }))
      .toEqual({ status: 400, body: { path: '$.args', code: 'not-exists', error: '"nobody" inherited role doesn\'t exist' } });
  });

  it('replace_metadata: refused, or kept as inconsistent with allow_inconsistent_metadata, and the role gets nothing', async () => {
    const md = await server.ok('/v1/metadata', { type: 'export_metadata', args: {} });
    const next = { ...md, inherited_roles: [{ role_name: 'ghostly', role_set: ['clerk', 'phantom'] }] };
    const strict = await post({ type: 'replace_metadata', args: next });
    expect(strict.status).toBe(400);
    expect(strict.body.internal).toEqual([expect.objectContaining({ type: 'inherited_role', reason: notFound('phantom', 'ghostly') })]);
    await server.ok('/v1/metadata', { type: 'replace_metadata', args: { allow_inconsistent_metadata: true, metadata: next } });
    const listed = await server.ok('/v1/metadata', { type: 'get_inconsistent_metadata', args: {} });
    expect(listed.inconsistent_objects).toEqual([expect.objectContaining({ name: 'inherited_role ghostly' })]);
    const asGhost = await postJson(server.url, '/v1/graphql', { query: '{ ledger { id } }' }, { 'X-Svc-Role': 'ghostly' });
    expect(asGhost.body.errors[0].message).toBe('field "ledger" not found in type: \'query_root\'');
  });
});
