// What the command line says and which exit code it gives when the input is wrong.

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { ensureBuilt, kiln } from './cli-helpers.js';

let db: TestDatabase;
let tmp: string;
let bundle: string;

const table = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ table: { schema: 'public', name }, ...extra });
const metadata = (tables: unknown[]): string => JSON.stringify({ version: 3, sources: [{ name: 'default', kind: 'postgres', tables }] });
const reader = { role: 'reader', permission: { columns: ['id', 'name'], filter: { id: { _gt: 0 } } } };

async function metadataFile(name: string, tables: unknown[]): Promise<string> {
  const path = join(tmp, name);
  await writeFile(path, metadata(tables));
  return path;
}

beforeAll(async () => {
  await ensureBuilt();
  db = await createTestDatabase('cli_err', 'CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL)');
  tmp = await mkdtemp(join(tmpdir(), 'kiln-cli-err-'));
  bundle = join(tmp, 'bundle');
  const md = await metadataFile('good.json', [table('items', { select_permissions: [reader] })]);
  const r = await kiln(['compile', '--quiet', '--metadata', md, '--database-url', db.url, '--out', bundle]);
  if (r.code !== 0) throw new Error(`compiling the test bundle failed: ${r.stderr}`);
}, 90_000);

afterAll(async () => {
  await db?.drop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('kiln compile on bad input', () => {
  it('exits 2 with the JSON path and the error code of invalid metadata, writing nothing', async () => {
    const md = await metadataFile('bad.json', [table('items', { select_permissions: [{ role: 'reader', permission: { columns: 5, filter: {} } }] })]);
    const out = join(tmp, 'bad-out');
    const r = await kiln(['compile', '--metadata', md, '--database-url', db.url, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`kiln: metadata at ${md} is not valid:`);
    expect(r.stderr).toMatch(/\$\.sources\[0\]\.tables\[0\]\.select_permissions\[0\]\.permission\.columns: .*\(parse-failed\)/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(out)).toBe(false);
  });

  it('exits 2 on a metadata file that is not JSON', async () => {
    const md = join(tmp, 'truncated.json');
    await writeFile(md, '{"version": 3, "sources": [');
    const r = await kiln(['compile', '--metadata', md, '--database-url', db.url, '--out', join(tmp, 'x')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\$: .*truncated\.json.*\(parse-failed\)/);
  });

  it('exits 1 listing every inconsistent object when the metadata does not fit the database', async () => {
    const md = await metadataFile('missing.json', [
      table('items', { select_permissions: [{ role: 'reader', permission: { columns: ['id', 'ghost'], filter: {} } }] }),
      table('nope'),
    ]);
    const out = join(tmp, 'missing-out');
    const r = await kiln(['compile', '--metadata', md, '--database-url', db.url, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the metadata does not fit the database (2 inconsistent object(s))');
    expect(r.stderr).toMatch(/^ {2}table nope in source default: Inconsistent object: no such table\/view exists in source: "nope"$/m);
    expect(r.stderr).toMatch(/^ {2}select_permission reader in table items in source default: Inconsistent object: in table "items": in permission for role "reader": no such column exists: "ghost"$/m);
    expect(r.stderr).toContain('--allow-inconsistent');
    expect(existsSync(out)).toBe(false);
  });

  it('writes the bundle without the inconsistent objects under --allow-inconsistent', async () => {
    const md = await metadataFile('missing2.json', [table('items', { select_permissions: [reader] }), table('nope')]);
    const out = join(tmp, 'allowed-out');
    const r = await kiln(['compile', '--quiet', '--allow-inconsistent', '--metadata', md, '--database-url', db.url, '--out', out]);
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'sql/reader/items.sql'))).toBe(true);
    expect(existsSync(join(out, 'sql/admin/nope.sql'))).toBe(false);
  });

  it('exits 2 saying what to pass when neither --database-url nor --introspection is given', async () => {
    const r = await kiln(['compile', '--metadata', join(tmp, 'good.json'), '--out', join(tmp, 'y')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('kiln: compile needs --database-url URL or --introspection FILE');
  });

  it('exits 2 on a snapshot that is not an introspection snapshot', async () => {
    const r = await kiln(['compile', '--metadata', join(tmp, 'good.json'), '--introspection', join(tmp, 'good.json'), '--out', join(tmp, 'z')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('good.json is not an introspection snapshot');
  });

  it('fails on an unreachable database without printing its password', async () => {
    const r = await kiln(['compile', '--metadata', join(tmp, 'good.json'), '--database-url', 'postgres://someone:hunter2@127.0.0.1:1/none', '--out', join(tmp, 'w')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('cannot introspect postgres://someone:***@127.0.0.1:1/none');
    expect(r.stderr).not.toContain('hunter2');
  });

  it('exits 2 on a missing required option or an unknown command', async () => {
    const noMetadata = await kiln(['compile', '--database-url', db.url, '--out', join(tmp, 'v')]);
    expect(noMetadata.code).toBe(2);
    expect(noMetadata.stderr).toContain("required option '--metadata <path>' not specified");
    const unknown = await kiln(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
  });
});

describe('kiln inspect on bad input', () => {
  it('names the roles of the bundle when the role is unknown', async () => {
    const r = await kiln(['inspect', '--bundle', bundle, '--role', 'ghost']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no SQL for role "ghost"');
    expect(r.stderr).toContain('roles: admin, reader');
    expect(r.stdout).toBe('');
  });

  it("lists the role's root fields when the field is unknown", async () => {
    const r = await kiln(['inspect', '--bundle', bundle, '--role', 'reader', '--field', 'items_by_pk_typo']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('role "reader" has no root field "items_by_pk_typo"; it has: items, items_by_pk');
  });

  it('refuses a query for an unknown role or a field the role cannot see', async () => {
    const q = join(tmp, 'q.graphql');
    await writeFile(q, '{ items { id name } }');
    const role = await kiln(['inspect', '--bundle', bundle, '--role', 'ghost', '--query', q]);
    expect(role.code).toBe(2);
    expect(role.stderr).toContain('role "ghost" is not in this bundle; roles: admin, reader');
    await writeFile(q, '{ items_aggregate { aggregate { count } } }');
    const field = await kiln(['inspect', '--bundle', bundle, '--role', 'reader', '--query', q]);
    expect(field.code).toBe(1);
    expect(field.stderr).toMatch(/the query does not compile for role "reader": .*items_aggregate.*\(validation-failed\)/);
  });

  it('says when the directory is not a bundle', async () => {
    const r = await kiln(['inspect', '--bundle', join(tmp, 'not-a-bundle'), '--role', 'reader']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a kiln bundle (no manifest.json');
  });
});

describe('kiln --help', () => {
  const options: Record<string, string[]> = {
    introspect: ['--database-url', '--out'],
    compile: ['--metadata', '--database-url', '--introspection', '--out', '--stringify-numeric-types', '--allow-inconsistent', '--quiet', 'Exit codes'],
    inspect: ['--bundle', '--role', '--field', '--query', '--variables'],
    serve: ['--bundle', '--metadata', '--database-url', '--port', '--host', '--admin-secret', '--data-dir'],
  };

  for (const [command, flags] of Object.entries(options)) {
    it(`kiln ${command} --help exits 0 and lists its options`, async () => {
      const r = await kiln([command, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: kiln ${command} [options]`);
      for (const f of flags) expect(r.stdout).toContain(f);
    });
  }

  it('kiln --help lists every command and --version prints the version', async () => {
    const help = await kiln(['--help']);
    expect(help.code).toBe(0);
    for (const c of Object.keys(options)) expect(help.stdout).toMatch(new RegExp(`^\\s+${c} \\[options\\]`, 'm'));
    const version = await kiln(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });
});
