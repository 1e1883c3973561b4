// Three runtimes on one catalog, measured: a metadata change made through any one of them is
// served by the other two within a second (LISTEN/NOTIFY), and a runtime whose listening
// connection is cut listens again and catches up on what it missed (runtime/start/catalog-listener.ts).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

interface Runtime {
  readonly port: number;
  close(): Promise<void>;
}

async function call(r: Runtime, path: string, body: unknown): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${r.port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.json();
}

const version = async (r: Runtime): Promise<number> => (await call(r, '/v1/metadata', { type: 'export_metadata', version: 2, args: {} })).resource_version;

/** Milliseconds until every runtime of `others` serves resource_version `v` (polled every 10 ms), or Infinity after `ms`. */
async function servedWithin(others: readonly Runtime[], v: number, start: number, ms: number): Promise<number> {
  const seen = await Promise.all(others.map(async (r) => {
    while (performance.now() - start < ms) {
      if (await version(r) >= v) return performance.now() - start;
      await new Promise((res) => setTimeout(res, 10));
    }
    return Infinity;
  }));
  return Math.max(...seen);
}

describe('three runtimes on one catalog', () => {
  let db: TestDatabase;
  const runtimes: Runtime[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('runtimes3', `
      CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL);
      CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, author_id int NOT NULL REFERENCES author (id));
      INSERT INTO author (name) VALUES ('ann'); INSERT INTO article (title, author_id) VALUES ('a1', 1);`);
    for (let i = 0; i < 3; i++) {
      runtimes.push(await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 3,
        stringifyNumericTypes: false, console: false }));
    }
  }, 60_000);
  afterAll(async () => {
    for (const r of runtimes) await r.close().catch(() => undefined);
    await db?.drop();
  });

  it('serves a change made on any runtime on the other two within 1 s', async () => {
    const changes = [
      { type: 'pg_track_table', args: { table: 'author' } },
      { type: 'pg_track_table', args: { table: 'article' } },
      { type: 'pg_create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
      { type: 'pg_create_select_permission', args: { table: 'article', role: 'reader', permission: { columns: ['title'], filter: {} } } },
      { type: 'pg_create_select_permission', args: { table: 'author', role: 'reader', permission: { columns: ['name'], filter: {} } } },
      { type: 'pg_set_table_customization', args: { table: 'author', configuration: { custom_name: 'writer' } } },
    ];
    const lags: number[] = [];
    for (const [i, change] of changes.entries()) {
      const on = runtimes[i % 3]!;
      const answer = await call(on, '/v1/metadata', change);
      expect(answer).toEqual({ message: 'success' });
      const start = performance.now();
      lags.push(await servedWithin(runtimes.filter((r) => r !== on), await version(on), start, 1000));
    }
    console.log(`metadata propagation to the other two runtimes, ms: ${lags.map((l) => l.toFixed(0)).join(', ')}`);
    expect(Math.max(...lags)).toBeLessThan(1000);
    // What is served is the new schema, not only the version number.
    for (const r of runtimes) {
      expect(await call(r, '/v1/graphql', { query: '{ article { title author { name } } writer { name } }' }))
        .toEqual({ data: { article: [{ title: 'a1', author: { name: 'ann' } }], writer: [{ name: 'ann' }] } });
    }
  }, 30_000);

  it('listens again after its connection is cut, catches up on a change made meanwhile, and then hears the next at once', async () => {
    const [a, b, c] = runtimes as [Runtime, Runtime, Runtime];
    const cut = await db.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`, [db.name]);
    expect(cut[0]!.n).toBe(3);
    expect(await call(a, '/v1/metadata', { type: 'pg_untrack_table', args: { table: { schema: 'public', name: 'article' }, cascade: true } })).toEqual({ message: 'success' });
    const v = await version(a);
    // Reconnected after 1 s, then caught up at once: well before the 5 s poll would.
    const start = performance.now();
    expect(await servedWithin([b, c], v, start, 4000)).toBeLessThan(4000);
    // Listening again: the next change arrives by notification.
    await new Promise((r) => setTimeout(r, 300));
    expect(await call(b, '/v1/metadata', { type: 'pg_track_table', args: { table: 'article' } })).toEqual({ message: 'success' });
    const next = performance.now();
    expect(await servedWithin([a, c], await version(b), next, 1000)).toBeLessThan(1000);
  }, 30_000);
});
