// An operation type /v1/metadata does not know is refused as Hasura's parser of the request
// refuses it: the text up to the first "_" must name a backend ("unknown metadata command "x";
// "p" was not recognized as a valid backend name"), then the rest must be a command of that
// backend ("unknown metadata command "c" for backend postgres"). The whole request fails to
// parse (path `$`, `$.args[i]` inside a bulk) and nothing changes; /v1/query keeps its words.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('unknown metadata commands', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const refused = (path: string, error: string) => ({ status: 400, body: { path, error, code: 'parse-failed' } });
  const tracked = async (): Promise<string[]> => (await post('/v1/metadata', { type: 'export_metadata', args: {} })).body.sources[0].tables
    .map((t: { table: { name: string } }) => t.table.name).sort();

  beforeAll(async () => {
    server = await serveDatabase('fidunknownop', 'CREATE TABLE lamp (id int PRIMARY KEY); CREATE TABLE desk (id int PRIMARY KEY);', { track: ['lamp'] });
  });

  afterAll(() => server?.close());

  it('a type whose prefix is not a backend', async () => {
    // /v1/query's spelling of an operation is not a /v1/metadata command: "track" is no backend.
    expect(await post('/v1/metadata', { type: 'track_table', args: { table: 'desk' } }))
      .toEqual(refused('$', 'unknown metadata command "track_table"; "track" was not recognized as a valid backend name'));
    // Without "_" the whole type is taken for the backend's name.
    expect(await post('/v1/metadata', { type: 'frobnicate', args: {} }))
      .toEqual(refused('$', 'unknown metadata command "frobnicate"; "frobnicate" was not recognized as a valid backend name'));
    expect(await tracked()).toEqual(['lamp']);
  });

  it('a command a known backend does not have', async () => {
    expect(await post('/v1/metadata', { type: 'pg_track_tabel', args: { table: 'desk' } }))
      .toEqual(refused('$', 'unknown metadata command "track_tabel" for backend postgres'));
    expect(await post('/v1/metadata', { type: 'mssql_set_table_is_enum', args: { table: 'desk', is_enum: true } }))
      .toEqual(refused('$', 'unknown metadata command "set_table_is_enum" for backend mssql'));
    expect(await tracked()).toEqual(['lamp']);
  });

  it('inside a bulk: the element is the request that fails, and the bulk changes nothing', async () => {
    expect(await post('/v1/metadata', { type: 'bulk', args: [{ type: 'pg_track_table', args: { table: 'desk' } }, { type: 'untrack_table', args: { table: 'lamp' } }] }))
      .toEqual(refused('$.args[1]', 'unknown metadata command "untrack_table"; "untrack" was not recognized as a valid backend name'));
    expect(await tracked()).toEqual(['lamp']);
    // The same operations, spelled for /v1/metadata, run.
    expect((await post('/v1/metadata', { type: 'bulk', args: [{ type: 'pg_track_table', args: { table: 'desk' } }, { type: 'pg_untrack_table', args: { table: 'lamp' } }] })).status).toBe(200);
    expect(await tracked()).toEqual(['desk']);
  });

  it('/v1/query keeps its own words for a type it does not know', async () => {
    expect(await post('/v1/query', { type: 'pg_track_table', args: { table: 'lamp' } })).toEqual(refused('$.type', 'unknown query type "pg_track_table"'));
  });
});
