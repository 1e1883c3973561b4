// A computed field whose function does not fit is refused with every reason Hasura finds, in its
// words (the name, the volatility, the return type, the table and session arguments), whether it
// comes by pg_add_computed_field or inside replace_metadata.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('computed field reasons', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => server.post(path, body);
  const add = (name: string, definition: unknown) => post('/v1/metadata', { type: 'pg_add_computed_field', args: { table: 'garden', name, definition } });
  const refused = (name: string, because: string) => ({ status: 400, body: expect.objectContaining({ code: 'invalid-configuration',
    error: `Inconsistent object: in table "garden": in computed field "${name}": the computed field "${name}" cannot be added to table "garden" ${because}` }) });

  beforeAll(async () => {
    server = await serveDatabase('fidcf', `
      CREATE TABLE garden (id int PRIMARY KEY, plot text);
      CREATE TABLE shed (id int PRIMARY KEY);
      CREATE TABLE hidden_bed (id int PRIMARY KEY);
      CREATE SCHEMA tools;
      CREATE FUNCTION garden_roll(g garden) RETURNS int AS $$ SELECT floor(random() * 6)::int $$ LANGUAGE sql VOLATILE;
      CREATE FUNCTION plain_count() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql STABLE;
      CREATE FUNCTION tools.shed_size(s shed, g garden) RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql STABLE;
      CREATE FUNCTION double_it(x int) RETURNS int AS $$ SELECT x * 2 $$ LANGUAGE sql STABLE;
      CREATE FUNCTION garden_beds(g garden) RETURNS SETOF hidden_bed AS $$ SELECT * FROM hidden_bed $$ LANGUAGE sql STABLE;
      CREATE FUNCTION garden_tag(g garden, who text) RETURNS text AS $$ SELECT who $$ LANGUAGE sql STABLE;
      CREATE FUNCTION garden_label(g garden) RETURNS text AS $$ SELECT 'plot ' || g.plot $$ LANGUAGE sql STABLE;
      INSERT INTO garden VALUES (1, 'north');`, { track: ['garden', 'shed'] });
  });

  afterAll(() => server?.close());

  it('pg_add_computed_field: one reason, or the list of them', async () => {
    expect(await add('roll', { function: 'garden_roll' })).toEqual(refused('roll', 'because the function "garden_roll" is of type VOLATILE; cannot be added as a computed field'));
    expect(await add('count', { function: 'plain_count' })).toEqual(refused('count', 'because the function "plain_count" has no input arguments'));
    expect(await add('size', { function: { schema: 'tools', name: 'shed_size' } })).toEqual(refused('size',
      'because first argument of the function "tools.shed_size" of type "shed" is not the table to which the computed field is being added'));
    expect(await add('twice', { function: 'double_it' })).toEqual(refused('twice', 'for the following reasons:\n'
      + '  • first argument of the function "double_it" is not COMPOSITE type\n'
      + '  • first argument of the function "double_it" of type "pg_catalog.int4" is not the table to which the computed field is being added\n'));
    expect(await add('beds', { function: 'garden_beds' })).toEqual(refused('beds',
      'because the function "garden_beds" returning set of table "hidden_bed" is not tracked or not found in database'));
    expect(await add('tag', { function: 'garden_tag', session_argument: 'who' })).toEqual(refused('tag', 'because "who" argument of the function "garden_tag" is not of type JSON'));
    expect(await add('label', { function: 'garden_label', table_argument: 'row' })).toEqual(refused('label', 'because "row" is not an input argument of the function "garden_label"'));
    expect(await add('bad name', { function: 'garden_label' })).toEqual(refused('bad name', 'because "bad name" is not valid GraphQL name'));
    // A named table argument of the wrong table is judged by its name.
    expect(await add('size2', { function: { schema: 'tools', name: 'shed_size' }, table_argument: 'g' })).toMatchObject({ status: 200 });
  });

  it('replace_metadata reports the same reasons, and a fitting function serves', async () => {
    const exported = (await post('/v1/metadata', { type: 'export_metadata', args: {} })).body as { sources: { tables: { table: { name: string }; computed_fields?: unknown[] }[] }[] };
    const garden = exported.sources[0]!.tables.find((t) => t.table.name === 'garden')!;
    garden.computed_fields = [{ name: 'roll', definition: { function: { schema: 'public', name: 'garden_roll' } } }];
    const r = await post('/v1/metadata', { type: 'replace_metadata', args: exported });
    expect(r).toEqual({ status: 400, body: expect.objectContaining({ code: 'unexpected', error: 'cannot continue due to inconsistent metadata',
      internal: [expect.objectContaining({ type: 'computed_field', reason: 'Inconsistent object: in table "garden": in computed field "roll": '
        + 'the computed field "roll" cannot be added to table "garden" because the function "garden_roll" is of type VOLATILE; cannot be added as a computed field' })] }) });
    expect((await add('label', { function: 'garden_label' })).status).toBe(200);
    expect((await post('/v1/graphql', { query: '{ garden { label } }' })).body).toEqual({ data: { garden: [{ label: 'plot north' }] } });
  });
});
