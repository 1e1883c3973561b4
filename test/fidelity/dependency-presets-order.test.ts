// Two of Hasura's dependency rules for run_sql, shown on tables of our own:
// - a column preset (`set`) of an insert or update permission with a static value depends on the
//   column's type (Hasura.RQL.DDL.Permission, `procSetObj`: static value => DROnType), so a
//   statement that retypes the column is refused, with or without cascade; a preset from a session
//   variable does not (DRSessionVariable);
// - the dependent objects of a refusal are listed sorted by their text (`reportSchemaObjs`), for a
//   retype and for a drop alike.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('run_sql dependencies: static presets and the order of the list', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown) => server.post(path, body);
  const sql = (text: string, more: Record<string, unknown> = {}) => post('/v1/query', { type: 'run_sql', args: { sql: text, ...more } });
  const typeOf = async (table: string, column: string) =>
    (await server.db.query(`SELECT data_type FROM information_schema.columns WHERE table_name = '${table}' AND column_name = '${column}'`))[0]?.['data_type'];
  const metadata = (args: unknown[]) => post('/v1/metadata', { type: 'bulk', args });

  beforeAll(async () => {
    server = await serveDatabase('fiddeps');
  });
  afterAll(() => server?.close());

  beforeEach(async () => {
    await post('/v1/metadata', { type: 'clear_metadata', args: {} });
    expect((await sql(`
      DROP TABLE IF EXISTS parcel, depot CASCADE;
      CREATE TABLE depot (id serial PRIMARY KEY, city text NOT NULL);
      CREATE TABLE parcel (id serial PRIMARY KEY, depot_id int REFERENCES depot (id), weight int NOT NULL,
        fragile boolean NOT NULL DEFAULT false, sender_id int, priority smallint NOT NULL DEFAULT 0);`)).status).toBe(200);
    expect((await metadata([
      { type: 'pg_track_table', args: { table: 'depot' } },
      { type: 'pg_track_table', args: { table: 'parcel' } },
    ])).status).toBe(200);
  });

  it('refuses to retype a column an insert and an update permission preset to a literal, listing both sorted, even with cascade', async () => {
    expect((await metadata([
      { type: 'pg_create_update_permission', args: { table: 'parcel', role: 'clerk', permission: { columns: ['weight'], filter: {}, check: null, set: { fragile: true } } } },
      { type: 'pg_create_insert_permission', args: { table: 'parcel', role: 'clerk', permission: { columns: ['weight', 'depot_id'], check: {}, set: { fragile: false } } } },
    ])).status).toBe(200);
    const refused = await sql('ALTER TABLE parcel ALTER COLUMN fragile TYPE text', { cascade: true });
    expect(refused).toEqual({ status: 400, body: { path: '$.args', code: 'dependency-error',
      error: 'cannot change type of column "fragile" in table "parcel" because of the following dependencies : '
        + 'permission parcel.clerk.insert in source "default", permission parcel.clerk.update in source "default"' } });
    expect(await typeOf('parcel', 'fragile')).toBe('boolean');
  });

  it('lets a column be retyped when its preset comes from a session variable or it is only listed', async () => {
    expect((await metadata([
      { type: 'pg_create_insert_permission', args: { table: 'parcel', role: 'sender', permission: { columns: ['weight', 'priority'], check: {}, set: { sender_id: 'X-Svc-User-Id' } } } },
    ])).status).toBe(200);
    expect((await sql('ALTER TABLE parcel ALTER COLUMN sender_id TYPE bigint')).status).toBe(200);
    expect((await sql('ALTER TABLE parcel ALTER COLUMN priority TYPE int')).status).toBe(200);
    expect(await typeOf('parcel', 'sender_id')).toBe('bigint');
    const exported = (await post('/v1/metadata', { type: 'export_metadata', args: {} })).body;
    const parcel = exported.sources[0].tables.find((t: any) => t.table.name === 'parcel');
    expect(parcel.insert_permissions[0].permission.set).toEqual({ sender_id: 'X-Svc-User-Id' });
  });

  it('lists the objects a drop would break sorted by their text, whatever order they were created in', async () => {
    expect((await metadata([
      { type: 'pg_create_select_permission', args: { table: 'parcel', role: 'zeta', permission: { columns: ['id'], filter: { depot_id: { _eq: 1 } } } } },
      { type: 'pg_create_object_relationship', args: { table: 'parcel', name: 'depot', using: { foreign_key_constraint_on: 'depot_id' } } },
      { type: 'pg_create_array_relationship', args: { table: 'depot', name: 'parcels', using: { foreign_key_constraint_on: { table: 'parcel', column: 'depot_id' } } } },
      { type: 'pg_create_select_permission', args: { table: 'parcel', role: 'alpha', permission: { columns: ['id', 'depot_id'], filter: {} } } },
    ])).status).toBe(200);
    const refused = await sql('ALTER TABLE parcel DROP COLUMN depot_id');
    expect(refused.status).toBe(400);
    const listed = /^cannot drop due to the following dependent objects : (.*)$/.exec(refused.body.error)?.[1]?.split(', ');
    expect(listed).toEqual([
      'permission parcel.alpha.select in source "default"',
      'permission parcel.zeta.select in source "default"',
      'relationship depot.parcels in source "default"',
      'relationship parcel.depot in source "default"',
    ]);
    expect(await typeOf('parcel', 'depot_id')).toBe('integer');
  });
});
