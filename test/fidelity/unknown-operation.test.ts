// An operation type /v1/metadata does not know is refused as Hasura's parser refuses it
// (Server/API/Metadata.hs, `FromJSON RQLMetadataV1`): the type is split at its first `_`; an
// unknown prefix is "not recognized as a valid backend name", a known backend's unknown command is
// "unknown metadata command "<cmd>" for backend <backend>"; the path is `$` (the parser fails at
// the top of the body), `$.args[i]` inside a bulk, and nothing changes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

let server: ServedDatabase;

beforeAll(async () => {
  server = await serveDatabase('fidunknownop', 'CREATE TABLE kettle (id serial PRIMARY KEY, litres int);');
});
afterAll(() => server?.close());

const refused = (error: string, path = '$') => ({ status: 400, body: { path, error, code: 'parse-failed' } });

describe('unknown metadata commands', () => {
  it('names a prefix that is no backend, with or without an underscore', async () => {
    expect(await server.post('/v1/metadata', { type: 'boil', args: {} }))
      .toEqual(refused('unknown metadata command "boil"; "boil" was not recognized as a valid backend name'));
    expect(await server.post('/v1/metadata', { type: 'oracle_track_table', args: { table: 'kettle' } }))
      .toEqual(refused('unknown metadata command "oracle_track_table"; "oracle" was not recognized as a valid backend name'));
  });

  it('names the command and the backend when the prefix is a backend', async () => {
    expect(await server.post('/v1/metadata', { type: 'pg_boil_kettle', args: {} }))
      .toEqual(refused('unknown metadata command "boil_kettle" for backend postgres'));
    expect(await server.post('/v1/metadata', { type: 'mssql_boil', args: {} }))
      .toEqual(refused('unknown metadata command "boil" for backend mssql'));
    expect(await server.post('/v1/metadata', { type: 'citus_boil', args: {} }))
      .toEqual(refused('unknown metadata command "boil" for backend citus'));
  });

  it('refuses a bulk at the element that is unknown and applies none of it', async () => {
    const before = await server.ok('/v1/metadata', { type: 'export_metadata', version: 2, args: {} });
    const res = await server.post('/v1/metadata', {
      type: 'bulk',
      args: [{ type: 'pg_track_table', args: { table: 'kettle' } }, { type: 'pg_boil', args: {} }],
    });
    expect(res).toEqual(refused('unknown metadata command "boil" for backend postgres', '$.args[1]'));
    const after = await server.ok('/v1/metadata', { type: 'export_metadata', version: 2, args: {} });
    expect(after.resource_version).toBe(before.resource_version);
    expect(JSON.stringify(after.metadata)).not.toContain('kettle');
  });

  it('still runs a known command of each form', async () => {
    expect(await server.ok('/v1/metadata', { type: 'pg_track_table', args: { table: 'kettle' } })).toEqual({ message: 'success' });
    expect((await server.ok('/v1/metadata', { type: 'get_inconsistent_metadata', args: {} })).is_consistent).toBe(true);
  });
});
