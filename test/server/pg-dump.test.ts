// POST /v1alpha1/pg_dump through a real socket, running the real pg_dump against a test database:
// admin only, clean_output as Hasura cleans (and Kiln's capture triggers left out), the options
// that would write on the server or reach another database refused, pg_dump's own failure
// reported, and the API group switched off with SVC_GRAPHQL_ENABLED_APIS.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { droppedLine, refuseUnsafeOptions } from '../../runtime/server/pg-dump.js';
import { ApiError } from '../../runtime/errors/index.js';
import { serveCatalog, type CatalogServer } from '../helpers/catalog-server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const SECRET = 'dump-secret';

describe('POST /v1alpha1/pg_dump', () => {
  let db: TestDatabase;
  let server: CatalogServer;
  const dump = async (body: unknown, headers: Record<string, string> = { 'x-svc-admin-secret': SECRET }) => {
    const r = await fetch(`${server.url}/v1alpha1/pg_dump`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
  };

  beforeAll(async () => {
    db = await createTestDatabase('pgdump', `
      CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL);
      CREATE TABLE article (id serial PRIMARY KEY, author_id int NOT NULL REFERENCES author (id), title text NOT NULL);
      INSERT INTO author (name) VALUES ('ann');`);
    server = await serveCatalog(db.url, { adminSecret: SECRET });
    await server.ok('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'author' } },
      { type: 'pg_track_table', args: { table: 'article' } },
      // Its capture triggers are Kiln's own: a clean dump leaves them out.
      { type: 'pg_create_event_trigger', args: { name: 'article_changed', table: 'article', insert: { columns: '*' }, update: { columns: ['title'] }, webhook: 'http://127.0.0.1:9/unused' } },
    ] });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('answers a clean schema dump of the public schema as application/sql', async () => {
    const r = await dump({ opts: ['-O', '-x', '--schema-only', '--schema', 'public'], clean_output: true });
    expect([r.status, r.type]).toEqual([200, 'application/sql; charset=utf-8']);
    expect(r.text).toContain('CREATE TABLE public.author (\n    id integer NOT NULL,\n    name text NOT NULL\n);\n');
    expect(r.text).toContain('ADD CONSTRAINT article_author_id_fkey FOREIGN KEY (author_id) REFERENCES public.author(id);');
    const lines = r.text.split('\n').slice(0, -1);
    expect(lines.filter((l) => l.trim() === '' || l.startsWith('--') || l.startsWith('\\'))).toEqual([]);
    expect(lines).not.toContain('SET statement_timeout = 0;');
    expect(r.text).not.toContain('notify_svc_');
    // The same dump without clean_output keeps what pg_dump wrote, the capture triggers included.
    const raw = await dump({ opts: ['-O', '-x', '--schema-only', '--schema', 'public'] });
    expect(raw.status).toBe(200);
    expect(raw.text).toContain('-- PostgreSQL database dump');
    expect(raw.text).toMatch(/CREATE TRIGGER "notify_svc_article_changed_INSERT" AFTER INSERT ON public.article/);
  });

  it('dumps data when asked', async () => {
    const r = await dump({ opts: ['--data-only', '--inserts', '-t', 'public.author'], clean_output: true });
    expect(r.status).toBe(200);
    expect(r.text).toContain("INSERT INTO public.author VALUES (1, 'ann');");
  });

  it('is for admin only', async () => {
    const r = await dump({ opts: [] }, { 'x-svc-admin-secret': SECRET, 'x-svc-role': 'user' });
    expect([r.status, JSON.parse(r.text)]).toEqual([400, { path: '$', error: 'restricted access : admin only', code: 'access-denied' }]);
    expect((await dump({ opts: [] }, {})).status).toBe(401);
  });

  it('refuses options that write on the server or reach another database, and bad bodies', async () => {
    const refused = await dump({ opts: ['--schema-only', '-f', '/tmp/kiln-dump.sql'] });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({ path: '$.opts[1]', code: 'bad-request' });
    expect(JSON.parse((await dump({ opts: 'all' })).text)).toEqual({ path: '$.opts', error: 'parsing [] failed, expected Array, but encountered String', code: 'parse-failed' });
    expect(JSON.parse((await dump({ clean_output: true })).text)).toEqual({ path: '$', error: "the key 'opts' was not present", code: 'parse-failed' });
    expect(JSON.parse((await dump({ opts: [], source: 'other' })).text)).toEqual({ path: '$.source', error: 'source with name "other" does not exist', code: 'not-exists' });
  });

  it('reports pg_dump\'s own failure as a 500 with its words', async () => {
    const r = await dump({ opts: ['--no-such-option'] });
    expect(r.status).toBe(500);
    const body = JSON.parse(r.text) as { code: string; error: string };
    expect(body.code).toBe('unexpected');
    expect(body.error).toMatch(/^error while executing pg_dump: .*unrecognized option .--no-such-option./s);
  });

  it('is not served when SVC_GRAPHQL_ENABLED_APIS leaves pgdump out', async () => {
    const other = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 2,
      stringifyNumericTypes: false, console: false, enabledApis: 'graphql,metadata' });
    try {
      const r = await fetch(`http://127.0.0.1:${other.port}/v1alpha1/pg_dump`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"opts":[]}' });
      expect(r.status).toBe(404);
    } finally {
      await other.close();
    }
  });
});

describe('pg_dump options and clean output', () => {
  const refusedAt = (opts: string[]): number | null => {
    try {
      refuseUnsafeOptions(opts);
      return null;
    } catch (e) {
      return e instanceof ApiError ? (e.path[1] as number) : -1;
    }
  };

  it('refuses files, other databases and the directory format in every spelling pg_dump reads', () => {
    expect(refusedAt(['-f', 'x'])).toBe(0);
    expect(refusedAt(['-fx.sql'])).toBe(0);
    expect(refusedAt(['-O', '--file=x'])).toBe(1);
    expect(refusedAt(['--fil=x'])).toBe(0); // pg_dump takes an unambiguous prefix of a long option
    expect(refusedAt(['--host', 'elsewhere'])).toBe(0);
    expect(refusedAt(['-Udba'])).toBe(0);
    expect(refusedAt(['-Fd'])).toBe(0);
    expect(refusedAt(['-F', 'directory'])).toBe(0);
    expect(refusedAt(['--format=d'])).toBe(0);
    expect(refusedAt(['--form', 'dir'])).toBe(0);
    expect(refusedAt(['-j', '4'])).toBe(0);
    expect(refusedAt(['-O', '-x', '--schema-only', '--schema', 'public', '-Fc', '--format=plain', '-t', 'file', '--data-only'])).toBeNull();
    // After `--`, pg_dump reads no more options (a second database name is its own error).
    expect(refusedAt(['--', '-f'])).toBeNull();
  });

  it('drops what Hasura drops, psql\'s restrict lines and Kiln\'s capture triggers, and keeps the rest', () => {
    for (const line of ['', '   ', '-- Name: author; Type: TABLE', 'SET lock_timeout = 0;', "SELECT pg_catalog.set_config('search_path', '', false);",
      'CREATE SCHEMA public;', '\\restrict AbC123', '\\unrestrict AbC123',
      'CREATE TRIGGER "notify_svc_article_changed_INSERT" AFTER INSERT ON public.article FOR EACH ROW EXECUTE FUNCTION svc_catalog."notify_svc_article_changed_INSERT"();']) {
      expect([line, droppedLine(line)]).toEqual([line, true]);
    }
    for (const line of ['SET check_function_bodies = false;', 'CREATE TABLE public.author (', '    name text NOT NULL',
      'CREATE TRIGGER audit AFTER INSERT ON public.article FOR EACH ROW EXECUTE FUNCTION public.audit();']) {
      expect([line, droppedLine(line)]).toEqual([line, false]);
    }
  });
});
