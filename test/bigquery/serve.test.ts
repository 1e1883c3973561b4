// Chinook on BigQuery, served for real: fixtures/chinook-bigquery (metadata moved to a bigquery
// source, the snapshot `kiln introspect` wrote) compiled into a bundle directory, served by
// serveModel with the bundle as `kiln serve --bundle` does, BIGQUERY_EMULATOR_HOST pointing at the
// local stand-in (ZetaSQL executes the SQL). Every query's answer is compared with the same
// metadata served from PostgreSQL over the same Chinook data (a test database of its own).
//
// INT64, NUMERIC and BIGNUMERIC come back from BigQuery as JSON strings (Hasura's BigQuery backend
// prints them so), where PostgreSQL's int4/numeric are numbers: the comparison reads every number
// as its decimal text; everything else (keys, order, nulls, nesting, row counts) must be equal.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBigQueryStandIn, type BigQueryStandIn } from '../../scripts/bigquery-emulator.mjs';
import { buildBundle, writeBundle } from '../../compiler/emit/index.js';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { serveModel, type RunningServer } from '../../runtime/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { postJson } from '../helpers/http.js';

const root = join(import.meta.dirname, '..', '..');
const ROW_LIMIT = 3;

/** The customer role reads its own invoices, at most ROW_LIMIT of them (a session filter and a row limit). */
function withRowLimit(md: any): any {
  const copy = structuredClone(md);
  for (const t of copy.sources[0].tables) {
    if (t.table.name === 'invoice') t.select_permissions[0].permission.limit = ROW_LIMIT;
  }
  return copy;
}

let standIn: BigQueryStandIn;
let served: RunningServer;
let bq: string;
let db: TestDatabase;
let pg: TestKiln;
let bundleDir: string;

beforeAll(async () => {
  standIn = await startBigQueryStandIn({ port: 0 });
  process.env['BIGQUERY_EMULATOR_HOST'] = standIn.url;
  const md = parseMetadata(withRowLimit(JSON.parse(await readFile(join(root, 'fixtures/chinook-bigquery/metadata.json'), 'utf8'))));
  if (!md.value) throw new Error(md.errors.map((e) => e.message).join('; '));
  const snap = introspectionFromJson(JSON.parse(await readFile(join(root, 'fixtures/chinook-bigquery/introspection.json'), 'utf8')));
  const bundle = await buildBundle({ metadata: md.value, introspection: { chinook: snap }, engineVersion: 'test', stringifyNumeric: false });
  expect(bundle.inconsistencies).toEqual([]);
  bundleDir = await mkdtemp(join(tmpdir(), 'kiln-bq21-'));
  await writeBundle(bundleDir, bundle);
  served = await serveModel({ dataDir: '/nonexistent', port: 0, host: '127.0.0.1', pgConnections: 2, stringifyNumericTypes: false, console: false, adminSecret: 's' },
    { kind: 'bundle', dir: bundleDir }, () => undefined);
  bq = `http://127.0.0.1:${served.port}`;
  const sql = (await readFile(join(root, 'fixtures/chinook/schema.sql'), 'utf8'));
  db = await createTestDatabase('bq21', sql);
  const pgMetadata = withRowLimit(JSON.parse(await readFile(join(root, 'fixtures/chinook/metadata.json'), 'utf8')));
  pg = await startKiln({ metadata: pgMetadata, databaseUrl: db.url, adminSecret: 's' });
}, 120_000);

afterAll(async () => {
  await pg?.close();
  await db?.drop();
  await served?.close();
  await standIn?.close();
  if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
});

/** Numbers as their decimal text, so `"1.98"` (BigQuery NUMERIC) equals `1.98` (PostgreSQL numeric). */
function numbersAsText(v: unknown): unknown {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return String(Number(v));
  if (Array.isArray(v)) return v.map(numbersAsText);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, numbersAsText(x)]));
  return v;
}

// PostgreSQL names the tables without a dataset; the same query with the BigQuery root names.
const pgNames = (q: string): string => q.replace(/\bchinook_(\w+)/g, '$1');

async function both(query: string, headers: Record<string, string> = {}, variables: Record<string, unknown> = {}): Promise<{ bq: any; pg: any }> {
  const h = { 'x-svc-admin-secret': 's', ...headers };
  const b = await postJson(bq, '/v1/graphql', { query, variables }, h);
  const p = await postJson(pg.url, '/v1/graphql', { query: pgNames(query), variables }, h);
  expect(b.status).toBe(200);
  expect(b.body.errors).toBeUndefined();
  expect(p.body.errors).toBeUndefined();
  const pgData = Object.fromEntries(Object.entries(p.body.data).map(([k, v]) => [k.startsWith('chinook_') ? k : `chinook_${k}`, v]));
  return { bq: b.body.data, pg: pgData };
}

const QUERIES: readonly (readonly [string, string, Record<string, unknown>?])[] = [
  ['filters, order, limit and offset', `{ chinook_album(where: {_and: [{artist_id: {_lt: 100}}, {title: {_like: "%a%"}}]}, order_by: {title: desc}, limit: 5, offset: 2) { album_id title } }`],
  ['object and array relationships with their own order and limit', `{ chinook_album(order_by: {album_id: asc}, limit: 4) { title artist { name } tracks(order_by: {milliseconds: desc}, limit: 2) { name milliseconds unit_price genre { name } } } }`],
  ['aggregates and nested aggregates', `{ chinook_track_aggregate(where: {genre_id: {_eq: 1}}) { aggregate { count max { milliseconds } min { name } sum { bytes } } }
      chinook_artist(where: {artist_id: {_in: [1, 2, 8]}}, order_by: {artist_id: asc}) { name albums_aggregate(order_by: {album_id: asc}) { aggregate { count } nodes { title } } } }`],
  ['variables, _ilike, _nin, _is_null, _or and ordering by a relationship', `query ($n: Int!, $p: String!) { chinook_track(where: {_or: [{name: {_ilike: $p}}, {composer: {_is_null: true}, genre_id: {_nin: [1, 2, 3]}}]}, order_by: [{album: {title: asc}}, {track_id: asc}], limit: $n) { track_id name album { title } } }`, { n: 7, p: '%love%' }],
  ['distinct_on at the root with order, limit and offset, and in an array relationship', `{ chinook_track(where: {album_id: {_lte: 30}}, distinct_on: [genre_id], order_by: [{genre_id: asc}, {milliseconds: desc}, {track_id: asc}], limit: 6, offset: 1) { genre_id track_id name milliseconds }
      chinook_artist(where: {artist_id: {_in: [1, 22, 90]}}, order_by: {artist_id: asc}) { name albums(distinct_on: [artist_id], order_by: [{artist_id: asc}, {title: desc}]) { title } tracks: albums(order_by: {album_id: asc}) { tracks(distinct_on: [media_type_id, genre_id], order_by: [{media_type_id: asc}, {genre_id: asc}, {track_id: desc}]) { media_type_id genre_id track_id } } } }`],
  ['an array relationship filtered through an exists', `{ chinook_customer(where: {invoices: {total: {_gt: 20}}}, order_by: {customer_id: asc}) { customer_id last_name invoices(where: {total: {_gt: 15}}, order_by: {invoice_id: asc}) { invoice_id total invoice_date } } }`],
];

describe('Chinook on BigQuery (stand-in) answers as on PostgreSQL', () => {
  for (const [name, query, variables] of QUERIES) {
    it(name, async () => {
      const r = await both(query, {}, variables ?? {});
      expect(numbersAsText(r.bq)).toEqual(numbersAsText(r.pg));
      expect(JSON.stringify(r.bq).length).toBeGreaterThan(40);
    });
  }

  it('a role with a session-variable filter and a row limit', async () => {
    const q = `{ chinook_invoice(order_by: {invoice_date: desc}) { invoice_id customer_id total invoice_lines(order_by: {invoice_line_id: asc}) { invoice_line_id unit_price quantity } } }`;
    for (const customer of ['5', '12']) {
      const r = await both(q, { 'x-svc-role': 'customer', 'x-svc-customer-id': customer });
      expect(numbersAsText(r.bq)).toEqual(numbersAsText(r.pg));
      expect(r.bq.chinook_invoice).toHaveLength(ROW_LIMIT);
      expect(r.bq.chinook_invoice.every((i: { customer_id: string }) => i.customer_id === customer)).toBe(true);
    }
  });

  it('writes INT64 and NUMERIC as JSON strings, FLOAT64 as numbers, DATETIME as text', async () => {
    const r = await postJson(bq, '/v1/graphql', { query: '{ chinook_invoice(where: {invoice_id: {_eq: 1}}) { invoice_id total invoice_date } chinook_track_aggregate { aggregate { count avg { milliseconds } } } }' }, { 'x-svc-admin-secret': 's' });
    expect(r.body.data.chinook_invoice).toEqual([{ invoice_id: '1', total: '1.98', invoice_date: '2021-01-01T00:00:00' }]);
    expect(r.body.data.chinook_track_aggregate.aggregate.count).toBe(3503);
    expect(typeof r.body.data.chinook_track_aggregate.aggregate.avg.milliseconds).toBe('number');
  });

  it('has no mutations, subscriptions or _by_pk fields on a BigQuery source', async () => {
    const h = { 'x-svc-admin-secret': 's' };
    const m = await postJson(bq, '/v1/graphql', { query: 'mutation { insert_chinook_album(objects: []) { affected_rows } }' }, h);
    expect(m.body.errors[0].message).toBe('no mutations exist');
    const s = await postJson(bq, '/v1/graphql', { query: 'subscription { chinook_album { album_id } }' }, h);
    expect(s.body.errors[0].message).toBe('no subscriptions exist');
    const k = await postJson(bq, '/v1/graphql', { query: '{ chinook_album_by_pk(album_id: 1) { title } }' }, h);
    expect(k.body.errors[0].extensions.code).toBe('validation-failed');
  });

  it('answers a BigQuery failure as an error, and keeps serving', async () => {
    await standIn.close();
    const r = await postJson(bq, '/v1/graphql', { query: '{ chinook_genre { name } }' }, { 'x-svc-admin-secret': 's' });
    expect(r.body.errors?.[0]?.extensions?.code).toBe('bigquery-error');
    const health = await fetch(`${bq}/healthz`);
    expect(health.status).toBe(200);
  });
});
