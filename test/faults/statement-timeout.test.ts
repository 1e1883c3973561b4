// SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT on a served Kiln: a GraphQL query stuck behind a lock is
// cancelled by PostgreSQL after that many seconds and answers a clear error, the connection is
// kept, metadata writes are not bound by it, and a bad value is refused before anything starts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { StartError } from '../../runtime/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { holdRowLock, untilLockWait } from './served.js';

let db: TestDatabase;
let server: { port: number; close(): Promise<void> };

const post = async (path: string, body: unknown): Promise<any> => {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return res.json();
};

const options = (url: string) => ({
  databaseUrl: url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 1,
  stringifyNumericTypes: false, console: false, eventsFetchInterval: 1000,
});

beforeAll(async () => {
  db = await createTestDatabase('stmttimeout', `CREATE TABLE item (id int PRIMARY KEY); INSERT INTO item VALUES (1);
    CREATE FUNCTION nap(seconds float8) RETURNS SETOF item LANGUAGE sql STABLE AS $$ SELECT i.* FROM item i, pg_sleep(seconds) $$;
    CREATE FUNCTION nap_here(seconds float8) RETURNS SETOF item LANGUAGE sql STABLE AS $$ SELECT i.* FROM item i, pg_sleep(seconds) $$;`);
  process.env.SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT = '0.5';
  try {
    server = await serveCommand(options(db.url));
  } finally {
    delete process.env.SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT;
  }
  expect(await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'item' } })).toEqual({ message: 'success' });
});

afterAll(async () => {
  await server?.close();
  await db?.drop();
});

describe('SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT', () => {
  it('cancels a query that runs longer and answers why, on a connection that stays', async () => {
    const backends = async (): Promise<number[]> => (await db.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND current_setting('statement_timeout') IS NOT NULL AND query NOT LIKE 'LISTEN%' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`, [db.name])).map((r) => r.pid);
    expect(await post('/v1/graphql', { query: '{ item { id } }' })).toEqual({ data: { item: [{ id: 1 }] } });
    const before = await backends();
    const lock = await holdRowLock(db.url, 'LOCK TABLE item IN ACCESS EXCLUSIVE MODE');
    let answer: any;
    const started = Date.now();
    try {
      const pending = post('/v1/graphql', { query: '{ item { id } }' });
      await untilLockWait(db);
      answer = await pending;
    } finally {
      await lock.release();
    }
    const took = Date.now() - started;
    expect(answer).toEqual({ errors: [{ message: 'canceling statement due to statement timeout', extensions: { path: '$', code: 'postgres-error' } }] });
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(3000);
    // The source pool has one connection: the same backends serve on.
    expect(await post('/v1/graphql', { query: '{ item { id } }' })).toEqual({ data: { item: [{ id: 1 }] } });
    expect(await backends()).toEqual(before);
  });

  it('leaves metadata writes unbound (their catalog pool has no statement timeout)', async () => {
    // Writes to the stored metadata wait behind this lock longer than the timeout, then complete.
    const lock = await holdRowLock(db.url, 'LOCK TABLE svc_catalog.hdb_metadata IN EXCLUSIVE MODE');
    try {
      const pending = post('/v1/metadata', { type: 'create_query_collection', args: { name: 'slow', definition: { queries: [] } } });
      await untilLockWait(db);
      await new Promise((r) => setTimeout(r, 800));
      await lock.release();
      expect(await pending).toEqual({ message: 'success' });
    } catch (e) {
      await lock.release().catch(() => undefined);
      throw e;
    }
  });

  it('a source whose database URL sets its own statement_timeout (options=-c ...) keeps it, over the default', async () => {
    // The same database as a second source, its URL carrying a 3 s timeout of its own.
    const own = `${db.url}?options=${encodeURIComponent('-c statement_timeout=3000')}`;
    expect(await post('/v1/metadata', { type: 'pg_add_source', args: { name: 'patient', configuration: { connection_info: { database_url: own } } } }))
      .toEqual({ message: 'success' });
    expect(await post('/v1/metadata', { type: 'pg_track_table', args: { source: 'patient', table: 'item', configuration: { custom_name: 'patient_item' } } }))
      .toEqual({ message: 'success' });
    expect(await post('/v1/metadata', { type: 'pg_track_function', args: { source: 'patient', function: 'nap' } })).toEqual({ message: 'success' });
    expect(await post('/v1/metadata', { type: 'pg_track_function', args: { function: 'nap_here' } })).toEqual({ message: 'success' });
    // 1 s: past the default of every source (0.5 s), within the patient source's own 3 s.
    expect(await post('/v1/graphql', { query: '{ nap(args: {seconds: 1}) { id } }' })).toEqual({ data: { nap: [{ id: 1 }] } });
    expect(await post('/v1/graphql', { query: '{ nap_here(args: {seconds: 1}) { id } }' }))
      .toEqual({ errors: [{ message: 'canceling statement due to statement timeout', extensions: { path: '$', code: 'postgres-error' } }] });
    // Its own 3 s still bounds it.
    expect(await post('/v1/graphql', { query: '{ nap(args: {seconds: 4}) { id } }' }))
      .toEqual({ errors: [{ message: 'canceling statement due to statement timeout', extensions: { path: '$', code: 'postgres-error' } }] });
  }, 30_000);

  it('refuses a value that is not a number of seconds before opening anything', async () => {
    process.env.SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT = 'soon';
    try {
      const e = await serveCommand(options('postgres://nobody@127.0.0.1:1/none')).then(() => null, (x: unknown) => x);
      expect(e).toBeInstanceOf(StartError);
      expect((e as StartError).message).toBe('SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT must be a number of seconds (0: none), got "soon"');
      expect((e as StartError).exitCode).toBe(2);
    } finally {
      delete process.env.SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT;
    }
  });
});
