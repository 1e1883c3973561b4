// `kiln diff` of remote schemas (issue 17): the remote fields each role gains or loses between two
// bundles — a field the remote added (admin sees it), a field granted in a role's permission, a
// preset taken away (the role may now give the argument). Both bundles are compiled with
// --remote-snapshot from folders of SDL, so no remote server is needed.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundleDir } from '../../compiler/cli/bundle-dir.js';
import { compileCommand } from '../../compiler/cli/compile.js';
import { diffBundles } from '../../compiler/cli/diff.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { metadataOf, SDL, USER_SCHEMA } from './bundle-fixture.js';

describe('kiln diff, remote fields', () => {
  let db: TestDatabase;
  let dir: string;
  const compile = async (name: string, sdl: string, userSchema: string): Promise<string> => {
    const snap = join(dir, `${name}-snapshot`);
    await mkdir(snap, { recursive: true });
    await writeFile(join(snap, 'forum.graphql'), sdl);
    const md = metadataOf('http://127.0.0.1:9/unused') as { remote_schemas: { permissions: { definition: { schema: string } }[] }[] };
    md.remote_schemas[0]!.permissions[0]!.definition.schema = userSchema;
    await writeFile(join(dir, `${name}.json`), JSON.stringify(md));
    const out = join(dir, name);
    await compileCommand({ metadata: join(dir, `${name}.json`), databaseUrl: db.url, out, quiet: true, remoteSnapshot: snap });
    return out;
  };

  beforeAll(async () => {
    db = await createTestDatabase('remotebundle_diff', 'CREATE TABLE users (id int PRIMARY KEY, name text);');
    process.env.KILN_RBUNDLE_DB = db.url;
    dir = await mkdtemp(join(tmpdir(), 'kiln-remotediff-'));
  });
  afterAll(async () => {
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reports the remote fields each role gains or loses, a preset taken away as widening', async () => {
    const before = await compile('before', SDL, USER_SCHEMA);
    const after = await compile('after', SDL.replace('token: String', 'token: String  added: String'),
      USER_SCHEMA.replace(' @preset(value: "x-svc-user-id")', '').replace('type Query {', 'type Query { token: String '));
    const r = diffBundles(await readBundleDir(before), await readBundleDir(after));
    const remote = (role: string) => r.roles[role]!.changes.filter((c) => c.aspect === 'remote field').map((c) => `${c.verdict}: ${c.detail}`);
    expect(remote('admin')).toEqual(['widened: remote schema forum: Query.added: String added']);
    expect(remote('user')).toEqual([
      'widened: remote schema forum: Query.me(id: Int!): Profile added',
      'widened: remote schema forum: Query.token: String added',
      'narrowed: remote schema forum: Query.me: Profile removed',
    ]);
    expect(r.roles['user']!.gainedAccess).toBe(true);
    expect(r.widened).toBe(true);
    // The other way round, the same fields are lost: nothing widens.
    const back = diffBundles(await readBundleDir(after), await readBundleDir(before));
    expect(back.roles['admin']!.changes.filter((c) => c.aspect === 'remote field').map((c) => c.verdict)).toEqual(['narrowed']);
    expect(back.roles['user']!.changes.filter((c) => c.aspect === 'remote field').map((c) => c.verdict)).toEqual(['widened', 'narrowed', 'narrowed']);
    // The same bundle twice: no remote change.
    const same = diffBundles(await readBundleDir(before), await readBundleDir(before));
    expect(Object.values(same.roles).flatMap((d) => d.changes)).toEqual([]);
  });
});
