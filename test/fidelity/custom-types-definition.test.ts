// Custom types that fail validation are reported with the definition Hasura writes: aeson's
// ToJSON of its parsed CustomTypes, with every key of every record (null where none was given),
// a relationship's source and its remote table as {schema, name}; in set_custom_types'
// refusal, in replace_metadata's refusal and in get_inconsistent_metadata alike.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('custom types definition in inconsistent objects', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const md = (type: string, args: unknown) => post('/v1/metadata', { type, args });

  beforeAll(async () => {
    server = await serveDatabase('fidctypes', `
      CREATE TABLE planet (id int PRIMARY KEY, title text NOT NULL, moons int[]);
      INSERT INTO planet VALUES (1, 'Mars', '{1,2}');`, { track: ['planet'], metadata: [
      { type: 'set_custom_types', args: { scalars: [{ name: 'Stamp' }], objects: [{ name: 'Probe', fields: [{ name: 'id', type: 'Int!' }] }] } }] });
  });

  afterAll(() => server?.close());

  const listRelationship = {
    objects: [{ name: 'Orbit', description: 'an orbit', fields: [{ name: 'moon_ids', type: '[Int!]' }, { name: 'when', type: 'Stamp' }],
      relationships: [{ name: 'planet', type: 'object', remote_table: 'planet', field_mapping: { moon_ids: 'id' } }] }],
    scalars: [{ name: 'Stamp' }],
  };
  const listRelationshipAsHasura = {
    input_objects: null,
    objects: [{ name: 'Orbit', description: 'an orbit',
      fields: [{ name: 'moon_ids', arguments: null, description: null, type: '[Int!]' }, { name: 'when', arguments: null, description: null, type: 'Stamp' }],
      relationships: [{ name: 'planet', type: 'object', source: 'default', remote_table: { schema: 'public', name: 'planet' }, field_mapping: { moon_ids: 'id' } }] }],
    scalars: [{ name: 'Stamp', description: null }],
    enums: null,
  };
  const listReason = 'validation for the given custom types failed because the type of the field "moon_ids" for relationship "planet" in object type "Orbit" is a list type';

  it('set_custom_types refuses with every key of the definition, and changes nothing', async () => {
    const r = await md('set_custom_types', listRelationship);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid-configuration');
    expect(r.body.internal).toEqual([{ type: 'custom_types', name: 'custom_types custom_types', definition: listRelationshipAsHasura,
      reason: `Inconsistent object: ${listReason}` }]);
    const exported = await md('export_metadata', {});
    expect(exported.body.custom_types.objects.map((o: { name: string }) => o.name)).toEqual(['Probe']);
  });

  it('an unknown field type: input objects, enums and their values written in full', async () => {
    const r = await md('set_custom_types', {
      input_objects: [{ name: 'ProbeInput', fields: [{ name: 'label', type: 'String', description: 'shown' }] }],
      enums: [{ name: 'Kind', values: [{ value: 'rock' }, { value: 'gas', is_deprecated: true }] }],
      objects: [{ name: 'Probe', fields: [{ name: 'id', type: 'Int!' }, { name: 'mass', type: 'no_such_type' }] }],
    });
    expect(r.status).toBe(400);
    expect(r.body.internal[0].definition).toEqual({
      input_objects: [{ name: 'ProbeInput', description: null, fields: [{ name: 'label', description: 'shown', type: 'String' }] }],
      objects: [{ name: 'Probe', description: null, relationships: null,
        fields: [{ name: 'id', arguments: null, description: null, type: 'Int!' }, { name: 'mass', arguments: null, description: null, type: 'no_such_type' }] }],
      scalars: null,
      enums: [{ name: 'Kind', description: null, values: [{ value: 'rock', description: null, is_deprecated: null }, { value: 'gas', description: null, is_deprecated: true }] }],
    });
    expect(r.body.internal[0].reason).toContain('the type "no_such_type" for field "mass" in  object type "Probe" does not exist');
  });

  it('replace_metadata and get_inconsistent_metadata show the same definition', async () => {
    const current = (await md('export_metadata', {})).body;
    const strict = await md('replace_metadata', { ...current, custom_types: listRelationship });
    expect(strict.status).toBe(400);
    expect(strict.body.internal).toEqual([expect.objectContaining({ type: 'custom_types', definition: listRelationshipAsHasura })]);
    const lax = await md('replace_metadata', { allow_inconsistent_metadata: true, metadata: { ...current, custom_types: listRelationship } });
    expect(lax.status).toBe(200);
    const inconsistent = await md('get_inconsistent_metadata', {});
    expect(inconsistent.body.inconsistent_objects).toEqual([expect.objectContaining({ type: 'custom_types', definition: listRelationshipAsHasura,
      reason: `Inconsistent object: ${listReason}` })]);
    expect((await md('replace_metadata', current)).status).toBe(200);
    expect((await md('get_inconsistent_metadata', {})).body.is_consistent).toBe(true);
  });
});
