// The command line on an MSSQL source with no server: `kiln compile` of Chinook in dbo from the
// shipped snapshot writes T-SQL for every role and root field, `kiln check` passes on the bundle,
// `kiln inspect --query` prints the T-SQL of a query for a role.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, kiln, ROOT } from '../cli/cli-helpers.js';
import { validateTsql } from './tsql.js';

let dir: string;
beforeAll(async () => {
  await ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), 'kiln-mssql20-'));
}, 300_000);
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('kiln on an MSSQL source', () => {
  it('compiles from the shipped snapshot, checks, and inspects a query in T-SQL', async () => {
    const out = join(dir, 'bundle');
    const compiled = await kiln(['compile', '--metadata', join(ROOT, 'fixtures/chinook-mssql/metadata.json'),
      '--introspection', join(ROOT, 'fixtures/chinook-mssql/introspection.json'), '--out', out, '--quiet']);
    expect(compiled.code, compiled.stderr).toBe(0);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as { sources: unknown; rootFields: Record<string, string[]> };
    expect(manifest.sources).toEqual([{ name: 'default', dialect: 'mssql' }]);
    expect(manifest.rootFields['customer']).toEqual(expect.arrayContaining(['invoice', 'invoice_by_pk', 'invoice_line']));

    const checked = await kiln(['check', '--bundle', out, '--json']);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    const report = JSON.parse(checked.stdout) as { ok: boolean; references: number; statements: number; ir: { checked: number; problems: string[] } };
    expect(report).toMatchObject({ ok: true, ir: { problems: [] } });
    expect(report.references).toBeGreaterThan(report.statements);
    expect(report.ir.checked).toBeGreaterThan(100);

    const query = join(dir, 'q.graphql');
    await writeFile(query, '{ invoice(where: {total: {_gt: 10}}, order_by: {invoice_date: desc}, limit: 3) { invoice_id invoice_lines { unit_price quantity } } }');
    const inspected = await kiln(['inspect', '--bundle', out, '--role', 'customer', '--query', query]);
    expect(inspected.code, inspected.stderr).toBe(0);
    expect(inspected.stdout).toContain('-- @p1 = constant 3 :: int');
    expect(inspected.stdout).toMatch(/session x-svc-customer-id/);
    expect(inspected.stdout).toContain('OUTER APPLY');
    const statement = inspected.stdout.split('\n').filter((l) => !l.startsWith('--')).join('\n');
    expect(await validateTsql(statement)).toEqual([]);
  });
});
