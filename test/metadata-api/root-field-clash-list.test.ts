// An edit that gives one root type several clashing fields fails with one message naming them all,
// as Hasura's safeSelectionSet does: "found duplicate fields in selection set: a, b", the names in
// the order of its HashSet of names, not one message per field joined together.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('several clashing root fields', () => {
  let server: ServedDatabase;
  const md = (type: string, args: unknown) => server.post('/v1/metadata', { type, args });

  beforeAll(async () => {
    server = await serveDatabase('rootclashlist', `
      CREATE TABLE post (id int PRIMARY KEY, title text);
      CREATE TABLE note (id int PRIMARY KEY, body text);
      CREATE FUNCTION unaliased_function() RETURNS SETOF post AS $$ SELECT * FROM post $$ LANGUAGE sql STABLE;
      CREATE FUNCTION unaliased_function2() RETURNS SETOF post AS $$ SELECT * FROM post $$ LANGUAGE sql STABLE;`);
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    expect((await md('clear_metadata', {})).status).toBe(200);
    expect((await md('pg_track_table', { table: 'post' })).status).toBe(200);
  });

  it('names a function and its aggregate in one message', async () => {
    expect((await md('pg_track_function', { function: 'unaliased_function' })).status).toBe(200);
    expect((await md('pg_track_function', { function: 'unaliased_function2' })).status).toBe(200);
    expect(await md('pg_set_function_customization', { function: 'unaliased_function2', configuration: { custom_name: 'unaliased_function' } })).toEqual({
      status: 500, body: { path: '$.args', code: 'unexpected', error: 'found duplicate fields in selection set: unaliased_function_aggregate, unaliased_function' } });
  });

  it('names every select field a table renamed onto another takes, once', async () => {
    expect((await md('pg_track_table', { table: 'note' })).status).toBe(200);
    expect(await md('pg_set_table_customization', { table: 'note', configuration: { custom_name: 'post' } })).toEqual({
      status: 500, body: { path: '$.args', code: 'unexpected', error: 'found duplicate fields in selection set: post, post_by_pk, post_aggregate' } });
    const tables = (await md('export_metadata', {})).body.sources[0].tables as { configuration?: unknown }[];
    expect(tables.every((t) => t.configuration === undefined)).toBe(true);
  });
});
