// BigQuery through the metadata API in catalog mode (`kiln serve --database-url`, metadata kept
// in svc_catalog): `bigquery_add_source`, `bigquery_track_table`, manual relationships and a
// select permission, with the catalog read through the BigQuery API of the local stand-in
// (BIGQUERY_EMULATOR_HOST) and queries answered by it. The instance also serves Chinook from
// PostgreSQL as its default source, so one request may hold root fields of both sources: they
// are planned each in its own dialect, run on their own database, and merged in request order.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { startBigQueryStandIn, type BigQueryStandIn } from '../../scripts/bigquery-emulator.mjs';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const root = join(import.meta.dirname, '..', '..');
let standIn: BigQueryStandIn;
let db: TestDatabase;
let server: { port: number; close(): Promise<void> };
let previousHost: string | undefined;

const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> => {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.status, body: await res.json() };
};
const metadata = (type: string, args: unknown) => post('/v1/metadata', { type, args });
const gql = async (query: string, headers: Record<string, string> = {}, variables: Record<string, unknown> = {}) => (await post('/v1/graphql', { query, variables }, headers)).body;

const BQ = (name: string) => ({ dataset: 'chinook', name });
const manual = (table: string, mapping: Record<string, string>) => ({ manual_configuration: { remote_table: BQ(table), column_mapping: mapping } });

beforeAll(async () => {
  standIn = await startBigQueryStandIn({ port: 0 });
  previousHost = process.env['BIGQUERY_EMULATOR_HOST'];
  process.env['BIGQUERY_EMULATOR_HOST'] = standIn.url;
  db = await createTestDatabase('bq21cat', await readFile(join(root, 'fixtures/chinook/schema.sql'), 'utf8'));
  server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 2, stringifyNumericTypes: false, console: false });
  const ops: [string, unknown][] = [
    ['pg_track_table', { table: 'album' }],
    ['pg_track_table', { table: 'artist' }],
    ['pg_create_object_relationship', { table: 'album', name: 'artist', using: { foreign_key_constraint_on: 'artist_id' } }],
    ['bigquery_add_source', { name: 'bq', configuration: { project_id: 'kiln-local', datasets: ['chinook'], global_select_limit: 50 } }],
    ['bigquery_track_table', { source: 'bq', table: BQ('album') }],
    ['bigquery_track_table', { source: 'bq', table: BQ('artist') }],
    ['bigquery_track_table', { source: 'bq', table: BQ('track') }],
    ['bigquery_create_object_relationship', { source: 'bq', table: BQ('album'), name: 'artist', using: manual('artist', { artist_id: 'artist_id' }) }],
    ['bigquery_create_array_relationship', { source: 'bq', table: BQ('album'), name: 'tracks', using: manual('track', { album_id: 'album_id' }) }],
    ['bigquery_create_select_permission', { source: 'bq', table: BQ('album'), role: 'fan',
      permission: { columns: ['album_id', 'title'], filter: { artist_id: { _eq: 'X-Svc-Artist-Id' } }, limit: 2 } }],
  ];
  for (const [type, args] of ops) expect([type, await metadata(type, args)]).toEqual([type, { status: 200, body: { message: 'success' } }]);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await db?.drop();
  await standIn?.close();
  if (previousHost === undefined) delete process.env['BIGQUERY_EMULATOR_HOST'];
  else process.env['BIGQUERY_EMULATOR_HOST'] = previousHost;
});

/** BigQuery's INT64 and NUMERIC come back as strings; numbers compared as their decimal text. */
function numbersAsText(v: unknown): unknown {
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.map(numbersAsText);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, numbersAsText(x)]));
  return v;
}

describe('BigQuery sources through the metadata API (catalog mode)', () => {
  it('keeps the source and its tables in the stored metadata, consistent', async () => {
    const exported = (await metadata('export_metadata', {})).body;
    const bq = exported.sources.find((s: { name: string }) => s.name === 'bq');
    expect(bq.kind).toBe('bigquery');
    expect(bq.configuration).toEqual({ project_id: 'kiln-local', datasets: ['chinook'], global_select_limit: 50 });
    // Hasura's spelling of a BigQuery table, also in a manual relationship's remote table.
    expect(bq.tables.map((t: { table: unknown }) => t.table)).toEqual([BQ('album'), BQ('artist'), BQ('track')]);
    expect(bq.tables[0].object_relationships[0].using.manual_configuration.remote_table).toEqual(BQ('artist'));
    expect((await metadata('get_inconsistent_metadata', {})).body).toEqual({ is_consistent: true, inconsistent_objects: [] });
    // The export reads back as the same document.
    expect(await metadata('replace_metadata', exported)).toEqual({ status: 200, body: { message: 'success' } });
    expect((await metadata('export_metadata', {})).body).toEqual(exported);
  });

  it('answers queries through the stand-in: filters, order, relationships, and global_select_limit', async () => {
    const r = await gql('{ chinook_album(where: {artist_id: {_eq: 1}}, order_by: {album_id: asc}) { album_id title artist { name } tracks(order_by: {track_id: asc}, limit: 2) { name } } chinook_track_aggregate { aggregate { count } } chinook_track(order_by: {track_id: asc}) { track_id } }');
    expect(r.errors).toBeUndefined();
    expect(r.data.chinook_album).toEqual([
      { album_id: '1', title: 'For Those About To Rock We Salute You', artist: { name: 'AC/DC' }, tracks: [{ name: 'For Those About To Rock (We Salute You)' }, { name: 'Put The Finger On You' }] },
      { album_id: '4', title: 'Let There Be Rock', artist: { name: 'AC/DC' }, tracks: [{ name: 'Go Down' }, { name: 'Dog Eat Dog' }] },
    ]);
    // The stand-in holds every Chinook track; the source's global_select_limit cuts the list, not the count.
    expect(r.data.chinook_track_aggregate.aggregate.count).toBe(3503);
    expect(r.data.chinook_track).toHaveLength(50);
  });

  it('applies a role\'s session filter and row limit', async () => {
    const r = await gql('{ chinook_album(order_by: {album_id: desc}) { album_id title } }', { 'x-svc-role': 'fan', 'x-svc-artist-id': '90' });
    expect(r.errors).toBeUndefined();
    const all = await gql('{ chinook_album(where: {artist_id: {_eq: 90}}, order_by: {album_id: desc}, limit: 2) { album_id title } }');
    expect(r.data.chinook_album).toEqual(all.data.chinook_album);
    expect(r.data.chinook_album).toHaveLength(2);
  });

  it('one request reads PostgreSQL and BigQuery root fields, each in its own dialect, merged in request order', async () => {
    const q = `{ a: chinook_album(where: {album_id: {_lte: 5}}, order_by: {album_id: asc}) { album_id title artist { name } }
      b: album(where: {album_id: {_lte: 5}}, order_by: {album_id: asc}) { album_id title artist { name } }
      __typename
      c: chinook_artist(where: {artist_id: {_in: [1, 2]}}, order_by: {artist_id: asc}) { name }
      d: artist(where: {artist_id: {_in: [1, 2]}}, order_by: {artist_id: asc}) { name } }`;
    const r = await gql(q);
    expect(r.errors).toBeUndefined();
    expect(Object.keys(r.data)).toEqual(['a', 'b', '__typename', 'c', 'd']);
    expect(r.data.a).toHaveLength(5);
    expect(typeof r.data.a[0].album_id).toBe('string'); // BigQuery's INT64
    expect(typeof r.data.b[0].album_id).toBe('number'); // PostgreSQL's int4
    expect(numbersAsText(r.data.a)).toEqual(numbersAsText(r.data.b));
    expect(r.data.c).toEqual(r.data.d);
    expect(r.data.__typename).toBe('query_root');
  });

  it('refuses writes on a BigQuery table with a clear reason and changes nothing', async () => {
    const before = (await metadata('export_metadata', {})).body;
    const r = await metadata('bigquery_create_insert_permission', { source: 'bq', table: BQ('album'), role: 'fan', permission: { columns: ['title'], check: {} } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('BigQuery sources serve queries only');
    expect((await metadata('export_metadata', {})).body).toEqual(before);
  });
});
