// `kiln import-hasura` and `kiln migrate` on Hasura CLI projects made for these tests
// (test/fixtures/hasura-v3: config v3, per-database layout with !include, folder migrations;
// test/fixtures/hasura-v2: config v2, tables.yaml, flat and folder migrations, a YAML migration),
// then the imported project compiled and served by Kiln with the renamed session variables.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { ensureBuilt, freePort, kiln, post, ROOT, serve } from './cli-helpers.js';

const V3 = join(ROOT, 'test', 'fixtures', 'hasura-v3');
const V2 = join(ROOT, 'test', 'fixtures', 'hasura-v2');
let tmp: string;
const dbs: TestDatabase[] = [];

async function database(prefix: string): Promise<TestDatabase> {
  const db = await createTestDatabase(prefix);
  dbs.push(db);
  return db;
}

// Every file under `dir` with its text, for looking at what the import wrote.
function textsUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(path.slice(dir.length + 1), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  await ensureBuilt();
  tmp = await mkdtemp(join(tmpdir(), 'kiln-import-hasura-'));
}, 120_000);

afterAll(async () => {
  for (const db of dbs) await db.drop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('a config v3 project', () => {
  let out: string;
  let db: TestDatabase;

  beforeAll(async () => {
    out = join(tmp, 'v3');
    db = await database('imp_v3');
  });

  it('imports with every vendor word renamed, the renames counted and the unknown file reported', async () => {
    const r = await kiln(['import-hasura', V3, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('imported a config v3 project: 2 table(s)');
    expect(r.stdout).toContain('migrations into');
    expect(r.stdout).toMatch(/default 2\n/);
    // 4 session variables in author's permissions and 3 in article's; the event trigger's and the
    // cron trigger's header names; from_env, webhook_from_env, two value_from_env and the cron URL
    // template in the metadata plus three variable names in .env; three claims-map keys in .env.
    expect(r.stdout).toContain('  permission session variable: 7\n');
    expect(r.stdout).toContain('  header: 2\n');
    expect(r.stdout).toContain('  environment reference: 8\n');
    expect(r.stdout).toContain('  session variable in .env (claims maps, settings): 3\n');
    expect(r.stdout).toContain('metadata file NOTES.txt: not part of the metadata layout Kiln reads');
    expect(r.stdout).toContain("default/1700000000100_seed/up.sql:6: hasura.user (Kiln sets the session as 'svc.user')");

    const files = textsUnder(join(out, 'metadata'));
    for (const [file, text] of files) expect(text, file).not.toMatch(/x-hasura-|HASURA_GRAPHQL_/i);
    const author = files.get('databases/default/tables/public_author.yaml')!;
    // Case kept as written: X-Hasura-User-Id, x-hasura-User-Id, X-HASURA-USER-ID.
    expect(author).toContain('_eq: X-Svc-User-Id');
    expect(author).toContain('id: x-svc-User-Id');
    expect(author).toContain('_eq: X-SVC-USER-ID');
    expect(files.get('databases/databases.yaml')).toContain('from_env: SVC_GRAPHQL_DATABASE_URL');
    expect(files.get('databases/default/tables/public_article.yaml')).toMatch(/name: X-Svc-Event-Secret\n\s+value_from_env: SVC_GRAPHQL_EVENT_SECRET/);
    expect(files.get('cron_triggers.yaml')).toContain('"{{SVC_GRAPHQL_DIGEST_URL}}/digest"');
    expect(files.has('NOTES.txt')).toBe(false);
    const env = readFileSync(join(out, '.env'), 'utf8');
    expect(env).toContain('SVC_GRAPHQL_UNAUTHORIZED_ROLE=anonymous');
    expect(env).toContain('"x-svc-allowed-roles":["user"]');
    // Migration SQL is copied byte for byte.
    expect(readFileSync(join(out, 'migrations', 'default', '1700000000100_seed', 'up.sql'), 'utf8'))
      .toBe(readFileSync(join(V3, 'migrations', 'default', '1700000000100_seed', 'up.sql'), 'utf8'));
    // A second import into the same folder is refused: its old files would pass for the project's.
    const again = await kiln(['import-hasura', V3, '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`kiln: ${join(out, 'metadata')} already exists and is not empty: import into a new folder`);
  });

  it('migrate apply runs the migrations once, in order, with pgcrypto for public.gen_random_uuid()', async () => {
    const first = await kiln(['migrate', 'apply', '--project', out, '--database-url', db.url]);
    expect(first.stderr).toBe('applied 1700000000000_init\napplied 1700000000100_seed\napplied 2 migration(s)\n');
    expect(first.code).toBe(0);
    const again = await kiln(['migrate', 'apply', '--project', out, '--database-url', db.url]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('nothing to apply: the database is up to date\n');
    expect(await db.query('SELECT version::text, dirty FROM svc_catalog.schema_migrations ORDER BY version'))
      .toEqual([{ version: '1700000000000', dirty: false }, { version: '1700000000100', dirty: false }]);
    expect(await db.query('SELECT count(*)::int AS n FROM public.article')).toEqual([{ n: 3 }]);
    const tokens = await db.query<{ token: string }>('SELECT token::text FROM public.article');
    expect(new Set(tokens.map((t) => t.token)).size).toBe(3);
    const status = await kiln(['migrate', 'status', '--project', out, '--database-url', db.url]);
    expect(status.code).toBe(0);
    expect(status.stdout).toBe('VERSION        NAME  STATUS\n1700000000000  init  applied\n1700000000100  seed  applied\n');
  });

  it('compiles against the migrated database and serves the renamed session variables', async () => {
    const bundle = join(out, 'bundle');
    const c = await kiln(['compile', '--quiet', '--metadata', join(out, 'metadata'), '--database-url', db.url, '--out', bundle]);
    expect(c.stderr).toBe('');
    expect(c.code).toBe(0);
    const port = await freePort();
    const server = await serve(['--metadata', join(out, 'metadata'), '--port', String(port), '--host', '127.0.0.1', '--no-console'],
      { env: { SVC_GRAPHQL_DATABASE_URL: db.url }, readyMs: 60_000 });
    try {
      const query = { query: '{ article(order_by: {id: asc}) { title author { name } } author { name } }' };
      const ada = await post(server.base, query, { 'X-Svc-Role': 'user', 'X-Svc-User-Id': '1' });
      expect(ada.body).toEqual({ data: {
        article: [{ title: 'Ada draft', author: { name: 'Ada' } }, { title: 'Ada post', author: { name: 'Ada' } }],
        author: [{ name: 'Ada' }],
      } });
      const brian = await post(server.base, query, { 'x-svc-role': 'user', 'x-svc-user-id': '2' });
      expect(brian.body.data.article.map((a: { title: string }) => a.title)).toEqual(['Ada post', 'Brian draft']);
      expect(brian.body.data.author).toEqual([{ name: 'Brian' }]);
      // The preset from `set: {author_id: x-svc-user-id}` fills the author from the header.
      const insert = await post(server.base, { query: 'mutation { insert_article_one(object: {title: "Brian again"}) { title } }' },
        { 'X-Svc-Role': 'user', 'X-Svc-User-Id': '2' });
      expect(insert.body).toEqual({ data: { insert_article_one: { title: 'Brian again' } } });
      expect(await db.query("SELECT author_id FROM public.article WHERE title = 'Brian again'")).toEqual([{ author_id: 2 }]);
    } finally {
      await server.stop();
    }
  }, 90_000);
});

describe('a config v2 project', () => {
  it('imports tables.yaml as the default source and flat migrations as folders, reports the YAML migration, and compiles', async () => {
    const out = join(tmp, 'v2');
    const db = await database('imp_v2');
    const r = await kiln(['import-hasura', V2, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('imported a config v2 project: 1 table(s)');
    expect(r.stdout).toContain('  permission session variable: 2\n');
    expect(r.stdout).toContain('  header: 1\n');
    expect(r.stdout).toContain('  environment reference: 2\n');
    expect(r.stdout).toMatch(/migration 1600000000001 \(default\): .*1600000000001_track\.up\.yaml holds metadata API calls/);
    expect(readdirSync(join(out, 'migrations', 'default')).sort()).toEqual(['1600000000000_init', '1600000000002_add_note']);
    expect(readdirSync(join(out, 'migrations', 'default', '1600000000000_init')).sort()).toEqual(['down.sql', 'up.sql']);
    expect(readFileSync(join(out, 'metadata', 'databases', 'default', 'tables', 'public_todo.yaml'), 'utf8')).toContain('_eq: X-Svc-User-Id');
    const m = await kiln(['migrate', 'apply', '--project', out, '--database-url', db.url]);
    expect(m.code).toBe(0);
    expect(await db.query('SELECT note FROM public.todo ORDER BY title')).toEqual([{ note: '' }, { note: '' }]);
    const c = await kiln(['compile', '--quiet', '--metadata', join(out, 'metadata'), '--database-url', db.url, '--out', join(out, 'bundle')]);
    expect(c.stderr).toBe('');
    expect(c.code).toBe(0);
  }, 60_000);
});

describe('kiln migrate', () => {
  it('stops at a failing migration with its version and the database error, keeping the earlier ones', async () => {
    const project = join(tmp, 'failing');
    const db = await database('imp_fail');
    const dir = join(project, 'migrations', 'default');
    const write = async (name: string, sql: string): Promise<void> => {
      await mkdir(join(dir, name), { recursive: true });
      await writeFile(join(dir, name, 'up.sql'), sql);
    };
    await write('10_first', 'CREATE TABLE first (id int);');
    await write('20_second', 'CREATE TABLE second (id int);\nINSERT INTO missing VALUES (1);');
    await write('30_third', 'CREATE TABLE third (id int);');
    const r = await kiln(['migrate', 'apply', '--project', project, '--database-url', db.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('kiln: migration 20_second failed: relation "missing" does not exist (SQLSTATE 42P01)');
    expect(r.stderr).toContain('1 migration(s) before it were applied and stay applied');
    expect(await db.query("SELECT to_regclass('first') IS NOT NULL AS first, to_regclass('second') IS NOT NULL AS second, to_regclass('third') IS NOT NULL AS third"))
      .toEqual([{ first: true, second: false, third: false }]);
    const status = await kiln(['migrate', 'status', '--project', project, '--database-url', db.url]);
    expect(status.stdout).toBe('VERSION  NAME    STATUS\n10       first   applied\n20       second  not applied\n30       third   not applied\n');
    // Fixed, it goes on from there.
    await write('20_second', 'CREATE TABLE second (id int);');
    const fixed = await kiln(['migrate', 'apply', '--project', project, '--database-url', db.url]);
    expect(fixed.code).toBe(0);
    expect(fixed.stderr).toBe('applied 20_second\napplied 30_third\napplied 2 migration(s)\n');
  }, 60_000);
});

describe('kiln migrate apply --skip-execution', () => {
  it('records versions without running them (a schema already there), then runs the rest', async () => {
    const project = join(tmp, 'existing');
    const db = await database('imp_skip');
    const dir = join(project, 'migrations', 'default');
    for (const [name, sql] of [['1_users', 'CREATE TABLE users (id int);'], ['2_posts', 'CREATE TABLE posts (id int);']]) {
      await mkdir(join(dir, name!), { recursive: true });
      await writeFile(join(dir, name!, 'up.sql'), sql!);
    }
    // The database Hasura migrated already has users.
    await db.exec('CREATE TABLE users (id int)');
    const skip = await kiln(['migrate', 'apply', '--project', project, '--database-url', db.url, '--skip-execution', '--only-version', '1']);
    expect(skip.stderr).toBe('recorded (not run) 1_users\nrecorded 1 migration(s)\n');
    expect(skip.code).toBe(0);
    const rest = await kiln(['migrate', 'apply', '--project', project, '--database-url', db.url]);
    expect(rest.stderr).toBe('applied 2_posts\napplied 1 migration(s)\n');
    expect(await db.query("SELECT to_regclass('posts') IS NOT NULL AS posts")).toEqual([{ posts: true }]);
    const missing = await kiln(['migrate', 'apply', '--project', project, '--database-url', db.url, '--only-version', '3']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no migration has version 3');
  }, 60_000);
});

describe('bad input (exit 2, nothing written)', () => {
  it('refuses a folder without config.yaml, a missing folder and a version 1 config', async () => {
    const noConfig = join(tmp, 'no-config');
    await cp(join(V2, 'metadata'), join(noConfig, 'metadata'), { recursive: true });
    const out = join(tmp, 'bad-out');
    const a = await kiln(['import-hasura', noConfig, '--out', out]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain(`kiln: ${join(noConfig, 'config.yaml')} not found: ${noConfig} is not a Hasura CLI project`);
    const b = await kiln(['import-hasura', join(tmp, 'nowhere'), '--out', out]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('is not a directory (expected a Hasura CLI project)');
    await writeFile(join(noConfig, 'config.yaml'), 'endpoint: http://localhost:8080\n');
    const c = await kiln(['import-hasura', noConfig, '--out', out]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('config version 1 is not supported (expected 2 or 3');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses broken metadata YAML, naming the file', async () => {
    const project = join(tmp, 'broken');
    await cp(V2, project, { recursive: true });
    await writeFile(join(project, 'metadata', 'tables.yaml'), '- table: [unclosed\n');
    const out = join(tmp, 'broken-out');
    const r = await kiln(['import-hasura', project, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot read the metadata in ${join(project, 'metadata')}`);
    expect(r.stderr).toContain('tables.yaml');
    expect(existsSync(out)).toBe(false);
  });

  it('migrate: no migrations folder, no database URL, an unknown database name', async () => {
    const a = await kiln(['migrate', 'apply', '--project', join(tmp, 'nowhere'), '--database-url', 'postgres://127.0.0.1:1/x']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('migrations not found: --project names a folder holding migrations/');
    const b = await kiln(['migrate', 'status', '--project', join(tmp, 'failing')]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('migrate needs --database-url URL');
    const c = await kiln(['migrate', 'apply', '--project', join(tmp, 'failing'), '--database-url', 'postgres://127.0.0.1:1/x', '--database-name', 'other']);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('no migrations for database "other"');
    expect(c.stderr).toContain('(found: default; pass --database-name)');
  });
});
