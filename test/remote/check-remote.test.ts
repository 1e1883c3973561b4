// `kiln check --remote` (issue 17): a bundle's remote schemas introspected again and compared with
// the schemas it was compiled with. A field, argument or type the bundle serves that the remote no
// longer has, a remote relationship path that is gone and a role permission that no longer fits
// are drift (exit 1, one line each); new remote fields are only noted. Run through the built
// `kiln` and `kiln-runtime` as a deployment runs them, against a real remote on 127.0.0.1.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundleDir } from '../../compiler/cli/bundle-dir.js';
import { checkRemotes } from '../../compiler/cli/check-remote.js';
import { ensureBuilt, kiln, post, serveRuntime } from '../cli/cli-helpers.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { metadataOf, ROOT, SDL } from './bundle-fixture.js';
import { startRemote, type RemoteServer } from './remote-server.js';

// The remote after a change: `messages` gone (the relationship's path and the role's permission
// use it), `Profile.bio` now an Int, one field added.
const CHANGED_SDL = `
  type Query { me(id: Int!): Profile  token: String  added: String }
  type Message { id: Int!  text: String! }
  type Profile { id: Int!  bio: Int }`;

describe('kiln check --remote', () => {
  let db: TestDatabase;
  let remote: RemoteServer;
  let dir: string;
  let bundleDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    await ensureBuilt();
    db = await createTestDatabase('remotebundle_check', "CREATE TABLE users (id int PRIMARY KEY, name text); INSERT INTO users VALUES (1, 'ann'), (2, 'bob');");
    remote = await startRemote(SDL, ROOT);
    dir = await mkdtemp(join(tmpdir(), 'kiln-remotecheck-'));
    await writeFile(join(dir, 'metadata.json'), JSON.stringify(metadataOf(remote.url)));
    bundleDir = join(dir, 'bundle');
    env = { KILN_RBUNDLE_DB: db.url, KILN_RBUNDLE_TOKEN: 'secret-token', SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS: 'true' };
    const compiled = await kiln(['compile', '--metadata', join(dir, 'metadata.json'), '--database-url', db.url, '--out', bundleDir, '--quiet'], { env });
    expect(compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);
  }, 180_000);
  afterAll(async () => {
    await remote?.close();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('kiln-runtime serves the bundle\'s remote fields and relationship, as compiled', async () => {
    const served = await serveRuntime(['--bundle', bundleDir, '--port', '0', '--host', '127.0.0.1'], { env });
    try {
      const r = await post(served.base, { query: '{ users(order_by: {id: asc}) { id messages { body } } token }' });
      expect(r.body).toEqual({ data: { users: [{ id: 1, messages: [{ body: 'hi' }, { body: 'again' }] }, { id: 2, messages: [{ body: 'yo' }] }], token: 'secret-token' } });
      const u = await post(served.base, { query: '{ me { bio } }' }, { 'x-svc-role': 'user', 'x-svc-user-id': '2' });
      expect(u.body).toEqual({ data: { me: { bio: 'bio of 2' } } });
      expect(served.log()).toContain('remote schemas: forum (remote schema permissions on)');
    } finally {
      await served.stop();
    }
  });

  it('passes while the remote still has what the bundle serves, and says so', async () => {
    const r = await kiln(['check', '--bundle', bundleDir, '--remote'], { env });
    expect(r.stdout).toContain('remote schemas: 1 compared with their live servers; 0 drift(s)');
    expect(r.stdout).toContain('check passed');
    expect(r.code).toBe(0);
    // Without --remote the remotes are not contacted, and the report says how to compare them.
    const before = remote.received.length;
    const plain = await kiln(['check', '--bundle', bundleDir], { env });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('remote schemas: 1 in the bundle, not compared with their servers (add --remote)');
    expect(remote.received.length).toBe(before);
  });

  it('reports every field the bundle serves that changed or is gone, and exits 1', async () => {
    remote.setSchema(CHANGED_SDL, ROOT);
    try {
      // In process too: the header's variable is read from this environment when introspecting.
      process.env.KILN_RBUNDLE_TOKEN = 'secret-token';
      const report = await checkRemotes(await readBundleDir(bundleDir));
      expect(report.checked).toBe(1);
      expect(report.problems).toEqual([
        'remote schema "forum": Query.messages was removed. (the bundle serves it)',
        'remote schema "forum": Profile.bio changed type from String to Int. (the bundle serves it)',
        'remote schema "forum": remote relationship messages of table public.users: remote field with name "messages" and type "Query" not found',
        'remote schema "forum": the permission of role user no longer fits: validation for the given role-based schema failed for the following reasons:\n'
          + ' • field "messages" does not exist in the "Object": "Query"\n'
          + ' • expected type of "bio"("Object field") to be Int but recieved String\n',
      ]);
      expect(report.notes).toContain('remote schema "forum": Query.added is new in the remote (not served until recompiled)');
      const r = await kiln(['check', '--bundle', bundleDir, '--remote'], { env });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('  DRIFT remote schema "forum": Query.messages was removed. (the bundle serves it)');
      expect(r.stdout).toContain('check FAILED');
      expect(r.stderr).toContain(`kiln: check failed: ${report.problems.length} problem(s) in ${bundleDir}`);
      const json = await kiln(['check', '--bundle', bundleDir, '--remote', '--json'], { env });
      expect(json.code).toBe(1);
      expect((JSON.parse(json.stdout) as { ok: boolean; remote: { problems: string[] } })).toMatchObject({ ok: false, remote: { problems: report.problems } });
    } finally {
      delete process.env.KILN_RBUNDLE_TOKEN;
      remote.setSchema(SDL, ROOT);
    }
  });

  it('fails when a remote cannot be introspected, naming it and where it is', async () => {
    const down = await startRemote(SDL, ROOT);
    const url = down.url;
    await down.close();
    const other = join(dir, 'down');
    const md = metadataOf(url);
    await writeFile(join(dir, 'down.json'), JSON.stringify(md));
    // Compiled from the first bundle's snapshot (the remote is down), then checked against the dead URL.
    const c = await kiln(['compile', '--metadata', join(dir, 'down.json'), '--database-url', db.url, '--out', other, '--quiet', '--remote-snapshot', bundleDir], { env });
    expect(c.code).toBe(0);
    const r = await kiln(['check', '--bundle', other, '--remote'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`  DRIFT remote schema "forum" (${url}): cannot introspect it: HTTP exception occurred while sending the request to ${url}`);
  });

  it('reports a remote schema file changed after compiling', async () => {
    const copy = join(dir, 'tampered');
    const c = await kiln(['compile', '--metadata', join(dir, 'metadata.json'), '--database-url', db.url, '--out', copy, '--quiet'], { env });
    expect(c.code).toBe(0);
    const file = join(copy, 'remote/forum.graphql');
    await writeFile(file, (await readFile(file, 'utf8')).replace('token: String', 'token: String\n  extra: String'));
    const r = await kiln(['check', '--bundle', copy], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('CHANGED remote/forum.graphql: changed since it was compiled (sha256 differs from manifest.json)');
  });
});
