// set_custom_types and the action operations through a served Kiln, with Hasura v2's reasons
// (Hasura.RQL.DDL.CustomTypes, corpus actions/custom-types): replace semantics, a failed call
// leaves the metadata as it was, and types an action uses cannot be taken away.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('custom types', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> =>
    server.post(path, body, headers);
  const md = (type: string, args: unknown): Promise<{ status: number; body: any }> => post('/v1/metadata', { type, args });
  const exported = async (): Promise<any> => (await md('export_metadata', {})).body;

  beforeAll(async () => {
    server = await serveDatabase('actions_ct', `CREATE TABLE "user" (id uuid PRIMARY KEY, name text NOT NULL);`);
    expect((await md('pg_track_table', { table: 'user' })).status).toBe(200);
  });
  afterAll(() => server?.close());

  it('accepts database scalars and relationships, and replaces the whole set', async () => {
    const ok = await md('set_custom_types', {
      scalars: [{ name: 'Email' }],
      enums: [{ name: 'Mood', values: [{ value: 'HAPPY' }, { value: 'SAD' }] }],
      input_objects: [{ name: 'UserInput', fields: [{ name: 'id', type: 'uuid!' }, { name: 'mood', type: 'Mood' }] }],
      objects: [{ name: 'User', fields: [{ name: 'user_id', type: 'uuid!' }, { name: 'email', type: 'Email' }],
        relationships: [{ name: 'row', type: 'object', remote_table: 'user', field_mapping: { user_id: 'id' } }] }],
    });
    expect(ok).toEqual({ status: 200, body: { message: 'success' } });
    expect((await exported()).custom_types.objects[0].name).toBe('User');
    // Replace: a later call with only scalars leaves only those.
    expect((await md('set_custom_types', { scalars: [{ name: 'Email' }] })).status).toBe(200);
    expect((await exported()).custom_types).toEqual({ scalars: [{ name: 'Email' }] });
  });

  it('refuses an unknown field type with the reason, and changes nothing', async () => {
    const before = await exported();
    const r = await md('set_custom_types', { objects: [{ name: 'User', fields: [{ name: 'user_id', type: 'uuid!' }, { name: 'unknown_pgtype', type: 'unknown_type' }] }] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid-configuration', path: '$.args',
      error: 'Inconsistent object: validation for the given custom types failed because the type "unknown_type" for field "unknown_pgtype" in  object type "User" does not exist' });
    expect(r.body.internal[0]).toMatchObject({ type: 'custom_types', name: 'custom_types custom_types' });
    expect(await exported()).toEqual(before);
  });

  it('refuses relationships from list fields, to missing columns and tables, and lists every reason', async () => {
    const list = await md('set_custom_types', { objects: [{ name: 'User', fields: [{ name: 'user_id', type: 'uuid!' }, { name: 'names', type: '[String!]' }],
      relationships: [{ name: 'Names', type: 'array', remote_table: 'user', field_mapping: { names: 'name' } }] }] });
    expect(list.body.error).toBe('Inconsistent object: validation for the given custom types failed because the type of the field "names" for relationship "Names" in object type "User" is a list type');
    const several = await md('set_custom_types', { objects: [{ name: 'User', fields: [{ name: 'user_id', type: 'uuid!' }],
      relationships: [{ name: 'a', type: 'object', remote_table: 'user', field_mapping: { user_id: 'nope' } },
        { name: 'b', type: 'object', remote_table: { schema: 'public', name: 'missing' }, field_mapping: { user_id: 'id' } }] }] });
    expect(several.body.error).toBe('Inconsistent object: validation for the given custom types failed for the following reasons:\n'
      + '  • the column "nope" of remote table "user" for relationship "a" of object type "User" does not exist\n'
      + '  • the remote table "missing" for relationship "b" of object type "User" does not exist\n');
  });

  it('refuses duplicate type names, fields and enum values', async () => {
    const r = await md('set_custom_types', { scalars: [{ name: 'X' }], enums: [{ name: 'E', values: [{ value: 'A' }, { value: 'A' }] }],
      input_objects: [{ name: 'X', fields: [{ name: 'a', type: 'Int' }] }],
      objects: [{ name: 'O', fields: [{ name: 'f', type: 'Int' }, { name: 'f', type: 'String' }] }] });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('  • duplicate type names: "X"\n');
    expect(r.body.error).toContain('  • the enum type "E" has duplicate values: "A"\n');
    expect(r.body.error).toContain('  • the object "O" has duplicate fields: "f"\n');
  });

  it('keeps types an action uses: removing them fails and changes nothing', async () => {
    expect((await md('set_custom_types', { objects: [{ name: 'Out', fields: [{ name: 'id', type: 'uuid!' }] }] })).status).toBe(200);
    expect((await md('create_action', { name: 'doIt', definition: { handler: 'http://127.0.0.1:9/x', output_type: 'Out', arguments: [{ name: 'n', type: 'Int!' }] } })).status).toBe(200);
    const before = await exported();
    const r = await md('set_custom_types', {});
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('unexpected');
    expect(r.body.internal[0]).toMatchObject({ type: 'action', name: 'action doIt',
      reason: 'Inconsistent object: in action "doIt"; the type: "Out" is not an object or scalar type defined in custom types' });
    expect(await exported()).toEqual(before);
  });

  it('refuses an action whose argument type is unknown', async () => {
    const r = await md('create_action', { name: 'bad', definition: { handler: 'http://127.0.0.1:9/x', output_type: 'Out', arguments: [{ name: 'n', type: 'Nope!' }] } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid-configuration',
      error: 'Inconsistent object: in action "bad"; the type: "Nope" is not defined in custom types or it is not a scalar/enum/input_object' });
    expect((await exported()).actions.map((a: any) => a.name)).toEqual(['doIt']);
  });
});
