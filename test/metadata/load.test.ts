import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMetadata, parseMetadata } from '../../compiler/metadata/index.js';
import { formatPath } from '../../runtime/errors/index.js';
import { sharedPath } from '../helpers/shared.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Writes `files` (relative path -> text) into a fresh temporary directory. */
async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kiln-metadata-'));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), text);
  }
  return root;
}

const TABLES = 'databases/default/tables';

const layout: Record<string, string> = {
  'version.yaml': 'version: 3\n',
  'databases/databases.yaml': [
    '- name: default',
    '  kind: postgres',
    '  configuration:',
    '    connection_info:',
    '      database_url:',
    '        from_env: PG_DATABASE_URL',
    '      pool_settings:',
    '        max_connections: 10',
    '  tables: "!include default/tables/tables.yaml"',
    '  functions: !include default/functions/functions.yaml',
    '',
  ].join('\n'),
  [`${TABLES}/tables.yaml`]: '- "!include public_author.yaml"\n- !include public_article.yaml\n',
  [`${TABLES}/public_author.yaml`]: [
    'table:', '  name: author', '  schema: public',
    'array_relationships:', '  - name: articles', '    using:', '      foreign_key_constraint_on:',
    '        column: author_id', '        table:', '          name: article', '          schema: public',
    'select_permissions:', '  - role: user', '    permission:', '      columns: "*"', '      filter:',
    '        id:', '          _eq: X-Svc-User-Id', '',
  ].join('\n'),
  [`${TABLES}/public_article.yaml`]: 'table:\n  name: article\n  schema: public\n',
  'databases/default/functions/functions.yaml': '- function:\n    name: search_articles\n    schema: public\n',
  'actions.yaml': 'actions:\n  - name: login\n    definition:\n      handler: http://auth\ncustom_types:\n  objects: []\n',
  'actions.graphql': 'type Mutation { login: String }\n',
  'remote_schemas.yaml': '[]\n',
  'allow_list.yaml': '- collection: allowed\n',
  'query_collections.yaml': '- name: allowed\n  definition:\n    queries: []\n',
  'cron_triggers.yaml': '',
  'inherited_roles.yaml': '[]\n',
  'api_limits.yaml': '{}\n',
  'network.yaml': '{}\n',
  'graphql_schema_introspection.yaml': 'disabled_for_roles: []\n',
};

const expected = {
  version: 3,
  sources: [{
    name: 'default', kind: 'postgres',
    configuration: { connection_info: { database_url: { from_env: 'PG_DATABASE_URL' }, pool_settings: { max_connections: 10 } } },
    tables: [
      { table: { name: 'author', schema: 'public' },
        array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { column: 'author_id', table: { name: 'article', schema: 'public' } } } }],
        select_permissions: [{ role: 'user', permission: { columns: '*', filter: { id: { _eq: 'X-Svc-User-Id' } } } }] },
      { table: { name: 'article', schema: 'public' } },
    ],
    functions: [{ function: { name: 'search_articles', schema: 'public' } }],
  }],
  remote_schemas: [],
  allowlist: [{ collection: 'allowed' }],
  query_collections: [{ name: 'allowed', definition: { queries: [] } }],
  inherited_roles: [],
  api_limits: {},
  network: {},
  graphql_schema_introspection: { disabled_for_roles: [] },
  actions: [{ name: 'login', definition: { handler: 'http://auth' } }],
  custom_types: { objects: [] },
};

function described(errors: readonly { code: string; path: readonly (string | number)[]; message: string }[]): string[][] {
  return errors.map((e) => [e.code, formatPath(e.path), e.message]);
}

describe('loading a metadata directory', () => {
  it('follows !include (tag and quoted string) and reads every section file', async () => {
    const root = await tree(layout);
    const r = await loadMetadata(root);
    expect(described(r.errors)).toEqual([]);
    expect(r.value).toEqual(parseMetadata(expected).value);
  });

  it('reports a missing included file once, naming the file, at the place it belonged', async () => {
    const { [`${TABLES}/public_article.yaml`]: _gone, ...files } = layout;
    const root = await tree(files);
    const r = await loadMetadata(root);
    expect(r.value).toBeNull();
    const file = join(root, TABLES, 'public_article.yaml');
    expect(described(r.errors)).toEqual([['parse-failed', '$.sources[0].tables[1]', `cannot read ${file}: file not found`]]);
  });

  it('reports a YAML syntax error with the file name', async () => {
    const root = await tree({ ...layout, [`${TABLES}/public_article.yaml`]: 'table:\n  name: [article\n' });
    const r = await loadMetadata(root);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.code).toBe('parse-failed');
    expect(formatPath(r.errors[0]!.path)).toBe('$.sources[0].tables[1]');
    expect(r.errors[0]!.message.startsWith(`${join(root, TABLES, 'public_article.yaml')}: `)).toBe(true);
  });

  it('names the included file that holds a bad value', async () => {
    const bad = layout[`${TABLES}/public_author.yaml`]!.replace('columns: "*"', 'columns: 7');
    const root = await tree({ ...layout, [`${TABLES}/public_author.yaml`]: bad });
    const r = await loadMetadata(root);
    expect(described(r.errors)).toEqual([[
      'parse-failed', '$.sources[0].tables[0].select_permissions[0].permission.columns',
      `parsing PermColSpec failed, expected "*" or an array of column names, but encountered Number (in ${join(root, TABLES, 'public_author.yaml')})`,
    ]]);
  });

  it('refuses an include cycle', async () => {
    const root = await tree({ ...layout, [`${TABLES}/tables.yaml`]: '- "!include tables.yaml"\n' });
    const r = await loadMetadata(root);
    expect(r.value).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(formatPath(r.errors[0]!.path)).toBe('$.sources[0].tables[0]');
    expect(r.errors[0]!.message).toContain('!include cycle');
  });

  it('reads the older directory layout (version 2, tables.yaml at the top)', async () => {
    const root = await tree({ 'version.yaml': 'version: 2\n', 'tables.yaml': '- table:\n    name: author\n    schema: public\n', 'functions.yaml': '- name: f\n  schema: public\n' });
    const r = await loadMetadata(root);
    expect(described(r.errors)).toEqual([]);
    expect(r.value?.sources).toEqual([{ name: 'default', kind: 'postgres', configuration: {},
      tables: [{ table: { schema: 'public', name: 'author' } }], functions: [{ function: { schema: 'public', name: 'f' } }] }]);
  });

  it('refuses a directory that is not a metadata directory', async () => {
    const root = await tree({ 'readme.txt': 'hello' });
    const r = await loadMetadata(root);
    expect(r.value).toBeNull();
    expect(described(r.errors)).toEqual([['parse-failed', '$', `${root} is not a metadata directory: ${join(root, 'version.yaml')} not found`]]);
  });
});

describe('loading a metadata file', () => {
  it('reads a JSON export', async () => {
    const r = await loadMetadata(sharedPath('bench', 'metadata.json'));
    expect(r.errors).toEqual([]);
    expect(r.value?.sources[0]?.name).toBe('default');
  });

  it('reports a file that is not JSON, naming it', async () => {
    const root = await tree({ 'metadata.json': '{"version": 3,' });
    const r = await loadMetadata(join(root, 'metadata.json'));
    expect(r.value).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.code).toBe('parse-failed');
    expect(r.errors[0]!.message.startsWith(`${join(root, 'metadata.json')}: `)).toBe(true);
  });

  it('reads a single YAML file with includes', async () => {
    const root = await tree({ 'md.yaml': 'version: 3\nsources: !include sources.yaml\n', 'sources.yaml': '- name: s\n  kind: mssql\n  tables: []\n' });
    const r = await loadMetadata(join(root, 'md.yaml'));
    expect(r.errors).toEqual([]);
    expect(r.value?.sources).toEqual([{ name: 's', kind: 'mssql', tables: [], configuration: {} }]);
  });

  it('reports a path that does not exist', async () => {
    const r = await loadMetadata('/nonexistent/kiln/metadata.json');
    expect(r.value).toBeNull();
    expect(described(r.errors).map(([c, p]) => [c, p])).toEqual([['parse-failed', '$']]);
    expect(r.errors[0]!.message).toContain('/nonexistent/kiln/metadata.json');
  });
});
