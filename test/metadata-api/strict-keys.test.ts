// Unknown keys through the metadata API (a real server on a real socket) and through `kiln
// compile`: refused with their JSON path and a "did you mean" hint, and nothing changes.

import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { ensureBuilt, kiln } from '../cli/cli-helpers.js';
import { postJson } from '../helpers/http.js';

let db: TestDatabase;
let server: { port: number; close(): Promise<void> };
let tmp: string;

const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => postJson(`http://127.0.0.1:${server.port}`, path, body);
const exported = async () => (await post('/v1/metadata', { type: 'export_metadata', version: 2, args: {} })).body;

const SOURCE = { name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: { from_env: 'SVC_GRAPHQL_DATABASE_URL' } } } };
const AUTHOR = { table: { schema: 'public', name: 'author' }, select_permissions: [{ role: 'user', permission: { columns: ['id'], filter: {} } }] };
const doc = (source: object) => ({ version: 3, sources: [{ ...SOURCE, ...source }] });

beforeAll(async () => {
  await ensureBuilt();
  db = await createTestDatabase('strict_keys', 'CREATE TABLE author (id serial PRIMARY KEY, name text)');
  process.env['SVC_GRAPHQL_DATABASE_URL'] = db.url;
  server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 2, stringifyNumericTypes: false, console: false });
  tmp = await mkdtemp(join(tmpdir(), 'kiln-strict-'));
  const ok = await post('/v1/metadata', { type: 'replace_metadata', version: 2, args: { metadata: doc({ tables: [AUTHOR] }) } });
  expect(ok.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await db?.drop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the metadata API refuses unknown keys and changes nothing', () => {
  it.each([
    ['sources[0].tabels', doc({ tabels: [] }), '$.args.metadata.sources[0].tabels', 'tables'],
    ['a table entry', doc({ tables: [{ ...AUTHOR, selct_permissions: [] }] }), '$.args.metadata.sources[0].tables[0].selct_permissions', 'select_permissions'],
    ['a permission body', doc({ tables: [{ table: AUTHOR.table, select_permissions: [{ role: 'user', permission: { columns: ['id'], filtr: {} } }] }] }),
      '$.args.metadata.sources[0].tables[0].select_permissions[0].permission.filtr', 'filter'],
    ['the top', { ...doc({ tables: [] }), remote_schemes: [] }, '$.args.metadata.remote_schemes', 'remote_schemas'],
  ])('replace_metadata with a slip in %s', async (_what, metadata, path, hint) => {
    const before = await exported();
    const r = await post('/v1/metadata', { type: 'replace_metadata', version: 2, args: { metadata } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('parse-failed');
    expect(r.body.path).toBe(path);
    expect(r.body.error).toContain(`did you mean "${hint}"?`);
    expect(await exported()).toEqual(before);
  });

  it('in replace_metadata\'s own args, unwrapped documents, and other operations\' args', async () => {
    const before = await exported();
    const wrapped = await post('/v1/metadata', { type: 'replace_metadata', version: 2, args: { metadata: doc({ tables: [] }), allow_inconsistent: true } });
    expect(wrapped.body).toMatchObject({ code: 'parse-failed', path: '$.args.allow_inconsistent', error: expect.stringContaining('did you mean "allow_inconsistent_metadata"?') });
    const bare = await post('/v1/metadata', { type: 'replace_metadata', args: { ...doc({ tables: [] }), sources: [{ ...SOURCE, tabels: [] }] } });
    expect(bare.body).toMatchObject({ code: 'parse-failed', path: '$.args.sources[0].tabels' });
    const perm = await post('/v1/metadata', { type: 'pg_create_select_permission', args: { table: 'author', role: 'guest', permision: { columns: ['id'], filter: {} } } });
    expect(perm.body).toMatchObject({ code: 'parse-failed', path: '$.args.permision', error: expect.stringContaining('did you mean "permission"?') });
    const nested = await post('/v1/metadata', { type: 'pg_create_select_permission', args: { table: 'author', role: 'guest', permission: { columns: ['id'], filter: {}, limt: 3 } } });
    expect(nested.body).toMatchObject({ code: 'parse-failed', path: '$.args.permission.limt', error: expect.stringContaining('did you mean "limit"?') });
    const track = await post('/v1/metadata', { type: 'pg_track_table', args: { table: 'author', configuration: { custom_nmae: 'Writer' } } });
    expect(track.body).toMatchObject({ code: 'parse-failed', path: '$.args.configuration.custom_nmae' });
    const sql = await post('/v2/query', { type: 'run_sql', args: { sql: 'SELECT 1', read_onyl: true } });
    expect(sql.body).toMatchObject({ code: 'parse-failed', path: '$.args.read_onyl', error: expect.stringContaining('did you mean "read_only"?') });
    const inBulk = await post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_create_select_permission', args: { table: 'author', role: 'guest', permission: { columns: ['id'], filter: {} } } },
      { type: 'reload_metadata', args: { reload_source: true } },
    ] });
    expect(inBulk.body).toMatchObject({ code: 'parse-failed', path: '$.args[1].args.reload_source' });
    // /v1/query reports argument parse errors relative to args, as Hasura does.
    const query = await post('/v1/query', { type: 'create_select_permission', args: { table: 'author', role: 'guest', permision: {} } });
    expect(query.body).toMatchObject({ code: 'parse-failed', path: '$.permision' });
    expect(await exported()).toEqual(before);
  });

  it('a key Hasura takes and Kiln does not implement is refused as not implemented', async () => {
    const before = await exported();
    const r = await post('/v1/metadata', { type: 'pg_create_insert_permission', args: { table: 'author', role: 'user', permission: { check: {}, columns: ['name'], validate_input: { type: 'http', definition: { url: 'http://127.0.0.1:1' } } } } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'not-supported', path: '$.args.permission.validate_input', error: expect.stringContaining('not implemented by Kiln') });
    const replicas = await post('/v1/metadata', { type: 'replace_metadata', version: 2, args: { metadata: doc({ configuration: { ...SOURCE.configuration, connection_set: [] } }) } });
    expect(replicas.body).toMatchObject({ code: 'not-supported', path: '$.args.metadata.sources[0].configuration.connection_set' });
    expect(await exported()).toEqual(before);
  });

  it('keeps query_tags and the other keys Hasura exports', async () => {
    const md = doc({ tables: [AUTHOR], query_tags: { disabled: true }, customization: { naming_convention: 'hasura-default' } });
    const r = await post('/v1/metadata', { type: 'replace_metadata', version: 2, args: { metadata: md, allow_inconsistent_metadata: false } });
    expect(r.status).toBe(200);
    expect((await exported()).metadata.sources[0].query_tags).toEqual({ disabled: true });
  });
});

describe('the metadata API refuses a name declared twice and changes nothing', () => {
  it('replace_metadata with one collection twice in the allow-list (Hasura\'s parseListAsMap)', async () => {
    const before = await exported();
    const collection = { name: 'c1', definition: { queries: [{ name: 'q', query: 'query q { author { id } }' }] } };
    const metadata = { ...doc({ tables: [AUTHOR] }), query_collections: [collection], allowlist: [{ collection: 'c1' }, { collection: 'c1', scope: { global: true } }] };
    const r = await post('/v1/metadata', { type: 'replace_metadata', version: 2, args: { metadata } });
    expect([r.status, r.body]).toEqual([400, { path: '$.args.metadata', error: 'multiple declarations exist for the following allowlist entries: c1', code: 'parse-failed' }]);
    expect(await exported()).toEqual(before);
  });
});

describe('kiln compile refuses unknown keys in files and directories', () => {
  it('a JSON file with a slip at depth: exit 2, the path and the hint, no bundle', async () => {
    const file = join(tmp, 'slip.json');
    await writeFile(file, JSON.stringify({ version: 3, sources: [{ ...SOURCE, configuration: { connection_info: { database_url: db.url } }, tables: [{ table: 'author', object_relationships: [{ name: 'x', using: { foreign_key_constraint_on: 'id' }, commnet: '' }] }] }] }));
    const out = join(tmp, 'out1');
    const r = await kiln(['compile', '--metadata', file, '--database-url', db.url, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('$.sources[0].tables[0].object_relationships[0].commnet: unknown key "commnet" in a relationship; did you mean "comment"?');
    expect(existsSync(out)).toBe(false);
  });

  it('the misspelt tables of the issue: exit 2 instead of an empty bundle', async () => {
    const file = join(tmp, 'tabels.json');
    await writeFile(file, JSON.stringify({ version: 3, sources: [{ ...SOURCE, tabels: [AUTHOR] }] }));
    const r = await kiln(['compile', '--metadata', file, '--database-url', db.url, '--out', join(tmp, 'out2')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\$\.sources\[0\]\.tabels: unknown key "tabels" in a source; did you mean "tables"\?.*\(parse-failed\)/);
  });

  it('a metadata directory: the path inside the document and the file it came from', async () => {
    const dir = join(tmp, 'md');
    await mkdir(join(dir, 'databases', 'default', 'tables'), { recursive: true });
    await writeFile(join(dir, 'version.yaml'), 'version: 3\n');
    await writeFile(join(dir, 'databases', 'databases.yaml'), `- name: default\n  kind: postgres\n  configuration:\n    connection_info:\n      database_url: ${db.url}\n  tables: "!include default/tables/tables.yaml"\n`);
    await writeFile(join(dir, 'databases', 'default', 'tables', 'tables.yaml'), '- "!include public_author.yaml"\n');
    await writeFile(join(dir, 'databases', 'default', 'tables', 'public_author.yaml'), 'table:\n  schema: public\n  name: author\nis_enun: false\n');
    const r = await kiln(['compile', '--metadata', dir, '--database-url', db.url, '--out', join(tmp, 'out3')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\$\.sources\[0\]\.tables\[0\]\.is_enun: unknown key "is_enun" in a table entry; did you mean "is_enum"\?.*public_author\.yaml/);
  });
});
