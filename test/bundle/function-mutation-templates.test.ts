// A tracked function exposed as a mutation is compiled too: engine.mjs holds, per role, its call
// (with a slot for the request's arguments) and the role's filter, columns and row limit of the
// rows it returns, as a query field on a function has them. On a plan-cache miss the mutation
// planner completes that template, so a call edited in the file is the function the statement runs.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundleDir } from '../../compiler/cli/bundle-dir.js';
import { checkBundle } from '../../compiler/cli/check.js';
import { buildBundle, writeBundle } from '../../compiler/emit/index.js';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { loadBundle, type BundleModel, type MutationTemplate, type PermissionTemplates } from '../../runtime/bundle/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { templateText } from '../../runtime/sql/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { appendItem, listLines, replaceItem } from '../helpers/engine-lists.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ARTICLE = 'default:public.article';

// A VOLATILE function of the blog's articles (so a mutation field), and one of the same signature
// the metadata does not track, which the edited template calls instead.
const FUNCTIONS = `
CREATE FUNCTION bump_views(search text) RETURNS SETOF article LANGUAGE sql VOLATILE AS
  $$ UPDATE article SET views = views + 1 WHERE title ILIKE '%' || search || '%' RETURNING * $$;
CREATE FUNCTION bump_views_tenfold(search text) RETURNS SETOF article LANGUAGE sql VOLATILE AS
  $$ UPDATE article SET views = views + 10 WHERE title ILIKE '%' || search || '%' RETURNING * $$;
`;

interface EngineModule {
  mutationTemplate(role: string, field: string): MutationTemplate | undefined;
  permissionTemplates(role: string): { readonly [table: string]: PermissionTemplates } | undefined;
}

interface BlogMetadata { sources: { functions: unknown[] }[] }
interface BlogIntrospection { functions: { name: string; volatility: string }[] }

let dir: string;
beforeAll(async () => {
  // The blog with bump_views tracked, and a function permission for the user and the reader.
  const md = JSON.parse(await readFile(join(ROOT, 'fixtures/blog/metadata.json'), 'utf8')) as BlogMetadata;
  md.sources[0]!.functions.push({ function: { schema: 'public', name: 'bump_views' }, permissions: [{ role: 'user' }, { role: 'reader' }] });
  const parsed = parseMetadata(md);
  if (!parsed.value) throw new Error(parsed.errors.map((e) => e.message).join('; '));
  const db = JSON.parse(await readFile(join(ROOT, 'fixtures/blog/introspection.json'), 'utf8')) as BlogIntrospection;
  db.functions.push({ ...db.functions.find((f) => f.name === 'search_articles')!, name: 'bump_views', volatility: 'volatile' });
  const bundle = await buildBundle({ metadata: parsed.value, introspection: { default: introspectionFromJson(db) }, engineVersion: 'test' });
  if (bundle.inconsistencies.length > 0) throw new Error(JSON.stringify(bundle.inconsistencies));
  dir = await mkdtemp(join(tmpdir(), 'kiln-function-mutation-templates-'));
  await writeBundle(dir, bundle);
}, 120_000);
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const importEngine = async (at: string): Promise<EngineModule> => (await import(pathToFileURL(join(at, 'engine.mjs')).href)) as EngineModule;

describe('engine.mjs carries the template of a function exposed as a mutation', () => {
  it('has the call with an arguments slot, and the role\'s filter, columns and row limit of its rows', async () => {
    const mod = await importEngine(dir);
    const user = mod.mutationTemplate('user', 'bump_views')!;
    expect(user.function).toBe('default:public.bump_views');
    expect(user.table).toBe(ARTICLE);
    expect(templateText(user.target)).toBe('"public"."bump_views"({arguments})');
    expect(user.insert ?? user.update ?? user.delete).toBeUndefined();
    expect(user.backendOnly).toBe(false);
    // Its rows are read as a query field on the function reads them: the call, the role's select filter.
    expect(user.returning!.source).toBe(user.target);
    expect(user.returning!.filter).toBe(mod.permissionTemplates('user')![ARTICLE]!.select);
    expect(user.returning!.limit).toBeNull();
    const reader = mod.mutationTemplate('reader', 'bump_views')!;
    expect(reader.target).toBe(user.target);
    expect(reader.returning!.columns).toEqual(['id', 'title', 'views', 'tags', 'published_on']);
    expect(reader.returning!.limit).toBe(2);
    expect(mod.mutationTemplate('editor', 'bump_views')).toBeUndefined();
  });

  it('shows the template in the SQL file and types it in engine.d.ts', async () => {
    const files = (await readBundleDir(dir)).files;
    const sql = files.get('sql/reader/bump_views.sql')!;
    expect(sql).toContain('-- template (precompiled in engine.mjs; the statement completes it with the request\'s arguments and selection):\n'
      + '--   from: "public"."bump_views"({arguments}); filter: ');
    expect(sql).toContain('--   columns: id, title, views, tags, published_on; row limit: 2\n');
    expect(sql).toContain('FROM "public"."bump_views"(');
    expect(await readFile(join(dir, 'engine.d.ts'), 'utf8')).toMatch(/interface MutationTemplate \{[^}]*readonly function\?: string;/);
  });
});

describe('the runtime completes the function\'s mutation template', () => {
  let db: TestDatabase;
  let driver: Driver;
  const ran: string[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('function_mutation_templates');
    await db.exec(await readFile(join(ROOT, 'fixtures/blog/schema.sql'), 'utf8'));
    await db.exec(FUNCTIONS);
    await db.exec("INSERT INTO article (title, body, author_id, status) VALUES ('counted one', 'b', 1, 'published'), ('counted two', 'b', 2, 'draft')");
    driver = createPgDriver({ url: db.url, max: 2 });
  }, 120_000);
  afterAll(async () => { await driver?.close(); await db?.drop(); });

  const BUMP = 'mutation { bump_views(args: {search: "counted"}, order_by: {title: asc}) { title views } }';

  /** The answer to BUMP as role `user` (user id 1), the text of each statement it sent pushed onto `ran`. */
  async function bump(model: BundleModel, sdl: { readonly [role: string]: string }): Promise<unknown> {
    type Run = (text: string, ...rest: unknown[]) => Promise<string>;
    const record = <T extends object>(target: T): T => new Proxy(target, { get(t, key, receiver) {
      if (key === 'queryText') return (text: string, ...rest: unknown[]) => { ran.push(text); return (Reflect.get(t, key) as Run).call(t, text, ...rest); };
      if (key === 'transaction') return (fn: (tx: object) => Promise<unknown>, ...rest: unknown[]) => (Reflect.get(t, key) as (...a: unknown[]) => Promise<unknown>).call(t, (tx: object) => fn(record(tx)), ...rest);
      return Reflect.get(t, key, receiver) as unknown;
    } });
    const engine = new Engine({ model, sdl, driverFor: () => record(driver) });
    return JSON.parse(await engine.execute({ query: BUMP, variables: null }, { role: 'user', variables: { 'x-svc-user-id': '1' }, isAdmin: false })) as unknown;
  }

  it('calls the function engine.mjs names: a call edited in the file is the function the statement runs', async () => {
    // As compiled: bump_views, its rows through the user's filter (the draft of author 2 is bumped, not shown).
    const plain = await loadBundle(dir);
    ran.length = 0;
    expect(await bump(plain.model, plain.sdl)).toEqual({ data: { bump_views: [{ title: 'counted one', views: 1 }] } });
    expect(ran.some((t) => t.includes('FROM "public"."bump_views"('))).toBe(true);
    const at = await mkdtemp(join(tmpdir(), 'kiln-function-mutation-templates-edited-'));
    try {
      await cp(dir, at, { recursive: true });
      const file = join(at, 'engine.mjs');
      const text = await readFile(file, 'utf8');
      // The user's template calls bump_views_tenfold: a source of its own at the end of the list.
      const mod = await importEngine(dir);
      const target = mod.mutationTemplate('user', 'bump_views')!.target;
      const sources = listLines(text, 'rootSourceText');
      const callIndex = sources.findIndex((s) => JSON.stringify(s.item) === JSON.stringify(target));
      const tenfold = appendItem(text, 'rootSourceText', { ...target, text: target.text.map((part) => part.replace('"bump_views"', '"bump_views_tenfold"')) });
      const parts = listLines(tenfold.text, 'mutationPartText').filter((p) => p.item[7] === 'default:public.bump_views' && p.item[1] === callIndex);
      expect(parts.length).toBeGreaterThan(0);
      let edited = tenfold.text;
      for (const p of parts) edited = replaceItem(edited, p.line, [p.item[0], tenfold.index, ...p.item.slice(2)]);
      await writeFile(file, edited);
      const loaded = await loadBundle(at);
      expect(templateText(loaded.model.mutationTemplates!.roles['user']!['bump_views']!.target)).toBe('"public"."bump_views_tenfold"({arguments})');
      const problems = checkBundle(await readBundleDir(at)).templates.problems;
      expect(problems).toContainEqual(expect.stringMatching(/^role user, mutation root field bump_views: engine\.mjs has from: "public"\."bump_views_tenfold"\(\{arguments\}\); .*; the permission compiles to from: "public"\."bump_views"\(\{arguments\}\); /));
      ran.length = 0;
      expect(await bump(loaded.model, loaded.sdl)).toEqual({ data: { bump_views: [{ title: 'counted one', views: 11 }] } });
      expect(ran.some((t) => t.includes('FROM "public"."bump_views_tenfold"('))).toBe(true);
      expect(ran.some((t) => t.includes('"public"."bump_views"('))).toBe(false);
    } finally {
      await rm(at, { recursive: true, force: true });
    }
    expect(await db.query('SELECT title, views::int AS views FROM article WHERE title LIKE $1 ORDER BY title', ['counted%'])).toEqual([
      { title: 'counted one', views: 11 }, { title: 'counted two', views: 11 }]);
  });
});
