// The bundle is the compiled engine: engine.mjs carries every role's permission predicates as SQL
// templates of the source's dialect (each distinct one written once, a role's part read on first
// use), and the runtime serves from them: the statement a query runs holds the root field's
// template completed (aliases named, session slots numbered), byte for byte.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundleDir } from '../../compiler/cli/bundle-dir.js';
import { checkBundle } from '../../compiler/cli/check.js';
import { rootTemplateLines, type Bundle } from '../../compiler/emit/index.js';
import { loadBundle, type PermissionTemplates } from '../../runtime/bundle/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { runV1Data } from '../../runtime/metadata-api/v1-data.js';
import { createServer } from '../../runtime/server/index.js';
import { postgres, templateText, type SqlTemplate } from '../../runtime/sql/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { writtenDemoWithAuditor, recordingDriver, type SentStatement } from '../helpers/demo-templates.js';

const ROOT = join(import.meta.dirname, '..', '..');
const INVOICE = 'default:public.invoice';
const INVOICE_LINE = 'default:public.invoice_line';

interface EngineModule {
  permissionTemplates(role: string): { readonly [table: string]: PermissionTemplates } | undefined;
  rootFieldTemplates(role: string, field: string): PermissionTemplates | undefined;
  model: { templates: { roles: object } };
}

let dir: string;
let bundle: Bundle;
beforeAll(async () => {
  ({ dir, bundle } = await writtenDemoWithAuditor('kiln-templates-'));
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('engine.mjs carries each role\'s permission predicates as SQL', () => {
  it('has the demo roles\' filters as PostgreSQL templates with named slots, admin none', async () => {
    const mod = (await import(pathToFileURL(join(dir, 'engine.mjs')).href)) as EngineModule;
    // Not read yet: the role's part is parsed on first use.
    expect(typeof Object.getOwnPropertyDescriptor(mod.model.templates.roles, 'customer')!.get).toBe('function');
    const customer = mod.permissionTemplates('customer')!;
    expect('value' in Object.getOwnPropertyDescriptor(mod.model.templates.roles, 'customer')!).toBe(true);
    expect(mod.permissionTemplates('customer')).toBe(customer);
    expect(customer[INVOICE]!.select!.dialect).toBe('postgres');
    expect(templateText(customer[INVOICE]!.select!)).toBe('({row}."customer_id" = {session x-svc-customer-id :: int4})');
    expect(templateText(customer[INVOICE_LINE]!.select!)).toBe('EXISTS (SELECT 1 FROM "public"."invoice" AS {alias invoice #1} WHERE {alias invoice #1}."invoice_id" = {row}."invoice_id"'
      + ' AND ({alias invoice #1}."customer_id" = {session x-svc-customer-id :: int4}))');
    const admin = mod.permissionTemplates('admin')!;
    expect(Object.keys(admin).length).toBe(Object.keys(bundle.model.tables).length);
    for (const t of Object.values(admin)) expect(t.select).toBeNull();
    expect(mod.permissionTemplates('nobody')).toBeUndefined();
    // By root field: the templates its statement completes.
    expect(mod.rootFieldTemplates('customer', 'invoice_by_pk')!.select).toBe(customer[INVOICE]!.select);
    expect(mod.rootFieldTemplates('customer', 'invoice_line')!.select).toBe(customer[INVOICE_LINE]!.select);
    expect(mod.rootFieldTemplates('customer', 'artist')).toBeUndefined();
    expect(mod.rootFieldTemplates('admin', 'insert_artist')).toEqual({ select: null, insertCheck: null, updateFilter: null, updateCheck: null, deleteFilter: null });
  });

  it('writes a template several roles share once, and gives both roles the same object', async () => {
    const mod = (await import(pathToFileURL(join(dir, 'engine.mjs')).href)) as EngineModule;
    const text = await readFile(join(dir, 'engine.mjs'), 'utf8');
    const shared = mod.permissionTemplates('customer')![INVOICE]!.select!;
    expect(mod.permissionTemplates('auditor')![INVOICE]!.select).toBe(shared);
    expect(text.split(JSON.stringify(JSON.stringify(shared))).length - 1).toBe(1);
    // The in-process model (what the metadata API serves after a write) holds the same templates.
    expect(bundle.model.templates!.roles['auditor']![INVOICE]!.select).toBe(bundle.model.templates!.roles['customer']![INVOICE]!.select);
    expect(bundle.model.templates!.roles['customer']![INVOICE]!.select).toEqual(shared);
  });

  it('shows the root field\'s template in its SQL file, and the statement there completes it', () => {
    const file = bundle.files.get('sql/customer/invoice.sql')!;
    const template = bundle.model.templates!.roles['customer']![INVOICE]!.select!;
    const root = bundle.model.rootTemplates!.roles['customer']!['invoice']!;
    expect(root.filter).toBe(template);
    expect(file).toContain(`--   from: ${templateText(root.source)}; filter: ${templateText(template)}\n`);
    expect(file).toContain(`--   columns: ${root.columns.join(', ')}; row limit: none\n`);
    expect(file).toContain(`FROM ${templateText(root.source)} AS "_invoice_1"`);
    const completed = complete(template, file);
    expect(completed.row).toBe('_invoice_1');
    expect(file).toContain(completed.text);
  });
});

/**
 * Finds the completion of `t` in `statement`: the template's text byte for byte, with each row
 * slot an alias of the statement, each session or value slot a `$n` placeholder of the slot's type.
 */
function complete(t: SqlTemplate, statement: string): { text: string; row: string; inner: string[]; params: number[] } {
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const alias = '"(_[A-Za-z0-9_]+_\\d+)"';
  const pattern = t.text.map((part, i) => {
    if (i === t.slots.length) return esc(part);
    const s = t.slots[i]!;
    const hole = s.kind === 'row' || s.kind === 'root' || s.kind === 'alias' ? alias : esc(postgres.typedPlaceholder(999, 'type' in s ? s.type : null)).replace('999', '(\\d+)');
    return esc(part) + hole;
  }).join('');
  const m = new RegExp(pattern).exec(statement);
  if (!m) throw new Error(`the statement does not hold the template ${templateText(t)}:\n${statement}`);
  let row = '';
  const inner: string[] = [];
  const params: number[] = [];
  t.slots.forEach((s, i) => {
    const got = m[i + 1]!;
    if (s.kind === 'row') { if (row && row !== got) throw new Error('two names for the row'); row = got; }
    else if (s.kind === 'alias') { if (inner[s.index] !== undefined && inner[s.index] !== got) throw new Error('two names for one inner row'); inner[s.index] = got; }
    else if (s.kind !== 'root') params.push(Number(got));
  });
  // Rebuilt from the template and the names found: equal to what the statement holds, byte for byte.
  const rebuilt = t.text.map((part, i) => {
    if (i === t.slots.length) return part;
    const s = t.slots[i]!;
    if (s.kind === 'row') return part + postgres.quoteIdent(row);
    if (s.kind === 'alias') return part + postgres.quoteIdent(inner[s.index]!);
    if (s.kind === 'root') return part + postgres.quoteIdent(row);
    return part + postgres.typedPlaceholder(Number(m[i + 1]), 'type' in s ? s.type : null);
  }).join('');
  expect(rebuilt).toBe(m[0]);
  return { text: rebuilt, row, inner, params };
}

describe('the runtime serves from the bundle\'s templates', () => {
  let db: TestDatabase;
  let driver: Driver;
  const ran: SentStatement[] = [];
  let url = '';
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    db = await createTestDatabase('part7_templates');
    await db.exec(await readFile(join(ROOT, 'fixtures/chinook/schema.sql'), 'utf8'));
    await db.exec(await readFile(join(ROOT, 'fixtures/chinook/post.sql'), 'utf8'));
    const inner = createPgDriver({ url: db.url, max: 2 });
    // Every statement the engine sends, as sent.
    driver = recordingDriver(inner, ran);
    const loaded = await loadBundle(dir);
    const engine = new Engine({ model: loaded.model, sdl: loaded.sdl, driverFor: () => driver });
    const server = createServer({ engine, version: 'test', adminSecret: null, unauthorizedRole: null, consoleEnabled: false });
    const { port } = await server.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${port}`;
    close = async () => { await server.close(); await inner.close(); };
  }, 120_000);
  afterAll(async () => { await close(); await db?.drop(); });

  const gql = async (query: string, customerId: string): Promise<{ data?: Record<string, unknown[]> }> => {
    const res = await fetch(`${url}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query }),
      headers: { 'content-type': 'application/json', 'x-svc-role': 'customer', 'x-svc-customer-id': customerId } });
    expect(res.status).toBe(200);
    return (await res.json()) as { data?: Record<string, unknown[]> };
  };
  const templateOf = async (table: string): Promise<SqlTemplate> => {
    const mod = (await import(pathToFileURL(join(dir, 'engine.mjs')).href)) as EngineModule;
    return mod.permissionTemplates('customer')![table]!.select!;
  };

  it('a query\'s statement is the root field\'s template completed, with the session value as its parameter', async () => {
    ran.length = 0;
    const body = await gql('{ invoice(order_by: {invoice_id: asc}) { invoice_id customer_id } }', '7');
    const rows = body.data!['invoice'] as { customer_id: number }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.customer_id === 7)).toBe(true);
    expect(ran.length).toBe(1);
    const { text, params } = ran[0]!;
    const c = complete(await templateOf(INVOICE), text);
    // The template guards the root field's own rows (the alias its FROM names) ...
    expect(text).toContain(`FROM "public"."invoice" AS "${c.row}"`);
    // ... and its session slot is bound to the request's session value.
    expect(c.params.length).toBe(1);
    expect(String(params[c.params[0]! - 1])).toBe('7');
  });

  it('a relationship filter template (EXISTS on another table) is completed with fresh aliases the statement names', async () => {
    ran.length = 0;
    const body = await gql('{ invoice_line(limit: 3, order_by: {invoice_line_id: asc}) { invoice_line_id invoice { customer_id } } }', '12');
    const rows = body.data!['invoice_line'] as { invoice: { customer_id: number } }[];
    expect(rows.length).toBe(3);
    expect(rows.every((r) => r.invoice.customer_id === 12)).toBe(true);
    const { text, params } = ran[0]!;
    const c = complete(await templateOf(INVOICE_LINE), text);
    expect(text).toContain(`FROM "public"."invoice_line" AS "${c.row}"`);
    expect(c.inner[0]).not.toBe(c.row);
    expect(String(params[c.params[0]! - 1])).toBe('12');
    // The object relationship's rows carry the invoice template too, on their own alias.
    const nested = complete(await templateOf(INVOICE), text.replace(c.text, ''));
    expect(nested.row).not.toBe(c.row);
  });

  it('the /v1/query data operations serve from the same templates (a select as the customer)', async () => {
    ran.length = 0;
    const loaded = await loadBundle(dir);
    const rows = await runV1Data('select', { table: 'invoice', columns: ['invoice_id', 'customer_id'], order_by: ['invoice_id'] }, ['args'],
      { model: loaded.model, runner: driver, source: 'default', session: { role: 'customer', variables: { 'x-svc-customer-id': '9' }, isAdmin: false } }) as { customer_id: number }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.customer_id === 9)).toBe(true);
    const c = complete(await templateOf(INVOICE), ran[0]!.text);
    expect(String(ran[0]!.params[c.params[0]! - 1])).toBe('9');
  });

  it('runs what engine.mjs holds: a template edited in the file is what the statement completes', async () => {
    // A copy of the bundle whose invoice template says more than the metadata does.
    const edited = await mkdtemp(join(tmpdir(), 'kiln-templates-edited-'));
    try {
      await cp(dir, edited, { recursive: true });
      const file = join(edited, 'engine.mjs');
      const original = await templateOf(INVOICE);
      // One template a line in the module's list of templates (indented as ts-morph prints it).
      const item = `${JSON.stringify(JSON.stringify(original))},`;
      const text = await readFile(file, 'utf8');
      const line = text.split('\n').find((l) => l.trim() === item);
      expect(line).toBeDefined();
      const changed: SqlTemplate = { ...original, text: [...original.text.slice(0, -1), ` AND ${original.text.at(-1)!.replace(')', '')}true)`] };
      await writeFile(file, text.replace(line!, line!.replace(item, `${JSON.stringify(JSON.stringify(changed))},`)));
      const loaded = await loadBundle(edited);
      const engine = new Engine({ model: loaded.model, sdl: loaded.sdl, driverFor: () => driver });
      const server = createServer({ engine, version: 'test', adminSecret: null, unauthorizedRole: null, consoleEnabled: false });
      const { port } = await server.listen(0, '127.0.0.1');
      try {
        ran.length = 0;
        const res = await fetch(`http://127.0.0.1:${port}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query: '{ invoice { invoice_id } }' }),
          headers: { 'content-type': 'application/json', 'x-svc-role': 'customer', 'x-svc-customer-id': '7' } });
        expect(res.status).toBe(200);
        const c = complete(changed, ran[0]!.text);
        expect(c.text).toMatch(/ AND true\)$/);
        expect(() => complete(original, ran[0]!.text)).toThrow(/does not hold the template/);
      } finally {
        await server.close();
      }
      // `kiln check` compiles every template again from the permissions and names the one that differs.
      expect(checkBundle(await readBundleDir(dir)).templates).toEqual({ checked: expect.any(Number), problems: [] });
      const report = checkBundle(await readBundleDir(edited));
      expect(report.ok).toBe(false);
      // The template is written once for both roles whose filter it is: both read the edit, in
      // their invoice filter and in the root field templates (invoice, invoice_by_pk) that hold it.
      const root = bundle.model.rootTemplates!.roles['customer']!['invoice']!;
      const shown = (filter: SqlTemplate): string => rootTemplateLines({ ...root, filter }).join('; ');
      expect(report.templates.problems).toEqual([
        ...['auditor', 'customer'].map((role) => `role ${role}, public.invoice, select: engine.mjs has ${templateText(changed)}; the permission compiles to ${templateText(original)}`),
        ...['auditor', 'customer'].flatMap((role) => ['invoice', 'invoice_by_pk'].map((field) =>
          `role ${role}, root field ${field}: engine.mjs has ${shown(changed)}; the permission compiles to ${shown(original)}`)),
      ]);
    } finally {
      await rm(edited, { recursive: true, force: true });
    }
  });
});
