// `kiln compile` (its per-role summary), `kiln diff` and `kiln check` as users run them: the
// built command line on bundles compiled from the blog fixture and edited copies of it.

import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG, blogMetadata, permission } from './blog-variants.js';
import { ensureBuilt, kiln, type RunResult } from './cli-helpers.js';

let tmp: string;
let compiled: RunResult;
const dir = (name: string): string => join(tmp, name);

// Each variant changes one thing against `base` (the fixture as committed).
const VARIANTS: Record<string, (md: any) => void> = {
  base: () => {},
  // reader: the article filter loses its relationship conjunct.
  widened: (md) => { permission(md, 'article', 'select', 'reader').filter = { status: { _eq: 'published' } }; },
  // user: the article filter loses its OR branch; reader: a lower limit.
  narrowed: (md) => {
    permission(md, 'article', 'select', 'user').filter = { author_id: { _eq: 'X-Svc-User-Id' } };
    permission(md, 'article', 'select', 'reader').limit = 1;
  },
  // reader: may read author.email too.
  column: (md) => { permission(md, 'author', 'select', 'reader').columns.push('email'); },
  // user: the OR branch now admits drafts instead of published rows: neither wider nor narrower.
  changed: (md) => { permission(md, 'article', 'select', 'user').filter = { _or: [{ author_id: { _eq: 'X-Svc-User-Id' } }, { status: { _eq: 'draft' } }] }; },
  // reader: aggregations on article, and no limit.
  aggregate: (md) => { const p = permission(md, 'article', 'select', 'reader'); p.allow_aggregations = true; delete p.limit; },
};

beforeAll(async () => {
  await ensureBuilt();
  tmp = await mkdtemp(join(tmpdir(), 'kiln-diff-'));
  const runs = Object.entries(VARIANTS).map(async ([name, edit]) => {
    const md = join(tmp, `${name}.json`);
    await writeFile(md, JSON.stringify(blogMetadata(edit)));
    const r = await kiln(['compile', ...(name === 'base' ? [] : ['--quiet']), '--metadata', md, '--introspection', BLOG.introspection, '--out', dir(name)]);
    if (r.code !== 0) throw new Error(`compiling ${name} failed: ${r.stderr}`);
    return [name, r] as const;
  });
  compiled = (await Promise.all(runs)).find(([name]) => name === 'base')![1];
}, 120_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('kiln compile', () => {
  it('prints a summary per role after writing: tables visible, root fields, persisted queries', () => {
    expect(compiled.stderr).toMatch(/^ {2}role +tables visible +root fields +persisted queries$/m);
    expect(compiled.stderr).toMatch(/^ {2}admin +5 \(5 writable\) +52 +0$/m);
    expect(compiled.stderr).toMatch(/^ {2}reader +4 +10 +0$/m);
    expect(compiled.stderr).toMatch(/^ {2}user +2 \(1 writable\) +14 +0$/m);
  });
});

describe('kiln diff', () => {
  it('exits 0 and reports nothing on two compiles of the same metadata', async () => {
    const r = await kiln(['diff', dir('base'), dir('base')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('role reader: unchanged');
    expect(r.stdout).toContain('result: no role gained access');
  });

  it('exits 1 on a widened filter, showing both filters and the changed SQL lines', async () => {
    const r = await kiln(['diff', dir('base'), dir('widened')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('role reader: GAINED ACCESS');
    expect(r.stdout).toContain('[WIDENED] public.article select: filter widened');
    expect(r.stdout).toContain('old: status = "published" AND author{ is_public = true }');
    expect(r.stdout).toContain('new: status = "published"');
    expect(r.stdout).toMatch(/sql\/reader\/article\.sql changed\n {6}@@ /);
    expect(r.stdout).toMatch(/^ {6}- +FROM "public"\."author" AS "_author_1"$/m);
    expect(r.stdout).toContain('role user: unchanged');
    expect(r.stderr).toContain('kiln: role(s) gained access: reader');
  });

  it('exits 0 on a narrowed filter and a lowered limit', async () => {
    const r = await kiln(['diff', dir('base'), dir('narrowed')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[narrowed] public.article select: filter narrowed');
    expect(r.stdout).toContain('[narrowed] public.article select: limit 2 -> 1');
    expect(r.stdout).toContain('result: no role gained access');
  });

  it('exits 0 the other way round from a widening (the old bundle was wider)', async () => {
    const r = await kiln(['diff', dir('widened'), dir('base')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[narrowed] public.article select: filter narrowed');
  });

  it('exits 1 on a new column grant', async () => {
    const r = await kiln(['diff', dir('base'), dir('column')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[WIDENED] public.author select: columns added: email');
  });

  it('exits 1 on a filter it cannot prove narrower', async () => {
    const r = await kiln(['diff', dir('base'), dir('changed')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[CHANGED, POSSIBLY WIDENED] public.article select: filter changed, possibly widened');
  });

  it('exits 1 on aggregations granted and a limit removed, with the new root fields', async () => {
    const r = await kiln(['diff', '--json', dir('base'), dir('aggregate')]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { widened: boolean; roles: Record<string, { gainedAccess: boolean; changes: { detail: string; verdict: string }[] }> };
    expect(report.widened).toBe(true);
    expect(report.roles['user']!.gainedAccess).toBe(false);
    const details = report.roles['reader']!.changes.map((c) => `${c.verdict}: ${c.detail}`);
    expect(details).toEqual(expect.arrayContaining([
      'widened: added query.article_aggregate (select_aggregate on public.article)',
      'widened: limit 2 -> none',
      'widened: aggregations allowed',
    ]));
  });

  it('exits 2 on bad input with a clear message', async () => {
    const missing = await kiln(['diff', dir('base'), dir('nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`kiln: ${dir('nope')}: no such directory`);
    await mkdir(dir('empty'), { recursive: true });
    const notBundle = await kiln(['diff', dir('empty'), dir('base')]);
    expect(notBundle.code).toBe(2);
    expect(notBundle.stderr).toContain('is not a kiln bundle (no manifest.json');
    const oneArg = await kiln(['diff', dir('base')]);
    expect(oneArg.code).toBe(2);
    expect(oneArg.stderr).toContain("missing required argument 'new'");
  });

  it('documents its exit codes in --help', async () => {
    const r = await kiln(['diff', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Exit codes: 0 no role gained access; 1 a role gained access; 2 bad input');
  });
});

describe('kiln check', () => {
  it('passes on a freshly compiled bundle, printing the role x table matrix', async () => {
    const r = await kiln(['check', '--bundle', dir('base')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('persisted queries: 0 checked, 0 invalid');
    expect(r.stdout).toMatch(/^table +admin +reader +user$/m);
    expect(r.stdout).toMatch(/^public\.article +ok +ok +ok$/m);
    expect(r.stdout).toMatch(/^content\.tag +ok +ok +-$/m);
    expect(r.stdout).toContain('check passed');
  });

  it('exits 1 on a bundle whose SQL file lost the role filter, naming the file and table', async () => {
    const broken = dir('broken');
    await cp(dir('base'), broken, { recursive: true });
    const path = join(broken, 'sql', 'reader', 'article.sql');
    const text = await readFile(path, 'utf8');
    const cut = text.replace('WHERE (("_article_1"."status" = ($1)::text) AND EXISTS (', 'WHERE (true AND EXISTS (');
    expect(cut).not.toBe(text);
    await writeFile(path, cut);
    const r = await kiln(['check', '--bundle', broken]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^public\.article +ok +MISSING +ok$/m);
    expect(r.stdout).toContain('MISSING sql/reader/article.sql: public.article (select): the select filter is not a conjunct of the WHERE clause at this level');
    expect(r.stdout).toContain('CHANGED sql/reader/article.sql');
    expect(r.stderr).toContain('kiln: check failed');
  });

  it('exits 2 when the directory is not a bundle', async () => {
    const r = await kiln(['check', '--bundle', dir('nope')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no such directory');
  });
});
