// Computed fields held to Hasura's catalog rules, on tables of our own:
// - a computed field may not take a column's name, nor the GraphQL name a column was given
//   (Schema/Cache/Fields.hs: noColumnConflicts, noCustomFieldConflicts); the same rule words a
//   relationship that takes a column's name;
// - run_sql may not overload the function of a computed field, nor make it VOLATILE
//   (processComputedFieldDiff): 400 not-supported, and the statement is rolled back;
// - a function dropped and created again with other arguments is another function: the computed
//   field goes with the old one, refused without cascade (dependency-error naming the field and
//   the permissions listing it), dropped with it under cascade;
// - a missing or overloaded function is named as Hasura writes a qualified object, without
//   `public.` (qualifiedObjectToText).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import type { TestDatabase } from '../helpers/database.js';

describe('computed fields and the catalog', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = (path: string, body: unknown) => server.post(path, body);
  const md = (type: string, args: unknown) => post('/v1/metadata', { type, args });
  const sql = (text: string) => post('/v2/query', { type: 'run_sql', args: { source: 'default', sql: text } });
  const overloads = async (schema: string, name: string) => (await db.query(
    `SELECT p.provolatile AS v FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = '${schema}' AND p.proname = '${name}'`)).map((r) => r['v']);

  beforeAll(async () => {
    server = await serveDatabase('fidcfcat');
    db = server.db;
  });
  afterAll(() => server?.close());

  beforeEach(async () => {
    await md('clear_metadata', {});
    expect((await sql(`
      DROP SCHEMA IF EXISTS astro CASCADE; DROP TABLE IF EXISTS planet CASCADE; DROP FUNCTION IF EXISTS planet_area(planet);
      CREATE TABLE planet (id serial PRIMARY KEY, name text NOT NULL, radius_km numeric NOT NULL, star_id int);
      CREATE FUNCTION planet_area(p planet) RETURNS numeric LANGUAGE sql STABLE AS $$ SELECT 4 * pi()::numeric * p.radius_km * p.radius_km $$;
      CREATE SCHEMA astro;
      CREATE TABLE astro.moon (id serial PRIMARY KEY, planet_id int, label text);
      CREATE FUNCTION astro.moon_tag(m astro.moon) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT upper(m.label) $$;`)).status).toBe(200);
    expect((await md('bulk', [
      { type: 'pg_track_table', args: { table: 'planet' } },
      { type: 'pg_track_table', args: { table: { schema: 'astro', name: 'moon' } } },
    ])).status).toBe(200);
  });

  it('refuses a computed field named as a column, or as the GraphQL name of another column', async () => {
    const same = await md('pg_add_computed_field', { table: 'planet', name: 'radius_km', definition: { function: 'planet_area' } });
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({ code: 'invalid-configuration', path: '$.args', error: 'Inconsistent object: field definition conflicts with postgres column' });
    expect(same.body.internal).toEqual([expect.objectContaining({ type: 'computed_field', name: 'computed_field radius_km in table planet in source default',
      reason: 'Inconsistent object: field definition conflicts with postgres column' })]);

    expect((await md('pg_set_table_customization', { table: 'planet', configuration: { column_config: { radius_km: { custom_name: 'size' } } } })).status).toBe(200);
    const renamed = await md('pg_add_computed_field', { table: 'planet', name: 'size', definition: { function: 'planet_area' } });
    expect(renamed.body).toMatchObject({ code: 'invalid-configuration',
      error: 'Inconsistent object: field definition conflicts with custom field name for postgres column "radius_km"' });
    const exported = (await md('export_metadata', {})).body;
    expect(exported.sources[0].tables.find((t: any) => t.table.name === 'planet').computed_fields).toBeUndefined();
    expect((await md('pg_add_computed_field', { table: 'planet', name: 'area', definition: { function: 'planet_area' } })).status).toBe(200);
  });

  it('lists a relationship that takes a column\'s name as conflicting with the column', async () => {
    const exported = (await md('export_metadata', {})).body;
    const planet = exported.sources[0].tables.find((t: any) => t.table.name === 'planet');
    planet.array_relationships = [{ name: 'star_id', using: { manual_configuration: { remote_table: { schema: 'astro', name: 'moon' }, column_mapping: { id: 'planet_id' } } } }];
    const replaced = await md('replace_metadata', { allow_inconsistent_metadata: true, metadata: exported });
    expect(replaced.status).toBe(200);
    const listed = (await md('get_inconsistent_metadata', {})).body.inconsistent_objects;
    expect(listed).toEqual([expect.objectContaining({ type: 'array_relation', name: 'array_relation star_id in table planet in source default',
      reason: 'Inconsistent object: field definition conflicts with postgres column' })]);
  });

  it('refuses a run_sql that makes a computed field\'s function VOLATILE, and keeps the function as it was', async () => {
    expect((await md('pg_add_computed_field', { table: 'planet', name: 'area', definition: { function: 'planet_area' } })).status).toBe(200);
    const r = await sql('ALTER FUNCTION planet_area(planet) VOLATILE');
    expect(r).toEqual({ status: 400, body: { code: 'not-supported', path: '$.args',
      error: 'The type of function "planet_area" associated with computed field "area" of table "planet" is being altered to "VOLATILE"' } });
    expect(await overloads('public', 'planet_area')).toEqual(['s']);
    // A change that keeps it STABLE goes through.
    expect((await sql('CREATE OR REPLACE FUNCTION planet_area(p planet) RETURNS numeric LANGUAGE sql STABLE AS $$ SELECT p.radius_km $$')).status).toBe(200);
  });

  it('refuses a run_sql that overloads a computed field\'s function, naming schema-qualified objects as Hasura does', async () => {
    expect((await md('pg_add_computed_field', { table: { schema: 'astro', name: 'moon' }, name: 'tag', definition: { function: { schema: 'astro', name: 'moon_tag' } } })).status).toBe(200);
    const r = await sql('CREATE FUNCTION astro.moon_tag(m astro.moon, prefix text) RETURNS text LANGUAGE sql STABLE AS $$ SELECT prefix || m.label $$');
    expect(r).toEqual({ status: 400, body: { code: 'not-supported', path: '$.args',
      error: 'The function "astro.moon_tag" associated with computed field"tag" of table "astro.moon" is being overloaded' } });
    expect(await overloads('astro', 'moon_tag')).toEqual(['i']);
  });

  it('treats a function dropped and created again with other arguments as a drop of the computed field', async () => {
    expect((await md('bulk', [
      { type: 'pg_add_computed_field', args: { table: 'planet', name: 'area', definition: { function: 'planet_area' } } },
      { type: 'pg_create_select_permission', args: { table: 'planet', role: 'guest', permission: { columns: ['id'], computed_fields: ['area'], filter: {} } } },
      { type: 'pg_create_select_permission', args: { table: 'planet', role: 'crew', permission: { columns: ['id', 'name'], filter: {} } } },
    ])).status).toBe(200);
    const recreate = `DROP FUNCTION planet_area(planet);
      CREATE FUNCTION planet_area(p planet, scale numeric) RETURNS numeric LANGUAGE sql STABLE AS $$ SELECT p.radius_km * scale $$;`;
    const refused = await sql(recreate);
    expect(refused).toEqual({ status: 400, body: { code: 'dependency-error', path: '$.args',
      error: 'cannot drop due to the following dependent objects : computed field planet.area in source "default", permission planet.guest.select in source "default"' } });
    // Rolled back: the old function is still there, alone.
    expect((await db.query("SELECT pg_get_function_identity_arguments(oid) AS a FROM pg_proc WHERE proname = 'planet_area'")).map((r) => r['a'])).toEqual(['p planet']);

    const cascaded = await post('/v2/query', { type: 'run_sql', args: { source: 'default', sql: recreate, cascade: true } });
    expect(cascaded.status).toBe(200);
    const planet = (await md('export_metadata', {})).body.sources[0].tables.find((t: any) => t.table.name === 'planet');
    expect(planet.computed_fields).toBeUndefined();
    expect(planet.select_permissions.map((p: any) => p.role)).toEqual(['crew']);
  });

  it('names a missing or overloaded function without the public schema, and with any other', async () => {
    const missing = await md('pg_add_computed_field', { table: 'planet', name: 'mass', definition: { function: 'planet_mass' } });
    expect(missing.body).toMatchObject({ code: 'invalid-configuration',
      error: 'Inconsistent object: in table "planet": in computed field "mass": no such function exists: "planet_mass"' });
    const elsewhere = await md('pg_add_computed_field', { table: { schema: 'astro', name: 'moon' }, name: 'orbit', definition: { function: { schema: 'astro', name: 'moon_orbit' } } });
    expect(elsewhere.body).toMatchObject({ code: 'invalid-configuration',
      error: 'Inconsistent object: in table "astro.moon": in computed field "orbit": no such function exists: "astro.moon_orbit"' });
    expect((await sql(`CREATE FUNCTION planet_size(p planet) RETURNS numeric LANGUAGE sql STABLE AS $$ SELECT p.radius_km $$;
      CREATE FUNCTION planet_size(p planet, k numeric) RETURNS numeric LANGUAGE sql STABLE AS $$ SELECT p.radius_km * k $$;`)).status).toBe(200);
    const overloaded = await md('pg_add_computed_field', { table: 'planet', name: 'size', definition: { function: 'planet_size' } });
    expect(overloaded.body).toMatchObject({ code: 'invalid-configuration',
      error: 'Inconsistent object: in table "planet": in computed field "size": function "planet_size" is overloaded. Overloaded functions are not supported' });
    await sql('DROP FUNCTION planet_size(planet); DROP FUNCTION planet_size(planet, numeric);');
  });
});
