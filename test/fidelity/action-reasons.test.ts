// An action that cannot be resolved against the custom types is reported under Hasura's context
// `in action "a"; ` (with a semicolon, as buildAction writes it): an argument type that is not an
// input type, an output type that is not an object or scalar, an asynchronous action returning a
// scalar; in create_action, update_action and a set_custom_types that strands an action. The
// inconsistency's definition is the action as Hasura parsed it (ToJSON of CreateAction: name,
// definition with its defaults, comment; tests-py test_actions.py TestCreateActionNestedTypeWithRelation).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('action reasons', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const md = (type: string, args: unknown) => server.metadata(type, args);
  const actionNames = async (): Promise<string[]> => ((await md('export_metadata', {})).body.actions ?? []).map((a: { name: string }) => a.name);
  const hook = 'http://127.0.0.1:9/hook';

  beforeAll(async () => {
    server = await serveDatabase('fidactreasons', 'CREATE TABLE account (id int PRIMARY KEY, name text)', { track: ['account'], metadata: [
      { type: 'set_custom_types', args: { input_objects: [{ name: 'Dims', fields: [{ name: 'w', type: 'Int' }] }],
        objects: [{ name: 'Crate', fields: [{ name: 'id', type: 'Int!' }] }] } }] });
  });

  afterAll(() => server?.close());

  it('create_action: an argument of an output type, an unknown output type, an asynchronous action returning a scalar', async () => {
    const r = await md('create_action', { name: 'pack', definition: { handler: hook, output_type: 'Crate', arguments: [{ name: 'c', type: 'Crate!' }] } });
    expect(r).toMatchObject({ status: 400, body: { code: 'invalid-configuration',
      error: 'Inconsistent object: in action "pack"; the type: "Crate" is not defined in custom types or it is not a scalar/enum/input_object' } });
    expect(r.body.internal[0]).toMatchObject({ type: 'action', name: 'action pack',
      reason: 'Inconsistent object: in action "pack"; the type: "Crate" is not defined in custom types or it is not a scalar/enum/input_object' });
    expect((await md('create_action', { name: 'pack', definition: { handler: hook, output_type: 'Dims', arguments: [] } })).body.error)
      .toBe('Inconsistent object: in action "pack"; the type: "Dims" is not an object or scalar type defined in custom types');
    expect((await md('create_action', { name: 'pack', definition: { kind: 'asynchronous', handler: hook, output_type: 'Int', arguments: [] } })).body.error)
      .toMatch(/^Inconsistent object: in action "pack"; /);
    expect(await actionNames()).toEqual([]);
  });

  it('shows the refused action with the defaults of its definition, as parsed', async () => {
    const r = await md('create_action', { name: 'pack', definition: { kind: 'asynchronous', handler: hook, output_type: 'Dims', arguments: [{ name: 'd', type: 'Dims' }] } });
    expect(r.body.internal[0].definition).toEqual({ name: 'pack', comment: null, definition: {
      kind: 'asynchronous', type: 'mutation', output_type: 'Dims', arguments: [{ name: 'd', type: 'Dims', description: null }],
      headers: [], handler: hook, timeout: 30, forward_client_headers: false } });
    const q = await md('create_action', { name: 'look', comment: 'c', definition: { type: 'query', handler: hook, output_type: 'Dims', timeout: 5,
      headers: [{ name: 'x-a', value: 'b' }] } });
    expect(q.body.internal[0].definition).toEqual({ name: 'look', comment: 'c', definition: {
      type: 'query', output_type: 'Dims', arguments: [], headers: [{ name: 'x-a', value: 'b' }], handler: hook, timeout: 5, forward_client_headers: false } });
  });

  it('an asynchronous action\'s output type may not have relationships beside object fields; a synchronous action\'s nested objects may', async () => {
    const toAccount = [{ name: 'account', type: 'object', remote_table: 'account', field_mapping: { id: 'id' } }];
    const types = { objects: [
      { name: 'Crate', fields: [{ name: 'id', type: 'Int!' }] },
      { name: 'Owner', fields: [{ name: 'id', type: 'Int!' }], relationships: toAccount },
      { name: 'Box', fields: [{ name: 'id', type: 'Int!' }, { name: 'owner', type: 'Owner' }, { name: 'crates', type: '[Crate!]' }], relationships: toAccount },
    ] };
    const bulk = (definition: object) => post('/v1/metadata', { type: 'bulk', args: [
      { type: 'set_custom_types', args: types }, { type: 'create_action', args: { name: 'stack', definition: { handler: hook, arguments: [], ...definition } } }] });
    const async = await bulk({ kind: 'asynchronous', output_type: 'Box' });
    expect([async.status, async.body.path, async.body.code, async.body.error]).toEqual([400, '$.args[1].args', 'invalid-configuration',
      'Inconsistent object: in action "stack"; Async action relations cannot be used with object fields : "owner", "crates"']);
    expect(await actionNames()).toEqual([]);
    // Later Hasura v2 versions serve relationships of nested objects (March 2022's refused them).
    expect((await bulk({ output_type: 'Box' })).status).toBe(200);
    expect((await md('drop_action', { name: 'stack' })).status).toBe(200);
    expect((await bulk({ kind: 'asynchronous', output_type: 'Owner' })).status).toBe(200);
    expect((await md('drop_action', { name: 'stack' })).status).toBe(200);
    expect((await md('set_custom_types', { input_objects: [{ name: 'Dims', fields: [{ name: 'w', type: 'Int' }] }],
      objects: [{ name: 'Crate', fields: [{ name: 'id', type: 'Int!' }] }] })).status).toBe(200);
  });

  it('update_action and set_custom_types give the same context', async () => {
    expect((await md('create_action', { name: 'pack', definition: { handler: hook, output_type: 'Crate', arguments: [{ name: 'd', type: 'Dims' }] } })).status).toBe(200);
    expect((await md('update_action', { name: 'pack', definition: { handler: hook, output_type: 'Parcel', arguments: [] } })).body.error)
      .toBe('Inconsistent object: in action "pack"; the type: "Parcel" is not an object or scalar type defined in custom types');
    const stranded = await md('set_custom_types', { objects: [{ name: 'Crate', fields: [{ name: 'id', type: 'Int!' }] }] });
    expect(stranded.status).toBe(400);
    expect(stranded.body.internal).toEqual([expect.objectContaining({ type: 'action', name: 'action pack',
      reason: 'Inconsistent object: in action "pack"; the type: "Dims" is not defined in custom types or it is not a scalar/enum/input_object' })]);
    expect(await actionNames()).toEqual(['pack']);
    expect((await md('export_metadata', {})).body.custom_types.input_objects.map((o: { name: string }) => o.name)).toEqual(['Dims']);
  });
});
