// `kiln check` proves, per statement, that each table reference carries its role's filter, and
// that persisted queries are intact and valid. Each hand-made break must be found.

import { beforeAll, describe, expect, it } from 'vitest';
import { checkBundle } from '../../compiler/cli/check.js';
import type { Bundle } from '../../compiler/emit/index.js';
import type { BundleModel } from '../../runtime/bundle/index.js';
import { asBundleDir, blogMetadata, compileBlog, withCollection } from './blog-variants.js';

let bundle: Bundle;
const file = (path: string): string => {
  const text = bundle.files.get(path);
  if (text === undefined) throw new Error(`no ${path} in the test bundle`);
  return text;
};
// Replaces `from` (which must occur) in a copy of a bundle file.
const edited = (path: string, from: string, to: string): Record<string, string> => {
  const text = file(path);
  if (!text.includes(from)) throw new Error(`${path} does not contain ${from}`);
  return { [path]: text.replace(from, to) };
};
const missingOf = (replace: Record<string, string>) => checkBundle(asBundleDir(bundle, replace)).missing;

beforeAll(async () => {
  bundle = await compileBlog(blogMetadata(withCollection));
}, 60_000);

describe('kiln check on a fresh bundle', () => {
  it('proves every table reference of every statement, persisted ones included', () => {
    const r = checkBundle(asBundleDir(bundle));
    expect(r.missing).toEqual([]);
    expect(r.persisted.problems).toEqual([]);
    expect(r.hashes.problems).toEqual([]);
    expect(r.ok).toBe(true);
    // Nested selections and the persisted plans of engine.mjs add references beyond one per statement.
    expect(r.references).toBeGreaterThan(r.statements);
    expect(r.filters['reader']).toEqual({ 'content.article_tag': 'ok', 'content.tag': 'ok', 'public.article': 'ok', 'public.author': 'ok' });
    expect(r.filters['user']).toEqual({ 'public.article': 'ok', 'public.author': 'ok' });
    // The proof on the IR: every query and mutation root field of every role planned, no read
    // without its role's permission, no write without its filter and check.
    const count = (kind: 'query' | 'mutation') => bundle.model.roles.reduce((n, role) => n + Object.keys(bundle.model.roots[role]?.[kind] ?? {}).length, 0);
    expect(r.ir).toEqual({ checked: count('query') + count('mutation'), problems: [] });
    expect(count('query')).toBeGreaterThan(10);
    expect(count('mutation')).toBeGreaterThan(10);
    // articles for 3 roles, by_title for admin and reader (user cannot read article_tags), add for admin and user.
    expect(r.persisted.checked).toBe(7);
  });
});

describe('kiln check finds a statement without its role filter', () => {
  it('a conjunct of the filter deleted from a persisted statement', () => {
    const where = '("_article_1"."status" = ($1)::text) AND EXISTS';
    const missing = missingOf(edited('persisted/reader/app/by_title.sql', where, 'EXISTS'));
    // The article's tags are read without their filter ("the article is published"), which the
    // article row proved: with that conjunct gone from the article, it proves nothing.
    expect(missing).toEqual([
      expect.objectContaining({ file: 'persisted/reader/app/by_title.sql', role: 'reader', table: 'public.article', operation: 'select' }),
      expect.objectContaining({ file: 'persisted/reader/app/by_title.sql', role: 'reader', table: 'content.article_tag', operation: 'select' }),
    ]);
  });

  it("rows read without the filter their parent row proves, tied to it by other keys", () => {
    const join = '"_article_tag_1"."article_id" = "_article_1"."id"';
    expect(missingOf({})).toEqual([]);
    const missing = missingOf(edited('persisted/reader/app/by_title.sql', join, '"_article_tag_1"."article_id" = "_article_1"."author_id"'));
    expect(missing).toEqual([expect.objectContaining({ file: 'persisted/reader/app/by_title.sql', role: 'reader', table: 'content.article_tag', operation: 'select',
      problem: 'the select filter is not a conjunct of the WHERE clause at this level' })]);
  });

  it('the filter turned into an OR branch', () => {
    const missing = missingOf(edited('sql/user/author.sql', 'WHERE ("_author_1"."id" = ($1)::int4)', 'WHERE (("_author_1"."id" = ($1)::int4) OR true)'));
    expect(missing.map((m) => `${m.role} ${m.table}`)).toEqual(['user public.author']);
  });

  it('the session value bound to a client variable instead (same SQL text, other binding)', () => {
    const missing = missingOf(edited('sql/user/article.sql', '-- $1 = session x-svc-user-id :: int4', '-- $1 = variable $id :: int4'));
    expect(missing.map((m) => `${m.file} ${m.table}`)).toEqual(['sql/user/article.sql public.article']);
  });

  it('the filter applied to another alias than the table read', () => {
    const missing = missingOf(edited('sql/user/delete_article.sql', '(("_article_2"."author_id" = ($1)::int4)', '(("_article_3"."author_id" = ($1)::int4)'));
    expect(missing).toEqual([expect.objectContaining({ table: 'public.article', operation: 'delete' })]);
  });

  it('the insert check guard dropped from a persisted mutation', () => {
    const missing = missingOf(edited('persisted/user/app/add.sql', 'bool_and(', 'bool_or('));
    expect(missing).toEqual([expect.objectContaining({ role: 'user', table: 'public.article', operation: 'insert', problem: expect.stringContaining('insert check') })]);
  });

  it('the update filter dropped from an update', () => {
    const missing = missingOf(edited('sql/user/update_article.sql', 'WHERE ("_article_2"."author_id" = ($6)::int4) AND true', 'WHERE true AND true'));
    expect(missing).toEqual([expect.objectContaining({ table: 'public.article', operation: 'update' })]);
  });

  it('a role reading a table it has no select permission on', () => {
    const missing = missingOf({ 'sql/user/content_tag.sql': file('sql/reader/content_tag.sql').replace('-- role: reader', '-- role: user') });
    expect(missing).toEqual([expect.objectContaining({ role: 'user', table: 'content.tag', problem: 'role has no select permission on the table' })]);
  });

  it('a stored plan in engine.mjs that lost its filter (the runtime runs those, not the files)', () => {
    const model = JSON.parse(JSON.stringify(bundle.model)) as { persisted: { queries: { name: string; plans: Record<string, { sql: { text: string } }> }[] } };
    const plan = model.persisted.queries.find((q) => q.name === 'articles')!.plans['user']!;
    const before = plan.sql.text;
    plan.sql.text = before.replace(/WHERE \(\("_article_1"\."author_id" = \(\$\d+\)::int4\) OR \("_article_1"\."status" = \(\$\d+\)::text\)\)/, 'WHERE true');
    expect(plan.sql.text).not.toBe(before);
    const dir = { ...asBundleDir(bundle), model: model as unknown as BundleModel };
    const r = checkBundle(dir);
    expect(r.missing).toEqual([expect.objectContaining({ file: 'engine.mjs persisted app/articles', role: 'user', table: 'public.article' })]);
    expect(r.filters['user']!['public.article']).toBe('MISSING');
  });
});

describe('kiln check on persisted queries', () => {
  const manifest = (): { persisted: { name: string; roles: string[]; sha256: string }[] } => JSON.parse(file('manifest.json'));
  const withManifest = (m: unknown) => ({ ...asBundleDir(bundle), manifest: m as never });

  it('reports a query no longer valid against the role schema', () => {
    // The user role's schema has no article_tags: the stored query by_title does not validate there.
    const r = checkBundle(asBundleDir(bundle, { 'schema/reader.graphql': file('schema/user.graphql') }));
    expect(r.persisted.problems).toContainEqual(expect.stringMatching(/^persisted\/reader\/app\/by_title\.sql: not valid for role "reader": .*article_tags/));
    expect(r.ok).toBe(false);
  });

  it('reports a hash that does not match, a missing file and a file the manifest does not list', () => {
    const m = manifest();
    m.persisted.find((p) => p.name === 'articles')!.sha256 = '0'.repeat(64);
    m.persisted.find((p) => p.name === 'add')!.roles.push('reader');
    const dir = withManifest(m);
    const files = new Map(dir.files);
    files.set('persisted/user/app/extra.sql', '-- role: user\nSELECT 1;\n');
    const r = checkBundle({ ...dir, files });
    expect(r.persisted.problems).toEqual(expect.arrayContaining([
      'persisted/admin/app/articles.sql: sha256 does not match the query engine.mjs stores',
      'persisted/reader/app/add.sql: the file is missing',
      'persisted/user/app/extra.sql: not listed in manifest.json persisted',
    ]));
  });

  it('counts 0 persisted queries in a bundle without them', async () => {
    const plain = await compileBlog(blogMetadata());
    const r = checkBundle(asBundleDir(plain));
    expect(r.persisted).toEqual({ listed: true, checked: 0, problems: [] });
    expect(r.ok).toBe(true);
  });

  it('reports a file changed since it was compiled', () => {
    const r = checkBundle(asBundleDir(bundle, { 'sql/reader/article.sql': `${file('sql/reader/article.sql')}-- edited\n` }));
    // Stored once when several roles run the same statement: the change names every role file it is.
    expect(r.hashes.problems).toEqual([expect.stringMatching(/^(sql\/reader\/article\.sql|shared\/\w+\.sql \(.*sql\/reader\/article\.sql.*\)): changed since it was compiled \(sha256 differs from manifest\.json\)$/)]);
    expect(r.missing).toEqual([]);
    expect(r.ok).toBe(false);
  });
});
