// Responses are gzipped for a client that accepts gzip, as Hasura v2 compresses every API's answer
// (Server/Compression.hs): GraphQL and the metadata API alike, small and large bodies (a large one
// is compressed off the event loop). `br` alone, `gzip;q=0` or no Accept-Encoding: the body as it is.

import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../runtime/server/http-io.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

interface Raw { status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }

function post(url: string, path: string, body: unknown, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(text);
  });
}

describe('response compression', () => {
  let server: ServedDatabase;
  const QUERY = { query: '{ note(order_by: {id: asc}, limit: 2) { id body } }' };
  const EXPECTED = { data: { note: [{ id: 1, body: 'note 1' }, { id: 2, body: 'note 2' }] } };

  beforeAll(async () => {
    server = await serveDatabase('srvgzip', `CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL);
      INSERT INTO note SELECT i, 'note ' || i FROM generate_series(1, 5000) AS i;`);
    await server.ok('/v1/metadata', { type: 'pg_track_table', args: { table: 'note' } });
  });

  afterAll(() => server?.close());

  it('gzips a GraphQL answer for gzip (and for gzip beside br), with the length of what is sent', async () => {
    for (const encoding of ['gzip', 'gzip, br', 'br;q=1, gzip;q=0.5']) {
      const r = await post(server.url, '/v1/graphql', QUERY, { 'accept-encoding': encoding });
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBe('gzip');
      expect(Number(r.headers['content-length'])).toBe(r.bytes.length);
      expect(JSON.parse(gunzipSync(r.bytes).toString('utf8'))).toEqual(EXPECTED);
    }
  });

  it('sends the body as it is without gzip among the accepted encodings', async () => {
    for (const headers of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip;q=0' }, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const r = await post(server.url, '/v1/graphql', QUERY, headers);
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(r.bytes.toString('utf8'))).toEqual(EXPECTED);
    }
  });

  it('gzips the metadata API and errors too, and a large answer compressed off the event loop', async () => {
    const md = await post(server.url, '/v1/metadata', { type: 'export_metadata', args: {} }, { 'accept-encoding': 'gzip' });
    expect(md.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(md.bytes).toString('utf8')).sources[0].tables).toEqual([{ table: { schema: 'public', name: 'note' } }]);
    const bad = await post(server.url, '/v1/metadata', { type: 'no_such_operation', args: {} }, { 'accept-encoding': 'gzip' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(gunzipSync(bad.bytes).toString('utf8')).code).toBe('parse-failed');
    const big = await post(server.url, '/v1/graphql', { query: '{ note { id body } }' }, { 'accept-encoding': 'gzip' });
    const rows = JSON.parse(gunzipSync(big.bytes).toString('utf8')).data.note;
    expect(rows).toHaveLength(5000);
    expect(rows[4999]).toEqual({ id: 5000, body: 'note 5000' });
    expect(big.bytes.length).toBeLessThan(64 * 1024);
    expect(gunzipSync(big.bytes).length).toBeGreaterThan(64 * 1024);
  });

  it('reads Accept-Encoding as a list of names with weights', () => {
    expect(acceptsGzip('deflate, GZIP')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0.0')).toBe(false);
    expect(acceptsGzip('x-gzip')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
