// A tracked function without a custom name gives the schema its own name (Hasura's
// qualifiedObjectToName: `schema_name` outside public); a name that is not a GraphQL name is refused
// in Hasura's words under the function's context, which names the function schema-qualified
// ("in function "lab.f": ..."), instead of failing the schema build with a 500. A custom name
// makes it servable. pg_track_function and replace_metadata alike.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('function names that are not GraphQL names', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const md = (type: string, args: unknown) => post('/v1/metadata', { type, args });

  beforeAll(async () => {
    server = await serveDatabase('fidfnnames', `
      CREATE TABLE comet (id int PRIMARY KEY, name text);
      INSERT INTO comet VALUES (1, 'Halley');
      CREATE SCHEMA lab;
      CREATE TABLE lab.sample (id int PRIMARY KEY);
      CREATE FUNCTION "bright-comets"() RETURNS SETOF comet AS $$ SELECT * FROM comet $$ LANGUAGE sql STABLE;
      CREATE FUNCTION lab."odd-comets"() RETURNS SETOF comet AS $$ SELECT * FROM comet $$ LANGUAGE sql STABLE;
      CREATE FUNCTION lab.samples() RETURNS SETOF lab.sample AS $$ SELECT * FROM lab.sample $$ LANGUAGE sql STABLE;
      CREATE FUNCTION "odd-args"("comet-id" int, "2nd" text, fine int) RETURNS SETOF comet AS $$ SELECT * FROM comet $$ LANGUAGE sql STABLE;
      CREATE FUNCTION many_comets(VARIADIC ids int[]) RETURNS SETOF comet AS $$ SELECT * FROM comet WHERE id = ANY(ids) $$ LANGUAGE sql STABLE;
      CREATE FUNCTION comet_count() RETURNS int AS $$ SELECT count(*)::int FROM comet $$ LANGUAGE sql STABLE;
      CREATE TYPE pair AS (a int, b int);
      CREATE FUNCTION one_pair() RETURNS SETOF pair AS $$ SELECT 1, 2 $$ LANGUAGE sql STABLE;`, { track: ['comet'] });
  });

  afterAll(() => server?.close());

  it('pg_track_function refuses the name, qualified outside public, and a custom name serves it', async () => {
    expect(await md('pg_track_function', { function: 'bright-comets' })).toMatchObject({ status: 400, body: { code: 'invalid-configuration',
      error: 'Inconsistent object: in function "bright-comets": cannot include "bright-comets" in the GraphQL schema because "bright-comets" is not a valid GraphQL identifier' } });
    expect((await md('pg_track_function', { function: { schema: 'lab', name: 'odd-comets' } })).body.error)
      .toBe('Inconsistent object: in function "lab.odd-comets": cannot include "lab.odd-comets" in the GraphQL schema because "lab_odd-comets" is not a valid GraphQL identifier');
    expect((await md('pg_track_function', { function: 'bright-comets', configuration: { custom_name: 'bright_comets' } })).status).toBe(200);
    expect((await post('/v1/graphql', { query: '{ bright_comets { name } }' })).body).toEqual({ data: { bright_comets: [{ name: 'Halley' }] } });
  });

  it('gives every reason a function cannot be tracked, in Hasura\'s order and words (buildFunctionInfo)', async () => {
    const reason = async (fn: string, configuration?: object) => (await md('pg_track_function', { function: fn, ...(configuration ? { configuration } : {}) })).body.error;
    // One reason: `because ...`; several: one line each.
    expect(await reason('odd-args', { custom_name: 'odd_args' })).toBe('Inconsistent object: in function "odd-args": the function "odd-args" cannot be tracked '
      + 'because the function arguments comet-id,2nd are not in compliance with GraphQL spec');
    expect(await reason('many_comets')).toBe('Inconsistent object: in function "many_comets": the function "many_comets" cannot be tracked '
      + 'because function with "VARIADIC" parameters are not supported');
    expect(await reason('comet_count', { exposed_as: 'mutation' })).toBe('Inconsistent object: in function "comet_count": the function "comet_count" cannot be tracked for the following reasons:\n'
      + '  • the function does not return a "COMPOSITE" type\n  • the function does not return a table\n'
      + '  • the function was requested to be exposed as a mutation, but is not marked VOLATILE. Maybe the function was given the wrong volatility when it was defined?\n');
    expect(await reason('one_pair')).toBe('Inconsistent object: in function "one_pair": the function "one_pair" cannot be tracked because the function does not return a table');
    const tracked = ((await md('export_metadata', {})).body.sources[0].functions ?? []).map((f: { function: { name: string } }) => f.function.name);
    expect(tracked.filter((n: string) => ['odd-args', 'many_comets', 'comet_count', 'one_pair'].includes(n))).toEqual([]);
  });

  it('the function context names the function with its schema for its other reasons too; replace_metadata refuses the same', async () => {
    // An untracked return table is a dependency of the function, reported without its context.
    expect((await md('pg_track_function', { function: { schema: 'lab', name: 'samples' } })).body.error)
      .toBe('Inconsistent object: table "lab.sample" is not tracked');
    const current = (await md('export_metadata', {})).body;
    const next = structuredClone(current);
    next.sources[0].functions.push({ function: { schema: 'lab', name: 'odd-comets' } });
    const r = await md('replace_metadata', next);
    expect(r.status).toBe(400);
    expect(r.body.internal).toEqual([expect.objectContaining({ type: 'function',
      reason: 'Inconsistent object: in function "lab.odd-comets": cannot include "lab.odd-comets" in the GraphQL schema because "lab_odd-comets" is not a valid GraphQL identifier' })]);
    expect((await md('export_metadata', {})).body).toEqual(current);
  });
});
