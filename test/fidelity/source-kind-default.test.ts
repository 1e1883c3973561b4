// A source of a metadata document without `kind` (or with `kind: null`) is a Postgres source, as
// Hasura v2 reads one (Metadata.hs parseSourceMetadata: `o .:? "kind" .!= Postgres Vanilla`):
// replace_metadata takes it in both envelopes, serves its tables, and export_metadata writes the
// kind out. A kind that is there must still be a known one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('a metadata source without a kind', () => {
  let server: ServedDatabase;

  beforeAll(async () => {
    server = await serveDatabase('fidkind', `
      CREATE TABLE shelf (id serial PRIMARY KEY, label text NOT NULL);
      INSERT INTO shelf (label) VALUES ('oak'), ('pine');
    `);
  });
  afterAll(() => server?.close());

  /** The exported default source with `kind` replaced by `kind` (left out when undefined). */
  async function defaultSource(kind?: unknown): Promise<Record<string, unknown>> {
    const exported = (await server.metadata('export_metadata', {}, { version: 2 })).body;
    const { kind: _k, ...rest } = exported.metadata.sources.find((s: any) => s.name === 'default');
    return kind === undefined ? rest : { ...rest, kind };
  }

  it('is read as postgres by replace_metadata version 2, and its tables are served', async () => {
    const source = { ...(await defaultSource()), tables: [{ table: { schema: 'public', name: 'shelf' } }] };
    expect('kind' in source).toBe(false);
    const r = await server.metadata('replace_metadata', { metadata: { version: 3, sources: [source] } }, { version: 2 });
    expect(r.status).toBe(200);
    const exported = (await server.metadata('export_metadata', {})).body;
    expect(exported.sources.map((s: any) => [s.name, s.kind])).toEqual([['default', 'postgres']]);
    expect(await server.gql('{ shelf(order_by: {id: asc}) { label } }'))
      .toEqual({ data: { shelf: [{ label: 'oak' }, { label: 'pine' }] } });
  });

  it('is read as postgres in the unwrapped envelope and with an explicit null', async () => {
    for (const kind of [undefined, null]) {
      const source = { ...(await defaultSource(kind)), tables: [] };
      const r = await server.post('/v1/metadata', { type: 'replace_metadata', args: { version: 3, sources: [source] } });
      expect(r).toEqual({ status: 200, body: { message: 'success' } });
      const exported = (await server.metadata('export_metadata', {})).body;
      expect(exported.sources.map((s: any) => [s.name, s.kind, s.tables])).toEqual([['default', 'postgres', []]]);
    }
  });

  it('still refuses a kind it does not know, and changes nothing', async () => {
    const before = (await server.metadata('export_metadata', {}, { version: 2 })).body;
    const source = await defaultSource('oracle');
    const r = await server.metadata('replace_metadata', { metadata: { version: 3, sources: [source] } }, { version: 2 });
    expect(r).toEqual({ status: 400, body: { path: '$.args.metadata.sources[0].kind', code: 'parse-failed',
      error: 'backend kind "oracle" was not recognized as a valid backend name' } });
    expect((await server.metadata('export_metadata', {}, { version: 2 })).body).toEqual(before);
  });
});
