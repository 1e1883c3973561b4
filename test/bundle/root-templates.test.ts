// The bundle is the compiled engine: per role and root field, engine.mjs holds the part of the
// field's statement the role fixes (its source, the role's filter, the columns it may read, its row
// limit and aggregation switch), each distinct one written once and a role's part read on first
// use; on a plan-cache miss the runtime completes that template, so a template edited in the file
// is what the statement runs, and a plan-cache hit does not read templates at all.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundleDir } from '../../compiler/cli/bundle-dir.js';
import { checkBundle } from '../../compiler/cli/check.js';
import type { Bundle } from '../../compiler/emit/index.js';
import { loadBundle, type BundleModel, type PermissionTemplates, type RootTemplate } from '../../runtime/bundle/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer } from '../../runtime/server/index.js';
import { templateText, type SqlTemplate } from '../../runtime/sql/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { writtenDemoWithAuditor, recordingDriver, type SentStatement } from '../helpers/demo-templates.js';
import { compileFixture } from '../helpers/fixtures.js';

const ROOT = join(import.meta.dirname, '..', '..');
const INVOICE = 'default:public.invoice';

interface EngineModule {
  rootTemplate(role: string, field: string): RootTemplate | undefined;
  permissionTemplates(role: string): { readonly [table: string]: PermissionTemplates } | undefined;
  model: { rootTemplates: { roles: object } };
}

interface DemoMetadata { sources: { tables: { table: { name: string }; select_permissions?: { role: string; permission: { columns: string[] } }[] }[] }[] }

let dir: string;
let bundle: Bundle;
let metadata: DemoMetadata;
beforeAll(async () => {
  ({ dir, bundle } = await writtenDemoWithAuditor('kiln-root-templates-'));
  metadata = JSON.parse(await readFile(join(ROOT, 'fixtures/chinook/metadata.json'), 'utf8')) as DemoMetadata;
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const importEngine = async (at: string): Promise<EngineModule> => (await import(pathToFileURL(join(at, 'engine.mjs')).href)) as EngineModule;

describe('engine.mjs carries each root field\'s template per role', () => {
  it('has the demo roles\' root templates: source, filter, columns, row limit, aggregation switch', async () => {
    const mod = await importEngine(dir);
    expect(typeof Object.getOwnPropertyDescriptor(mod.model.rootTemplates.roles, 'customer')!.get).toBe('function');
    const invoice = mod.rootTemplate('customer', 'invoice')!;
    expect('value' in Object.getOwnPropertyDescriptor(mod.model.rootTemplates.roles, 'customer')!).toBe(true);
    expect(invoice.dialect).toBe('postgres');
    expect(invoice.table).toBe(INVOICE);
    expect(templateText(invoice.source)).toBe('"public"."invoice"');
    // The role's filter is its permission template, the same object.
    expect(invoice.filter).toBe(mod.permissionTemplates('customer')![INVOICE]!.select);
    expect(templateText(invoice.filter!)).toBe('({row}."customer_id" = {session x-svc-customer-id :: int4})');
    const granted = metadata.sources[0]!.tables.find((t) => t.table.name === 'invoice')!.select_permissions!.find((p) => p.role === 'customer')!.permission.columns;
    expect([...invoice.columns].sort()).toEqual([...granted].sort());
    expect(invoice.limit).toBeNull();
    expect(invoice.aggregations).toBe(false);
    // The by-key field of the same table for the same role has the same template; the admin reads every row and column.
    expect(mod.rootTemplate('customer', 'invoice_by_pk')).toBe(invoice);
    const admin = mod.rootTemplate('admin', 'invoice')!;
    expect(admin.filter).toBeNull();
    expect(admin.columns).toEqual(bundle.model.tables[INVOICE]!.columns.map((c) => c.name));
    expect(admin.aggregations).toBe(true);
    expect(admin.source).toBe(invoice.source);
    // No template where the role has no such field.
    expect(mod.rootTemplate('customer', 'artist')).toBeUndefined();
    expect(mod.rootTemplate('nobody', 'invoice')).toBeUndefined();
  });

  it('writes a template several roles share once, and gives both roles the same object', async () => {
    const mod = await importEngine(dir);
    const text = await readFile(join(dir, 'engine.mjs'), 'utf8');
    const shared = mod.rootTemplate('customer', 'invoice')!;
    expect(mod.rootTemplate('auditor', 'invoice')).toBe(shared);
    // One line of the module's list of root templates is that template (its parts by index).
    expect(partLines(text).filter((p) => p.part[0] === INVOICE && p.part[2] !== null)).toHaveLength(1);
    expect(text.split(JSON.stringify(JSON.stringify(shared.source))).length - 1).toBe(1);
  });

  it('gives a function root its call as the source, with a slot for the request\'s arguments', async () => {
    const blog = await compileFixture('blog');
    const t = blog.model.rootTemplates!.roles['user']!['search_articles']!;
    expect(templateText(t.source)).toBe('"public"."search_articles"({arguments})');
    expect(t.filter).toBe(blog.model.templates!.roles['user']!['default:public.article']!.select);
    expect(blog.files.get('sql/user/search_articles.sql')).toContain(`--   from: ${templateText(t.source)}; filter: ${templateText(t.filter!)}\n`);
  });

  it('is loaded with the root fields engine.mjs holds (their names shared, not changed)', async () => {
    const loaded = await loadBundle(dir);
    expect(loaded.model.roots).toEqual(bundle.model.roots);
    expect(loaded.model.roots['customer']!.query['invoice']).toEqual({ kind: 'select', table: INVOICE });
  });
});

/** The lines of engine.mjs's list of root templates, each with its parts `[table, source, filter, columns, limit, aggregations]`. */
function partLines(text: string): { line: string; part: unknown[] }[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('const rootPartText = ['));
  const out: { line: string; part: unknown[] }[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.trim().startsWith('"')) break;
    out.push({ line, part: JSON.parse(JSON.parse(line.trim().replace(/,$/, '')) as string) as unknown[] });
  }
  return out;
}

describe('the runtime completes the root field\'s template', () => {
  let db: TestDatabase;
  let inner: Driver;
  let driver: Driver;
  const ran: SentStatement[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('root_templates');
    await db.exec(await readFile(join(ROOT, 'fixtures/chinook/schema.sql'), 'utf8'));
    await db.exec(await readFile(join(ROOT, 'fixtures/chinook/post.sql'), 'utf8'));
    inner = createPgDriver({ url: db.url, max: 2 });
    // Every statement the engine sends, as sent.
    driver = recordingDriver(inner, ran);
  }, 120_000);
  afterAll(async () => { await inner?.close(); await db?.drop(); });

  /** Serves `model` over HTTP for `body`, then stops. */
  async function serving<T>(model: BundleModel, sdl: { readonly [role: string]: string }, body: (gql: (query: string, customerId: string) => Promise<{ status: number; json: { data?: Record<string, unknown>; errors?: { message: string }[] } }>) => Promise<T>): Promise<T> {
    const engine = new Engine({ model, sdl, driverFor: () => driver });
    const server = createServer({ engine, version: 'test', adminSecret: null, unauthorizedRole: null, consoleEnabled: false });
    const { port } = await server.listen(0, '127.0.0.1');
    try {
      return await body(async (query, customerId) => {
        const res = await fetch(`http://127.0.0.1:${port}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query }),
          headers: { 'content-type': 'application/json', 'x-svc-role': 'customer', 'x-svc-customer-id': customerId } });
        return { status: res.status, json: (await res.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] } };
      });
    } finally {
      await server.close();
    }
  }

  it('runs what engine.mjs holds: a root template whose source, row limit and columns are edited in the file', async () => {
    const edited = await mkdtemp(join(tmpdir(), 'kiln-root-templates-edited-'));
    try {
      // The customer's invoices as the compiled bundle serves them: the edit below keeps those above the smallest total.
      const plain = await loadBundle(dir);
      const all = await serving(plain.model, plain.sdl, async (gql) =>
        (await gql('{ invoice(order_by: {invoice_id: asc}) { invoice_id total } }', '7')).json.data!['invoice'] as { total: number }[]);
      const least = Math.min(...all.map((r) => Number(r.total)));
      expect(all.filter((r) => Number(r.total) > least).length).toBeGreaterThan(2);
      await cp(dir, edited, { recursive: true });
      const file = join(edited, 'engine.mjs');
      let text = await readFile(file, 'utf8');
      const original = (await importEngine(dir)).rootTemplate('customer', 'invoice')!;
      // The customer's invoice template: a row limit of 2 and only two of its columns ...
      const lines = partLines(text);
      const customer = lines.find((p) => p.part[0] === INVOICE && p.part[2] !== null)!;
      const fewer = lines.map((p) => p.part[3] as number).find((i) => i !== customer.part[3]);
      const changed = [...customer.part];
      changed[4] = 2;
      text = text.replace(customer.line, customer.line.replace(JSON.stringify(JSON.stringify(customer.part)), JSON.stringify(JSON.stringify(changed))));
      // ... and a source that reads the invoices above that total only.
      const source: SqlTemplate = { ...original.source, text: [`(SELECT * FROM "public"."invoice" WHERE "total" > ${least})`] };
      const sourceItem = JSON.stringify(JSON.stringify(original.source));
      expect(text.split(sourceItem)).toHaveLength(2);
      text = text.replace(sourceItem, JSON.stringify(JSON.stringify(source)));
      await writeFile(file, text);
      // `kiln check` compiles the root templates again and names the fields whose template differs.
      const problems = checkBundle(await readBundleDir(edited)).templates.problems;
      expect(problems.filter((p) => p.startsWith('role customer, root field invoice:'))).toEqual([
        expect.stringMatching(/^role customer, root field invoice: engine\.mjs has from: \(SELECT \* FROM "public"\."invoice" WHERE "total" > [\d.]+\); .*row limit: 2; .*; the permission compiles to from: "public"\."invoice"; .*row limit: none; /)]);
      const loaded = await loadBundle(edited);
      const template = loaded.model.rootTemplates!.roles['customer']!['invoice']!;
      expect(template.limit).toBe(2);
      expect(template.source).toEqual(source);
      await serving(loaded.model, loaded.sdl, async (gql) => {
        ran.length = 0;
        const res = await gql('{ invoice(order_by: {invoice_id: asc}) { invoice_id customer_id total } }', '7');
        expect(res.status).toBe(200);
        const rows = res.json.data!['invoice'] as { customer_id: number; total: number }[];
        expect(rows).toHaveLength(2);
        expect(rows.every((r) => r.customer_id === 7 && Number(r.total) > least)).toBe(true);
        expect(ran).toHaveLength(1);
        expect(ran[0]!.text).toContain(`FROM (SELECT * FROM "public"."invoice" WHERE "total" > ${least}) AS "_invoice_1"`);
        // The row limit is bound as a parameter of the statement, as the role's limit always is.
        const limit = /LIMIT \(\$(\d+)\)::int4/.exec(ran[0]!.text);
        expect(limit).not.toBeNull();
        expect(ran[0]!.params[Number(limit![1]) - 1]).toBe(2);
        expect(ran[0]!.params).toContain('7');
      });
      // The columns come from the template too: with the list of another template, a column it lacks is refused.
      const columnsEdited = text.replace(JSON.stringify(JSON.stringify(changed)), JSON.stringify(JSON.stringify([...changed.slice(0, 3), fewer, ...changed.slice(4)])));
      const columnsDir = await mkdtemp(join(tmpdir(), 'kiln-root-templates-columns-'));
      try {
        await cp(edited, columnsDir, { recursive: true });
        await writeFile(join(columnsDir, 'engine.mjs'), columnsEdited);
        const other = await loadBundle(columnsDir);
        const allowed = other.model.rootTemplates!.roles['customer']!['invoice']!.columns;
        expect(allowed).not.toContain('billing_city');
        await serving(other.model, other.sdl, async (gql) => {
          const res = await gql('{ invoice { billing_city } }', '7');
          expect(res.json.errors?.[0]?.message).toBe('field "billing_city" not found in type: \'invoice\'');
        });
      } finally {
        await rm(columnsDir, { recursive: true, force: true });
      }
    } finally {
      await rm(edited, { recursive: true, force: true });
    }
  });

  it('reads the template on a plan-cache miss only: a cache hit does not touch templates', async () => {
    const loaded = await loadBundle(dir);
    let reads = 0;
    const roles = new Proxy(loaded.model.rootTemplates!.roles, { get(target, key, receiver) { reads++; return Reflect.get(target, key, receiver) as unknown; } });
    const model: BundleModel = { ...loaded.model, rootTemplates: { roles } };
    await serving(model, loaded.sdl, async (gql) => {
      const query = '{ invoice(limit: 3, order_by: {invoice_id: asc}) { invoice_id } }';
      expect((await gql(query, '7')).status).toBe(200);
      expect(reads).toBeGreaterThan(0);
      const afterMiss = reads;
      ran.length = 0;
      const second = await gql(query, '9');
      expect(second.status).toBe(200);
      expect(reads).toBe(afterMiss);
      expect(ran[0]!.params).toContain('9');
    });
  });
});
