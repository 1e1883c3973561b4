import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDriver, type PgliteDriver } from '../../runtime/drivers/index.js';
import { failure } from '../helpers/failure.js';

let dir: string;
let db: PgliteDriver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kiln-pglite-'));
  db = await createPgliteDriver({ dataDir: join(dir, 'pgdata') });
  await db.exec(`
    CREATE TABLE artist (id int PRIMARY KEY, name text NOT NULL);
    INSERT INTO artist VALUES (1, 'AC/DC'), (2, 'Accept');
  `);
}, 30_000);

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});


describe('PGlite driver', () => {
  it('returns the response JSON as text, unparsed, in UTC', async () => {
    const text = await db.queryText(
      `SELECT json_build_object('artists', (SELECT json_agg(a.name ORDER BY a.id) FROM artist a WHERE a.id >= $1::int),
        'n', 1.50, 't', '2020-01-01 00:00:00+02'::timestamptz)`, [1], 'artists');
    expect(text).toBe('{"artists" : ["AC/DC", "Accept"], "n" : 1.50, "t" : "2019-12-31T22:00:00+00:00"}');
  });

  it('runs plain queries with the same value forms as the pg driver', async () => {
    const res = await db.query('SELECT id, 5::int8 AS big, name FROM artist WHERE id = $1', [2]);
    expect(res.fields).toEqual(['id', 'big', 'name']);
    expect(res.rows).toEqual([[2, '5', 'Accept']]);
  });

  it('maps errors like the pg driver', async () => {
    const dup = await failure(db.query(`INSERT INTO artist VALUES (1, 'again')`));
    expect([dup.code, dup.message]).toEqual(['constraint-violation',
      'Uniqueness violation. duplicate key value violates unique constraint "artist_pkey"']);
    const bad = await failure(db.queryText(`SELECT to_json($1::int)::text`, ['abc']));
    expect([bad.code, bad.message]).toEqual(['data-exception', 'invalid input syntax for type integer: "abc"']);
    const script = await failure(db.exec('SELEC 1'));
    expect([script.code, script.message, script.status]).toEqual(['unexpected', 'database query error', 500]);
  });

  it('rolls a failed transaction back and keeps other calls out of it', async () => {
    const tx = db.transaction(async (t) => {
      await t.query(`INSERT INTO artist VALUES (3, 'gone')`);
      await t.query(`INSERT INTO artist VALUES (1, 'dup')`);
    });
    // Queued behind the transaction: it must not see the uncommitted row.
    const during = db.query('SELECT count(*)::int FROM artist');
    expect((await failure(tx)).code).toBe('constraint-violation');
    expect((await during).rows).toEqual([[2]]);
    await db.transaction(async (t) => { await t.query(`INSERT INTO artist VALUES (4, 'kept')`); });
    expect((await db.query('SELECT id FROM artist ORDER BY id')).rows).toEqual([[1], [2], [4]]);
  });
});

describe('PGlite driver: errors leave it serving', () => {
  it('rolls back a transaction a script left open, so later calls are not captured by it', async () => {
    await db.runScript(`BEGIN; INSERT INTO artist VALUES (10, 'open')`);
    const failed = await failure(db.runScript(`BEGIN; INSERT INTO artist VALUES (11, 'x'); SELECT 1/0`));
    expect(failed.code).toBe('data-exception');
    expect((await db.query('SELECT count(*)::int FROM artist WHERE id >= 10')).rows).toEqual([[0]]);
    await db.transaction(async (t) => { await t.query(`INSERT INTO artist VALUES (12, 'later')`); });
    expect((await db.query('SELECT id FROM artist WHERE id >= 10')).rows).toEqual([[12]]);
  });

  it('passes a callback error through, rolls back, and serves the next call', async () => {
    const boom = new Error('not a database error');
    await expect(db.transaction(async (t) => {
      await t.query(`INSERT INTO artist VALUES (13, 'gone')`);
      throw boom;
    })).rejects.toBe(boom);
    expect((await db.query('SELECT count(*)::int FROM artist WHERE id = 13')).rows).toEqual([[0]]);
  });

  it('answers an ApiError, not a crash, once closed', async () => {
    const other = await createPgliteDriver({ dataDir: join(dir, 'closed') });
    await other.close();
    const e = await failure(other.query('SELECT 1'));
    expect(e.code).toBe('postgres-error');
  }, 30_000);
});
