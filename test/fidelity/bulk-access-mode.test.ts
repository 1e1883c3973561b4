// A /v1/query call runs in one transaction whose access mode Hasura works out before running it
// (Server/API/Query.hs, getQueryAccessMode): `select` and `count` take any mode, a `run_sql` the
// one `read_only` asks for, everything else READ WRITE. A bulk whose elements force two modes is
// refused whole (400 bad-request at `$`, nothing run); a bulk that forces no READ WRITE runs READ
// ONLY, so a read-only run_sql in it cannot write.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('access modes of a /v1/query bulk', () => {
  let server: ServedDatabase;
  const post = (body: unknown): Promise<{ status: number; body: any }> => server.post('/v1/query', body);
  const bulk = (...args: unknown[]) => post({ type: 'bulk', args });
  const mixed = (expected: string, at: number, forced: string) => ({
    status: 400,
    body: { path: '$', code: 'bad-request', error: `incompatible access mode requirements in bulk query, expected access mode: ${expected} but $.args[${at}] forces ${forced}` },
  });
  const kettles = async (): Promise<number> => Number((await server.db.query<{ n: string }>('SELECT count(*) AS n FROM kettle'))[0]!.n);
  const readOnlySql = (sql: string) => ({ type: 'run_sql', args: { sql, read_only: true } });
  const insertKettle = (label: string) => ({ type: 'insert', args: { table: 'kettle', objects: [{ label }] } });

  beforeAll(async () => {
    server = await serveDatabase('fidaccess', 'CREATE TABLE kettle (id serial PRIMARY KEY, label text NOT NULL); CREATE TABLE spout (id serial PRIMARY KEY);');
    await server.ok('/v1/query', { type: 'bulk', args: [{ type: 'track_table', args: { name: 'kettle' } }, { type: 'track_table', args: { name: 'spout' } }] });
  });

  afterAll(() => server?.close());

  it('a write then a read-only run_sql: refused before the write runs', async () => {
    expect(await bulk(insertKettle('copper'), readOnlySql('SELECT 1'))).toEqual(mixed('READ WRITE', 1, 'READ ONLY'));
    expect(await kettles()).toBe(0);
  });

  it('a read-only run_sql then a metadata change or a delete: refused, nothing changes', async () => {
    expect(await bulk(readOnlySql('SELECT 1'), { type: 'untrack_table', args: { table: 'spout' } })).toEqual(mixed('READ ONLY', 1, 'READ WRITE'));
    const md = await server.ok('/v1/query', { type: 'export_metadata', args: {} });
    expect(md.sources[0].tables.map((t: { table: { name: string } }) => t.table.name).sort()).toEqual(['kettle', 'spout']);
    // select takes any mode, so the conflict is found at the element after it.
    expect(await bulk({ type: 'select', args: { table: 'kettle', columns: ['id'] } }, readOnlySql('SELECT 1'),
      { type: 'delete', args: { table: 'kettle', where: {} } })).toEqual(mixed('READ ONLY', 2, 'READ WRITE'));
  });

  it('a nested bulk counts as the mode its elements agree on', async () => {
    expect(await bulk({ type: 'bulk', args: [readOnlySql('SELECT 1')] }, insertKettle('steel'))).toEqual(mixed('READ ONLY', 1, 'READ WRITE'));
    expect(await bulk({ type: 'bulk', args: [insertKettle('tin'), readOnlySql('SELECT 2')] }))
      .toEqual(mixed('READ WRITE', 1, 'READ ONLY'));
    expect(await kettles()).toBe(0);
  });

  it('selects and counts go with writes and with reads alike', async () => {
    const written = await bulk(insertKettle('iron'), { type: 'select', args: { table: 'kettle', columns: ['label'] } }, { type: 'count', args: { table: 'kettle' } });
    expect(written).toEqual({ status: 200, body: [{ affected_rows: 1 }, [{ label: 'iron' }], { count: 1 }] });
    const read = await bulk({ type: 'count', args: { table: 'kettle' } }, readOnlySql('SELECT label FROM kettle'));
    expect(read).toEqual({ status: 200, body: [{ count: 1 }, { result_type: 'TuplesOk', result: [['label'], ['iron']] }] });
  });

  it('the bulk is parsed before its modes are compared: an element that does not parse is reported first', async () => {
    const before = await kettles();
    const res = await bulk(insertKettle('zinc'), readOnlySql('SELECT 1'), { type: 'insrt', args: {} });
    expect(res).toEqual({ status: 400, body: { path: '$.args[2].type', code: 'parse-failed', error: 'unknown query type "insrt"' } });
    expect(await kettles()).toBe(before);
  });

  it('a bulk that forces READ ONLY runs read only: its run_sql cannot write', async () => {
    const res = await bulk({ type: 'select', args: { table: 'kettle', columns: ['id'] } }, readOnlySql("INSERT INTO kettle (label) VALUES ('brass')"));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ path: '$.args[1].args', code: 'postgres-error', internal: { error: { status_code: '25006' } } });
    expect(await kettles()).toBe(1);
  });
});
