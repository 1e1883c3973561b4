// The metadata API end to end: `kiln serve --database-url` keeps its metadata in svc_catalog,
// changes are compiled on write and served at once, several instances on one database stay in
// step, a restart serves the same metadata, and a failed change leaves everything as it was.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const SECRET = 'catalog-test-secret';

interface Instance {
  readonly url: string;
  close(): Promise<void>;
  call(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  gql(query: string): Promise<any>;
}

async function start(db: TestDatabase): Promise<Instance> {
  const s = await serveCommand({
    databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', adminSecret: SECRET,
    pgConnections: 4, stringifyNumericTypes: false, console: false,
  });
  const url = `http://127.0.0.1:${s.port}`;
  const call = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET, ...headers },
    });
    return { status: res.status, body: await res.json() };
  };
  return {
    url, call, close: () => s.close(),
    gql: async (query) => (await call('/v1/graphql', { query })).body,
  };
}

const exportV2 = async (k: Instance) => (await k.call('/v1/metadata', { type: 'export_metadata', version: 2, args: {} })).body;

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const until = Date.now() + ms;
  let v = await fn();
  while (!ok(v) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    v = await fn();
  }
  return v;
}

describe('metadata catalog and API', () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    db = await createTestDatabase('catalog', `
      CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL);
      CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, author_id integer NOT NULL REFERENCES author (id));
      INSERT INTO author (name) VALUES ('ann'), ('bob');
      INSERT INTO article (title, author_id) VALUES ('a1', 1), ('a2', 1), ('b1', 2);`);
    a = await start(db);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await db?.drop();
  });

  it('creates svc_catalog on first start with resource_version 1 and an empty default source', async () => {
    const rows = await db.query<{ resource_version: number }>('SELECT resource_version FROM svc_catalog.hdb_metadata');
    expect(rows).toEqual([{ resource_version: 1 }]);
    const version = await db.query<{ version: string }>('SELECT version FROM svc_catalog.hdb_version');
    expect(version).toEqual([{ version: '1' }]);
    // As Hasura's catalog does: its projects' migrations call public.gen_random_uuid() (pgcrypto).
    expect(await db.query("SELECT extname FROM pg_extension WHERE extname = 'pgcrypto'")).toEqual([{ extname: 'pgcrypto' }]);
    expect(await db.query("SELECT public.gen_random_uuid()::text ~ '^[0-9a-f-]{36}$' AS ok")).toEqual([{ ok: true }]);
    const e = await exportV2(a);
    expect(e.resource_version).toBe(1);
    expect(e.metadata.sources.map((s: { name: string; tables: unknown[] }) => [s.name, s.tables.length])).toEqual([['default', 0]]);
  });

  it('serves a table as soon as it is tracked, and bumps resource_version by one per change', async () => {
    const r = await a.call('/v1/metadata', { type: 'pg_track_table', args: { table: 'author' } });
    expect(r).toEqual({ status: 200, body: { message: 'success' } });
    expect(await a.gql('{ author(order_by: {id: asc}) { name } }')).toEqual({ data: { author: [{ name: 'ann' }, { name: 'bob' }] } });
    expect((await exportV2(a)).resource_version).toBe(2);
    const stored = await db.query<{ resource_version: number }>('SELECT resource_version FROM svc_catalog.hdb_metadata');
    expect(stored[0]!.resource_version).toBe(2);
  });

  it('refuses the API to a non-admin role with access-denied and changes nothing', async () => {
    const r = await a.call('/v1/metadata', { type: 'pg_track_table', args: { table: 'article' } }, { 'x-svc-role': 'user' });
    expect(r).toEqual({ status: 400, body: { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' } });
    expect((await exportV2(a)).resource_version).toBe(2);
  });

  it('rolls a failed bulk back whole: nothing of it is stored or served', async () => {
    const before = await exportV2(a);
    const r = await a.call('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'article' } },
      { type: 'pg_track_table', args: { table: 'no_such_table' } },
    ] });
    expect(r.status).toBe(400);
    expect(r.body.path).toMatch(/^\$\.args\[1\]/);
    expect(await exportV2(a)).toEqual(before);
    const q = await a.gql('{ article { id } }');
    expect(q.errors?.[0]?.extensions?.code).toBe('validation-failed');
  });

  it('rolls back run_sql with its metadata change when the statement fails', async () => {
    const before = await exportV2(a);
    const r = await a.call('/v1/query', { type: 'bulk', args: [
      { type: 'run_sql', args: { sql: 'CREATE TABLE scratch (id int PRIMARY KEY)' } },
      { type: 'track_table', args: { table: 'scratch' } },
      { type: 'run_sql', args: { sql: 'SELECT no_such_column FROM author' } },
    ] });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('postgres-error');
    expect(await exportV2(a)).toEqual(before);
    expect(await db.query("SELECT to_regclass('public.scratch') AS t")).toEqual([{ t: null }]);
  });

  it('answers 409 conflict for a stale resource_version, naming the version sent', async () => {
    const r = await a.call('/v1/metadata', { type: 'pg_track_table', resource_version: 1, args: { table: 'article' } });
    expect(r).toEqual({ status: 409, body: { path: '$', error: 'metadata resource version referenced (1) did not match current version', code: 'conflict' } });
  });

  it('brings a second instance in step within a second of a change made through the first', async () => {
    b = await start(db);
    expect((await exportV2(b)).resource_version).toBe((await exportV2(a)).resource_version);
    await a.call('/v1/metadata', { type: 'pg_track_table', args: { table: 'article' } });
    const seen = await eventually(() => b.gql('{ article(order_by: {id: asc}) { title } }'), (v) => v.data !== undefined, 1000);
    expect(seen).toEqual({ data: { article: [{ title: 'a1' }, { title: 'a2' }, { title: 'b1' }] } });
  });

  it('lets exactly one of two concurrent replace_metadata calls with the same resource_version win', async () => {
    const current = await exportV2(a);
    const doc = current.metadata;
    const send = (k: Instance) => k.call('/v1/metadata', {
      type: 'replace_metadata', version: 2, resource_version: current.resource_version, args: { metadata: doc },
    });
    const results = await Promise.all([send(a), send(b), send(a), send(b)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    // The loser's instance learns of the winner's change from the notification.
    for (const k of [a, b]) {
      const seen = await eventually(() => exportV2(k), (e) => e.resource_version === current.resource_version + 1, 1000);
      expect(seen.resource_version).toBe(current.resource_version + 1);
    }
  });

  it('refuses inconsistent metadata in replace_metadata unless allowed, and reports it when allowed', async () => {
    const before = await exportV2(a);
    const bad = structuredClone(before.metadata);
    bad.sources[0].tables.push({ table: { schema: 'public', name: 'ghost' } });
    const refused = await a.call('/v1/metadata', { type: 'replace_metadata', version: 2, args: { metadata: bad } });
    expect(refused.status).toBe(400);
    expect(refused.body.internal.map((o: { type: string }) => o.type)).toEqual(['table']);
    expect(await exportV2(a)).toEqual(before);
    const allowed = await a.call('/v1/metadata', { type: 'replace_metadata', version: 2, args: { metadata: bad, allow_inconsistent_metadata: true } });
    expect(allowed.status).toBe(200);
    expect(allowed.body.is_consistent).toBe(false);
    const inc = await a.call('/v1/metadata', { type: 'get_inconsistent_metadata', args: {} });
    expect(inc.body.is_consistent).toBe(false);
    expect(inc.body.inconsistent_objects).toHaveLength(1);
    expect((await fetch(`${a.url}/healthz`).then((r) => r.text()))).toMatch(/^WARN/);
    expect((await a.call('/v1/metadata', { type: 'drop_inconsistent_metadata', args: {} })).status).toBe(200);
    expect((await a.call('/v1/metadata', { type: 'get_inconsistent_metadata', args: {} })).body).toEqual({ is_consistent: true, inconsistent_objects: [] });
    // What was consistent kept serving throughout.
    expect((await a.gql('{ author(limit: 1) { name } }')).data).toBeDefined();
  });

  it('serves the same metadata after a restart', async () => {
    const before = await exportV2(a);
    await b.close();
    b = await start(db);
    expect(await exportV2(b)).toEqual(before);
    expect(await b.gql('{ article(where: {id: {_eq: 3}}) { title } }')).toEqual({ data: { article: [{ title: 'b1' }] } });
  });

  it('keeps the catalog layout version and refuses a newer one with a clear message', async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      await c.query("UPDATE svc_catalog.hdb_version SET version = '99'");
      await expect(start(db)).rejects.toThrow(/unsupported catalog version 99/);
    } finally {
      await c.query("UPDATE svc_catalog.hdb_version SET version = '1'");
      await c.end();
    }
  });
});
