// Hasura writes the metadata after every call of an operation that modifies it
// (Server/API/Metadata.hs, queryModifiesMetadata; /v1/query: queryModifiesSchemaCache), so the
// resource_version moves on by one even when the document comes out the same: reload_metadata,
// drop_inconsistent_metadata with nothing to drop, an edit that changes nothing. Reads leave it;
// a bulk is one call. Kiln moved it only when the document changed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('the resource version of a call that modifies nothing', () => {
  let server: ServedDatabase;
  const exported = (): Promise<{ resource_version: number; metadata: unknown }> =>
    server.ok('/v1/metadata', { type: 'export_metadata', version: 2, args: {} });
  const movesBy = async (by: number, path: string, body: unknown): Promise<void> => {
    const before = await exported();
    await server.ok(path, body);
    const after = await exported();
    expect(after.resource_version).toBe(before.resource_version + by);
    expect(after.metadata).toEqual(before.metadata);
  };

  beforeAll(async () => {
    server = await serveDatabase('fidresversion', 'CREATE TABLE shelf (id int PRIMARY KEY); CREATE TABLE book (id int PRIMARY KEY, shelf_id int REFERENCES shelf(id));', { metadata: [{ type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'shelf' } }, { type: 'pg_track_table', args: { table: 'book' } },
      { type: 'pg_create_object_relationship', args: { table: 'book', name: 'shelf', using: { foreign_key_constraint_on: 'shelf_id' } } },
      { type: 'create_query_collection', args: { name: 'reads', definition: { queries: [{ name: 'shelves', query: '{ shelf { id } }' }] } } },
      { type: 'add_collection_to_allowlist', args: { collection: 'reads' } },
    ] }] });
  });

  afterAll(() => server?.close());

  it('reload_metadata and drop_inconsistent_metadata on /v1/metadata and /v1/query', async () => {
    await movesBy(1, '/v1/metadata', { type: 'reload_metadata', args: {} });
    await movesBy(1, '/v1/query', { type: 'reload_metadata', args: {} });
    await movesBy(1, '/v1/metadata', { type: 'drop_inconsistent_metadata', args: {} });
  });

  it('edits that leave the document as it was', async () => {
    await movesBy(1, '/v1/metadata', { type: 'pg_rename_relationship', args: { table: 'book', name: 'shelf', new_name: 'shelf' } });
    await movesBy(1, '/v1/metadata', { type: 'add_collection_to_allowlist', args: { collection: 'reads' } });
  });

  it('a bulk is one call; reads move nothing', async () => {
    await movesBy(1, '/v1/metadata', { type: 'bulk', args: [{ type: 'reload_metadata', args: {} }, { type: 'reload_metadata', args: {} }] });
    await movesBy(0, '/v1/metadata', { type: 'get_inconsistent_metadata', args: {} });
    await movesBy(0, '/v1/query', { type: 'select', args: { table: 'shelf', columns: ['id'] } });
  });

  it('a reload naming the current resource_version is served, an older one is a conflict', async () => {
    const { resource_version: current } = await exported();
    expect((await server.post('/v1/metadata', { type: 'reload_metadata', resource_version: current - 1, args: {} })).status).toBe(409);
    await server.ok('/v1/metadata', { type: 'reload_metadata', resource_version: current, args: {} });
    expect((await exported()).resource_version).toBe(current + 1);
  });
});
