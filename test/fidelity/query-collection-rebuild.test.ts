// The query-collection operations are whole rebuilds checked for new inconsistencies in Hasura
// (RQL/DDL/QueryCollection.hs: runCreateCollection, runAddQueryToCollection,
// runAddCollectionToAllowlist run buildSchemaCache inside withNewInconsistentObjsCheck): a stored
// query that does not validate against the schema refuses the call with 500 `unexpected`
// "cannot continue due to newly found inconsistent metadata", the queries in `internal`, and
// nothing is stored. Operations that rebuild for one object (buildSchemaCacheFor) keep their 400.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

let server: ServedDatabase;

const SETUP = `
CREATE TABLE shelf (id serial PRIMARY KEY, label text);
INSERT INTO shelf (label) VALUES ('top'), ('bottom');
`;

const good = { name: 'labels', query: 'query { shelf { label } }' };
const bad = { name: 'ghosts', query: 'query { cellar { id } }' };
const badReason = (collection: string) => `Inconsistent object: In query collection ${JSON.stringify(collection)} the query "ghosts" is invalid`
  + ' with the following error(s): "Couldn\'t find field cellar in root field query_root"';
const refusal = (collection: string) => ({
  path: '$.args',
  error: 'cannot continue due to newly found inconsistent metadata',
  code: 'unexpected',
  internal: [{
    type: 'query_collections',
    name: `query_collections ghosts in ${collection}`,
    definition: bad,
    reason: badReason(collection),
  }],
});
const collections = async (): Promise<unknown> => (await server.ok('/v1/metadata', { type: 'export_metadata', args: {} })).query_collections;

beforeAll(async () => {
  server = await serveDatabase('fidcollrebuild', SETUP, { track: ['shelf'] });
});
afterAll(() => server?.close());

describe('query collections refused by the rebuild check', () => {
  it('refuses a collection whose only query is invalid with 500 and stores nothing', async () => {
    const res = await server.post('/v1/query', { type: 'create_query_collection', args: { name: 'solo', definition: { queries: [bad] } } });
    expect(res).toEqual({ status: 500, body: refusal('solo') });
    expect(await collections()).toBeUndefined();
  });

  it('refuses a collection with one invalid query among valid ones the same way', async () => {
    const res = await server.post('/v1/metadata', { type: 'create_query_collection', args: { name: 'mixed', definition: { queries: [good, bad] } } });
    expect(res).toEqual({ status: 500, body: refusal('mixed') });
    expect(await collections()).toBeUndefined();
  });

  it('refuses an invalid query added to a collection and keeps the collection as it was', async () => {
    await server.ok('/v1/query', { type: 'create_query_collection', args: { name: 'kept', definition: { queries: [good] } } });
    const res = await server.post('/v1/query', { type: 'add_query_to_collection', args: { collection_name: 'kept', query_name: bad.name, query: bad.query } });
    expect(res).toEqual({ status: 500, body: refusal('kept') });
    expect(await collections()).toEqual([{ name: 'kept', definition: { queries: [good] } }]);
  });

  it('still stores valid queries, and the allow-list takes the collection', async () => {
    expect(await server.ok('/v1/query', { type: 'add_query_to_collection', args: { collection_name: 'kept', query_name: 'ids', query: 'query { shelf { id } }' } }))
      .toEqual({ message: 'success' });
    expect(await server.ok('/v1/query', { type: 'add_collection_to_allowlist', args: { collection: 'kept' } })).toEqual({ message: 'success' });
    const md = await server.ok('/v1/metadata', { type: 'export_metadata', args: {} });
    expect(md.query_collections[0].definition.queries.map((q: { name: string }) => q.name)).toEqual(['labels', 'ids']);
    expect(md.allowlist).toEqual([{ collection: 'kept', scope: { global: true } }]);
  });
});
