import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMetadata, type Metadata } from '../../compiler/metadata/index.js';
import { sharedPath } from '../helpers/shared.js';

function ok(doc: unknown): Metadata {
  const r = parseMetadata(doc);
  expect(r.errors.map((e) => e.message)).toEqual([]);
  expect(r.value).not.toBeNull();
  return r.value as Metadata;
}

const v3 = {
  version: 3,
  sources: [{
    name: 'default',
    kind: 'postgres',
    configuration: { connection_info: { database_url: { from_env: 'PG_URL' }, pool_settings: { max_connections: 5 }, use_prepared_statements: true } },
    customization: { root_fields: { namespace: 'db1', prefix: 'p_' }, type_names: { suffix: '_t' } },
    tables: [
      {
        table: { schema: 'public', name: 'author' },
        configuration: { custom_name: 'writer', custom_root_fields: { select: 'writers', select_by_pk: { name: 'writer', comment: 'one' }, insert: null } },
        array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'author_id' } } }],
        select_permissions: [{ role: 'user', permission: { columns: '*', filter: { id: { _eq: 'X-Svc-User-Id' } }, limit: 10, allow_aggregations: true } }],
        insert_permissions: [{ role: 'user', permission: { check: {}, columns: ['name'], backend_only: false } }],
        event_triggers: [{ name: 'author_created', definition: { insert: { columns: '*' } } }],
      },
      {
        table: { schema: 'public', name: 'article' },
        object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: null }],
        computed_fields: [{ name: 'excerpt', definition: { function: { schema: 'public', name: 'excerpt' }, table_argument: null } }],
      },
    ],
    functions: [{ function: { schema: 'public', name: 'search_articles' }, configuration: { exposed_as: 'query' }, permissions: [{ role: 'user' }] }],
  }],
  remote_schemas: [{ name: 'rs', definition: { url: 'http://x' } }],
  query_collections: [{ name: 'allowed', definition: { queries: [{ name: 'q', query: 'query { a }' }] } }],
  allowlist: [{ collection: 'allowed', scope: { global: true } }],
  actions: [{ name: 'login', definition: { handler: 'http://h' } }],
  custom_types: { objects: [], scalars: [] },
  cron_triggers: [{ name: 'c', webhook: 'http://w', schedule: '* * * * *', include_in_metadata: true }],
  rest_endpoints: [{ name: 'e', url: 'e', methods: ['GET'] }],
  inherited_roles: [{ role_name: 'both', role_set: ['a', 'b'] }],
  api_limits: { disabled: false },
  graphql_schema_introspection: { disabled_for_roles: [] },
};

describe('accepted shapes', () => {
  it('reads the version 3 export shape and keeps the unmodelled sections as raw JSON', () => {
    const md = ok(v3);
    const src = md.sources[0]!;
    expect(src.name).toBe('default');
    expect(src.kind).toBe('postgres');
    expect(src.configuration.connection_info?.database_url).toEqual({ from_env: 'PG_URL' });
    expect(src.configuration.connection_info?.['use_prepared_statements']).toBe(true);
    expect(src.customization).toEqual({ root_fields: { namespace: 'db1', prefix: 'p_' }, type_names: { suffix: '_t' } });
    expect(src.tables.map((t) => t.table.name)).toEqual(['author', 'article']);
    const author = src.tables[0]!;
    expect(author.configuration?.custom_root_fields).toEqual({ select: 'writers', select_by_pk: { name: 'writer', comment: 'one' }, insert: null });
    expect(author.select_permissions?.[0]?.permission.columns).toBe('*');
    expect(author.select_permissions?.[0]?.permission.limit).toBe(10);
    expect(author.insert_permissions?.[0]?.permission).toEqual({ check: {}, columns: ['name'], backend_only: false });
    expect(author.event_triggers).toEqual(v3.sources[0]!.tables[0]!.event_triggers);
    expect(src.tables[1]!.object_relationships).toEqual([{ name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: null }]);
    expect(src.tables[1]!.computed_fields?.[0]?.definition).toEqual({ function: { schema: 'public', name: 'excerpt' }, table_argument: null });
    expect(src.functions?.[0]).toEqual(v3.sources[0]!.functions[0]);
    for (const key of ['remote_schemas', 'query_collections', 'allowlist', 'actions', 'custom_types', 'cron_triggers', 'rest_endpoints', 'inherited_roles', 'api_limits', 'graphql_schema_introspection'] as const) {
      expect(md[key]).toEqual(v3[key]);
    }
  });

  it('unwraps the version 2 export {resource_version, metadata}', () => {
    expect(ok({ resource_version: 8, metadata: v3 })).toEqual(ok(v3));
    expect(ok({ allow_inconsistent_metadata: true, metadata: v3 })).toEqual(ok(v3));
  });

  it('reads the older tables-at-the-top form as one postgres source named default, without a URL', () => {
    const legacy = {
      version: 2,
      tables: [
        { table: 'author', array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } }] },
        { table: { schema: 'blog', name: 'article' }, select_permissions: [{ role: 'anon', permission: { columns: ['id'], filter: {} } }] },
      ],
      functions: ['search_articles', { schema: 'blog', name: 'top' }],
      remote_schemas: [],
    };
    const md = ok(legacy);
    expect(md.version).toBe(3);
    expect(md.sources).toHaveLength(1);
    const src = md.sources[0]!;
    expect(src).toMatchObject({ name: 'default', kind: 'postgres', configuration: {} });
    expect(src.configuration.connection_info).toBeUndefined();
    expect(src.tables[0]!.table).toEqual({ schema: 'public', name: 'author' });
    expect(src.tables[0]!.array_relationships?.[0]?.using.foreign_key_constraint_on).toEqual({ table: { schema: 'public', name: 'article' }, column: 'author_id' });
    expect(src.tables[1]!.table).toEqual({ schema: 'blog', name: 'article' });
    expect(src.functions).toEqual([{ function: { schema: 'public', name: 'search_articles' } }, { function: { schema: 'blog', name: 'top' } }]);
    expect(md.remote_schemas).toEqual([]);
    // version 1 and a missing version read the same way (the replace_metadata_wo_rs corpus case)
    expect(ok({ ...legacy, version: 1 })).toEqual(md);
    const { version: _v, ...noVersion } = legacy;
    expect(ok(noVersion)).toEqual(md);
  });

  it('merges custom_column_names and column_config both ways', () => {
    const md = ok({ version: 3, sources: [{ name: 's', kind: 'postgres', tables: [{
      table: 't',
      configuration: { custom_column_names: { a: 'aa', b: 'bb' }, column_config: { b: { custom_name: 'bbb', comment: 'x' }, c: { comment: 'only' } } },
    }] }] });
    expect(md.sources[0]!.tables[0]!.configuration).toEqual({
      custom_column_names: { a: 'aa', b: 'bbb' },
      column_config: { a: { custom_name: 'aa' }, b: { custom_name: 'bbb', comment: 'x' }, c: { comment: 'only' } },
    });
  });

  it('uses each kind\'s default schema for plain-string names and accepts the pg alias', () => {
    const md = ok({ version: 3, sources: [
      { name: 'ms', kind: 'mssql', tables: [{ table: 'orders' }], configuration: { connection_info: { connection_string: 'Server=x' } } },
      { name: 'pg', kind: 'pg', tables: [{ table: 'orders' }] },
      { name: 'bq', kind: 'bigquery', tables: [{ table: { dataset: 'ds', name: 'orders' } }] },
    ] });
    expect(md.sources.map((s) => [s.kind, s.tables[0]!.table.schema])).toEqual([['mssql', 'dbo'], ['postgres', 'public'], ['bigquery', 'ds']]);
  });

  it('turns connection parameters into a literal URL with escaped parts', () => {
    const md = ok({ version: 3, sources: [{ name: 's', kind: 'postgres', tables: [], configuration: { connection_info: {
      database_url: { connection_parameters: { host: 'db', port: 5433, username: 'me', password: 'p@ss/w', database: 'app' } } } } }] });
    expect(md.sources[0]!.configuration.connection_info?.database_url).toBe('postgres://me:p%40ss%2Fw@db:5433/app');
  });

  it('drops nulls of optional keys as Hasura does, but keeps explicit null comments and limits', () => {
    const md = ok({ version: 3, sources: [{ name: 's', kind: 'postgres', tables: [{
      table: 't', is_enum: null, configuration: null,
      select_permissions: [{ role: 'r', comment: null, permission: { columns: [], limit: null, filter: {}, computed_fields: null } }],
    }] }] });
    expect(md.sources[0]!.tables[0]).toEqual({
      table: { schema: 'public', name: 't' },
      select_permissions: [{ role: 'r', comment: null, permission: { columns: [], limit: null, filter: {} } }],
    });
  });

  it('reads the benchmark metadata, which is already canonical, back unchanged', () => {
    const doc: unknown = JSON.parse(readFileSync(sharedPath('bench', 'metadata.json'), 'utf8'));
    const md = ok(doc);
    expect(md.sources[0]!.tables.map((t) => t.table.name)).toContain('track');
    expect(md).toStrictEqual(doc);
  });

  it('reads the replace_metadata documents of the conformance corpus', () => {
    const dir = sharedPath('conformance', 'corpus', 'queries', 'v1', 'metadata');
    for (const file of ['replace_metadata_wo_rs.json', 'replace_metadata_allow_inconsistent.json']) {
      const { query } = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as { query: { args: unknown } };
      const md = ok(query.args);
      expect(md.sources.map((s) => s.name)).toEqual(['default']);
      expect(md.sources[0]!.tables.map((t) => t.table)).toContainEqual({ schema: 'public', name: 'author' });
    }
  });

  it('gives the same value when the canonical form is read again', () => {
    const once = ok(v3);
    expect(ok(JSON.parse(JSON.stringify(once)))).toEqual(once);
  });
});
