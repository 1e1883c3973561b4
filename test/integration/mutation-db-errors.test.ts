// Database errors of mutations as Hasura reports them: the constraint's code and wording, at the
// insert that failed (`args.objects`, `args.object`, `objects[0].<rel>.data` through nested
// inserts), `$` for updates and deletes; and nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { errorOf, metadataOf, table } from './setup.js';

const SETUP = `
CREATE TABLE shelf (id int PRIMARY KEY, code text NOT NULL UNIQUE);
CREATE TABLE jar (id serial PRIMARY KEY, shelf_id int NOT NULL REFERENCES shelf(id), litres numeric CHECK (litres > 0), tag text);
INSERT INTO shelf VALUES (1, 'A1');
-- A trigger's own error: unclassified (P0001) for tag 'raise', a data exception (22000) for tag 'data'.
CREATE FUNCTION jar_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.tag = 'raise' THEN RAISE EXCEPTION 'jars tagged raise are refused'; END IF;
  IF NEW.tag = 'data' THEN RAISE EXCEPTION 'jars tagged data are refused' USING ERRCODE = '22000'; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER jar_guard BEFORE INSERT ON jar FOR EACH ROW EXECUTE FUNCTION jar_guard();
`;

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('mdberr', SETUP);
  const rels = {
    shelf: { array_relationships: [{ name: 'jars', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'jar' }, column: 'shelf_id' } } }] },
    jar: { object_relationships: [{ name: 'shelf', using: { foreign_key_constraint_on: 'shelf_id' } }] },
  };
  kiln = await startKiln({ metadata: metadataOf([table('shelf', rels.shelf), table('jar', rels.jar)]), databaseUrl: db.url });
});
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const fails = async (query: string, variables?: Record<string, unknown>): Promise<ReturnType<typeof errorOf>> => errorOf(await kiln.gql(query, variables));
const counts = async (): Promise<unknown> => (await db.query('SELECT (SELECT count(*) FROM shelf)::int AS shelves, (SELECT count(*) FROM jar)::int AS jars'))[0];

describe('constraint violations of inserts', () => {
  it('a unique violation, at args.objects or args.object', async () => {
    const unique = { message: 'Uniqueness violation. duplicate key value violates unique constraint "shelf_code_key"', code: 'constraint-violation' };
    expect(await fails('mutation { insert_shelf(objects: [{id: 2, code: "B"}, {id: 3, code: "B"}]) { affected_rows } }'))
      .toEqual({ ...unique, path: '$.selectionSet.insert_shelf.args.objects' });
    expect(await fails('mutation M($o: shelf_insert_input!) { insert_shelf_one(object: $o) { id } }', { o: { id: 4, code: 'A1' } }))
      .toEqual({ ...unique, path: '$.selectionSet.insert_shelf_one.args.object' });
    expect(await counts()).toEqual({ shelves: 1, jars: 0 });
  });

  it('a foreign-key and a not-null violation, in Hasura\'s words', async () => {
    expect(await fails('mutation { insert_jar(objects: [{shelf_id: 9}]) { affected_rows } }')).toEqual({
      message: 'Foreign key violation. insert or update on table "jar" violates foreign key constraint "jar_shelf_id_fkey"',
      path: '$.selectionSet.insert_jar.args.objects', code: 'constraint-violation' });
    expect(await fails('mutation { insert_jar_one(object: {tag: "x"}) { id } }')).toEqual({
      message: 'Not-NULL violation. null value in column "shelf_id" of relation "jar" violates not-null constraint',
      path: '$.selectionSet.insert_jar_one.args.object', code: 'constraint-violation' });
  });

  it('a CHECK constraint is a permission-error (Hasura\'s mapping of 23514)', async () => {
    expect(await fails('mutation { insert_jar(objects: [{shelf_id: 1, litres: -2}]) { affected_rows } }')).toEqual({
      message: 'Check constraint violation. new row for relation "jar" violates check constraint "jar_litres_check"',
      path: '$.selectionSet.insert_jar.args.objects', code: 'permission-error' });
  });

  it('through a nested insert, the path names the object and the relationship that failed', async () => {
    expect(await fails('mutation { insert_shelf(objects: [{id: 5, code: "C", jars: {data: [{litres: 0}]}}]) { affected_rows } }')).toEqual({
      message: 'Check constraint violation. new row for relation "jar" violates check constraint "jar_litres_check"',
      path: '$.selectionSet.insert_shelf.args.objects[0].jars.data', code: 'permission-error' });
    expect(await fails('mutation { insert_jar(objects: [{litres: 1, shelf: {data: {id: 6, code: "A1"}}}]) { affected_rows } }')).toEqual({
      message: 'Uniqueness violation. duplicate key value violates unique constraint "shelf_code_key"',
      path: '$.selectionSet.insert_jar.args.objects[0].shelf.data', code: 'constraint-violation' });
    // The parent's own failure is at the object itself.
    expect(await fails('mutation { insert_shelf(objects: [{id: 1, code: "D", jars: {data: [{litres: 1}]}}]) { affected_rows } }')).toEqual({
      message: 'Uniqueness violation. duplicate key value violates unique constraint "shelf_pkey"',
      path: '$.selectionSet.insert_shelf.args.objects[0]', code: 'constraint-violation' });
    expect(await counts()).toEqual({ shelves: 1, jars: 0 });
  });

  it('a value PostgreSQL cannot read is a data-exception at the insert', async () => {
    expect(await fails('mutation { insert_jar(objects: [{shelf_id: 1, litres: "lots"}]) { affected_rows } }')).toEqual({
      message: 'invalid input syntax for type numeric: "lots"', path: '$.selectionSet.insert_jar.args.objects', code: 'data-exception' });
  });
});

describe('errors a trigger raises', () => {
  it('an error Hasura does not expect is 500 unexpected "database query error" (its words stay in internal); a data exception is the client\'s', async () => {
    // Hasura's dmlTxErrorHandler: classes 22 and 23 and two codes of 42 are reported; the rest is unexpected.
    const raised = await kiln.gql('mutation { insert_jar_one(object: {shelf_id: 1, tag: "raise"}) { id } }') as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(raised.errors).toEqual([{ message: 'database query error', extensions: { path: '$', code: 'unexpected' } }]);
    expect(await fails('mutation { insert_jar_one(object: {shelf_id: 1, tag: "data"}) { id } }')).toEqual({
      message: 'jars tagged data are refused', path: '$.selectionSet.insert_jar_one.args.object', code: 'data-exception' });
    expect(await counts()).toEqual({ shelves: 1, jars: 0 });
  });
});

describe('constraint violations of updates and deletes', () => {
  it('are reported at $', async () => {
    await db.exec("INSERT INTO jar (shelf_id, litres) VALUES (1, 2)");
    expect(await fails('mutation { update_jar(where: {}, _set: {litres: -1}) { affected_rows } }')).toMatchObject({ path: '$', code: 'permission-error' });
    expect(await fails('mutation { delete_shelf(where: {id: {_eq: 1}}) { affected_rows } }')).toEqual({
      message: 'Foreign key violation. update or delete on table "shelf" violates foreign key constraint "jar_shelf_id_fkey" on table "jar"',
      path: '$', code: 'constraint-violation' });
  });
});
