// Issue 15, found while fuzzing: a row from PostgreSQL past V8's string limit (512 MiB) threw
// inside pg's socket handler and ended the process; 600 aliases of a table holding 1 MB of text
// (11 KB of query, within the query caps, any role that may read the column) were enough. The
// driver now reads each message's length from its header as the bytes arrive and closes a
// connection whose row is over its cap (pg-guard.ts): the request gets a clear error, the pool
// drops the client, the server keeps serving. The cap is lowered here so the test stays small.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer } from '../../runtime/server/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';

const MB = 2 ** 20;
const SETUP = `CREATE TABLE doc (id int PRIMARY KEY, body text NOT NULL);
INSERT INTO doc VALUES (1, repeat('x', ${MB})), (2, 'short');`;
const METADATA = {
  version: 3,
  sources: [{
    name: 'default', kind: 'postgres', configuration: {}, functions: [],
    tables: [{ table: { schema: 'public', name: 'doc' }, select_permissions: [{ role: 'user', permission: { columns: ['id', 'body'], filter: {} } }] }],
  }],
};

let db: TestDatabase;
let driver: Driver;
let base: string;
let close: () => Promise<void>;
const crashes: unknown[] = [];
const onCrash = (e: unknown): void => { crashes.push(e); };

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  db = await createTestDatabase('largerow', SETUP);
  driver = createPgDriver({ url: db.url, max: 2, maxMessageBytes: 3 * MB, log: () => undefined });
  const md = parseMetadata(METADATA).value!;
  const bundle = await buildBundle({ metadata: md, introspection: { default: await introspectPostgres(driver) }, engineVersion: 'test' });
  const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: () => driver });
  const server = createServer({ engine, version: 'test', consoleEnabled: false });
  base = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  close = async () => { await server.close(); await driver.close(); };
});

afterAll(async () => {
  await close?.();
  await db?.drop();
  process.off('uncaughtException', onCrash);
});

const aliases = (n: number): string => `{ ${Array.from({ length: n }, (_, i) => `a${i}: doc(where: {id: {_eq: 1}}) { body }`).join(' ')} }`;
const asUser = { 'x-svc-role': 'user' };

describe('a row over the driver\'s cap', () => {
  it('passes rows under the cap whole, across many socket chunks', async () => {
    const r = await postJson(base, '/v1/graphql', { query: aliases(2) }, asUser);
    expect(r.status).toBe(200);
    expect(r.body.data.a0[0].body).toHaveLength(MB);
    expect(r.body.data.a1[0].body).toBe('x'.repeat(MB));
  });

  it('refuses an answer over the cap with a clear error, and the server and its pool keep serving', async () => {
    const r = await postJson(base, '/v1/graphql', { query: aliases(5) }, asUser);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ errors: [{ message: `the response is larger than the server allows (${3 * MB} bytes in one row); ask for fewer rows or fields`,
      extensions: { path: '$', code: 'validation-failed' } }] });
    // More requests than the pool's two connections: the closed one was replaced.
    const after = await Promise.all(Array.from({ length: 4 }, () => postJson(base, '/v1/graphql', { query: '{ doc(where: {id: {_eq: 2}}) { body } }' }, asUser)));
    for (const a of after) expect(a.body).toEqual({ data: { doc: [{ body: 'short' }] } });
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(crashes).toEqual([]);
  });
});
