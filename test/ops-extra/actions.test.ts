import { describe, expect, it } from 'vitest';
import { apply, doc, failure, run } from './helpers.js';

const definition = { kind: 'synchronous', arguments: [{ name: 'name', type: 'String!' }], output_type: 'User!', handler: 'http://127.0.0.1:5593/create-user' };
const types = { objects: [{ name: 'User', fields: [{ name: 'id', type: 'Int!' }] }], input_objects: [], scalars: [], enums: [] };

describe('custom types', () => {
  it('replaces the custom types, keeping non-empty lists', () => {
    const md = apply(doc(), 'set_custom_types', types);
    expect(md.custom_types).toEqual({ objects: [{ name: 'User', fields: [{ name: 'id', type: 'Int!' }] }] });
    expect(apply(md, 'set_custom_types', {}).custom_types).toBeUndefined();
  });

  it('checks names and type texts', () => {
    expect(failure(doc(), 'set_custom_types', { scalars: [{ name: 'bad-name' }] })).toEqual({
      path: '$.args.scalars[0].name', error: 'bad-name is not valid GraphQL name', code: 'parse-failed' });
    expect(failure(doc(), 'set_custom_types', { objects: [{ name: 'A', fields: [{ name: 'x', type: '[Int' }] }] }).path)
      .toBe('$.args.objects[0].fields[0].type');
    expect(failure(doc(), 'set_custom_types', { enums: [{ name: 'E', values: [] }] }).path).toBe('$.args.enums[0].values');
    // Duplicate names are the compile step's (Hasura's reasons): test/actions/custom-types.test.ts.
  });
});

describe('actions', () => {
  const withTypes = () => apply(doc(), 'set_custom_types', types);

  it('creates, updates and drops an action', () => {
    const out = run(withTypes(), 'create_action', { name: 'create_user', definition, comment: 'c' });
    expect(out.effect).toEqual({ kind: 'create', object: { type: 'action', name: 'action create_user' } });
    const md = out.metadata!;
    expect(md.actions).toEqual([{ name: 'create_user', comment: 'c', definition: { ...definition, type: 'mutation' } }]);
    const updated = apply(apply(md, 'create_action_permission', { action: 'create_user', role: 'user' }), 'update_action',
      { name: 'create_user', definition: { ...definition, type: 'query' } });
    expect(updated.actions?.[0]).toEqual({ name: 'create_user', definition: { arguments: definition.arguments, output_type: 'User!', handler: definition.handler, type: 'query' }, permissions: [{ role: 'user' }] });
    expect(apply(updated, 'drop_action', { name: 'create_user', clear_data: true }).actions).toBeUndefined();
  });

  it('answers duplicates and unknown actions as Hasura', () => {
    const md = apply(withTypes(), 'create_action', { name: 'create_user', definition });
    expect(failure(md, 'create_action', { name: 'create_user', definition })).toEqual({
      path: '$.args', error: 'action with name "create_user" already exists', code: 'already-exists' });
    expect(failure(md, 'drop_action', { name: 'nope' })).toEqual({ path: '$.args', error: 'action with name "nope" does not exist', code: 'not-exists' });
    expect(failure(md, 'update_action', { name: 'nope', definition }).code).toBe('not-exists');
  });

  it('refuses reserved environment variables in headers (corpus create_with_headers)', () => {
    const args = { name: 'create_user_1', definition: { ...definition, headers: [{ name: 'x-client-id', value_from_env: 'SVC_GRAPHQL_CLIENT_NAME' }] } };
    expect(failure(withTypes(), 'create_action', args, 'query')).toEqual({
      path: '$.definition.headers[0]',
      error: 'env variables starting with "SVC_GRAPHQL_" are not allowed in value_from_env: SVC_GRAPHQL_CLIENT_NAME',
      code: 'parse-failed' });
    const both = { name: 'a', definition: { ...definition, headers: [{ name: 'x', value: '1', value_from_env: 'E' }] } };
    expect(failure(withTypes(), 'create_action', both).error).toBe('expecting only one of value or value_from_env keys');
  });

  it('checks the definition shape', () => {
    expect(failure(withTypes(), 'create_action', { name: 'a', definition: { ...definition, type: 'subscription' } }).error)
      .toBe('expected mutation or query, but found subscription');
    expect(failure(withTypes(), 'create_action', { name: 'a', definition: { output_type: 'User' } })).toEqual({
      path: '$.args.definition', error: "the key 'handler' was not present", code: 'parse-failed' });
  });

  it('creates, drops and recreates a permission (corpus recreate_permission)', () => {
    let md = apply(withTypes(), 'create_action', { name: 'create_user', definition });
    const out = run(md, 'create_action_permission', { action: 'create_user', role: 'user' }, 'query');
    expect(out.effect).toEqual({ kind: 'create', object: { type: 'action_permission', name: 'action_permission user permission in create_user' } });
    md = out.metadata!;
    expect(failure(md, 'create_action_permission', { action: 'create_user', role: 'user' })).toEqual({
      path: '$.args', error: 'permission for role "user" is already defined on "create_user"', code: 'already-exists' });
    md = apply(md, 'drop_action_permission', { action: 'create_user', role: 'user' }, 'query');
    expect(md.actions?.[0]).not.toHaveProperty('permissions');
    expect(failure(md, 'drop_action_permission', { action: 'create_user', role: 'user' })).toEqual({
      path: '$.args', error: 'permission for role: "user" is not defined on "create_user"', code: 'not-exists' });
    expect(apply(md, 'create_action_permission', { action: 'create_user', role: 'user' }, 'query').actions?.[0]).toHaveProperty('permissions', [{ role: 'user' }]);
  });
});
