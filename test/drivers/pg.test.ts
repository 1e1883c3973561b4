import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, mapDatabaseError, type Driver } from '../../runtime/drivers/index.js';
import { WARMUP } from '../../runtime/drivers/plan-choice.js';
import { ApiError } from '../../runtime/errors/index.js';
import { failure } from '../helpers/failure.js';

const URL = 'postgres://postgres@127.0.0.1:5432/test';
const schema = `kiln_drv_${randomBytes(6).toString('hex')}`;
const t = (name: string): string => `"${schema}"."${name}"`;

let admin: pg.Client;
let driver: Driver;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: URL });
  await admin.connect();
  await admin.query(`
    CREATE SCHEMA "${schema}";
    CREATE TABLE ${t('parent')} (id int PRIMARY KEY, name text);
    CREATE TABLE ${t('child')} (
      id int PRIMARY KEY,
      parent_id int REFERENCES ${t('parent')} (id),
      name text NOT NULL,
      qty int CHECK (qty > 0)
    );
    INSERT INTO ${t('parent')} VALUES (1, 'one');
  `);
  // One connection, so prepared statements are observable on it.
  driver = createPgDriver({ url: URL, max: 1 });
});

afterAll(async () => {
  await driver?.close();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});


describe('pg driver: queryText', () => {
  it('returns the JSON text exactly as PostgreSQL printed it', async () => {
    const text = await driver.queryText(`SELECT json_build_object('n', 1.50, 's', $1::text)::text`, ['x']);
    expect(text).toBe('{"n" : 1.50, "s" : "x"}');
    // Even a json-typed column is not parsed.
    expect(await driver.queryText(`SELECT json_build_object('n', 1.50)`, [])).toBe('{"n" : 1.50}');
  });

  it('runs every session in UTC, whatever the connection asked for', async () => {
    const tokyo = createPgDriver({ url: `${URL}?options=${encodeURIComponent('-c TimeZone=Asia/Tokyo -c extra_float_digits=3')}` });
    try {
      const text = await tokyo.queryText(`SELECT json_build_array('2020-01-01 00:00:00+02'::timestamptz, 0.1::float8)::text`, []);
      expect(text).toBe('["2019-12-31T22:00:00+00:00", 0.1]');
    } finally {
      await tokyo.close();
    }
  });

  it('binds parameters', async () => {
    const text = await driver.queryText(
      `SELECT coalesce(json_agg(p.name), '[]')::text FROM ${t('parent')} p WHERE p.id = $1::int`, [1], 'by-id');
    expect(text).toBe('["one"]');
  });

  it('prepares a named statement once per connection and reuses it', async () => {
    const text = `SELECT json_build_object('v', $1::int)::text`;
    expect(await driver.queryText(text, [1], 'a')).toBe('{"v" : 1}');
    expect(await driver.queryText(text, [2], 'a')).toBe('{"v" : 2}');
    // A different text under the same caller name gets its own statement (names hash the text).
    expect(await driver.queryText(`SELECT json_build_object('w', $1::int)::text`, [3], 'a')).toBe('{"w" : 3}');
    const res = await driver.query('SELECT statement FROM pg_prepared_statements WHERE statement LIKE $1', ['%json_build_object(%']);
    const statements = res.rows.map((r) => r[0]);
    expect(statements.filter((s) => s === text)).toHaveLength(1);
    expect(statements).toContain(`SELECT json_build_object('w', $1::int)::text`);
  });
});

describe('pg driver: plan modes', () => {
  // Which mode wins is test/drivers/plan-choice.test.ts; here, that both kinds of session exist.
  it('times a value-sensitive statement on both kinds of session, in turns, and runs others on generic-plan sessions', async () => {
    const text = `SELECT json_build_object('mode', current_setting('plan_cache_mode'), 'v', $1::int)::text`;
    // The first runs warm up on the generic plan, unmeasured.
    for (let i = 0; i < WARMUP; i++) expect(JSON.parse(await driver.queryText(text, [1], 'm', true))).toMatchObject({ mode: 'force_generic_plan' });
    expect(JSON.parse(await driver.queryText(text, [1], 'm', true))).toEqual({ mode: 'force_generic_plan', v: 1 });
    expect(JSON.parse(await driver.queryText(text, [2], 'm', true))).toEqual({ mode: 'force_custom_plan', v: 2 });
    expect(JSON.parse(await driver.queryText(text, [3], 'm'))).toEqual({ mode: 'force_generic_plan', v: 3 });
    expect(JSON.parse(await driver.queryText(text, [4], 'm', false))).toEqual({ mode: 'force_generic_plan', v: 4 });
  });
});

describe('pg driver: query', () => {
  it('returns rows as arrays with field names; date/time values as text', async () => {
    const res = await driver.query(
      `SELECT 1::int AS i, 2::int8 AS big, '{"a":1}'::jsonb AS j, '2020-01-02 03:04:05.123456+00'::timestamptz AS ts, true AS b`);
    expect(res.fields).toEqual(['i', 'big', 'j', 'ts', 'b']);
    expect(res.rows).toEqual([[1, '2', { a: 1 }, '2020-01-02 03:04:05.123456+00', true]]);
    expect(res.rowCount).toBe(1);
  });
});

describe('pg driver: errors', () => {
  it('maps a unique violation with Hasura wording and internal details', async () => {
    const text = `INSERT INTO ${t('parent')} VALUES ($1, $2) RETURNING '{}'::text`;
    const e = await failure(driver.queryText(text, [1, 'dup'], 'ins'));
    expect(e.code).toBe('constraint-violation');
    expect(e.status).toBe(400);
    expect(e.path).toEqual([]);
    expect(e.message).toBe('Uniqueness violation. duplicate key value violates unique constraint "parent_pkey"');
    expect(e.internal).toEqual({
      statement: text,
      prepared: true,
      arguments: [1, 'dup'],
      error: {
        message: 'duplicate key value violates unique constraint "parent_pkey"',
        status_code: '23505',
        description: 'Key (id)=(1) already exists.',
        exec_status: 'FatalError',
        hint: null,
      },
    });
  });

  it('maps foreign-key, not-null and check violations', async () => {
    const fk = await failure(driver.query(`INSERT INTO ${t('child')} VALUES (1, 99, 'a', 1)`));
    expect([fk.code, fk.message]).toEqual(['constraint-violation',
      `Foreign key violation. insert or update on table "child" violates foreign key constraint "child_parent_id_fkey"`]);
    const nn = await failure(driver.query(`INSERT INTO ${t('child')} VALUES (1, 1, NULL, 1)`));
    expect([nn.code, nn.message]).toEqual(['constraint-violation',
      'Not-NULL violation. null value in column "name" of relation "child" violates not-null constraint']);
    // Hasura reports CHECK constraints as permission-error (mkTxErrorHandler).
    const ck = await failure(driver.query(`INSERT INTO ${t('child')} VALUES (1, 1, 'a', 0)`));
    expect([ck.code, ck.message]).toEqual(['permission-error',
      'Check constraint violation. new row for relation "child" violates check constraint "child_qty_check"']);
  });

  it('maps class 22 to data-exception and the errors Hasura does not expect to 500 unexpected', async () => {
    const bad = await failure(driver.queryText(`SELECT to_json($1::int)::text`, ['abc']));
    expect([bad.code, bad.message, bad.status]).toEqual(['data-exception', 'invalid input syntax for type integer: "abc"', 400]);
    // Hasura's dmlTxErrorHandler: only classes 22, 23 and two codes of 42 are the client's; a
    // syntax error, a write in a read-only transaction or a deadlock is "database query error".
    const syntax = await failure(driver.query('SELEC 1'));
    expect([syntax.code, syntax.message, syntax.status]).toEqual(['unexpected', 'database query error', 500]);
    expect((syntax.internal as { error: { status_code: string } }).error.status_code).toBe('42601');
    const readOnly = await failure(driver.transaction(async (tx) => {
      await tx.query('SET TRANSACTION READ ONLY');
      return tx.query(`INSERT INTO ${t('parent')} VALUES (999, 'ro')`);
    }));
    expect([readOnly.code, readOnly.message, readOnly.status]).toEqual(['unexpected', 'database query error', 500]);
    expect((readOnly.internal as { error: { status_code: string } }).error.status_code).toBe('25006');
    const deadlock = await failure(driver.query(`DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '40P01'; END $$`));
    expect([deadlock.code, deadlock.message, deadlock.status]).toEqual(['unexpected', 'database query error', 500]);
  });

  it('maps an unreachable server to a 500 connection error', async () => {
    const down = createPgDriver({ url: 'postgres://postgres@127.0.0.1:1/test' });
    try {
      const e = await failure(down.queryText('SELECT 1', []));
      expect([e.code, e.status, e.message]).toEqual(['postgres-error', 500, 'connection error']);
    } finally {
      await down.close();
    }
  });

  it('leaves an ApiError as it is', () => {
    const e = new ApiError('not-found', 'x');
    expect(mapDatabaseError(e)).toBe(e);
  });
});

describe('pg driver: transactions', () => {
  it('commits on success and rolls back when the callback fails', async () => {
    await driver.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${t('parent')} VALUES (10, 'kept')`);
    });
    await expect(driver.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${t('parent')} VALUES (11, 'gone')`);
      throw new ApiError('permission-error', 'check constraint of an insert/update permission has failed');
    })).rejects.toMatchObject({ code: 'permission-error' });
    const failed = await failure(driver.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${t('parent')} VALUES (12, 'gone too')`);
      await tx.queryText(`INSERT INTO ${t('parent')} VALUES (1, 'dup') RETURNING '{}'::text`, [], 'dup');
    }));
    expect(failed.code).toBe('constraint-violation');
    const ids = await driver.query(`SELECT id FROM ${t('parent')} ORDER BY id`);
    expect(ids.rows).toEqual([[1], [10]]);
    // The connection is usable after the rollbacks.
    expect(await driver.queryText(`SELECT '"ok"'::text`, [])).toBe('"ok"');
  });
});
