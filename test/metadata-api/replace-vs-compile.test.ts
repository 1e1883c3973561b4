// A schema and metadata that are not in the repository (test/cli/external-fixture.ts), served two
// ways: compiled with `kiln compile` and served from the bundle, and loaded at run time with
// replace_metadata into a catalog server. Both must give the same answers to every role, and the
// catalog server's export must compile again (what `kiln compile --metadata` does in CI).

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { loadMetadata } from '../../compiler/metadata/index.js';
import { ensureBuilt, kiln } from '../cli/cli-helpers.js';
import { SCHEMA_SQL, writeMetadataDir } from '../cli/external-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const SECRET = 'replace-secret';
type Server = { port: number; close(): Promise<void> };

const QUERIES: readonly { role?: string; userId?: string; query: string }[] = [
  { query: '{ all_users(order_by: {id: asc}) { id name createdAt orders(order_by: {id: asc}) { amount } } }' },
  { role: 'customer', userId: '1', query: '{ Invoice(order_by: {id: asc}) { id total } }' },
  { role: 'customer', userId: '1', query: '{ Invoice_aggregate { aggregate { count sum { total } } } }' },
  { role: 'customer', userId: '1', query: '{ sales_invoice_item(order_by: {id: asc}) { sku qty invoice { id } } }' },
  { role: 'customer', userId: '2', query: '{ sales_invoice_item { sku } }' },
  { role: 'limited', query: '{ all_users(order_by: {id: asc}) { id } }' },
  { role: 'limited', query: '{ orders(order_by: {id: asc}) { id user { name } } }' },
  { query: '{ orders_aggregate { aggregate { count sum { amount } } } }' },
  { role: 'customer', userId: '1', query: '{ user(id: 1) { name } }' },
];

async function ask(port: number, q: (typeof QUERIES)[number]): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/graphql`, {
    method: 'POST', body: JSON.stringify({ query: q.query }),
    headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET,
      ...(q.role ? { 'x-svc-role': q.role } : {}), ...(q.userId ? { 'x-svc-user-id': q.userId } : {}) },
  });
  return res.json();
}

describe('replace_metadata serves what kiln compile serves', () => {
  let db: TestDatabase;
  let tmp: string;
  let bundled: Server;
  let catalog: Server;

  beforeAll(async () => {
    await ensureBuilt();
    db = await createTestDatabase('replace', SCHEMA_SQL);
    tmp = await mkdtemp(join(tmpdir(), 'kiln-replace-'));
    await writeMetadataDir(join(tmp, 'metadata'));
    const compiled = await kiln(['compile', '--metadata', join(tmp, 'metadata'), '--database-url', db.url, '--out', join(tmp, 'bundle')]);
    expect(compiled.code).toBe(0);
    const common = { databaseUrl: db.url, dataDir: join(tmp, 'unused'), port: 0, host: '127.0.0.1', adminSecret: SECRET, pgConnections: 4, stringifyNumericTypes: false, console: false };
    bundled = await serveCommand({ ...common, bundle: join(tmp, 'bundle') });
    catalog = await serveCommand(common);
    const md = await loadMetadata(join(tmp, 'metadata'));
    expect(md.errors).toEqual([]);
    const r = await fetch(`http://127.0.0.1:${catalog.port}/v1/metadata`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET },
      body: JSON.stringify({ type: 'replace_metadata', args: md.value }),
    });
    expect(await r.json()).toEqual({ message: 'success' });
  }, 120_000);

  afterAll(async () => {
    await catalog?.close();
    await bundled?.close();
    await db?.drop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it.each(QUERIES.map((q) => [q.role ?? 'admin', q.query, q] as const))('role %s: %s', async (_role, _query, q) => {
    const fromBundle = await ask(bundled.port, q);
    const fromCatalog = await ask(catalog.port, q);
    expect(fromCatalog).toEqual(fromBundle);
    expect(JSON.stringify(fromBundle)).not.toContain('"errors"');
  });

  it("compiles the catalog server's export_metadata with kiln compile", async () => {
    const res = await fetch(`http://127.0.0.1:${catalog.port}/v1/metadata`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET },
      body: JSON.stringify({ type: 'export_metadata', version: 2, args: {} }),
    });
    const exported = await res.json();
    await writeFile(join(tmp, 'exported.json'), JSON.stringify(exported));
    const r = await kiln(['compile', '--metadata', join(tmp, 'exported.json'), '--database-url', db.url, '--out', join(tmp, 'bundle2')]);
    expect(r.stderr).toContain('compiled 4 table(s), 3 role(s)');
    expect(r.code).toBe(0);
  });

  it('answers not-supported to metadata writes on a bundle server', async () => {
    const res = await fetch(`http://127.0.0.1:${bundled.port}/v1/metadata`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET },
      body: JSON.stringify({ type: 'pg_track_table', args: { table: 'users' } }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('not-supported');
  });
});
