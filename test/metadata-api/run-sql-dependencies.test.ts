// run_sql keeps the metadata consistent: a statement that drops or retypes what the metadata uses
// (a relationship's column, a permission's column, a computed field's function, a table, a column
// compared with a literal in a permission) fails with Hasura's dependency error and changes
// nothing, unless `cascade` is set; with cascade the dependent metadata goes too. A type change is
// refused even with cascade (Hasura: `procAlteredCols`).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('run_sql and the metadata that depends on the catalog', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const sql = (text: string, more: Record<string, unknown> = {}) => post('/v1/query', { type: 'run_sql', args: { sql: text, ...more } });
  const exported = async () => (await post('/v1/metadata', { type: 'export_metadata', args: {} })).body;
  const entry = async (name: string) => (await exported()).sources[0].tables.find((t: any) => t.table.name === name);
  const columnType = async (table: string, column: string) =>
    (await db.query(`SELECT data_type FROM information_schema.columns WHERE table_name = '${table}' AND column_name = '${column}'`))[0]?.['data_type'];

  beforeAll(async () => {
    server = await serveDatabase('rsqldeps');
    db = server.db;
  });
  afterAll(() => server?.close());

  // Every test starts from the same shelves and books, tracked with relationships, a computed
  // field and permissions.
  beforeEach(async () => {
    await post('/v1/metadata', { type: 'clear_metadata', args: {} });
    expect((await sql(`
      DROP TABLE IF EXISTS book, shelf CASCADE; DROP FUNCTION IF EXISTS shelf_label(shelf);
      CREATE TABLE shelf (id serial PRIMARY KEY, label text NOT NULL, floor int NOT NULL, owner_id int NOT NULL);
      CREATE TABLE book (id serial PRIMARY KEY, shelf_id int NOT NULL REFERENCES shelf (id), pages int, title text);
      CREATE FUNCTION shelf_label(s shelf) RETURNS text LANGUAGE sql STABLE AS $$ SELECT upper(s.label) $$;`)).status).toBe(200);
    const setup = await post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'shelf' } },
      { type: 'pg_track_table', args: { table: 'book' } },
      { type: 'pg_create_object_relationship', args: { table: 'book', name: 'shelf', using: { foreign_key_constraint_on: 'shelf_id' } } },
      { type: 'pg_create_array_relationship', args: { table: 'shelf', name: 'books', using: { foreign_key_constraint_on: { table: 'book', column: 'shelf_id' } } } },
      { type: 'pg_add_computed_field', args: { table: 'shelf', name: 'loud_label', definition: { function: 'shelf_label' } } },
      { type: 'pg_create_select_permission', args: { table: 'shelf', role: 'reader', permission: { columns: ['id', 'label'], filter: { floor: { _lt: 3 } } } } },
      { type: 'pg_create_update_permission', args: { table: 'shelf', role: 'keeper', permission: { columns: ['label'], filter: { owner_id: { _eq: 'X-Svc-User-Id' } }, check: null } } },
      { type: 'pg_create_insert_permission', args: { table: 'book', role: 'keeper', permission: { columns: ['title', 'pages', 'shelf_id'], check: { pages: { _gte: 1 } } } } },
      { type: 'pg_create_select_permission', args: { table: 'book', role: 'reader', permission: { columns: ['id', 'title'], filter: { shelf: { floor: { _eq: 1 } } } } } },
    ] });
    expect(setup.status).toBe(200);
  });

  it('refuses to drop a column two relationships and two permissions use, and drops them with it under cascade', async () => {
    const refused = await sql('ALTER TABLE book DROP COLUMN shelf_id');
    expect(refused).toEqual({ status: 400, body: { path: '$.args', code: 'dependency-error',
      error: 'cannot drop due to the following dependent objects : permission book.keeper.insert in source "default", permission book.reader.select in source "default", '
        + 'relationship book.shelf in source "default", relationship shelf.books in source "default"' } });
    expect(await columnType('book', 'shelf_id')).toBe('integer');

    expect((await sql('ALTER TABLE book DROP COLUMN shelf_id', { cascade: true })).status).toBe(200);
    expect(await columnType('book', 'shelf_id')).toBeUndefined();
    expect((await entry('book')).object_relationships).toBeUndefined();
    expect((await entry('shelf')).array_relationships).toBeUndefined();
    expect((await entry('book')).select_permissions).toBeUndefined();
    expect((await entry('book')).insert_permissions).toBeUndefined();
  });

  it('refuses to drop a column a select filter or an update filter uses, and drops the permission under cascade', async () => {
    expect((await sql('ALTER TABLE shelf DROP COLUMN floor')).body.error)
      .toBe('cannot drop due to the following dependent objects : permission book.reader.select in source "default", permission shelf.reader.select in source "default"');
    expect((await sql('ALTER TABLE shelf DROP COLUMN owner_id')).body.error)
      .toBe('cannot drop due to the following dependent objects : permission shelf.keeper.update in source "default"');
    expect(await columnType('shelf', 'owner_id')).toBe('integer');

    expect((await sql('ALTER TABLE shelf DROP COLUMN owner_id', { cascade: true })).status).toBe(200);
    const shelf = await entry('shelf');
    expect(shelf.update_permissions).toBeUndefined();
    expect(shelf.select_permissions.map((p: any) => p.role)).toEqual(['reader']);
  });

  it('refuses to drop a column an event trigger watches with the metadata\'s dependency error, not the database\'s', async () => {
    const created = await post('/v1/metadata', { type: 'pg_create_event_trigger', args: { name: 'pages_changed', table: 'book',
      update: { columns: ['pages'] }, webhook: 'http://127.0.0.1:9/unused' } });
    expect(created.status).toBe(200);
    const refused = await sql('ALTER TABLE book DROP COLUMN pages');
    expect([refused.status, refused.body.code, refused.body.path]).toEqual([400, 'dependency-error', '$.args']);
    expect(refused.body.error).toContain('pages_changed');
    expect(await columnType('book', 'pages')).toBe('integer');
  });

  it('refuses to drop a computed field\'s function, and drops the field under cascade', async () => {
    expect((await sql('DROP FUNCTION shelf_label(shelf)')).body).toEqual({ path: '$.args', code: 'dependency-error',
      error: 'cannot drop due to the following dependent objects : computed field shelf.loud_label in source "default"' });
    expect((await db.query("SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'shelf_label'"))[0]).toEqual({ n: 1 });
    expect((await sql('DROP FUNCTION shelf_label(shelf)', { cascade: true })).status).toBe(200);
    expect((await entry('shelf')).computed_fields).toBeUndefined();
  });

  it('refuses to drop a table another table\'s relationship leads to, and drops the table\'s metadata under cascade', async () => {
    const refused = await sql('DROP TABLE shelf CASCADE');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^cannot drop due to the following dependent objects : .*relationship book\.shelf in source "default"/);
    expect(await columnType('shelf', 'label')).toBe('text');
    expect((await sql('DROP TABLE shelf CASCADE', { cascade: true })).status).toBe(200);
    expect(await entry('shelf')).toBeUndefined();
    expect((await entry('book')).object_relationships).toBeUndefined();
  });

  it('refuses a new type for a column a permission compares with a literal, on a filter and on an insert check, even with cascade', async () => {
    expect(await sql('ALTER TABLE shelf ALTER COLUMN floor TYPE bigint')).toEqual({ status: 400, body: { path: '$.args', code: 'dependency-error',
      error: 'cannot change type of column "floor" in table "shelf" because of the following dependencies : '
        + 'permission book.reader.select in source "default", permission shelf.reader.select in source "default"' } });
    expect(await columnType('shelf', 'floor')).toBe('integer');
    const check = await sql('ALTER TABLE book ALTER COLUMN pages TYPE numeric', { cascade: true });
    expect(check.body.error).toBe('cannot change type of column "pages" in table "book" because of the following dependencies : permission book.keeper.insert in source "default"');
    expect(await columnType('book', 'pages')).toBe('integer');
  });

  it('lets a column change type when permissions compare it only with session variables or list it', async () => {
    expect((await sql('ALTER TABLE shelf ALTER COLUMN owner_id TYPE bigint')).status).toBe(200);
    expect((await sql('ALTER TABLE shelf ALTER COLUMN label TYPE varchar(80)')).status).toBe(200);
    expect(await columnType('shelf', 'owner_id')).toBe('bigint');
    expect((await entry('shelf')).update_permissions[0].permission.filter).toEqual({ owner_id: { _eq: 'X-Svc-User-Id' } });
  });
});
