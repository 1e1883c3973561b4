// A tracked function's two root fields are named separately (Hasura's getFunctionGQLName and
// getFunctionAggregateGQLName): the plain one from `custom_root_fields.function`, else the custom
// name, else the function's name; the aggregate from `custom_root_fields.function_aggregate`, else
// the custom name or the function's name with `_aggregate`. A custom `function` root field alone
// leaves the aggregate under its default name.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('function root field names', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const md = (type: string, args: unknown) => post('/v1/metadata', { type, args });
  const rootFields = async (): Promise<string[]> => {
    const r = await post('/v1/graphql', { query: '{ __schema { queryType { fields { name } } } }' });
    return (r.body.data.__schema.queryType.fields as { name: string }[]).map((f) => f.name).filter((n) => n.includes('comet') || /^(named|counted|shiny)/.test(n)).sort();
  };

  beforeAll(async () => {
    server = await serveDatabase('fidfnroots', `
      CREATE TABLE comet (id int PRIMARY KEY, name text);
      INSERT INTO comet VALUES (1, 'Halley'), (2, 'Encke');
      CREATE FUNCTION bright_comets() RETURNS SETOF comet AS $$ SELECT * FROM comet $$ LANGUAGE sql STABLE;`, { track: ['comet'] });
  });

  afterAll(() => server?.close());

  it('keeps the default aggregate name when only the function root field is customised', async () => {
    expect((await md('pg_track_function', { function: 'bright_comets', configuration: { custom_root_fields: { function: 'named' } } })).status).toBe(200);
    expect(await rootFields()).toEqual(['bright_comets_aggregate', 'comet', 'comet_aggregate', 'comet_by_pk', 'named']);
    const r = await post('/v1/graphql', { query: '{ named { id } bright_comets_aggregate { aggregate { count } } }' });
    expect(r.body).toEqual({ data: { named: [{ id: 1 }, { id: 2 }], bright_comets_aggregate: { aggregate: { count: 2 } } } });
  });

  it('names the aggregate after the custom name, unless function_aggregate names it', async () => {
    expect((await md('pg_set_function_customization', { function: 'bright_comets', configuration: { custom_name: 'shiny', custom_root_fields: { function: 'named' } } })).status).toBe(200);
    expect(await rootFields()).toEqual(['comet', 'comet_aggregate', 'comet_by_pk', 'named', 'shiny_aggregate']);
    expect((await post('/v1/graphql', { query: '{ shiny_aggregate { aggregate { count } } }' })).body).toEqual({ data: { shiny_aggregate: { aggregate: { count: 2 } } } });
    expect((await md('pg_set_function_customization', { function: 'bright_comets', configuration: { custom_name: 'shiny', custom_root_fields: { function_aggregate: 'counted' } } })).status).toBe(200);
    expect((await post('/v1/graphql', { query: '{ shiny { id } counted { aggregate { count } } }' })).body)
      .toEqual({ data: { shiny: [{ id: 1 }, { id: 2 }], counted: { aggregate: { count: 2 } } } });
  });
});
