// A key missing from a v1 data operation's arguments is refused in aeson's words for the parser
// Hasura wrote by hand: DML/Types.hs reads `table`, `objects` (insert), `where` (update, delete),
// a relationship column's `name`, an order_by item's `column` and a table's `name` with `.:`,
// which fails `key "where" not found` at the object, and it parses the whole object before it
// looks the table up. A record parser Hasura derives with Template Haskell (OnConflict's `action`,
// a select's `columns`) keeps "the key 'action' was not present". tests-py case:
// test_v1_queries.py::TestV1UpdateBasic::test_no_where_clause_err (v1/update/basic/
// person_error_no_where_clause.yaml). Kiln answered "the key 'where' was not present" for every
// key, and looked the table up before reading `where` or `objects`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

let server: ServedDatabase;
const query = async (type: string, args: unknown): Promise<{ status: number; body: any }> => server.post('/v1/query', { type, args });
const missing = (key: string, path = '$') => ({ status: 400, body: { path, error: `key "${key}" not found`, code: 'parse-failed' } });

beforeAll(async () => {
  server = await serveDatabase('fidv1keys', `CREATE TABLE writer (id serial PRIMARY KEY, name text);
    CREATE TABLE essay (id serial PRIMARY KEY, title text, writer_id int REFERENCES writer);
    INSERT INTO writer (name) VALUES ('Ann');`, {
    track: ['writer', 'essay'],
    metadata: [{ type: 'pg_create_object_relationship', args: { table: 'essay', name: 'writer', using: { foreign_key_constraint_on: 'writer_id' } } }],
  });
}, 60_000);
afterAll(() => server?.close());

describe('a key a hand-written parser reads with .:', () => {
  it('is refused as aeson words it, at the object', async () => {
    expect(await query('update', { table: 'writer', $set: { name: 'x' } })).toEqual(missing('where'));
    expect(await query('delete', { table: 'writer' })).toEqual(missing('where'));
    expect(await query('insert', { table: 'writer' })).toEqual(missing('objects'));
    expect(await query('select', { columns: ['id'] })).toEqual(missing('table'));
    expect(await query('count', { where: {} })).toEqual(missing('table'));
    expect(await query('select', { table: { schema: 'public' }, columns: ['id'] })).toEqual(missing('name', '$.table'));
    expect(await query('select', { table: 'essay', columns: ['id', { columns: ['name'] }] })).toEqual(missing('name', '$.columns[1]'));
    expect(await query('select', { table: 'essay', columns: ['id'], order_by: [{ type: 'asc' }] })).toEqual(missing('column', '$.order_by[0]'));
  });

  it('is refused before the table is looked up', async () => {
    expect(await query('update', { table: 'nowhere', $set: { name: 'x' } })).toEqual(missing('where'));
    expect(await query('insert', { table: 'nowhere', on_conflict: { constraint: 'x' } })).toEqual(missing('objects'));
  });

  it('leaves the words of derived record parsers as they were, and nothing changed', async () => {
    expect((await query('insert', { table: 'writer', objects: [{ name: 'B' }], on_conflict: { constraint: 'writer_pkey' } })).body)
      .toEqual({ path: '$.on_conflict', error: "the key 'action' was not present", code: 'parse-failed' });
    expect((await query('select', { table: 'writer' })).body).toEqual({ path: '$', error: "the key 'columns' was not present", code: 'parse-failed' });
    expect((await query('select', { table: 'writer', columns: ['name'] })).body).toEqual([{ name: 'Ann' }]);
  });
});
