import { describe, expect, it } from 'vitest';
import { apply, doc, failure, run } from './helpers.js';

const base = () => apply(doc(), 'create_query_collection', { name: 'c', definition: { queries: [{ name: 'q', query: '{ a }' }] } });

describe('allow-list', () => {
  it('adds a collection with the global scope by default, and a role scope when given', () => {
    expect(apply(base(), 'add_collection_to_allowlist', { collection: 'c' }).allowlist).toEqual([{ collection: 'c', scope: { global: true } }]);
    const scoped = apply(base(), 'add_collection_to_allowlist', { collection: 'c', scope: { global: false, roles: ['user'] } });
    expect(scoped.allowlist).toEqual([{ collection: 'c', scope: { global: false, roles: ['user'] } }]);
  });

  it('ignores the scope on /v1/query', () => {
    const md = apply(base(), 'add_collection_to_allowlist', { collection: 'c', scope: { global: false, roles: ['user'] } }, 'query');
    expect(md.allowlist).toEqual([{ collection: 'c', scope: { global: true } }]);
  });

  it('leaves an already listed collection unchanged whatever the scope', () => {
    const md = apply(base(), 'add_collection_to_allowlist', { collection: 'c' });
    const out = run(md, 'add_collection_to_allowlist', { collection: 'c', scope: { global: false, roles: ['r'] } });
    expect(out.metadata).toBeNull();
    expect(out.result).toEqual({ message: 'collection "c" already exists in the allowlist, scope ignored; to change scope, use update_scope_of_collection_in_allowlist' });
  });

  it('checks scopes and the collection', () => {
    expect(failure(base(), 'add_collection_to_allowlist', { collection: 'c', scope: { global: false, roles: ['a', 'a'] } })).toEqual({
      path: '$.args.scope', error: 'duplicate roles are not allowed', code: 'parse-failed' });
    expect(failure(base(), 'add_collection_to_allowlist', { collection: 'c', scope: { global: true, roles: ['a'] } }).error)
      .toBe('roles are not allowed when global is true');
    expect(failure(base(), 'add_collection_to_allowlist', { collection: 'c', scope: { global: false, roles: [] } }).path).toBe('$.args.scope.roles');
    expect(failure(base(), 'add_collection_to_allowlist', { collection: 'x' })).toEqual({
      path: '$.args.collection', error: 'query collection with name "x" does not exist', code: 'not-exists' });
  });

  it('updates the scope of a listed collection only', () => {
    expect(failure(base(), 'update_scope_of_collection_in_allowlist', { collection: 'c', scope: { global: true } })).toEqual({
      path: '$.args', error: 'collection "c" doesn\'t exist in the allowlist', code: 'not-found' });
    const md = apply(base(), 'add_collection_to_allowlist', { collection: 'c' });
    const next = apply(md, 'update_scope_of_collection_in_allowlist', { collection: 'c', scope: { global: false, roles: ['user'] } });
    expect(next.allowlist).toEqual([{ collection: 'c', scope: { global: false, roles: ['user'] } }]);
    expect(failure(md, 'update_scope_of_collection_in_allowlist', { collection: 'c' }).error).toBe('key "scope" not found');
  });

  it('drops a listed collection', () => {
    const md = apply(base(), 'add_collection_to_allowlist', { collection: 'c' });
    expect(apply(md, 'drop_collection_from_allowlist', { collection: 'c' }).allowlist).toBeUndefined();
    expect(failure(base(), 'drop_collection_from_allowlist', { collection: 'c' }).code).toBe('not-found');
  });
});
