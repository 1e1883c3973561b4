// A relationship whose name is not a GraphQL name cannot be served: Hasura keeps any non-empty name
// and refuses it when it builds the field, in textToName's words ("cannot include "x" in the GraphQL
// schema because  it is not a valid GraphQL identifier", two spaces as Hasura writes it), the way
// Kiln already refuses such a column. For object and array relationships, created, renamed or
// replaced in the metadata; never a 500, and nothing changes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('relationship names that are not GraphQL names', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const md = (type: string, args: unknown) => post('/v1/metadata', { type, args });
  const because = (name: string) => `Inconsistent object: cannot include ${JSON.stringify(name)} in the GraphQL schema because  it is not a valid GraphQL identifier`;

  beforeAll(async () => {
    server = await serveDatabase('fidrelnames', `
      CREATE TABLE river (id int PRIMARY KEY, name text);
      CREATE TABLE bridge (id int PRIMARY KEY, river_id int REFERENCES river(id));
      INSERT INTO river VALUES (1, 'Rhine'); INSERT INTO bridge VALUES (7, 1);`, { track: ['river', 'bridge'] });
  });

  afterAll(() => server?.close());

  it('creating one: object and array relationships are refused with the reason, and the schema still answers', async () => {
    const obj = await md('pg_create_object_relationship', { table: 'bridge', name: 'the river', using: { foreign_key_constraint_on: 'river_id' } });
    expect(obj).toMatchObject({ status: 400, body: { code: 'invalid-configuration', error: because('the river') } });
    expect(obj.body.internal).toEqual([expect.objectContaining({ type: 'object_relation', name: 'object_relation the river in table bridge in source default', reason: because('the river') })]);
    const arr = await md('pg_create_array_relationship', { table: 'river', name: '2bridges', using: { foreign_key_constraint_on: { table: 'bridge', column: 'river_id' } } });
    expect(arr).toMatchObject({ status: 400, body: { code: 'invalid-configuration', error: because('2bridges') } });
    expect((await post('/v1/graphql', { query: '{ river { name } }' })).body).toEqual({ data: { river: [{ name: 'Rhine' }] } });
  });

  it('renaming one to such a name is refused the same way, not read as a drop; replace_metadata too', async () => {
    expect((await md('pg_create_array_relationship', { table: 'river', name: 'bridges', using: { foreign_key_constraint_on: { table: 'bridge', column: 'river_id' } } })).status).toBe(200);
    const r = await md('pg_rename_relationship', { table: 'river', name: 'bridges', new_name: 'all-bridges' });
    expect(r).toMatchObject({ status: 400, body: { code: 'invalid-configuration', error: because('all-bridges') } });
    expect(r.body.internal[0]).toMatchObject({ type: 'array_relation', definition: { name: 'all-bridges' } });
    const current = (await md('export_metadata', {})).body;
    const next = structuredClone(current);
    next.sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'bridge').object_relationships = [{ name: 'über', using: { foreign_key_constraint_on: 'river_id' } }];
    const replaced = await md('replace_metadata', next);
    expect(replaced.status).toBe(400);
    expect(replaced.body.internal).toEqual([expect.objectContaining({ type: 'object_relation', reason: because('über') })]);
    expect((await md('export_metadata', {})).body).toEqual(current);
    expect((await post('/v1/graphql', { query: '{ river { bridges { id } } }' })).body).toEqual({ data: { river: [{ bridges: [{ id: 7 }] }] } });
  });
});
