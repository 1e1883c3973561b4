// A bundle on disk stores text several roles share once (shared/, sql/<role>/links.json); `kiln
// inspect` and `kiln check` still see one file per role and field, exactly as compiled.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBundle, type Bundle } from '../../compiler/emit/index.js';
import { readBundleDir } from '../../compiler/cli/bundle-dir.js';
import { checkHashes } from '../../compiler/cli/check-persisted.js';
import { DELTA_SUFFIX, readLinks, storedLayout } from '../../runtime/bundle/index.js';
import { blogMetadata, compileBlog } from './blog-variants.js';
import { ensureBuilt, kiln } from './cli-helpers.js';

describe('shared bundle layout on disk', () => {
  let tmp: string;
  let bundle: Bundle;
  beforeAll(async () => {
    await ensureBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'kiln-shared-'));
    bundle = await compileBlog(blogMetadata());
    await writeBundle(join(tmp, 'b'), bundle);
  });
  afterAll(async () => { await rm(tmp, { recursive: true, force: true }); });

  it('stores statements several roles run once', async () => {
    const shared = (await readdir(join(tmp, 'b', 'shared'))).filter((f) => f.endsWith('.sql'));
    expect(shared.length).toBeGreaterThan(0);
  });

  it('reads back every file of every role as compiled', async () => {
    const dir = await readBundleDir(join(tmp, 'b'));
    const logical = [...bundle.files].filter(([p]) => /^(sql|persisted|schema)\//.test(p));
    expect([...dir.files]).toEqual(logical);
  });

  it('inspect prints a shared statement with the role asked for', async () => {
    const links = [...bundle.stored.keys()].find((p) => p.endsWith('/links.json'))!;
    const role = /^sql\/([^/]+)\//.exec(links)![1]!;
    // A role's links, or the shared links file it names (roles with the same links share one).
    const file = Object.keys(readLinks(bundle.stored.get(links)!, (h) => bundle.stored.get(`shared/${h}.links.json`))).find((f) => !f.endsWith('.subscription.sql'))!;
    const r = await kiln(['inspect', '--bundle', join(tmp, 'b'), '--role', role, '--field', file.replace(/\.sql$/, '')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(bundle.files.get(`sql/${role}/${file}`));
  });

  it('check passes on the stored bundle', async () => {
    const r = await kiln(['check', '--bundle', join(tmp, 'b')]);
    expect(r.stdout + r.stderr).toContain('0 differ');
    expect(r.code).toBe(0);
  });
});

// Past DELTA_STATEMENTS_OVER bytes of distinct statements (0 here) a statement is stored as the
// changes that make it of another of its table: the tools still read every role's file whole.
describe('bundle layout with statements stored as changes of each other, on disk', () => {
  let tmp: string;
  let bundle: Bundle;
  beforeAll(async () => {
    await ensureBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'kiln-delta-'));
    bundle = await compileBlog(blogMetadata(), { deltaStatementsOver: 0 });
    await writeBundle(join(tmp, 'b'), bundle);
  });
  afterAll(async () => { await rm(tmp, { recursive: true, force: true }); });

  it('stores some statements as changes, each smaller than its text', () => {
    const deltas = [...bundle.stored.keys()].filter((p) => p.endsWith(DELTA_SUFFIX));
    expect(deltas.length).toBeGreaterThan(0);
    const stored = [...bundle.stored].filter(([p]) => /\.sql(\.delta\.json)?$/.test(p)).reduce((n, [, t]) => n + t.length, 0);
    const whole = storedLayout(new Map(bundle.files), undefined, Infinity);
    expect(stored).toBeLessThan([...whole.files].filter(([p]) => p.endsWith('.sql')).reduce((n, [, t]) => n + t.length, 0));
  });

  it('reads back every file of every role as compiled', async () => {
    const dir = await readBundleDir(join(tmp, 'b'));
    const logical = [...bundle.files].filter(([p]) => /^(sql|persisted|schema)\//.test(p));
    expect([...dir.files]).toEqual(logical);
  });

  it('inspect prints every role\'s statements as compiled', async () => {
    for (const role of bundle.model.roles) {
      const r = await kiln(['inspect', '--bundle', join(tmp, 'b'), '--role', role]);
      expect(r.code).toBe(0);
      const files = [...bundle.files].filter(([p]) => p.startsWith(`sql/${role}/`) && p.endsWith('.sql')).map(([, t]) => t);
      expect(r.stdout, role).toBe(files.map((t) => `${t}\n`).join(''));
    }
  });

  it('check passes on the stored bundle, and names the statements made from a changed one', async () => {
    const r = await kiln(['check', '--bundle', join(tmp, 'b')]);
    expect(r.stdout + r.stderr).toContain('0 differ');
    expect(r.code).toBe(0);
    const dir = await readBundleDir(join(tmp, 'b'));
    const [made, text] = [...dir.stored].find(([p]) => p.endsWith(DELTA_SUFFIX))!;
    const base = (JSON.parse(text) as { base: string }).base;
    const { problems } = checkHashes({ ...dir, stored: new Map(dir.stored).set(base, '-- edited\n') });
    expect(problems.join('\n')).toContain(made);
  });

  it('gives byte-identical stored files when compiled again', async () => {
    const again = await compileBlog(blogMetadata(), { deltaStatementsOver: 0 });
    expect([...again.stored]).toEqual([...bundle.stored]);
  });
});
