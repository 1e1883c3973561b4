// Inconsistent custom types are echoed as Hasura parsed them (its ToJSON of `CustomTypes`): every
// key of every type present, null where the document gave nothing, a relationship's table
// qualified and its source named; in set_custom_types' refusal (`internal`) and in what
// replace_metadata and get_inconsistent_metadata list.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('the definition of inconsistent custom types', () => {
  let server: ServedDatabase;
  const md = (type: string, args: unknown, more: Record<string, unknown> = {}) => server.metadata(type, args, more);

  beforeAll(async () => {
    server = await serveDatabase('fidctypes', 'CREATE TABLE parcel (id int PRIMARY KEY, tags text[]);', { track: ['parcel'] });
  });
  afterAll(() => server?.close());

  const types = {
    enums: [{ name: 'Speed', values: [{ value: 'SLOW' }, { value: 'FAST', description: 'quick', is_deprecated: true }] }],
    objects: [{ name: 'Shipment', description: 'one shipment', fields: [{ name: 'parcel_id', type: 'Int!' }, { name: 'weight', type: 'grams' }],
      relationships: [{ name: 'parcel', type: 'object', remote_table: 'parcel', field_mapping: { parcel_id: 'id' } }] }],
  };
  const parsed = {
    scalars: null,
    enums: [{ name: 'Speed', description: null, values: [{ value: 'SLOW', description: null, is_deprecated: null }, { value: 'FAST', description: 'quick', is_deprecated: true }] }],
    input_objects: null,
    objects: [{ name: 'Shipment', description: 'one shipment',
      fields: [{ name: 'parcel_id', type: 'Int!', description: null, arguments: null }, { name: 'weight', type: 'grams', description: null, arguments: null }],
      relationships: [{ name: 'parcel', type: 'object', source: 'default', remote_table: { schema: 'public', name: 'parcel' }, field_mapping: { parcel_id: 'id' } }] }],
  };
  const reason = 'Inconsistent object: validation for the given custom types failed because the type "grams" for field "weight" in  object type "Shipment" does not exist';

  it('set_custom_types refuses them with the parsed definition in internal, and keeps the types as they were', async () => {
    const before = (await md('export_metadata', {})).body;
    const r = await md('set_custom_types', types);
    expect(r).toEqual({ status: 400, body: { path: '$.args', code: 'invalid-configuration', error: reason,
      internal: [{ type: 'custom_types', name: 'custom_types custom_types', definition: parsed, reason }] } });
    expect((await md('export_metadata', {})).body).toEqual(before);
  });

  it('replace_metadata and get_inconsistent_metadata list the same definition', async () => {
    const current = (await md('export_metadata', {})).body;
    const r = await md('replace_metadata', { allow_inconsistent_metadata: true, metadata: { ...current, custom_types: types } }, { version: 2 });
    const expected = [{ type: 'custom_types', name: 'custom_types custom_types', definition: parsed, reason }];
    expect(r).toEqual({ status: 200, body: { is_consistent: false, inconsistent_objects: expected } });
    expect((await md('get_inconsistent_metadata', {})).body).toEqual({ is_consistent: false, inconsistent_objects: expected });
    expect((await md('replace_metadata', current)).status).toBe(200);
    expect((await md('get_inconsistent_metadata', {})).body).toEqual({ is_consistent: true, inconsistent_objects: [] });
  });
});
