// A table that cannot be an enum is refused with every reason Hasura finds, in its words:
// the key (present, one column, of type text), the other columns (one text comment at most),
// the rows (at least one, each a GraphQL enum value name other than true/false/null).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('enum table reasons', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: { error?: string; code?: string; path?: string } }> => server.post(path, body);
  const refusal = (table: string, because: string) => ({ status: 400, body: expect.objectContaining({
    code: 'invalid-configuration', error: `Inconsistent object: the table "${table}" cannot be used as an enum ${because}` }) });

  beforeAll(async () => {
    server = await serveDatabase('fidenum', `
      CREATE TABLE sizes (code int PRIMARY KEY, label text, note text);
      INSERT INTO sizes VALUES (1, 'small', null);
      CREATE TABLE pair_key (a text, b text, PRIMARY KEY (a, b));
      CREATE TABLE keyless (v text);
      CREATE TABLE moods (v text PRIMARY KEY, weight int);
      INSERT INTO moods VALUES ('happy', 1);
      CREATE TABLE levels (v text PRIMARY KEY);
      CREATE TABLE flags (v text PRIMARY KEY, comment text);
      INSERT INTO flags VALUES ('on', null), ('null', null), ('two words', null), ('9lives', null);
      CREATE TABLE shades (v varchar PRIMARY KEY);
      INSERT INTO shades VALUES ('dark');
      CREATE TABLE colours (v text PRIMARY KEY, comment text);
      INSERT INTO colours VALUES ('red', 'warm'), ('blue', null);`);
    db = server.db;
  });

  afterAll(() => server?.close());

  it('pg_track_table with is_enum lists every reason of the key and the columns', async () => {
    expect(await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'sizes', is_enum: true } })).toEqual(refusal('sizes',
      'for the following reasons:\n  • the table’s primary key ("code") must have type "text", not type "integer"\n'
      + '  • the table must have exactly one primary key and optionally one comment column, not 3 columns (code, label, note)\n'));
    expect(await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'pair_key', is_enum: true } }))
      .toEqual(refusal('pair_key', 'for the following reasons:\n  • the table’s primary key must not span multiple columns (a, b)\n'
        // With no usable key, every column counts as one besides the key (Hasura's validateColumns).
        + '  • the table must have exactly one primary key and optionally one comment column, not 2 columns (a, b)\n'));
    expect(await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'keyless', is_enum: true } }))
      .toEqual(refusal('keyless', 'because the table must have a primary key'));
    expect(await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'shades', is_enum: true } }))
      .toEqual(refusal('shades', 'for the following reasons:\n  • the table’s primary key ("v") must have type "text", not type "varchar"\n'
        + '  • the table’s comment column ("v") must have type "text", not type "varchar"\n'));
  });

  it('set_table_is_enum judges the comment column and the rows', async () => {
    for (const table of ['moods', 'levels', 'flags']) expect((await post('/v1/query', { type: 'track_table', args: { table } })).status).toBe(200);
    expect(await post('/v1/query', { type: 'set_table_is_enum', args: { table: 'moods', is_enum: true } }))
      .toEqual(refusal('moods', 'because the table’s comment column ("weight") must have type "text", not type "integer"'));
    expect(await post('/v1/metadata', { type: 'pg_set_table_is_enum', args: { table: 'levels', is_enum: true } }))
      .toEqual(refusal('levels', 'because the table must have at least one row'));
    expect(await post('/v1/metadata', { type: 'pg_set_table_is_enum', args: { table: 'flags', is_enum: true } }))
      .toEqual(refusal('flags', 'because the values 9lives, null, and "two words" are not valid GraphQL enum value names'));
    await db.exec("DELETE FROM flags WHERE v IN ('9lives', 'two words')");
    expect(await post('/v1/metadata', { type: 'pg_set_table_is_enum', args: { table: 'flags', is_enum: true } }))
      .toEqual(refusal('flags', 'because the value "null" is not a valid GraphQL enum value name'));
  });

  it('a table of text key and text comment with good values is an enum', async () => {
    expect(await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'colours', is_enum: true } })).toEqual({ status: 200, body: { message: 'success' } });
    const r = await post('/v1/graphql', { query: '{ colours(order_by: {v: asc}) { v comment } }' });
    expect(r.body).toEqual({ data: { colours: [{ v: 'blue', comment: null }, { v: 'red', comment: 'warm' }] } });
  });
});
