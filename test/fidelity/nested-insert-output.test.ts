// A nested insert answers `returning` from a statement run after its writes (as Hasura, which
// inserts object by object and then selects the response from the inserted rows): computed fields
// that read a table see the rows inserted through relationships, and counts include them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import type { TestDatabase } from '../helpers/database.js';

describe('returning of a nested insert reads after the writes', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<any> => server.ok(path, body);
  const gql = (query: string, variables: Record<string, unknown> = {}) => post('/v1/graphql', { query, variables });

  beforeAll(async () => {
    server = await serveDatabase('fidnest', `
      CREATE TABLE shelf (id serial PRIMARY KEY, label text UNIQUE NOT NULL);
      CREATE TABLE book (id serial PRIMARY KEY, shelf_id int REFERENCES shelf(id), title text NOT NULL, pages int);
      CREATE TABLE shelf_card (id int PRIMARY KEY REFERENCES shelf(id), note text NOT NULL);
      CREATE FUNCTION shelf_long_books(s shelf, min_pages int) RETURNS SETOF book AS
        $$ SELECT * FROM book WHERE shelf_id = s.id AND pages >= min_pages ORDER BY id $$ LANGUAGE sql STABLE;
      CREATE FUNCTION shelf_page_total(s shelf) RETURNS bigint AS
        $$ SELECT coalesce(sum(pages), 0) FROM book WHERE shelf_id = s.id $$ LANGUAGE sql STABLE;
      INSERT INTO shelf (label) VALUES ('old');
      INSERT INTO book (shelf_id, title, pages) VALUES (1, 'kept', 500);`);
    db = server.db;
    const md = await post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'shelf' } },
      { type: 'pg_track_table', args: { table: 'book' } },
      { type: 'pg_track_table', args: { table: 'shelf_card' } },
      { type: 'pg_create_object_relationship', args: { table: 'shelf', name: 'card', using: { foreign_key_constraint_on: { table: 'shelf_card', column: 'id' } } } },
      { type: 'pg_create_array_relationship', args: { table: 'shelf', name: 'books', using: { foreign_key_constraint_on: { table: 'book', column: 'shelf_id' } } } },
      { type: 'pg_create_object_relationship', args: { table: 'book', name: 'shelf', using: { foreign_key_constraint_on: 'shelf_id' } } },
      { type: 'pg_add_computed_field', args: { table: 'shelf', name: 'long_books', definition: { function: 'shelf_long_books' } } },
      { type: 'pg_add_computed_field', args: { table: 'shelf', name: 'page_total', definition: { function: 'shelf_page_total' } } },
    ] });
    expect(md).toEqual(Array(8).fill({ message: 'success' }));
  });

  afterAll(() => server?.close());

  it('insert_<t>: computed fields and relationships of returning see the children inserted with the parent', async () => {
    const r = await gql(`mutation { insert_shelf(objects: [
        {label: "new", books: {data: [{title: "thin", pages: 40}, {title: "thick", pages: 900}]}},
        {label: "empty"}]) {
      affected_rows
      returning { label page_total long_books(args: {min_pages: 100}) { title } books_aggregate { aggregate { count } } } } }`);
    expect(r).toEqual({ data: { insert_shelf: { affected_rows: 4, returning: [
      { label: 'new', page_total: 940, long_books: [{ title: 'thick' }], books_aggregate: { aggregate: { count: 2 } } },
      { label: 'empty', page_total: 0, long_books: [], books_aggregate: { aggregate: { count: 0 } } }] } } });
  });

  it('insert_<t>_one through an object relationship, with variables, and an upsert of the parent', async () => {
    const r = await gql(`mutation($p: Int!) { insert_book_one(object: {title: "moved", pages: $p,
        shelf: {data: {label: "old"}, on_conflict: {constraint: shelf_label_key, update_columns: [label]}}}) {
      title shelf { label page_total long_books(args: {min_pages: $p}) { title } } } }`, { p: 300 });
    expect(r).toEqual({ data: { insert_book_one: { title: 'moved', shelf: { label: 'old', page_total: 800, long_books: [{ title: 'kept' }, { title: 'moved' }] } } } });
  });

  it('an object relationship whose key is on the other table inserts that row after the parent, with the parent\'s key', async () => {
    // Hasura's objRelP2Setup: foreign_key_constraint_on {table, column} of an object relationship is AfterParent.
    const one = await gql('mutation { insert_shelf_one(object: {label: "carded", card: {data: {note: "first"}}}) { id label card { id note } } }');
    const id = (await db.query('SELECT id FROM shelf WHERE label = $1', ['carded']))[0]!.id;
    expect(one).toEqual({ data: { insert_shelf_one: { id, label: 'carded', card: { id, note: 'first' } } } });
    const many = await gql(`mutation { insert_shelf(objects: [{label: "c2", card: {data: {note: "two"}}}, {label: "c3"}]) {
      affected_rows returning { label card { note } } } }`);
    expect(many).toEqual({ data: { insert_shelf: { affected_rows: 3, returning: [{ label: 'c2', card: { note: 'two' } }, { label: 'c3', card: null }] } } });
    expect(await db.query('SELECT s.label, c.note FROM shelf_card c JOIN shelf s ON s.id = c.id ORDER BY c.id')).toEqual([
      { label: 'carded', note: 'first' }, { label: 'c2', note: 'two' }]);
  });

  it('a failed nested insert still rolls back every write', async () => {
    const r = await gql('mutation { insert_shelf_one(object: {label: "bad", books: {data: [{title: null}]}}) { label page_total } }') as { errors?: unknown[] };
    expect(r.errors).toHaveLength(1);
    expect(await db.query('SELECT count(*)::int AS n FROM shelf WHERE label = $1', ['bad'])).toEqual([{ n: 0 }]);
  });
});
