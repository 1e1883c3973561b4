import { describe, expect, it } from 'vitest';
import { apply, doc, failure, run } from './helpers.js';

const rs = { name: 'my-remote', definition: { url: 'https://remote-server.com/graphql', headers: [{ name: 'X-Server-Request-From', value: 'Svc' }], forward_client_headers: false }, comment: 'some optional comment' };

describe('remote schemas', () => {
  it('adds, updates, reloads and removes a definition', () => {
    const out = run(doc(), 'add_remote_schema', rs);
    expect(out.effect).toEqual({ kind: 'create', object: { type: 'remote_schema', name: 'remote_schema my-remote' } });
    const md = out.metadata!;
    expect(md.remote_schemas).toEqual([rs]);
    expect(failure(md, 'add_remote_schema', rs)).toEqual({ path: '$.args', error: 'remote schema with name "my-remote" already exists', code: 'already-exists' });
    const updated = apply(md, 'update_remote_schema', { name: 'my-remote', definition: { url_from_env: 'REMOTE_URL', timeout_seconds: 5 } });
    expect(updated.remote_schemas).toEqual([{ name: 'my-remote', definition: { url_from_env: 'REMOTE_URL', timeout_seconds: 5 } }]);
    expect(run(updated, 'reload_remote_schema', { name: 'my-remote' }).metadata).toBeNull();
    expect(apply(updated, 'remove_remote_schema', { name: 'my-remote' }).remote_schemas).toBeUndefined();
    expect(failure(doc(), 'remove_remote_schema', { name: 'x' })).toEqual({ path: '$.args', error: 'no such remote schema', code: 'not-exists' });
    expect(failure(doc(), 'update_remote_schema', rs).code).toBe('not-exists');
  });

  it('checks the definition (corpus non_empty_text/create_remote_schema)', () => {
    expect(failure(doc(), 'add_remote_schema', { ...rs, name: '' }, 'query')).toEqual({ path: '$.name', error: 'empty string not allowed', code: 'parse-failed' });
    expect(failure(doc(), 'add_remote_schema', { name: 'r', definition: {} })).toEqual({
      path: '$.args.definition', error: "both `url` and `url_from_env` can't be empty", code: 'invalid-params' });
    expect(failure(doc(), 'add_remote_schema', { name: 'r', definition: { url: 'https://a', url_from_env: 'B' } }).error)
      .toBe("both `url` and `url_from_env` can't be present");
    expect(failure(doc(), 'add_remote_schema', { name: 'r', definition: { url: 'https://a', headers: [{ name: 'h' }] } })).toEqual({
      path: '$.args.definition.headers[0]', error: 'expecting value or value_from_env keys', code: 'parse-failed' });
    expect(failure(doc(), 'add_remote_schema', { name: 'r', definition: { url: 'https://a', customization: { type_names: { prefix: 'bad-' } } } }).path)
      .toBe('$.args.definition.customization.type_names.prefix');
  });

  it('adds and drops role permissions', () => {
    const md = apply(doc(), 'add_remote_schema', rs);
    const args = { remote_schema: 'my-remote', role: 'user', definition: { schema: 'type Query { hello: String }' } };
    const out = run(md, 'add_remote_schema_permissions', args);
    expect(out.effect).toEqual({ kind: 'create', object: { type: 'remote_schema_permission', name: 'remote_schema_permission user permission in remote schema my-remote' } });
    expect(failure(out.metadata!, 'add_remote_schema_permissions', args)).toEqual({
      path: '$.args', error: 'permissions for role: "user" for remote schema:"my-remote" already exists', code: 'already-exists' });
    expect(failure(md, 'add_remote_schema_permissions', { ...args, definition: { schema: 'type {' } }).path).toBe('$.args.definition.schema');
    const dropped = apply(out.metadata!, 'drop_remote_schema_permissions', { remote_schema: 'my-remote', role: 'user' });
    expect(dropped.remote_schemas?.[0]).not.toHaveProperty('permissions');
    expect(failure(dropped, 'drop_remote_schema_permissions', { remote_schema: 'my-remote', role: 'user' }).code).toBe('not-exists');
  });
});

describe('inherited roles and settings', () => {
  it('adds and drops an inherited role', () => {
    const md = apply(doc(), 'add_inherited_role', { role_name: 'author_editor', role_set: ['author', 'editor'] });
    expect(md.inherited_roles).toEqual([{ role_name: 'author_editor', role_set: ['author', 'editor'] }]);
    // Adding a role of the same name replaces it where it stands (Hasura inserts into its map).
    expect(apply(md, 'add_inherited_role', { role_name: 'author_editor', role_set: ['a'] }).inherited_roles).toEqual([{ role_name: 'author_editor', role_set: ['a'] }]);
    expect(failure(doc(), 'add_inherited_role', { role_name: 'a', role_set: ['a', 'b'] }).error).toBe('an inherited role name cannot be in the role combination');
    expect(apply(md, 'drop_inherited_role', { role_name: 'author_editor' }).inherited_roles).toBeUndefined();
    expect(failure(doc(), 'drop_inherited_role', { role_name: 'x' })).toMatchObject({ code: 'not-exists', error: '"x" inherited role doesn\'t exist' });
  });

  it('stores and removes the small settings', () => {
    let md = apply(doc(), 'set_graphql_schema_introspection_options', { disabled_for_roles: ['user'] });
    expect(md.graphql_schema_introspection).toEqual({ disabled_for_roles: ['user'] });
    md = apply(md, 'set_api_limits', { disabled: false, depth_limit: { global: 5, per_role: { user: 2 } } });
    expect(md.api_limits).toEqual({ disabled: false, depth_limit: { global: 5, per_role: { user: 2 } } });
    expect(apply(md, 'remove_api_limits', {}).api_limits).toBeUndefined();
    md = apply(md, 'set_metrics_config', { analyze_query_variables: true });
    expect(md.metrics_config).toEqual({ analyze_query_variables: true, analyze_response_body: false });
    expect(apply(md, 'remove_metrics_config', {}).metrics_config).toBeUndefined();
    md = apply(md, 'add_host_to_tls_allowlist', { host: 'example.com', suffix: '8443' });
    expect(md.network).toEqual({ tls_allowlist: [{ host: 'example.com', suffix: '8443' }] });
    expect(failure(md, 'add_host_to_tls_allowlist', { host: 'example.com', suffix: '8443' }).code).toBe('already-exists');
    expect(apply(md, 'drop_host_from_tls_allowlist', { host: 'example.com', suffix: '8443' }).network).toBeUndefined();
    expect(failure(doc(), 'drop_host_from_tls_allowlist', { host: 'x' }).code).toBe('not-exists');
  });
});
