// Inherited roles and what Hasura v2 builds for them beyond table permissions:
// - roles in a cycle are refused whatever allow_inconsistent_metadata says (400 cyclic-dependency,
//   `found cycle(s) in roles: [...]`, Schema/Cache/Permission.hs orderRoles), by add_inherited_role
//   and replace_metadata alike, and nothing changes;
// - a function exposed as a mutation may be called by an inherited role when a parent may;
// - a function permission may be given to an inherited role whose parents may read the table the
//   function returns (the table's permission map holds the inherited role).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import type { TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';

describe('inherited roles: cycles and function permissions', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = (body: unknown): Promise<{ status: number; body: any }> => server.post('/v1/metadata', body);
  const exported = async (): Promise<any> => server.ok('/v1/metadata', { type: 'export_metadata', args: {} });
  const asRole = (role: string, query: string) => postJson(server.url, '/v1/graphql', { query }, { 'X-Svc-Role': role });

  beforeAll(async () => {
    server = await serveDatabase('fidinhcycles', `
      CREATE TABLE score (id int PRIMARY KEY, points int NOT NULL);
      INSERT INTO score VALUES (1, 10);
      CREATE FUNCTION add_points(n int) RETURNS SETOF score LANGUAGE sql VOLATILE AS
        $$ UPDATE score SET points = points + n RETURNING * $$;`, { metadata: [{ type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'score' } },
      { type: 'pg_track_function', args: { function: 'add_points' } },
      { type: 'pg_create_select_permission', args: { table: 'score', role: 'author', permission: { columns: ['id', 'points'], filter: {} } } },
      { type: 'pg_create_select_permission', args: { table: 'score', role: 'editor', permission: { columns: ['id'], filter: {} } } },
      { type: 'pg_create_function_permission', args: { function: 'add_points', role: 'author' } },
      { type: 'add_inherited_role', args: { role_name: 'writer', role_set: ['author'] } },
      { type: 'add_inherited_role', args: { role_name: 'chief', role_set: ['writer', 'editor'] } },
      { type: 'add_inherited_role', args: { role_name: 'staff', role_set: ['editor'] } },
    ] }] });
    db = server.db;
  });

  afterAll(() => server?.close());

  it('add_inherited_role closing a cycle is refused at $ with the cycle from its first role, and changes nothing', async () => {
    const before = await exported();
    const res = await post({ type: 'add_inherited_role', args: { role_name: 'writer', role_set: ['chief'] } });
    expect(res).toEqual({ status: 400, body: { path: '$', code: 'cyclic-dependency', error: 'found cycle(s) in roles: ["chief","writer","chief"]' } });
    expect((await exported()).inherited_roles).toEqual(before.inherited_roles);
  });

  it('replace_metadata with cycles is refused even when inconsistencies are allowed; every cycle is named', async () => {
    const md = await exported();
    const cycles = [
      { role_name: 'intermediate_circular_role_1', role_set: ['circular_role'] },
      { role_name: 'intermediate_circular_role_2', role_set: ['intermediate_circular_role_1', 'editor'] },
      { role_name: 'circular_role', role_set: ['intermediate_circular_role_2', 'author'] },
      { role_name: 'loop_b', role_set: ['loop_a'] },
      { role_name: 'loop_a', role_set: ['loop_b'] },
    ];
    const res = await server.post('/v1/query', { type: 'replace_metadata', args: { allow_inconsistent_metadata: true,
      metadata: { ...md, inherited_roles: [...md.inherited_roles, ...cycles] } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ path: '$', code: 'cyclic-dependency', error: 'found cycle(s) in roles: '
      + '["circular_role","intermediate_circular_role_2","intermediate_circular_role_1","circular_role"], ["loop_a","loop_b","loop_a"]' });
    expect((await exported()).inherited_roles).toEqual(md.inherited_roles);
  });

  it('a mutation function is called by the inherited roles of a role granted it, and by no other', async () => {
    const ran = await asRole('chief', 'mutation { add_points(args: {n: 5}) { id } }');
    expect(ran.body).toEqual({ data: { add_points: [{ id: 1 }] } });
    const refused = await asRole('staff', 'mutation { add_points(args: {n: 5}) { id } }');
    expect(refused.body.errors[0].message).toBe('no mutations exist');
    expect(await db.query('SELECT points FROM score WHERE id = 1')).toEqual([{ points: 15 }]);
  });

  it('a function permission for an inherited role counts the select permissions it inherits', async () => {
    await server.ok('/v1/metadata', { type: 'pg_create_function_permission', args: { function: 'add_points', role: 'staff' } });
    const ran = await asRole('staff', 'mutation { add_points(args: {n: 1}) { id } }');
    expect(ran.body).toEqual({ data: { add_points: [{ id: 1 }] } });
    const res = await post({ type: 'pg_create_function_permission', args: { function: 'add_points', role: 'guest' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('function permission can only be added when the function\'s return table "score" has select permission configured for role: "guest"');
  });
});
