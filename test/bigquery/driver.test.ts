// The BigQuery driver (@google-cloud/bigquery) against the local stand-in (ZetaSQL executes the
// SQL): named parameters, typed values, results read over many pages, a job polled until done,
// errors mapped to `bigquery-error`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBigQueryStandIn, type BigQueryStandIn } from '../../scripts/bigquery-emulator.mjs';
import { createBigQueryDriver, type BigQueryDriver } from '../../runtime/drivers/index.js';
import { ApiError } from '../../runtime/errors/index.js';

let standIn: BigQueryStandIn;
let driver: BigQueryDriver;
// Process warnings while the driver runs: asking for default credentials warns when Google's metadata server cannot be reached.
const warnings: string[] = [];
const onWarning = (w: Error): void => { warnings.push(w.name); };
process.on('warning', onWarning);

beforeAll(async () => {
  standIn = await startBigQueryStandIn({ port: 0, pageRows: 500 });
  process.env['BIGQUERY_EMULATOR_HOST'] = standIn.url;
  driver = createBigQueryDriver({ projectId: standIn.project });
}, 60_000);

afterAll(async () => {
  process.off('warning', onWarning);
  await driver?.close();
  await standIn?.close();
});

describe('BigQuery driver on the stand-in', () => {
  it('binds @p parameters by position and returns typed values as plain JSON values', async () => {
    const r = await driver.query(
      'SELECT a.album_id, a.title, CAST(@p1 AS NUMERIC) AS n, DATETIME \'2021-01-02 03:04:05\' AS d, 1.5 AS f, TRUE AS b FROM `chinook.album` AS a WHERE a.album_id = CAST(@p0 AS INT64)',
      ['3', '1.25'],
    );
    expect(r.fields).toEqual(['album_id', 'title', 'n', 'd', 'f', 'b']);
    expect(r.rows).toEqual([['3', 'Restless and Wild', '1.25', '2021-01-02T03:04:05', 1.5, true]]);
  });

  it('sends the stand-in no credentials and looks for none (no metadata server lookup, no network)', async () => {
    await driver.query('SELECT 1 AS one', []);
    await new Promise((r) => setTimeout(r, 50));
    expect(warnings.filter((w) => w === 'MetadataLookupWarning')).toEqual([]);
  });

  it('reads every page of a large result (3503 rows over 8 pages of 500)', async () => {
    const r = await driver.query('SELECT t.track_id FROM `chinook.track` AS t ORDER BY t.track_id', []);
    expect(r.rowCount).toBe(3503);
    expect(r.rows[0]).toEqual(['1']);
    expect(r.rows[3502]).toEqual(['3503']);
  });

  it('returns arrays of structs (ARRAY_AGG(STRUCT)) as arrays of objects', async () => {
    const r = await driver.query(
      'SELECT ARRAY_AGG(STRUCT(t.track_id AS f0, t.name AS f1) ORDER BY t.track_id LIMIT 2) AS v FROM `chinook.track` AS t WHERE t.album_id = @p0', [1]);
    expect(r.rows[0]![0]).toEqual([{ f0: '1', f1: 'For Those About To Rock (We Salute You)' }, { f0: '6', f1: 'Put The Finger On You' }]);
  });

  it('polls a job that is not done in the first call', async () => {
    standIn.setPollOnce(true);
    try {
      const r = await driver.query('SELECT COUNT(*) AS n FROM `chinook.invoice`', []);
      expect(r.rows).toEqual([['412']]);
    } finally {
      standIn.setPollOnce(false);
    }
  });

  it('sends a null parameter typed, and a list as an ARRAY', async () => {
    const r = await driver.query('SELECT @p0 IS NULL AS a, (SELECT COUNT(*) FROM `chinook.genre` AS g WHERE g.genre_id IN UNNEST(@p1)) AS n', [null, [1, 2, 3]]);
    expect(r.rows).toEqual([[true, '3']]);
  });

  it('answers a bad statement with bigquery-error and the engine\'s message', async () => {
    const e = await driver.query('SELECT nope FROM `chinook.album`', []).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('bigquery-error');
    expect((e as ApiError).message).toMatch(/Unrecognized name: nope/);
  });

  it('reads the tables of a dataset with their schemas', async () => {
    const tables = await driver.tablesOf('chinook');
    expect(tables.map((t) => t.name)).toContain('invoice_line');
    const invoice = tables.find((t) => t.name === 'invoice')!;
    expect(invoice.metadata.schema?.fields?.map((f) => `${f.name}:${f.type}:${f.mode}`)).toContain('total:NUMERIC:REQUIRED');
  });

  it('refuses what BigQuery has no form for: transactions, run_sql', async () => {
    await expect(driver.transaction(async () => 1)).rejects.toMatchObject({ code: 'not-supported' });
    await expect(driver.runScript('SELECT 1')).rejects.toMatchObject({ code: 'not-supported' });
  });
});
