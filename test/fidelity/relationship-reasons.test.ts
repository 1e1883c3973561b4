// A relationship that cannot be built is reported in Hasura's words, which differ by the pass that
// finds the problem: building it (no foreign key on the given column, several, the table a foreign
// key is looked up on not tracked) under the context `in table "t": in relationship "r": `; then
// resolving what it depends on (the table it points to, the columns of a manual mapping) without
// one. The same reasons come back from the creating operation, replace_metadata and
// get_inconsistent_metadata after a reload.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import type { TestDatabase } from '../helpers/database.js';

describe('relationship reasons', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const md = (type: string, args: unknown) => post('/v1/metadata', { type, args });
  const refused = (reason: string) => ({ status: 400, body: expect.objectContaining({ code: 'invalid-configuration', error: `Inconsistent object: ${reason}` }) });
  const relationshipNames = async (table: string): Promise<string[]> => {
    const t = (await md('export_metadata', {})).body.sources[0].tables.find((x: { table: { name: string } }) => x.table.name === table);
    return [...(t.object_relationships ?? []), ...(t.array_relationships ?? [])].map((r: { name: string }) => r.name).sort();
  };

  beforeAll(async () => {
    server = await serveDatabase('fidrelreasons', `
      CREATE TABLE keeper (id int PRIMARY KEY, badge int UNIQUE);
      CREATE TABLE shelf (id int PRIMARY KEY, keeper_id int REFERENCES keeper(id), label text,
        badge int REFERENCES keeper(id) REFERENCES keeper(badge));
      CREATE TABLE loose (id int PRIMARY KEY, shelf_id int REFERENCES shelf(id));
      CREATE SCHEMA lib;
      CREATE TABLE lib.tome (id int PRIMARY KEY, shelf_id int, title text);`, { track: ['keeper', 'shelf', { schema: 'lib', name: 'tome' }] });
    db = server.db;
  });

  afterAll(() => server?.close());

  it('building it: no foreign key on the given column, for object and array relationships, in a non-public schema too', async () => {
    expect(await md('pg_create_object_relationship', { table: 'shelf', name: 'owner', using: { foreign_key_constraint_on: 'label' } }))
      .toEqual(refused('in table "shelf": in relationship "owner": no foreign constraint exists on the given column'));
    expect(await md('pg_create_array_relationship', { table: 'shelf', name: 'tomes', using: { foreign_key_constraint_on: { table: { schema: 'lib', name: 'tome' }, column: 'shelf_id' } } }))
      .toEqual(refused('in table "shelf": in relationship "tomes": no foreign constraint exists on the given column'));
    expect(await md('pg_create_object_relationship', { table: { schema: 'lib', name: 'tome' }, name: 'shelf', using: { foreign_key_constraint_on: 'shelf_id' } }))
      .toEqual(refused('in table "lib.tome": in relationship "shelf": no foreign constraint exists on the given column'));
    expect(await relationshipNames('shelf')).toEqual([]);
  });

  it('building it: two foreign keys on the column, and a foreign key looked up on a table that is not tracked', async () => {
    expect(await md('pg_create_object_relationship', { table: 'shelf', name: 'badge_keeper', using: { foreign_key_constraint_on: 'badge' } }))
      .toEqual(refused('in table "shelf": in relationship "badge_keeper": more than one foreign key constraint exists on the given column'));
    expect(await md('pg_create_array_relationship', { table: 'shelf', name: 'loose_items', using: { foreign_key_constraint_on: { table: 'loose', column: 'shelf_id' } } }))
      .toEqual(refused('in table "shelf": in relationship "loose_items": table "loose" does not exist'));
    expect(await relationshipNames('shelf')).toEqual([]);
  });

  it('resolving what it depends on: the table it points to and the columns of a manual mapping, without context', async () => {
    expect(await md('pg_create_object_relationship', { table: 'loose_view_absent', name: 'x', using: { foreign_key_constraint_on: 'y' } })).toMatchObject({ status: 400, body: { code: 'not-exists' } });
    expect(await md('pg_create_object_relationship', { table: 'shelf', name: 'by_hand', using: { manual_configuration: { remote_table: 'keeper', column_mapping: { keeper_ref: 'id' } } } }))
      .toEqual(refused('table "shelf" has no field named "keeper_ref"'));
    expect(await md('pg_create_object_relationship', { table: 'shelf', name: 'by_hand', using: { manual_configuration: { remote_table: 'keeper', column_mapping: { keeper_id: 'ident' } } } }))
      .toEqual(refused('table "keeper" has no field named "ident"'));
    expect(await md('pg_create_object_relationship', { table: 'shelf', name: 'by_hand', using: { manual_configuration: { remote_table: 'loose', column_mapping: { id: 'shelf_id' } } } }))
      .toEqual(refused('table "loose" is not tracked'));
    expect(await relationshipNames('shelf')).toEqual([]);
    // The same relationships, right, are built.
    expect((await md('pg_create_object_relationship', { table: 'shelf', name: 'keeper', using: { foreign_key_constraint_on: 'keeper_id' } })).status).toBe(200);
    expect((await md('pg_create_array_relationship', { table: 'keeper', name: 'shelves', using: { foreign_key_constraint_on: { table: 'shelf', column: 'keeper_id' } } })).status).toBe(200);
    expect(await relationshipNames('shelf')).toEqual(['keeper']);
  });

  it('replace_metadata and get_inconsistent_metadata after a reload give the same reasons', async () => {
    const current = (await md('export_metadata', {})).body;
    const shelf = current.sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'shelf');
    const broken = structuredClone(current);
    broken.sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'shelf').object_relationships
      .push({ name: 'owner', using: { foreign_key_constraint_on: 'label' } });
    const strict = await md('replace_metadata', broken);
    expect(strict.status).toBe(400);
    expect(strict.body.internal.map((o: { reason: string }) => o.reason))
      .toEqual(['Inconsistent object: in table "shelf": in relationship "owner": no foreign constraint exists on the given column']);
    expect(shelf.object_relationships.map((r: { name: string }) => r.name)).toEqual(['keeper']);

    // The table an array relationship reads its foreign key from goes away behind Kiln's back.
    await db.exec('DROP TABLE shelf CASCADE');
    expect((await md('reload_metadata', {})).status).toBe(200);
    const found = (await md('get_inconsistent_metadata', {})).body.inconsistent_objects;
    expect(found).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'array_relation',
      reason: 'Inconsistent object: in table "keeper": in relationship "shelves": table "shelf" does not exist' })]));
  });
});
