// A REST endpoint whose stored query cannot be resolved (its collection or query is gone) is an
// inconsistent object, as Hasura's resolveEndpoint records it while building the schema cache
// ("Inconsistent object: in endpoint e: collection with name c does not exist"; tests-py
// endpoints/endpoint_subscription for the shape). So dropping the collection or the query an
// endpoint serves is refused as a newly found inconsistency (RQL/DDL/QueryCollection.hs runs
// withNewInconsistentObjsCheck), a strict replace_metadata refuses such a document, and
// drop_inconsistent_metadata removes the endpoint. Kiln let the drop through and kept an
// endpoint that named nothing, reported as consistent.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('REST endpoints that name a missing stored query', () => {
  let server: ServedDatabase;
  const md = (type: string, args: unknown, more: Record<string, unknown> = {}) => server.metadata(type, args, more);
  const endpoint = { name: 'e', url: 'memos', methods: ['GET'], definition: { query: { collection_name: 'c', query_name: 'q' } } };
  const object = (why: string) => ({ type: 'rest_endpoint', name: 'rest_endpoint e', definition: { ...endpoint, comment: null },
    reason: `Inconsistent object: in endpoint e: ${why}` });

  beforeAll(async () => {
    server = await serveDatabase('fidrestref', 'CREATE TABLE memo (id serial PRIMARY KEY); INSERT INTO memo DEFAULT VALUES;', { track: ['memo'],
      metadata: [{ type: 'create_query_collection', args: { name: 'c', definition: { queries: [{ name: 'q', query: 'query { memo { id } }' }] } } },
        { type: 'create_rest_endpoint', args: endpoint }] });
  });
  afterAll(() => server?.close());

  it('refuses to drop the collection or the query an endpoint serves, and changes nothing', async () => {
    const before = (await md('export_metadata', {})).body;
    expect(await md('drop_query_collection', { collection: 'c', cascade: false })).toEqual({ status: 500, body: {
      path: '$.args', code: 'unexpected', error: 'cannot continue due to newly found inconsistent metadata',
      internal: [object('collection with name c does not exist')] } });
    expect(await md('drop_query_from_collection', { collection_name: 'c', query_name: 'q' })).toEqual({ status: 500, body: {
      path: '$.args', code: 'unexpected', error: 'cannot continue due to newly found inconsistent metadata',
      internal: [object('query with name q does not exist within collection c')] } });
    expect((await md('export_metadata', {})).body).toEqual(before);
    expect((await md('get_inconsistent_metadata', {})).body).toEqual({ is_consistent: true, inconsistent_objects: [] });
  });

  it('lists such an endpoint when inconsistencies are allowed, refuses it otherwise, and drops it with the inconsistent objects', async () => {
    const base = (await md('export_metadata', {})).body;
    const next = { ...base, query_collections: [{ name: 'c', definition: { queries: [] } }], rest_endpoints: [endpoint] };
    const refused = await md('replace_metadata', next);
    expect(refused.status).toBe(400);
    expect(refused.body.internal).toEqual([object('query with name q does not exist within collection c')]);
    const r = await md('replace_metadata', { allow_inconsistent_metadata: true, metadata: next }, { version: 2 });
    expect(r.body).toEqual({ is_consistent: false, inconsistent_objects: [object('query with name q does not exist within collection c')] });
    expect(await md('drop_inconsistent_metadata', {})).toEqual({ status: 200, body: { message: 'success' } });
    expect((await md('export_metadata', {})).body.rest_endpoints).toBeUndefined();
  });
});
