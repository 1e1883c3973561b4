// Remote schemas in a compiled bundle (issue 17): `kiln compile` stores each remote's schema as it
// introspects it, with the definitions (never an environment value); `kiln serve --bundle` serves
// the same remote root fields, remote relationships and role permissions as the catalog server,
// with no introspection at start. A remote that cannot be read stops the compile with its reason.

import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCommand } from '../../compiler/cli/compile.js';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { metadataOf, ROOT, SDL } from './bundle-fixture.js';
import { startRemote, type RemoteServer } from './remote-server.js';

type Server = { port: number; close(): Promise<void> };
const settings = { dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false };

describe('remote schemas in a compiled bundle', () => {
  let db: TestDatabase;
  let other: TestDatabase;
  let remote: RemoteServer;
  let dir: string;
  let bundleDir: string;
  let metadataFile: string;
  let catalog: Server;
  let bundled: Server;
  let inProcess: Server;
  const saved = { perms: process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS, token: process.env.KILN_RBUNDLE_TOKEN };
  const gql = (s: Server, query: string, headers: Record<string, string> = {}) =>
    postJson(`http://127.0.0.1:${s.port}`, '/v1/graphql', { query }, headers);

  beforeAll(async () => {
    process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS = 'true';
    db = await createTestDatabase('remotebundle', `CREATE TABLE users (id int PRIMARY KEY, name text);
      INSERT INTO users VALUES (1, 'ann'), (2, 'bob'), (3, 'cy');`);
    process.env.KILN_RBUNDLE_DB = db.url;
    other = await createTestDatabase('remotebundle_other', `CREATE TABLE badges (id serial PRIMARY KEY, user_id int, label text, secret boolean DEFAULT false);
      INSERT INTO badges (user_id, label, secret) VALUES (1, 'gold', false), (1, 'silver', true), (2, 'bronze', false);`);
    process.env.KILN_RBUNDLE_OTHER = other.url;
    remote = await startRemote(SDL, ROOT);
    dir = await mkdtemp(join(tmpdir(), 'kiln-remotebundle-'));
    metadataFile = join(dir, 'metadata.json');
    await writeFile(metadataFile, JSON.stringify(metadataOf(remote.url, true)));
    bundleDir = join(dir, 'bundle');
    // Compiled with one token in the environment, served with another: the bundle names the variable only.
    process.env.KILN_RBUNDLE_TOKEN = 'token-at-compile';
    await compileCommand({ metadata: metadataFile, databaseUrl: db.url, out: bundleDir, quiet: true });
    process.env.KILN_RBUNDLE_TOKEN = 'token-at-run';
    catalog = await serveCommand({ ...settings, databaseUrl: db.url });
    const replaced = await postJson(`http://127.0.0.1:${catalog.port}`, '/v1/metadata', { type: 'replace_metadata', args: metadataOf(remote.url, true) });
    expect(replaced).toEqual({ status: 200, body: { message: 'success' } });
    bundled = await serveCommand({ ...settings, bundle: bundleDir });
    inProcess = await serveCommand({ ...settings, databaseUrl: db.url, metadata: metadataFile });
  });
  afterAll(async () => {
    for (const [k, v] of [['SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS', saved.perms], ['KILN_RBUNDLE_TOKEN', saved.token]] as const) {
      if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
    await catalog?.close();
    await bundled?.close();
    await inProcess?.close();
    await remote?.close();
    await db?.drop();
    await other?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('stores the remote schema as introspected, with its hash in manifest.json, and no environment value', async () => {
    const manifest = JSON.parse(await readFile(join(bundleDir, 'manifest.json'), 'utf8')) as {
      remoteSchemas: Record<string, { file: string; sha256: string }>; files: Record<string, string> };
    expect(Object.keys(manifest.remoteSchemas)).toEqual(['forum']);
    expect(manifest.remoteSchemas['forum']!.file).toBe('remote/forum.graphql');
    expect(manifest.files['remote/forum.graphql']).toBe(manifest.remoteSchemas['forum']!.sha256);
    const sdl = await readFile(join(bundleDir, 'remote/forum.graphql'), 'utf8');
    expect(sdl).toContain('messages(user_id: Int!, limit: Int): [Message!]!');
    expect(sdl).toContain('token: String');
    const engine = await readFile(join(bundleDir, 'engine.mjs'), 'utf8');
    expect(engine).toContain('KILN_RBUNDLE_TOKEN');
    for (const f of [...await readdir(bundleDir, { recursive: true })]) {
      const text = await readFile(join(bundleDir, f), 'utf8').catch(() => '');
      expect(text.includes('token-at-compile'), f).toBe(false);
    }
  });

  const cases: readonly { name: string; query: string; headers?: Record<string, string>; expected: unknown }[] = [
    { name: 'admin: a table with a remote relationship (customized names), a remote root field, the header read at run time',
      query: '{ users(order_by: {id: asc}) { id name messages(limit: 1) { __typename id body } } token }',
      expected: { data: {
        users: [
          { id: 1, name: 'ann', messages: [{ __typename: 'F_Message', id: 1, body: 'hi' }] },
          { id: 2, name: 'bob', messages: [{ __typename: 'F_Message', id: 3, body: 'yo' }] },
          { id: 3, name: 'cy', messages: [] },
        ],
        token: 'token-at-run',
      } } },
    { name: 'user: the row filter, the relationship, and a @preset argument from the session',
      query: '{ users { id messages { body } } me { __typename id bio } }', headers: { 'x-svc-role': 'user', 'x-svc-user-id': '1' },
      expected: { data: { users: [{ id: 1, messages: [{ body: 'hi' }, { body: 'again' }] }], me: { __typename: 'F_Profile', id: 1, bio: 'bio of 1' } } } },
    { name: 'user: a relationship to a table of another source, with the target\'s permissions for the role',
      query: '{ users(order_by: {id: asc}) { id badges(order_by: {label: asc}) { label } } }', headers: { 'x-svc-role': 'user', 'x-svc-user-id': '1' },
      expected: { data: { users: [{ id: 1, badges: [{ label: 'gold' }] }] } } },
    { name: 'admin: a relationship to a table of another source',
      query: '{ users(order_by: {id: asc}) { id badges(order_by: {id: asc}) { label } } }',
      expected: { data: { users: [{ id: 1, badges: [{ label: 'gold' }, { label: 'silver' }] }, { id: 2, badges: [{ label: 'bronze' }] }, { id: 3, badges: [] }] } } },
    { name: 'user: a remote field outside the role\'s permission is not in its schema',
      query: '{ token }', headers: { 'x-svc-role': 'user', 'x-svc-user-id': '1' },
      expected: { errors: [{ message: 'field "token" not found in type: \'query_root\'', extensions: { path: '$.selectionSet.token', code: 'validation-failed' } }] } },
    { name: 'user: the preset argument is hidden',
      query: '{ me(id: 2) { id } }', headers: { 'x-svc-role': 'user', 'x-svc-user-id': '1' },
      expected: { errors: [{ message: '"me" has no argument named "id"', extensions: { path: '$.selectionSet.me', code: 'validation-failed' } }] } },
    { name: 'user: the root fields of the role\'s schema',
      query: '{ __schema { queryType { fields { name args { name } } } } }', headers: { 'x-svc-role': 'user', 'x-svc-user-id': '1' },
      expected: null },
    { name: 'admin: the remote types with their customized names',
      query: '{ __type(name: "F_Message") { name fields { name type { name ofType { name } } } } }',
      expected: { data: { __type: { name: 'F_Message', fields: [
        { name: 'id', type: { name: null, ofType: { name: 'Int' } } }, { name: 'body', type: { name: null, ofType: { name: 'String' } } }] } } } },
  ];

  for (const c of cases) {
    it(`answers as the catalog server does: ${c.name}`, async () => {
      const want = await gql(catalog, c.query, c.headers);
      if (c.expected !== null) expect(want.body).toEqual(c.expected);
      else {
        // The role's root fields: its table roots and the permitted remote fields, `me` without its preset argument.
        const fields = (want.body.data.__schema.queryType.fields as { name: string; args: { name: string }[] }[]);
        expect(fields.map((f) => f.name)).toEqual(expect.arrayContaining(['users', 'messages', 'me']));
        expect(fields.map((f) => f.name)).not.toContain('token');
        expect(fields.find((f) => f.name === 'me')!.args).toEqual([]);
      }
      expect(await gql(bundled, c.query, c.headers)).toEqual(want);
      expect(await gql(inProcess, c.query, c.headers)).toEqual(want);
    });
  }

  it('calls the remote once per relationship field for every row, from the bundle', async () => {
    remote.received.length = 0;
    const r = await gql(bundled, '{ users { id messages { id } } }');
    expect(r.status).toBe(200);
    expect(r.body.data.users).toHaveLength(3);
    expect(remote.calls()).toHaveLength(1);
    // Served from the stored schema: no introspection since the bundle started.
    expect(remote.received.filter((x) => x.body.query.includes('__schema'))).toHaveLength(0);
  });

  it('refuses to compile when a remote schema cannot be read, naming it, its URL and the way out', async () => {
    const down = await startRemote(SDL, ROOT);
    const url = down.url;
    await down.close();
    const file = join(dir, 'down.json');
    await writeFile(file, JSON.stringify(metadataOf(url, true)));
    const out = join(dir, 'down-bundle');
    const err = await compileCommand({ metadata: file, databaseUrl: db.url, out, quiet: true }).then(() => null, (e: unknown) => e as { message: string; exitCode: number });
    expect(err).not.toBeNull();
    expect(err!.exitCode).toBe(1);
    expect(err!.message).toContain(`remote schema "forum" (${url}): HTTP exception occurred while sending the request to ${url}`);
    expect(err!.message).toContain('--remote-snapshot');
    await expect(readdir(out)).rejects.toThrow();
    // With the schema of an earlier bundle, the same compile needs no network and stores the same text.
    const received = remote.received.length;
    await compileCommand({ metadata: file, databaseUrl: db.url, out, quiet: true, remoteSnapshot: bundleDir });
    expect(remote.received.length).toBe(received);
    expect(await readFile(join(out, 'remote/forum.graphql'), 'utf8')).toBe(await readFile(join(bundleDir, 'remote/forum.graphql'), 'utf8'));
    // A URL from an unset variable is named by the variable.
    const fromEnv = metadataOf(url, true) as { remote_schemas: { definition: Record<string, unknown> }[] };
    delete fromEnv.remote_schemas[0]!.definition['url'];
    fromEnv.remote_schemas[0]!.definition['url_from_env'] = 'KILN_RBUNDLE_UNSET_URL';
    await writeFile(join(dir, 'env.json'), JSON.stringify(fromEnv));
    const unset = await compileCommand({ metadata: join(dir, 'env.json'), databaseUrl: db.url, out: join(dir, 'env-bundle'), quiet: true })
      .then(() => null, (e: unknown) => e as { message: string; exitCode: number });
    expect(unset?.message).toContain(`remote schema "forum" ($KILN_RBUNDLE_UNSET_URL (not set)): environment variable 'KILN_RBUNDLE_UNSET_URL' not set`);
    // A snapshot folder without the remote's file is refused as the unreachable remote is.
    const empty = await mkdtemp(join(dir, 'empty-'));
    const missing = await compileCommand({ metadata: file, databaseUrl: db.url, out: join(dir, 'x'), quiet: true, remoteSnapshot: empty })
      .then(() => null, (e: unknown) => e as { message: string; exitCode: number });
    expect(missing?.message).toContain(`remote schema "forum" (${empty}): no schema for it in ${empty}`);
  });

  it('with --allow-inconsistent, compiles without a remote that is down; the bundle serves the rest', async () => {
    const down = await startRemote(SDL, ROOT);
    const url = down.url;
    await down.close();
    const file = join(dir, 'allow.json');
    await writeFile(file, JSON.stringify(metadataOf(url, true)));
    const out = join(dir, 'allow-bundle');
    await compileCommand({ metadata: file, databaseUrl: db.url, out, quiet: true, allowInconsistent: true });
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest['remoteSchemas']).toBeUndefined();
    const s = await serveCommand({ ...settings, bundle: out });
    try {
      // The relationship to the other source still serves; the remote's fields and its relationship are left out.
      expect((await gql(s, '{ users(where: {id: {_eq: 2}}) { id badges { label } } }')).body).toEqual({ data: { users: [{ id: 2, badges: [{ label: 'bronze' }] }] } });
      expect((await gql(s, '{ token }')).body.errors[0].message).toBe('field "token" not found in type: \'query_root\'');
      expect((await gql(s, '{ users { messages { id } } }')).body.errors[0].message).toBe('field "messages" not found in type: \'users\'');
    } finally {
      await s.close();
    }
  });

  it('refuses to compile a relationship or a permission that does not fit the remote schema', async () => {
    const md = metadataOf(remote.url, true) as { sources: { tables: { remote_relationships: unknown[] }[] }[]; remote_schemas: { permissions: unknown[] }[] };
    md.sources.find((x) => (x as { name?: string }).name === 'default')!.tables[0]!.remote_relationships = [{ name: 'gone', definition: { to_remote_schema: { remote_schema: 'forum', lhs_fields: ['id'],
      remote_field: { nothing: { arguments: { user_id: '$id' } } } } } }];
    md.remote_schemas[0]!.permissions = [{ role: 'user', definition: { schema: 'type Query { nope: String }' } }];
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify(md));
    const err = await compileCommand({ metadata: file, databaseUrl: db.url, out: join(dir, 'bad-bundle'), quiet: true })
      .then(() => null, (e: unknown) => e as { message: string; exitCode: number });
    expect(err?.exitCode).toBe(1);
    expect(err?.message).toContain('remote_relationship gone in table users in source default');
    expect(err?.message).toContain('remote_schema_permission user permission in remote schema forum');
  });
});
