// Mutation root fields are compiled too: per role and insert, update or delete field, engine.mjs
// holds the part of the statement the role fixes (the written table, the columns it may give or
// change, its presets as parameter slots, its check and filter, what `returning` reads), each
// distinct one written once and a role's part read on first use. On a plan-cache miss the mutation
// planners complete that template, so a template edited in the file is what the statement runs,
// down to the table it writes.
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
import { loadBundle, type BundleModel, type MutationTemplate, type PermissionTemplates, type RootTemplate } from '../../runtime/bundle/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer } from '../../runtime/server/index.js';
import { templateText } from '../../runtime/sql/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import type { SentStatement } from '../helpers/demo-templates.js';
import { appendItem, listLines, replaceItem } from '../helpers/engine-lists.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ARTICLE = 'default:public.article';

interface EngineModule {
  mutationTemplate(role: string, field: string): MutationTemplate | undefined;
  rootTemplate(role: string, field: string): RootTemplate | undefined;
  permissionTemplates(role: string): { readonly [table: string]: PermissionTemplates } | undefined;
  model: { mutationTemplates: { roles: object } };
}

interface Permission { role: string; permission: unknown }
interface BlogMetadata { sources: { tables: ({ table: { name: string } } & { [kind: string]: Permission[] | unknown })[] }[] }

let dir: string;
beforeAll(async () => {
  // The blog, with a role `editor` whose article permissions are the user's (its templates are the user's).
  const md = JSON.parse(await readFile(join(ROOT, 'fixtures/blog/metadata.json'), 'utf8')) as BlogMetadata;
  const article = md.sources[0]!.tables.find((t) => t.table.name === 'article')!;
  for (const kind of ['select_permissions', 'insert_permissions', 'update_permissions', 'delete_permissions']) {
    const list = article[kind] as Permission[];
    list.push({ ...(JSON.parse(JSON.stringify(list.find((p) => p.role === 'user'))) as Permission), role: 'editor' });
  }
  const parsed = parseMetadata(md);
  if (!parsed.value) throw new Error(parsed.errors.map((e) => e.message).join('; '));
  const snap = introspectionFromJson(JSON.parse(await readFile(join(ROOT, 'fixtures/blog/introspection.json'), 'utf8')));
  const bundle = await buildBundle({ metadata: parsed.value, introspection: { default: snap }, engineVersion: 'test' });
  if (bundle.inconsistencies.length > 0) throw new Error(JSON.stringify(bundle.inconsistencies));
  dir = await mkdtemp(join(tmpdir(), 'kiln-mutation-templates-'));
  await writeBundle(dir, bundle);
}, 120_000);
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const importEngine = async (at: string): Promise<EngineModule> => (await import(pathToFileURL(join(at, 'engine.mjs')).href)) as EngineModule;

/** The column lists of engine.mjs (`rootColumns`). */
function columnLists(text: string): string[][] {
  const line = text.split('\n').find((l) => l.startsWith('const rootColumns = JSON.parse('))!;
  return JSON.parse(JSON.parse(line.slice('const rootColumns = JSON.parse('.length, -2)) as string) as string[][];
}

describe('engine.mjs carries each mutation root field\'s template per role', () => {
  it('has the written table, columns, presets, check and filter, and returning of the user\'s article fields', async () => {
    const mod = await importEngine(dir);
    expect(typeof Object.getOwnPropertyDescriptor(mod.model.mutationTemplates.roles, 'user')!.get).toBe('function');
    const insert = mod.mutationTemplate('user', 'insert_article')!;
    expect('value' in Object.getOwnPropertyDescriptor(mod.model.mutationTemplates.roles, 'user')!).toBe(true);
    const perms = mod.permissionTemplates('user')![ARTICLE]!;
    expect(insert.dialect).toBe('postgres');
    expect(insert.table).toBe(ARTICLE);
    expect(templateText(insert.target)).toBe('"public"."article"');
    expect(insert.insert!.columns).toEqual(['title', 'body', 'tags', 'published_on']);
    expect(insert.insert!.presets).toEqual({ author_id: { kind: 'session', name: 'x-svc-user-id', type: 'int4' }, status: { kind: 'literal', value: 'draft', type: 'text' } });
    // The checks and filters are the permission templates, the same objects.
    expect(insert.insert!.check).toBe(perms.insertCheck);
    expect(insert.update!.filter).toBe(perms.updateFilter);
    expect(insert.update!.check).toBe(perms.updateCheck);
    expect(insert.delete).toBeUndefined();
    expect(insert.backendOnly).toBe(false);
    // `returning` reads what the role's article query field reads: its root template, the same object.
    expect(insert.returning).toBe(mod.rootTemplate('user', 'article'));
    expect(mod.mutationTemplate('user', 'insert_article_one')).toBe(insert);
    const update = mod.mutationTemplate('user', 'update_article')!;
    expect(update.insert).toBeUndefined();
    expect(update.update).toBe(insert.update);
    expect(update.update!.presets).toEqual({ views: { kind: 'literal', value: '0', type: 'int8' } });
    expect(mod.mutationTemplate('user', 'update_article_by_pk')).toBe(update);
    expect(mod.mutationTemplate('user', 'update_article_many')).toBe(update);
    const del = mod.mutationTemplate('user', 'delete_article')!;
    expect(del.delete!.filter).toBe(perms.deleteFilter);
    expect(templateText(del.delete!.filter!)).toBe('(({row}."author_id" = {session x-svc-user-id :: int4}) AND ({row}."status" = {value "draft" :: text}))');
    // The admin writes every column, with no check.
    const admin = mod.mutationTemplate('admin', 'insert_article')!;
    expect(admin.insert!.check).toBeNull();
    expect(admin.insert!.presets).toEqual({});
    expect(admin.target).toBe(insert.target);
    expect(mod.mutationTemplate('reader', 'insert_article')).toBeUndefined();
  });

  it('writes a mutation template several roles share once, and gives both roles the same object', async () => {
    const mod = await importEngine(dir);
    const text = await readFile(join(dir, 'engine.mjs'), 'utf8');
    const shared = mod.mutationTemplate('user', 'insert_article')!;
    expect(mod.mutationTemplate('editor', 'insert_article')).toBe(shared);
    expect(mod.mutationTemplate('editor', 'delete_article_by_pk')).toBe(mod.mutationTemplate('user', 'delete_article'));
    // One line of each list: the insert part with the user's presets, and the one template of its fields.
    const writes = listLines(text, 'mutationWriteText');
    const userInsert = writes.filter((w) => JSON.stringify(w.item[1]) === JSON.stringify(shared.insert!.presets));
    expect(userInsert).toHaveLength(1);
    const parts = listLines(text, 'mutationPartText');
    expect(parts.filter((p) => p.item[2] === writes.indexOf(userInsert[0]!))).toHaveLength(1);
    // The SQL file shows the template.
    const sql = (await readBundleDir(dir)).files.get('sql/user/insert_article_one.sql')!;
    expect(sql).toContain('--   insert into: "public"."article"; columns: title, body, tags, published_on; presets: author_id = {session x-svc-user-id :: int4}, status = {value "draft" :: text}\n');
  });
});

/** `inner`, with every statement sent (alone or in a transaction) pushed onto `ran` first. */
function recording(inner: Driver, ran: SentStatement[]): Driver {
  type Runner = Pick<Driver, 'queryText'>;
  const record = (target: Runner) => (text: string, params: readonly unknown[], ...rest: unknown[]) => {
    ran.push({ text, params });
    return (target.queryText as (...a: unknown[]) => Promise<string>)(text, params, ...rest);
  };
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'queryText') return record(target);
      if (key === 'transaction') {
        return (fn: (tx: Runner) => Promise<unknown>, ...rest: unknown[]) => (target.transaction as (...a: unknown[]) => Promise<unknown>)(
          (tx: Runner) => fn(new Proxy(tx, { get: (t, k, r) => (k === 'queryText' ? record(t) : Reflect.get(t, k, r) as unknown) })), ...rest);
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

type Answer = { status: number; json: { data?: Record<string, unknown>; errors?: { message: string; extensions?: { code?: string } }[] } };

describe('the runtime completes the mutation root field\'s template', () => {
  let db: TestDatabase;
  let inner: Driver;
  let driver: Driver;
  const ran: SentStatement[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('mutation_templates');
    await db.exec(await readFile(join(ROOT, 'fixtures/blog/schema.sql'), 'utf8'));
    inner = createPgDriver({ url: db.url, max: 2 });
    driver = recording(inner, ran);
  }, 120_000);
  afterAll(async () => { await inner?.close(); await db?.drop(); });

  /** Serves `model` over HTTP as role `user` (user id 1) for `body`, then stops. */
  async function serving<T>(model: BundleModel, sdl: { readonly [role: string]: string }, body: (gql: (query: string, variables?: object) => Promise<Answer>) => Promise<T>): Promise<T> {
    const engine = new Engine({ model, sdl, driverFor: () => driver });
    const server = createServer({ engine, version: 'test', adminSecret: null, unauthorizedRole: null, consoleEnabled: false });
    const { port } = await server.listen(0, '127.0.0.1');
    try {
      return await body(async (query, variables) => {
        const res = await fetch(`http://127.0.0.1:${port}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query, variables }),
          headers: { 'content-type': 'application/json', 'x-svc-role': 'user', 'x-svc-user-id': '1' } });
        return { status: res.status, json: (await res.json()) as Answer['json'] };
      });
    } finally {
      await server.close();
    }
  }

  /** `dir` copied, with engine.mjs edited by `edit`; `use` gets the loaded copy. */
  async function edited<T>(edit: (text: string) => string, use: (loaded: Awaited<ReturnType<typeof loadBundle>>, at: string) => Promise<T>): Promise<T> {
    const at = await mkdtemp(join(tmpdir(), 'kiln-mutation-templates-edited-'));
    try {
      await cp(dir, at, { recursive: true });
      const file = join(at, 'engine.mjs');
      const text = await readFile(file, 'utf8');
      const changed = edit(text);
      expect(changed).not.toBe(text);
      await writeFile(file, changed);
      return await use(await loadBundle(at), at);
    } finally {
      await rm(at, { recursive: true, force: true });
    }
  }

  const INSERT = 'mutation ($title: String!) { insert_article_one(object: {title: $title, body: "b"}) { id title status author_id } }';
  const insertPart = (text: string) => listLines(text, 'mutationWriteText').find((w) => JSON.stringify(w.item[1]).includes('"draft"'))!;

  it('inserts with the presets engine.mjs holds: a preset edited in the file is the value inserted', async () => {
    const plain = await loadBundle(dir);
    await serving(plain.model, plain.sdl, async (gql) => {
      ran.length = 0;
      const res = await gql(INSERT, { title: 'as compiled' });
      expect(res.json.errors).toBeUndefined();
      expect(res.json.data!['insert_article_one']).toMatchObject({ title: 'as compiled', status: 'draft', author_id: 1 });
      expect(ran.some((s) => s.params.includes('draft'))).toBe(true);
    });
    await edited((text) => {
      const w = insertPart(text);
      const presets = { ...(w.item[1] as object), status: { kind: 'literal', value: 'published', type: 'text' } };
      return replaceItem(text, w.line, [w.item[0], presets, ...w.item.slice(2)]);
    }, async (loaded) => {
      expect(loaded.model.mutationTemplates!.roles['user']!['insert_article_one']!.insert!.presets['status']).toEqual({ kind: 'literal', value: 'published', type: 'text' });
      await serving(loaded.model, loaded.sdl, async (gql) => {
        ran.length = 0;
        const res = await gql(INSERT, { title: 'as edited' });
        expect(res.json.errors).toBeUndefined();
        expect(res.json.data!['insert_article_one']).toMatchObject({ title: 'as edited', status: 'published', author_id: 1 });
        const insert = ran.find((s) => s.text.includes('INSERT INTO "public"."article"'))!;
        expect(insert.params).toContain('published');
        expect(insert.params).not.toContain('draft');
      });
      const row = await db.query<{ status: string }>('SELECT status FROM article WHERE title = $1', ['as edited']);
      expect(row.map((r) => r.status)).toEqual(['published']);
    });
  });

  it('refuses a column the template\'s list lacks, though the metadata grants it', async () => {
    await edited((text) => {
      const w = insertPart(text);
      const lists = columnLists(text);
      const without = lists.findIndex((l) => !l.includes('title'));
      expect(without).toBeGreaterThanOrEqual(0);
      return replaceItem(text, w.line, [without, ...w.item.slice(1)]);
    }, async (loaded) => {
      expect(loaded.model.mutationTemplates!.roles['user']!['insert_article_one']!.insert!.columns).not.toContain('title');
      await serving(loaded.model, loaded.sdl, async (gql) => {
        const res = await gql(INSERT, { title: 'refused' });
        expect(res.json.errors?.[0]?.message).toBe('field "title" not found in type: \'article_insert_input\'');
      });
    });
  });

  it('checks updated rows with the template\'s check: an edited check refuses what the compiled one admits, and kiln check names the field', async () => {
    const UPDATE = 'mutation ($id: Int!) { update_article_by_pk(pk_columns: {id: $id}, _set: {status: published}) { id status } }';
    const mine = await db.query<{ id: number }>("INSERT INTO article (title, body, author_id, status) VALUES ('to publish', 'b', 1, 'draft') RETURNING id");
    const id = mine[0]!.id;
    await edited((text) => {
      // The update part's check becomes the delete filter (rows by the user still in draft).
      const mod = listLines(text, 'mutationWriteText');
      const update = mod.find((w) => w.item.length === 4 && JSON.stringify(w.item[1]).includes('"views"'))!;
      const templates = listLines(text, 'templateText');
      const draft = templates.findIndex((t) => JSON.stringify(t.item).includes('draft') && JSON.stringify(t.item).includes('author_id') && !JSON.stringify(t.item).includes('published'));
      expect(draft).toBeGreaterThanOrEqual(0);
      return replaceItem(text, update.line, [update.item[0], update.item[1], draft, update.item[3]]);
    }, async (loaded, at) => {
      const problems = checkBundle(await readBundleDir(at)).templates.problems;
      expect(problems.filter((p) => p.startsWith('role user, mutation root field update_article_by_pk:'))).toEqual([
        expect.stringMatching(/^role user, mutation root field update_article_by_pk: engine\.mjs has .*check: \(\(\{row\}\."author_id" = .*"draft".*; the permission compiles to .*check: \(\{row\}\."status" = ANY/)]);
      await serving(loaded.model, loaded.sdl, async (gql) => {
        ran.length = 0;
        const res = await gql(UPDATE, { id });
        expect(res.json.errors?.[0]?.message).toBe('check constraint of an insert/update permission has failed');
        expect(ran.find((s) => s.text.includes('UPDATE "public"."article"'))!.text).toContain('"status" = ($');
      });
      const row = await db.query<{ status: string }>('SELECT status FROM article WHERE id = $1', [id]);
      expect(row[0]!.status).toBe('draft');
    });
    // The compiled template admits it.
    const plain = await loadBundle(dir);
    await serving(plain.model, plain.sdl, async (gql) => {
      const res = await gql(UPDATE, { id });
      expect(res.json.errors).toBeUndefined();
      expect(res.json.data!['update_article_by_pk']).toEqual({ id, status: 'published' });
    });
  });

  it('writes the table the template names: a target edited in the file is the table the row lands in and the update changes', async () => {
    await db.exec('CREATE TABLE article_copy (LIKE article INCLUDING ALL)');
    const UPDATE = 'mutation ($id: Int!) { update_article_by_pk(pk_columns: {id: $id}, _set: {title: "renamed"}) { id title } }';
    await edited((text) => {
      // A second source, the copy, at the end of the sources; the user's insert and update fields' templates point to it.
      const copy = appendItem(text, 'rootSourceText', { dialect: 'postgres', text: ['"public"."article_copy"'], slots: [] });
      const writes = listLines(copy.text, 'mutationWriteText');
      const insertWrite = writes.findIndex((w) => w.line === insertPart(copy.text).line);
      const updateWrite = writes.findIndex((w) => w.item.length === 4 && JSON.stringify(w.item[1]).includes('"views"'));
      let out = copy.text;
      for (const p of listLines(copy.text, 'mutationPartText')) {
        if ((p.item[2] === insertWrite && p.item[2] !== null) || (p.item[2] === null && p.item[3] === updateWrite)) out = replaceItem(out, p.line, [p.item[0], copy.index, ...p.item.slice(2)]);
      }
      return out;
    }, async (loaded, at) => {
      const user = loaded.model.mutationTemplates!.roles['user']!;
      expect(templateText(user['insert_article_one']!.target)).toBe('"public"."article_copy"');
      expect(templateText(user['update_article_by_pk']!.target)).toBe('"public"."article_copy"');
      expect(templateText(user['delete_article']!.target)).toBe('"public"."article"');
      const problems = checkBundle(await readBundleDir(at)).templates.problems;
      expect(problems).toContainEqual(expect.stringMatching(/^role user, mutation root field insert_article_one: engine\.mjs has insert into: "public"\."article_copy"; .*; the permission compiles to insert into: "public"\."article"; /));
      await serving(loaded.model, loaded.sdl, async (gql) => {
        ran.length = 0;
        const res = await gql(INSERT, { title: 'in the copy' });
        expect(res.json.errors).toBeUndefined();
        const row = res.json.data!['insert_article_one'] as { id: number };
        expect(row).toMatchObject({ title: 'in the copy', status: 'draft', author_id: 1 });
        expect(ran.some((s) => s.text.includes('INSERT INTO "public"."article_copy" AS '))).toBe(true);
        expect(ran.some((s) => s.text.includes('INSERT INTO "public"."article" '))).toBe(false);
        const updated = await gql(UPDATE, { id: row.id });
        expect(updated.json.errors).toBeUndefined();
        expect(updated.json.data!['update_article_by_pk']).toEqual({ id: row.id, title: 'renamed' });
        expect(ran.some((s) => s.text.includes('UPDATE "public"."article_copy" AS '))).toBe(true);
      });
      expect(await db.query('SELECT title, status, author_id FROM article_copy')).toEqual([{ title: 'renamed', status: 'draft', author_id: 1 }]);
      expect(await db.query('SELECT id FROM article WHERE title IN ($1, $2)', ['in the copy', 'renamed'])).toEqual([]);
    });
    // The bundle as compiled writes the article table.
    const plain = await loadBundle(dir);
    await serving(plain.model, plain.sdl, async (gql) => {
      ran.length = 0;
      expect((await gql(INSERT, { title: 'in the article' })).json.errors).toBeUndefined();
      expect(ran.some((s) => s.text.includes('INSERT INTO "public"."article" AS '))).toBe(true);
    });
    expect(await db.query('SELECT count(*)::int AS n FROM article_copy WHERE title = $1', ['in the article'])).toEqual([{ n: 0 }]);
  });

  it('reads the template on a plan-cache miss only: a cache hit does not touch mutation templates', async () => {
    const loaded = await loadBundle(dir);
    let reads = 0;
    const roles = new Proxy(loaded.model.mutationTemplates!.roles, { get(target, key, receiver) { reads++; return Reflect.get(target, key, receiver) as unknown; } });
    const model: BundleModel = { ...loaded.model, mutationTemplates: { roles } };
    await serving(model, loaded.sdl, async (gql) => {
      expect((await gql(INSERT, { title: 'first' })).json.errors).toBeUndefined();
      expect(reads).toBeGreaterThan(0);
      const afterMiss = reads;
      ran.length = 0;
      const second = await gql(INSERT, { title: 'second' });
      expect(second.json.errors).toBeUndefined();
      expect(reads).toBe(afterMiss);
      expect(ran.some((s) => s.params.includes('second'))).toBe(true);
    });
  });
});
