// The importer's parts in process: the vendor-word renames over every place metadata holds them
// (actions, remote schemas, keys), and the migration reader on mixed and clashing layouts.

import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HasuraProjectError, importHasura, readMigrations, renameVendorWords, type RenameCounts } from '../../compiler/import-hasura/index.js';

describe('renameVendorWords', () => {
  it('renames headers of actions and remote schemas, env references and remote-schema presets, keeping case', () => {
    const counts: RenameCounts = {};
    const doc = {
      actions: [{ name: 'login', definition: {
        handler: '{{HASURA_GRAPHQL_ACTIONS_URL}}/login',
        headers: [{ name: 'X-Hasura-Action-Key', value_from_env: 'HASURA_GRAPHQL_ACTION_KEY' }],
      } }],
      remote_schemas: [{ name: 'payments', definition: {
        url_from_env: 'HASURA_GRAPHQL_PAYMENTS_URL', forward_client_headers: true,
        headers: [{ name: 'x-hasura-role', value: 'payments' }],
      }, permissions: [{ role: 'user', definition: { schema: 'type Query { invoices(user: ID @preset(value: "x-hasura-user-id")): [ID] }' } }] }],
      // A key naming a session variable (as in a claims map) is renamed too.
      network: { note: { 'X-Hasura-Org-Id': 'kept as a key' } },
      untouched: 'hasura is a word of its own here',
    };
    const out = renameVendorWords(doc, counts) as typeof doc;
    expect(out.actions[0]!.definition).toEqual({
      handler: '{{SVC_GRAPHQL_ACTIONS_URL}}/login',
      headers: [{ name: 'X-Svc-Action-Key', value_from_env: 'SVC_GRAPHQL_ACTION_KEY' }],
    });
    expect(out.remote_schemas[0]!.definition.url_from_env).toBe('SVC_GRAPHQL_PAYMENTS_URL');
    expect(out.remote_schemas[0]!.definition.headers).toEqual([{ name: 'x-svc-role', value: 'payments' }]);
    expect(out.remote_schemas[0]!.permissions[0]!.definition.schema).toContain('@preset(value: "x-svc-user-id")');
    expect(out.network).toEqual({ note: { 'X-Svc-Org-Id': 'kept as a key' } });
    expect(out.untouched).toBe('hasura is a word of its own here');
    expect(counts).toEqual({ 'environment reference': 3, header: 2, 'remote schema preset': 1, other: 1 });
  });
});

describe('readMigrations', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'kiln-migrations-')); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  const file = async (path: string, text: string): Promise<void> => {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  };

  it('reads per-database folders, orders versions as numbers and joins flat up/down files', async () => {
    await file('v3/default/900_b/up.sql', 'B');
    await file('v3/default/1000_c.up.sql', 'C');
    await file('v3/default/1000_c.down.sql', 'c');
    await file('v3/default/80_a/up.sql', 'A');
    await file('v3/default/80_a/up.yaml', '[]');
    await file('v3/other/5_x/up.sql', 'X');
    const all = await readMigrations(join(dir, 'v3'));
    expect([...all.keys()]).toEqual(['default', 'other']);
    expect(all.get('default')!.map((m) => [m.version, m.name, m.up, m.down, m.yaml.length])).toEqual([
      ['80', 'a', 'A', undefined, 1], ['900', 'b', 'B', undefined, 0], ['1000', 'c', 'C', 'c', 0],
    ]);
    expect(all.get('other')!.map((m) => m.version)).toEqual(['5']);
  });

  it('refuses two migrations with one version', async () => {
    await file('clash/10_first/up.sql', 'A');
    await file('clash/10_second.up.sql', 'B');
    await expect(readMigrations(join(dir, 'clash'))).rejects.toThrow(HasuraProjectError);
    await expect(readMigrations(join(dir, 'clash'))).rejects.toThrow('two migrations have version 10 ("first" and "second")');
  });

  it('reads an absent folder as no migrations', async () => {
    expect((await readMigrations(join(dir, 'none'))).size).toBe(0);
  });
});

describe('importHasura', () => {
  it('carries a remote schema with its URL variable renamed, and says that Kiln does not serve it yet', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kiln-import-remote-'));
    try {
      const project = join(dir, 'project');
      await cp(join(import.meta.dirname, '..', 'fixtures', 'hasura-v2'), project, { recursive: true });
      await writeFile(join(project, 'metadata', 'remote_schemas.yaml'),
        '- name: payments\n  definition:\n    url_from_env: HASURA_GRAPHQL_PAYMENTS_URL\n    timeout_seconds: 60\n  comment: ""\n');
      const report = await importHasura(project, join(dir, 'out'));
      expect(report.notCarried).toContain('1 remote schema(s): carried and checked, not served at run time yet');
      // The fixture's two cron references and this one.
      expect(report.renamed['environment reference']).toBe(3);
      expect(report.notCarried.filter((l) => l.startsWith('Kiln cannot read'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps a source name with path characters inside the output folder, and reports seeds', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kiln-import-names-'));
    try {
      const project = join(dir, 'project');
      await cp(join(import.meta.dirname, '..', 'fixtures', 'hasura-v3'), project, { recursive: true });
      const file = join(project, 'metadata', 'databases', 'databases.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace('- name: default', '- name: ../../escaped'));
      await mkdir(join(project, 'seeds', 'default'), { recursive: true });
      await writeFile(join(project, 'seeds', 'default', '1_authors.sql'), 'SELECT 1;');
      const report = await importHasura(project, join(dir, 'out'));
      expect(existsSync(join(dir, 'out', 'metadata', 'databases', '______escaped', 'tables', 'public_author.yaml'))).toBe(true);
      expect(existsSync(join(dir, 'escaped'))).toBe(false);
      expect(report.tables).toBe(2);
      expect(report.notCarried).toContain('seeds/ (hasura seed apply): not carried; run the seed files with psql after kiln migrate apply');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
