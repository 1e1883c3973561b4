// The allow-list scope and update_scope_of_collection_in_allowlist are read by parsers Hasura
// writes by hand with aeson's `.:` (RQL/Types/Allowlist.hs: AllowlistScope,
// UpdateScopeOfCollectionInAllowlist), so a missing key reads `key "global" not found` at the
// object's path (tests-py test_allowlist_queries.py TestAllowlistMetadata test_add_validation,
// test_update_validation); drop_collection_from_allowlist keeps the derived parser's
// "the key 'collection' was not present" (test_drop_validation). Nothing changes on a refusal.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('allow-list scope: missing keys in aeson words', () => {
  let server: ServedDatabase;
  const md = (type: string, args: unknown) => server.post('/v1/metadata', { type, args });
  const refusal = (path: string, error: string) => ({ status: 400, body: { path, error, code: 'parse-failed' } });

  beforeAll(async () => {
    server = await serveDatabase('fidalscope', 'CREATE TABLE memo (id serial PRIMARY KEY);', { track: ['memo'] });
    await md('create_query_collection', { name: 'c1', definition: { queries: [{ name: 'q', query: '{ memo { id } }' }] } });
  });
  afterAll(() => server?.close());

  it('add_collection_to_allowlist: a scope without global or roles', async () => {
    expect(await md('add_collection_to_allowlist', { collection: 'c1', scope: {} })).toEqual(refusal('$.args.scope', 'key "global" not found'));
    expect(await md('add_collection_to_allowlist', { collection: 'c1', scope: { global: false } })).toEqual(refusal('$.args.scope', 'key "roles" not found'));
    // `.:` takes a null as given: it is a Bool that is not one.
    expect((await md('add_collection_to_allowlist', { collection: 'c1', scope: { global: null } })).body)
      .toMatchObject({ path: '$.args.scope.global', code: 'parse-failed' });
    expect((await md('export_metadata', {})).body.allowlist).toBeUndefined();
  });

  it('update_scope_of_collection_in_allowlist: collection and scope are required in aeson words', async () => {
    expect(await md('add_collection_to_allowlist', { collection: 'c1' })).toEqual({ status: 200, body: { message: 'success' } });
    expect(await md('update_scope_of_collection_in_allowlist', { scope: { global: true } })).toEqual(refusal('$.args', 'key "collection" not found'));
    expect(await md('update_scope_of_collection_in_allowlist', { collection: 'c1' })).toEqual(refusal('$.args', 'key "scope" not found'));
    expect(await md('update_scope_of_collection_in_allowlist', { collection: 'c1', scope: { global: false } }))
      .toEqual(refusal('$.args.scope', 'key "roles" not found'));
    expect((await md('export_metadata', {})).body.allowlist).toEqual([{ collection: 'c1', scope: { global: true } }]);
  });

  it('drop_collection_from_allowlist keeps the derived wording', async () => {
    expect(await md('drop_collection_from_allowlist', {})).toEqual(refusal('$.args', "the key 'collection' was not present"));
  });
});
