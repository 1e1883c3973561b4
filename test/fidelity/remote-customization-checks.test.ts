// A remote schema's customization is checked against the remote as Hasura checks it
// (GraphQL/RemoteServer.hs validateSchemaCustomizations; RQL/DDL/RemoteSchema.hs
// validateRemoteSchemaCustomization; tests-py queries/remote_schemas/validation/
// interface_field_validation.yaml): an interface's fields renamed as each possible type renames
// them, no two types or two fields of one type with the same new name (remote-schema-error), no
// reserved `__` field renamed (invalid-params); the remote is not added.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

const SDL = `
  interface Character { id: ID!  name: String! }
  type Droid implements Character { id: ID!  name: String!  primaryFunction: String }
  type Human implements Character { id: ID!  name: String!  homePlanet: String }
  type Query { hero(episode: Int!): Character }`;

describe('remote schema customization checked against the remote', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;
  const add = (customization: unknown) => server.metadata('add_remote_schema', { name: 'character-foo', definition: { url: remote.url, customization } });
  const refused = (error: string, code = 'remote-schema-error') => ({ status: 400, body: { path: '$.args', code, error } });

  beforeAll(async () => {
    remote = await startRemote(SDL, { hero: () => null });
    server = await serveDatabase('fidrscust', 'SELECT 1;');
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('refuses an interface field renamed otherwise than in a possible type', async () => {
    expect(await add({ field_names: [{ parent_type: 'Droid', mapping: { primaryFunction: 'name', name: 'primaryFunction' } }] }))
      .toEqual(refused('Remote schema customization inconsistency: field name mapping for field "name" of interface "Character" is inconsistent with mapping for type "Droid". Interface field name maps to "name". Type field name maps to "primaryFunction".'));
    expect(await add({ field_names: [{ parent_type: 'Character', prefix: 'c_' }] }))
      .toEqual(refused('Remote schema customization inconsistency: field name mapping for field "id" of interface "Character" is inconsistent with mapping for type "Droid". Interface field name maps to "c_id". Type field name maps to "id".'));
  });

  it('refuses two types or two fields renamed alike', async () => {
    expect(await add({ type_names: { mapping: { Droid: 'Foo', Human: 'Foo' } } }))
      .toEqual(refused('Type name mappings are not distinct; the following types appear more than once: "Foo"'));
    expect(await add({ type_names: { mapping: { String: 'Droid' } } }))
      .toEqual(refused('Type name mappings are not distinct; the following types appear more than once: "Droid"'));
    expect(await add({ field_names: [{ parent_type: 'Droid', mapping: { primaryFunction: 'name' } }] }))
      .toEqual(refused('Field name mappings for object type "Droid" are not distinct; the following fields appear more than once: "name"'));
  });

  it('refuses renaming a reserved field', async () => {
    expect(await add({ field_names: [{ parent_type: 'Droid', mapping: { __typename: 'my_typename' } }] }))
      .toEqual(refused('attempt to customize reserved field name "__typename"', 'invalid-params'));
  });

  it('adds nothing it refused and accepts a consistent customization', async () => {
    expect((await server.metadata('export_metadata', {})).body.remote_schemas ?? []).toEqual([]);
    expect(await add({ type_names: { prefix: 'Foo' }, field_names: ['Character', 'Droid', 'Human'].map((t) => ({ parent_type: t, prefix: 'f_' })) }))
      .toEqual({ status: 200, body: { message: 'success' } });
  });
});
