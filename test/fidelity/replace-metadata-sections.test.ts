// replace_metadata reads every entry of query_collections, allowlist, rest_endpoints,
// inherited_roles and remote_schemas as the operation that creates it reads its args, as Hasura
// parses the whole document with each entry's FromJSON (RQL/Types/Metadata.hs, parseListAsMap)
// before it builds anything: a bad entry is `parse-failed` at its path under the metadata, and
// the metadata stays as it was (the runner's TestMetadata replace cases send whole documents).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('replace_metadata reads the entries of its raw sections', () => {
  let server: ServedDatabase;
  const md = (body: Record<string, unknown>) => server.post('/v1/metadata', body);
  const exported = async () => (await md({ type: 'export_metadata', version: 2, args: {} })).body;
  const refusal = (path: string, error: string) => ({ status: 400, body: { path, error, code: 'parse-failed' } });
  let base: any;

  beforeAll(async () => {
    server = await serveDatabase('fidrepsect', 'CREATE TABLE memo (id serial PRIMARY KEY);', { track: ['memo'] });
    base = (await exported()).metadata;
  });
  afterAll(() => server?.close());

  const collection = { name: 'c1', definition: { queries: [{ name: 'q1', query: '{ memo { id } }' }] } };
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['a collection without a name', { query_collections: [{ definition: { queries: [] } }] }, 'query_collections[0]', "the key 'name' was not present"],
    ['a stored query without its text', { query_collections: [{ name: 'c1', definition: { queries: [{ name: 'q1' }] } }] },
      'query_collections[0].definition.queries[0]', "the key 'query' was not present"],
    ['an allow-list entry without a collection', { query_collections: [collection], allowlist: [{ scope: { global: true } }] },
      'allowlist[0]', "the key 'collection' was not present"],
    ['an allow-list scope with roles beside global true', { query_collections: [collection], allowlist: [{ collection: 'c1', scope: { global: true, roles: ['a'] } }] },
      'allowlist[0].scope', 'roles are not allowed when global is true'],
    ['an allow-list scope without global', { query_collections: [collection], allowlist: [{ collection: 'c1', scope: {} }] },
      'allowlist[0].scope', 'key "global" not found'],
    ['an inherited role without its set', { inherited_roles: [{ role_name: 'r' }] }, 'inherited_roles[0]', "the key 'role_set' was not present"],
    ['a REST endpoint without a url', { query_collections: [collection], rest_endpoints: [{ name: 'e', methods: ['GET'], definition: { query: { collection_name: 'c1', query_name: 'q1' } } }] },
      'rest_endpoints[0]', "the key 'url' was not present"],
    ['a remote schema without a definition', { remote_schemas: [{ name: 'r' }] }, 'remote_schemas[0]', "the key 'definition' was not present"],
  ];

  for (const [what, sections, at, error] of cases) {
    it(`refuses ${what} and changes nothing`, async () => {
      const before = await exported();
      expect(await md({ type: 'replace_metadata', args: { ...base, ...sections } })).toEqual(refusal(`$.args.${at}`, error));
      expect(await md({ type: 'replace_metadata', version: 2, args: { metadata: { ...base, ...sections } } })).toEqual(refusal(`$.args.metadata.${at}`, error));
      expect(await exported()).toEqual(before);
    });
  }

  it('takes well-formed entries', async () => {
    const sections = { query_collections: [collection], allowlist: [{ collection: 'c1', scope: { global: false, roles: ['user'] } }] };
    expect(await md({ type: 'replace_metadata', args: { ...base, ...sections } })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await exported()).metadata).toMatchObject(sections);
  });
});
