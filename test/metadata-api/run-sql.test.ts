// run_sql: its arguments, the answer's shape with every value as PostgreSQL's text, the error
// body of a failing statement, read-only transactions, and the drivers' script support on both
// PostgreSQL and PGlite (last statement's result, sessions left as they were).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, createPgliteDriver, type Driver, type PgliteDriver } from '../../runtime/drivers/index.js';
import { ApiError, formatPath, managementErrorBody } from '../../runtime/errors/index.js';
import { looksLikeDdl, parseRunSqlArgs, runSql } from '../../runtime/metadata-api/run-sql.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { failure } from '../helpers/failure.js';

let db: TestDatabase;
let pg: Driver;
let dir: string;
let lite: PgliteDriver;

const SETUP = `
  CREATE TABLE author (id serial PRIMARY KEY, name text);
  INSERT INTO author (name) VALUES ('Author 1'), ('Author 2');
  CREATE TABLE malicious (alterable boolean, droppable boolean);
  INSERT INTO malicious VALUES (true, false), (false, true);
`;

beforeAll(async () => {
  db = await createTestDatabase('runsql', SETUP);
  // One connection: a session setting that leaked would be seen by the next call.
  pg = createPgDriver({ url: db.url, max: 1 });
  dir = mkdtempSync(join(tmpdir(), 'kiln-runsql-'));
  lite = await createPgliteDriver({ dataDir: join(dir, 'pgdata') });
  await lite.exec(SETUP);
}, 60_000);

afterAll(async () => {
  await pg?.close();
  await lite?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await db?.drop();
});


const args = (sql: string, more: Record<string, unknown> = {}) => parseRunSqlArgs({ sql, ...more }, ['args']);

describe('parseRunSqlArgs', () => {
  it('reads sql and the optional flags, with their defaults', () => {
    expect(parseRunSqlArgs({ sql: 'select 1' }, ['args'])).toEqual({
      sql: 'select 1', source: 'default', cascade: false, checkMetadataConsistency: undefined, readOnly: false,
    });
    expect(parseRunSqlArgs({ sql: 'x', source: 'pg1', cascade: true, check_metadata_consistency: false, read_only: true, cascade_extra: 1 }, ['args']))
      .toEqual({ sql: 'x', source: 'pg1', cascade: true, checkMetadataConsistency: false, readOnly: true });
    // aeson's `.:?`: an explicit null is absent.
    expect(parseRunSqlArgs({ sql: 'x', read_only: null }, ['args']).readOnly).toBe(false);
  });

  it('refuses a wrong shape with aeson wording at the key', () => {
    const body = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return managementErrorBody(e as ApiError);
      }
      throw new Error('expected a failure');
    };
    expect(body(() => parseRunSqlArgs({}, ['args']))).toEqual({ path: '$.args', error: "the key 'sql' was not present", code: 'parse-failed' });
    expect(body(() => parseRunSqlArgs({ sql: 1 }, ['args']))).toEqual({
      path: '$.args.sql', error: 'parsing Text failed, expected String, but encountered Number', code: 'parse-failed' });
    expect(body(() => parseRunSqlArgs({ sql: 'x', cascade: 'yes' }, ['args', 0]))).toEqual({
      path: '$.args[0].cascade', error: 'parsing Bool failed, expected Boolean, but encountered String', code: 'parse-failed' });
    expect(body(() => parseRunSqlArgs('select 1', ['args']))).toEqual({
      path: '$.args', error: 'parsing RunSQL failed, expected Object, but encountered String', code: 'parse-failed' });
  });
});

for (const which of ['pg', 'pglite'] as const) {
  const driver = (): Driver => (which === 'pg' ? pg : lite);

  describe(`runSql on ${which}`, () => {
    it('answers rows as text with a header row (corpus: sql_select_query_read_only)', async () => {
      expect(await runSql(driver(), args('SELECT * from author ORDER BY id\n'))).toEqual({
        result_type: 'TuplesOk', result: [['id', 'name'], ['1', 'Author 1'], ['2', 'Author 2']],
      });
      expect(await runSql(driver(), args('SELECT alterable, droppable FROM malicious\n'))).toEqual({
        result_type: 'TuplesOk', result: [['alterable', 'droppable'], ['t', 'f'], ['f', 't']],
      });
    });

    it('prints every type as PostgreSQL does, NULL as null', async () => {
      const res = await runSql(driver(), args(`SELECT 1.50::numeric AS n, 9007199254740993::int8 AS big, 0.1::float8 AS f,
        '{"a": [1, 2]}'::jsonb AS j, '{"b":1}'::json AS js, ARRAY[1,2] AS arr, ARRAY['x y','z'] AS texts, NULL::text AS nothing,
        '2020-01-01 00:00:00+02'::timestamptz AS ts, '2020-01-02'::date AS d, 'a'::text AS s`));
      expect(res).toEqual({
        result_type: 'TuplesOk',
        result: [
          ['n', 'big', 'f', 'j', 'js', 'arr', 'texts', 'nothing', 'ts', 'd', 's'],
          ['1.50', '9007199254740993', '0.1', '{"a": [1, 2]}', '{"b":1}', '{1,2}', '{"x y",z}', null, '2019-12-31 22:00:00+00', '2020-01-02', 'a'],
        ],
      });
    });

    it('answers with the last statement only', async () => {
      expect(await runSql(driver(), args('SELECT 1 AS a; SELECT 2 AS b, 3 AS c;'))).toEqual({ result_type: 'TuplesOk', result: [['b', 'c'], ['2', '3']] });
      expect(await runSql(driver(), args('SELECT 1 AS a; CREATE TABLE t_last (x int)'))).toEqual({ result_type: 'CommandOk', result: null });
      expect(await runSql(driver(), args('INSERT INTO t_last VALUES (5) RETURNING x'))).toEqual({ result_type: 'TuplesOk', result: [['x'], ['5']] });
      expect(await runSql(driver(), args('SELECT x FROM t_last WHERE x > 100'))).toEqual({ result_type: 'TuplesOk', result: [['x']] });
      expect(await runSql(driver(), args("SET TIME ZONE 'UTC'\n"))).toEqual({ result_type: 'CommandOk', result: null });
      await runSql(driver(), args('DROP TABLE t_last'));
    });

    it('does not let a SET of one call change the next calls', async () => {
      await runSql(driver(), args("SET TIME ZONE 'Asia/Kolkata'; SET extra_float_digits = 3"));
      const text = await driver().queryText(`SELECT json_build_array('2020-01-01 00:00:00+00'::timestamptz, 0.1::float8)::text`, []);
      expect(text).toBe('["2020-01-01T00:00:00+00:00", 0.1]');
    });

    it('answers a failing statement with Hasura\'s run_sql error body', async () => {
      const e = await failure(runSql(driver(), args('SELEC 1')));
      expect(managementErrorBody(e)).toEqual({ path: '$.args', error: 'query execution failed', code: 'postgres-error' });
      expect(e.status).toBe(400);
      expect(e.internal).toMatchObject({ statement: 'SELEC 1', prepared: false, arguments: [], error: { status_code: '42601', exec_status: 'FatalError' } });
      // A constraint violation is no different in run_sql (Hasura's rawSqlErrHandler).
      const dup = await failure(runSql(driver(), args('INSERT INTO author VALUES (1, \'again\')'), ['args', 3]));
      expect([dup.code, dup.message, formatPath(dup.path)]).toEqual(['postgres-error', 'query execution failed', '$.args[3]']);
    });

    it('runs a read-only transaction where writes fail with 25006 (corpus: sql_select_query_read_only)', async () => {
      const ok = await driver().transaction((tx) => runSql(tx, args("SELECT ' alter ' as drop\n", { read_only: true })), { readOnly: true });
      expect(ok).toEqual({ result_type: 'TuplesOk', result: [['drop'], [' alter ']] });
      const e = await failure(driver().transaction((tx) => runSql(tx, args('DROP TABLE malicious\n')), { readOnly: true }));
      expect({ ...managementErrorBody(e), internal: e.internal }).toEqual({
        internal: {
          statement: 'DROP TABLE malicious\n',
          prepared: false,
          error: { exec_status: 'FatalError', hint: null, message: 'cannot execute DROP TABLE in a read-only transaction', status_code: '25006', description: null },
          arguments: [],
        },
        path: '$.args', error: 'query execution failed', code: 'postgres-error',
      });
      expect(await runSql(driver(), args('SELECT count(*) FROM malicious'))).toEqual({ result_type: 'TuplesOk', result: [['count'], ['2']] });
    });

    it('runs inside a transaction with the other statements, and rolls back with it', async () => {
      const seen = await driver().transaction(async (tx) => {
        await runSql(tx, args('CREATE TABLE in_tx (id int); INSERT INTO in_tx VALUES (1), (2)'));
        return (await tx.query('SELECT count(*)::int FROM in_tx')).rows;
      });
      expect(seen).toEqual([[2]]);
      await failure(driver().transaction(async (tx) => {
        await runSql(tx, args('DROP TABLE in_tx'));
        throw new ApiError('dependency-error', 'refused');
      }));
      expect(await runSql(driver(), args('SELECT id FROM in_tx ORDER BY id'))).toEqual({ result_type: 'TuplesOk', result: [['id'], ['1'], ['2']] });
      await runSql(driver(), args('DROP TABLE in_tx'));
    });
  });
}

describe('looksLikeDdl', () => {
  it('is false only for text that is clearly reads, writes of rows and settings', () => {
    for (const sql of [
      'SELECT * from author\n',
      "select 'drop table x; create table y' as s; -- drop table z\n",
      'INSERT INTO author (name) VALUES ($$ ; ALTER $$), (E\'it\\\'s; drop\')',
      'WITH x AS (SELECT 1) SELECT * FROM x',
      'update author set name = \'a\' where id = 1; delete from author where id = 2;',
      "SET TIME ZONE 'UTC'\n",
      '/* create /* nested */ table */ SELECT 1',
      'show search_path;;  ',
      '',
    ]) expect([sql, looksLikeDdl(sql)]).toEqual([sql, false]);
  });

  it('is true for DDL, for anything it does not know, and for text it cannot follow', () => {
    for (const sql of [
      'create table author(id serial primary key)',
      'SELECT 1; ALTER TABLE author ADD COLUMN x int',
      'select * into author_copy from author',
      'DO $$ BEGIN EXECUTE \'drop table x\'; END $$',
      'CREATE OR REPLACE FUNCTION f() RETURNS int AS $f$ SELECT 1 $f$ LANGUAGE sql',
      'TRUNCATE author',
      'COMMENT ON TABLE author IS \'x\'',
      "SELECT 'unterminated",
      'EXPLAIN ANALYZE CREATE TABLE t AS SELECT 1',
      '(SELECT 1); DROP VIEW v',
    ]) expect([sql, looksLikeDdl(sql)]).toEqual([sql, true]);
  });
});
