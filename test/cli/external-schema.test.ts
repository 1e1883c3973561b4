// `kiln introspect | compile | inspect | serve` end to end on a schema and a YAML metadata
// directory that are not in the repository.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { ensureBuilt, freePort, hashDir, kiln, post, serve, type RunResult, type Served } from './cli-helpers.js';
import { SCHEMA_SQL, writeMetadataDir } from './external-fixture.js';

let db: TestDatabase;
let tmp: string;
let out: string;
let compiled: RunResult;
const md = (): string => join(tmp, 'metadata');
const file = (path: string): string => readFileSync(join(out, path), 'utf8');

beforeAll(async () => {
  await ensureBuilt();
  db = await createTestDatabase('cli_ext', SCHEMA_SQL);
  tmp = await mkdtemp(join(tmpdir(), 'kiln-cli-ext-'));
  out = join(tmp, 'bundle');
  await writeMetadataDir(md());
  compiled = await kiln(['compile', '--metadata', md(), '--database-url', db.url, '--out', out]);
}, 90_000);

afterAll(async () => {
  await db?.drop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('kiln compile on a YAML metadata directory', () => {
  it('writes the manifest, the engine module and types, a schema per role and a SQL file per root field', () => {
    expect(compiled.stderr).toContain('compiled 4 table(s), 3 role(s)');
    expect(compiled.code).toBe(0);
    for (const f of ['manifest.json', 'engine.mjs', 'engine.d.ts', 'schema/admin.graphql', 'schema/customer.graphql', 'schema/limited.graphql',
      'sql/admin/all_users.sql', 'sql/customer/sales_invoice_item.sql', 'sql/limited/all_users.sql']) expect(existsSync(join(out, f)), f).toBe(true);
    const manifest = JSON.parse(file('manifest.json')) as { roles: string[]; rootFields: Record<string, string[]>; files: Record<string, string> };
    expect(manifest.roles).toEqual(['admin', 'customer', 'limited']);
    // The manifest's hashes are those of the files on disk (all but itself).
    const onDisk = hashDir(out);
    delete onDisk['manifest.json'];
    expect(manifest.files).toEqual(onDisk);
    expect(manifest.rootFields['limited']).toEqual(['all_users', 'orders', 'orders_by_pk', 'user']);
  });

  it('uses the custom root fields, table name and column names in schemas and file names', () => {
    const admin = file('schema/admin.graphql');
    expect(admin).toMatch(/^\s+all_users\(/m);
    expect(admin).toMatch(/^\s+user\(id: Int!\): users$/m);
    expect(admin).toMatch(/^\s+createdAt: timestamptz!$/m);
    expect(admin).toMatch(/^type Invoice \{/m);
    expect(admin).toMatch(/^\s+Invoice_by_pk\(id: Int!\): Invoice$/m);
    expect(admin).not.toMatch(/^\s+(users|sales_invoice|users_by_pk)\(/m);
    expect(admin).not.toMatch(/^\s+created_at:/m);
    for (const f of ['all_users', 'user', 'users_aggregate', 'Invoice', 'Invoice_by_pk', 'Invoice_aggregate']) expect(existsSync(join(out, 'sql/admin', `${f}.sql`)), f).toBe(true);
    expect(existsSync(join(out, 'sql/admin/users.sql'))).toBe(false);
    expect(existsSync(join(out, 'sql/admin/sales_invoice.sql'))).toBe(false);
  });

  it('gives aggregations only to the role allowed them and hides tables a role cannot read', () => {
    expect(file('schema/customer.graphql')).toMatch(/^\s+Invoice_aggregate\(/m);
    expect(existsSync(join(out, 'sql/customer/Invoice_aggregate.sql'))).toBe(true);
    expect(file('schema/limited.graphql')).not.toContain('_aggregate');
    expect(file('schema/customer.graphql')).not.toMatch(/^\s+orders\(/m);
    expect(existsSync(join(out, 'sql/customer/orders.sql'))).toBe(false);
  });

  it("writes the role's relationship filter with the session variable as a named parameter", () => {
    const text = file('sql/customer/sales_invoice_item.sql');
    expect(text).toContain('-- role: customer');
    expect(text).toContain('-- $1 = session x-svc-user-id');
    expect(text).toMatch(/EXISTS \(\s*SELECT 1\s+FROM "sales"\."invoice" AS "(\w+)"\s+WHERE "\1"\."id" = "\w+"\."invoice_id" AND \("\1"\."customer_id" = \(\$1\)::int4\)\)/);
    expect(file('sql/admin/sales_invoice_item.sql')).not.toContain('x-svc-user-id');
  });

  it('writes the permission limit and the jsonb filter of the limited role as parameters', () => {
    const text = file('sql/limited/all_users.sql');
    const limit = /LIMIT \(\$(\d+)\)::int4/.exec(text);
    expect(limit).not.toBeNull();
    expect(text).toContain(`-- $${limit![1]} = constant 2 :: int4`);
    expect(text).toMatch(/"profile" @> \(\$1\)::jsonb/);
    expect(text).toContain('-- $1 = constant {"active":true} :: jsonb');
  });

  it('writes byte-identical bundles when compiling the same inputs twice', async () => {
    const again = join(tmp, 'again');
    const r = await kiln(['compile', '--quiet', '--metadata', md(), '--database-url', db.url, '--out', again]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(hashDir(again)).toEqual(hashDir(out));
  });

  it('compiles from an introspection snapshot to the same bytes as from the live database', async () => {
    const snap = join(tmp, 'snap.json');
    const written = await kiln(['introspect', '--database-url', db.url, '--out', snap]);
    expect(written.code).toBe(0);
    const toStdout = await kiln(['introspect', '--database-url', db.url]);
    expect(toStdout.stdout).toBe(readFileSync(snap, 'utf8'));
    const tables = (JSON.parse(toStdout.stdout) as { tables: { schema: string; name: string }[] }).tables.map((t) => `${t.schema}.${t.name}`);
    expect(tables).toEqual(expect.arrayContaining(['public.users', 'public.orders', 'sales.invoice', 'sales.invoice_item']));
    const fromSnap = join(tmp, 'from-snapshot');
    const r = await kiln(['compile', '--quiet', '--metadata', md(), '--introspection', snap, '--out', fromSnap]);
    expect(r.code).toBe(0);
    expect(hashDir(fromSnap)).toEqual(hashDir(out));
  });
});

describe('kiln inspect', () => {
  it('prints the stored SQL file of a root field exactly', async () => {
    const r = await kiln(['inspect', '--bundle', out, '--role', 'customer', '--field', 'sales_invoice_item']);
    expect(r.code).toBe(0);
    expect(createHash('sha256').update(r.stdout).digest('hex')).toBe(hashDir(out)['sql/customer/sales_invoice_item.sql']);
  });

  it("prints the SQL a query compiles to for a role, with the role's filter", async () => {
    const q = join(tmp, 'q.graphql');
    await writeFile(q, 'query Items($sku: String) { sales_invoice_item(where: {sku: {_eq: $sku}}) { id sku invoice { total } } }\n');
    const r = await kiln(['inspect', '--bundle', out, '--role', 'customer', '--query', q, '--variables', '{"sku":"A-1"}']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^-- role: customer$/m);
    expect(r.stdout).toMatch(/^-- \$\d+ = session x-svc-user-id :: int4$/m);
    expect(r.stdout).toMatch(/^-- \$\d+ = variable \$sku :: text$/m);
    expect(r.stdout).toMatch(/"customer_id" = \(\$\d+\)::int4/);
    expect(r.stdout).toContain('FROM "sales"."invoice_item"');
    expect(r.stdout).not.toContain('A-1');
  });
});

describe('kiln serve --bundle', () => {
  let server: Served;
  const secret = 'cli-test-secret';
  const as = (role?: string, userId?: string): Record<string, string> => ({
    'X-Svc-Admin-Secret': secret, ...(role ? { 'X-Svc-Role': role } : {}), ...(userId ? { 'X-Svc-User-Id': userId } : {}),
  });
  const data = async (query: string, headers: Record<string, string>, variables?: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const r = await post(server.base, { query, variables }, headers);
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    return r.body.data as Record<string, unknown>;
  };

  beforeAll(async () => {
    const port = await freePort();
    server = await serve(['--bundle', out, '--database-url', db.url, '--port', String(port), '--host', '127.0.0.1', '--admin-secret', secret]);
    expect(server.base).toBe(`http://127.0.0.1:${port}`);
  }, 30_000);

  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('answers the custom root fields with the custom column and type names', async () => {
    const d = await data('{ all_users(order_by: {id: asc}, limit: 2) { id createdAt } user(id: 2) { name } Invoice(where: {id: {_eq: 100}}) { total items(order_by: {id: asc}) { sku } } }', as());
    expect(d).toEqual({
      all_users: [{ id: 1, createdAt: '2024-01-01T10:00:00+00:00' }, { id: 2, createdAt: '2024-01-02T10:00:00+00:00' }],
      user: { name: 'bob' },
      Invoice: [{ total: 19.9, items: [{ sku: 'A-1' }, { sku: 'B-2' }] }],
    });
  });

  it('shows the customer only the rows its relationship-based filter allows', async () => {
    const q = '{ sales_invoice_item(order_by: {id: asc}) { id invoice { id } } Invoice_aggregate { aggregate { count } } all_users { name } }';
    expect(await data(q, as('customer', '1'))).toEqual({
      sales_invoice_item: [{ id: 1000, invoice: { id: 100 } }, { id: 1001, invoice: { id: 100 } }, { id: 1003, invoice: { id: 102 } }],
      Invoice_aggregate: { aggregate: { count: 2 } },
      all_users: [{ name: 'ann' }],
    });
    expect(await data(q, as('customer', '2'))).toEqual({
      sales_invoice_item: [{ id: 1002, invoice: { id: 101 } }], Invoice_aggregate: { aggregate: { count: 1 } }, all_users: [{ name: 'bob' }],
    });
    const denied = await post(server.base, { query: '{ orders { id } }' }, as('customer', '1'));
    expect(denied.body.errors[0].extensions.code).toBe('validation-failed');
  });

  it('caps the limited role at its permission limit whatever limit the query asks for', async () => {
    expect(await data('{ all_users(limit: 10, order_by: {id: asc}) { id } }', as('limited'))).toEqual({ all_users: [{ id: 1 }, { id: 2 }] });
    expect(await data('{ all_users(limit: 10, order_by: {id: desc}) { id } }', as('limited'))).toEqual({ all_users: [{ id: 4 }, { id: 2 }] });
    // The limit is that permission's, not the role's: orders has none.
    expect((await data('{ orders(limit: 10) { id } }', as('limited')))['orders']).toHaveLength(4);
  });

  it('filters a jsonb column with _contains, inline and from a variable', async () => {
    expect(await data('{ all_users(where: {profile: {_contains: {tags: ["a"]}}}, order_by: {id: asc}) { id } }', as()))
      .toEqual({ all_users: [{ id: 1 }, { id: 4 }] });
    expect(await data('query ($p: jsonb) { all_users(where: {profile: {_contains: $p}}, order_by: {id: asc}) { id } }', as(), { p: { tags: ['b'] } }))
      .toEqual({ all_users: [{ id: 2 }, { id: 4 }] });
  });

  it('returns one row per distinct_on value, the first by order_by', async () => {
    expect(await data('{ orders(distinct_on: user_id, order_by: [{user_id: asc}, {amount: asc}]) { user_id amount } }', as('limited'))).toEqual({
      orders: [{ user_id: 1, amount: 5 }, { user_id: 2, amount: 100 }, { user_id: 3, amount: 7.25 }],
    });
  });

  it('answers a batch with one response per request, in order', async () => {
    const r = await post(server.base, [
      { query: 'query ($id: Int!) { user(id: $id) { name } }', variables: { id: 3 } },
      { query: '{ user(id: 1) { name } }' },
    ], as());
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ data: { user: { name: 'cy' } } }, { data: { user: { name: 'ann' } } }]);
  });
});
