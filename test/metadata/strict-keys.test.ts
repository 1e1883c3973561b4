// Strict keys in metadata documents: an unknown key anywhere is refused at its path with a
// "did you mean" hint, a key Hasura takes and Kiln does not implement is refused as such, and every
// key Kiln's own exports (and Hasura's) carry is still accepted.
import { describe, expect, it } from 'vitest';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { formatPath, nearestKey } from '../../runtime/errors/index.js';

const problems = (doc: unknown) => parseMetadata(doc).errors.map((e) => ({ code: e.code, path: formatPath(e.path), error: e.message }));
const source = (extra: object) => ({ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://x' } }, tables: [], ...extra });
const v3 = (...sources: object[]) => ({ version: 3, sources });

describe('unknown metadata keys', () => {
  it('a misspelt tables is refused at $.sources[0].tabels with a hint, and nothing is read', () => {
    const r = parseMetadata(v3({ name: 'default', kind: 'postgres', configuration: {}, tabels: [{ table: 'author' }] }));
    expect(r.value).toBeNull();
    expect(problems(v3({ name: 'default', kind: 'postgres', configuration: {}, tabels: [] }))).toEqual([{
      code: 'parse-failed', path: '$.sources[0].tabels',
      error: expect.stringMatching(/^unknown key "tabels" in a source; did you mean "tables"\? \(expected one of .*tables/),
    }]);
  });

  it('is found at every depth: top, source, table, relationship, permission, configuration, section entries', () => {
    const doc = {
      version: 3,
      sourcess: [],
      sources: [source({
        configuration: { connection_info: { database_url: 'postgres://x', pool_setings: {} } },
        tables: [{
          table: { schema: 'public', nmae: 'author' },
          object_relationships: [{ name: 'a', using: { foreign_key_constraint_on: 'x' }, coment: 'c' }],
          array_relationships: [{ name: 'b', using: { manual_configuration: { remote_table: 'x', column_mapping: { id: 'id' }, insertion_ordr: null } } }],
          select_permissions: [{ role: 'user', permission: { columns: '*', fliter: {} } }],
          configuration: { custom_root_fields: { selectt: 'x' }, column_config: { id: { custom_nam: 'x' } } },
        }],
      })],
      actions: [{ name: 'a', definition: { handler: 'http://x', output_type: 'T', arguments: [{ name: 'x', type: 'Int', descripton: '' }] } }],
      cron_triggers: [{ name: 'c', webhook: 'http://x', schedule: '* * * * *', retry_conf: { num_retrys: 1 } }],
    };
    const unknown = problems(doc).filter((p) => p.error.startsWith('unknown key'));
    expect(unknown.map((p) => [p.path, p.error.match(/did you mean "([^"]+)"/)?.[1]]).sort()).toEqual([
      ['$.sourcess', 'sources'],
      ['$.sources[0].configuration.connection_info.pool_setings', 'pool_settings'],
      ['$.sources[0].tables[0].table.nmae', 'name'],
      ['$.sources[0].tables[0].configuration.custom_root_fields.selectt', 'select'],
      ['$.sources[0].tables[0].configuration.column_config.id.custom_nam', 'custom_name'],
      ['$.sources[0].tables[0].object_relationships[0].coment', 'comment'],
      ['$.sources[0].tables[0].array_relationships[0].using.manual_configuration.insertion_ordr', 'insertion_order'],
      ['$.sources[0].tables[0].select_permissions[0].permission.fliter', 'filter'],
      ['$.actions[0].definition.arguments[0].descripton', 'description'],
      ['$.cron_triggers[0].retry_conf.num_retrys', 'num_retries'],
    ].sort());
    expect(parseMetadata(doc).value).toBeNull();
  });

  it('in the export wrapper and in versions 1 and 2 (tables at the top)', () => {
    expect(problems({ resource_version: 2, metadata: v3(), allow_inconsistent: true }).map((p) => p.path)).toEqual(['$.allow_inconsistent']);
    expect(problems({ resource_version: 2, metadata: { version: 3, sources: [], remote_schema: [] } }).map((p) => p.path)).toEqual(['$.metadata.remote_schema']);
    expect(problems({ version: 2, tables: [{ table: 'a', is_enm: true }] })).toEqual([
      { code: 'parse-failed', path: '$.tables[0].is_enm', error: expect.stringContaining('did you mean "is_enum"?') },
    ]);
    // `sources` is a version 3 key: a legacy document that has it is version 3.
    expect(problems({ version: 1, tables: [], sources: [] }).map((p) => p.path)).toEqual(['$.sources']);
  });

  it('a key far from every known one gets no hint, only the list', () => {
    const [p] = problems(v3(source({ zzzzzz: 1 })));
    expect(p!.error).not.toContain('did you mean');
    expect(p!.error).toContain('expected one of configuration, customization, functions, kind, name, query_tags, tables');
  });
});

describe('relationships of a remote schema', () => {
  const doc = (group: Record<string, unknown>) => ({ ...v3(source({})), remote_schemas: [{ name: 'r', definition: { url: 'http://x' }, remote_relationships: [group] }] });
  it('are read in Hasura\'s shape, and an unknown key in them is refused with its path', () => {
    expect(problems(doc({ type_name: 'T', relationships: [{ name: 'x', definition: { to_source: {} } }] }))).toEqual([]);
    const ps = problems(doc({ type_name: 'T', relationships: [{ name: 'x', definition: {}, bogus: 1 }] }));
    expect(ps.map((p) => p.path)).toEqual(['$.remote_schemas[0].remote_relationships[0].relationships[0].bogus']);
  });
});

describe('keys Hasura takes that Kiln does not implement', () => {
  it.each([
    [v3(source({ configuration: { connection_info: { database_url: 'x' }, connection_template: {} } })), '$.sources[0].configuration.connection_template', /dynamic routing/],
    [v3(source({ configuration: { connection_info: { database_url: 'x', ssl_configuration: {} } } })), '$.sources[0].configuration.connection_info.ssl_configuration', /TLS/],
    [v3(source({ native_queries: [] })), '$.sources[0].native_queries', /native queries/],
    [v3(source({ tables: [{ table: 'a', update_permissions: [{ role: 'u', permission: { columns: '*', filter: {}, validate_input: { type: 'http' } } }] }] })),
      '$.sources[0].tables[0].update_permissions[0].permission.validate_input', /validate_input would accept unchecked input/],
  ])('%#: refused as not implemented', (doc, path, reason) => {
    const ps = problems(doc);
    expect(ps).toEqual([{ code: 'not-supported', path, error: expect.stringMatching(reason) }]);
    expect(ps[0]!.error).toContain('is not implemented by Kiln');
  });

  it('an explicit null asks for nothing and is accepted', () => {
    expect(problems(v3(source({ native_queries: null })))).toEqual([]);
  });
});

describe('keys Hasura and Kiln know are accepted', () => {
  it('a document with every section and the keys Hasura exports', () => {
    const doc = {
      version: 3,
      sources: [{
        name: 'default', kind: 'postgres',
        configuration: {
          connection_info: {
            database_url: { from_env: 'SVC_GRAPHQL_DATABASE_URL' }, isolation_level: 'read-committed', use_prepared_statements: true,
            pool_settings: { connection_lifetime: 600, retries: 1, idle_timeout: 180, max_connections: 50, pool_timeout: 10, total_max_connections: 100 },
          },
          extensions_schema: 'public',
        },
        query_tags: { disabled: false, format: 'standard', omit_request_id: true },
        customization: { root_fields: { namespace: 'db', prefix: 'p_', suffix: '_s' }, type_names: { prefix: 'P', suffix: 'S' }, naming_convention: 'hasura-default' },
        tables: [{
          table: { schema: 'public', name: 'author' }, is_enum: false,
          configuration: { custom_name: 'Author', comment: 'c', custom_root_fields: { select: 'authors', select_by_pk: { name: 'author', comment: 'one' } }, column_config: { id: { custom_name: 'ident', comment: 'c' } }, custom_column_names: { id: 'ident' } },
          object_relationships: [{ name: 'o', using: { foreign_key_constraint_on: 'x' }, comment: null }],
          array_relationships: [{ name: 'a', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, columns: ['author_id'] } } }],
          computed_fields: [{ name: 'f', definition: { function: { schema: 'public', name: 'f' }, table_argument: null, session_argument: null }, comment: 'c' }],
          select_permissions: [{ role: 'user', permission: { columns: '*', computed_fields: [], filter: {}, limit: 1, allow_aggregations: true, query_root_fields: ['select'], subscription_root_fields: null }, comment: 'c' }],
          insert_permissions: [{ role: 'user', permission: { check: {}, set: {}, columns: '*', backend_only: false } }],
          update_permissions: [{ role: 'user', permission: { columns: '*', filter: {}, check: null, set: {}, backend_only: false } }],
          delete_permissions: [{ role: 'user', permission: { filter: {}, backend_only: false } }],
          event_triggers: [{ name: 'e', definition: { enable_manual: true, insert: { columns: '*' }, update: { columns: ['id'], payload: '*' } }, retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60 }, webhook: 'http://x', headers: [{ name: 'h', value_from_env: 'E' }], request_transform: { version: 2, template_engine: 'Kriti' } }],
        }],
        functions: [{ function: { schema: 'public', name: 'f' }, configuration: { custom_name: 'g', custom_root_fields: { function: 'g1', function_aggregate: 'g2' }, session_argument: 's', exposed_as: 'query' }, permissions: [{ role: 'user' }], comment: 'c' }],
      }],
      remote_schemas: [{ name: 'r', definition: { url: 'http://x', headers: [{ name: 'a', value: 'b' }], forward_client_headers: true, timeout_seconds: 60, customization: { root_fields_namespace: 'n' } }, comment: 'c', permissions: [{ role: 'u', definition: { schema: 'type Query { a: Int }' } }] }],
      query_collections: [{ name: 'q', definition: { queries: [{ name: 'a', query: 'query { a }' }] }, comment: 'c' }],
      allowlist: [{ collection: 'q', scope: { global: false, roles: ['u'] } }],
      actions: [{ name: 'a', definition: { handler: 'http://x', output_type: 'O', arguments: [{ name: 'x', type: 'Int', description: 'd' }], type: 'mutation', kind: 'synchronous', headers: [], forward_client_headers: false, timeout: 30 }, comment: 'c', permissions: [{ role: 'u' }] }],
      custom_types: { input_objects: [{ name: 'I', fields: [{ name: 'x', type: 'Int' }] }], objects: [{ name: 'O', fields: [{ name: 'x', type: 'Int' }], relationships: [{ name: 'r', type: 'object', remote_table: 'author', field_mapping: { x: 'id' } }] }], scalars: [{ name: 'S' }], enums: [{ name: 'E', values: [{ value: 'A', is_deprecated: false }] }] },
      cron_triggers: [{ name: 'c', webhook: 'http://x', schedule: '* * * * *', payload: {}, include_in_metadata: true, retry_conf: { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 }, comment: 'c' }],
      rest_endpoints: [{ name: 'e', url: 'e', methods: ['GET'], definition: { query: { collection_name: 'q', query_name: 'a' } }, comment: 'c' }],
      api_limits: { disabled: false, depth_limit: { global: 5, per_role: { u: 2 } }, node_limit: { global: 5 }, batch_limit: { global: 2 }, time_limit: { global: 10 }, rate_limit: { global: { max_reqs_per_min: 10, unique_params: 'IP' }, per_role: { u: { max_reqs_per_min: 1, unique_params: ['x-svc-user-id'] } } } },
      inherited_roles: [{ role_name: 'm', role_set: ['u'] }],
      graphql_schema_introspection: { disabled_for_roles: ['u'] },
      network: { tls_allowlist: [{ host: 'h', suffix: 's', permissions: ['self-signed'] }] },
      backend_configs: { dataconnector: {} },
      opentelemetry: { status: 'disabled' },
      metrics_config: { analyze_query_variables: true, analyze_response_body: false },
    };
    expect(problems(doc)).toEqual([]);
    expect(parseMetadata(doc).value?.sources[0]?.query_tags).toEqual({ disabled: false, format: 'standard', omit_request_id: true });
  });
});

describe('nearestKey', () => {
  it('finds slips within a third of the key, and nothing for strangers', () => {
    expect(nearestKey('tabels', ['tables', 'functions'])).toBe('tables');
    expect(nearestKey('permision', ['permission', 'role'])).toBe('permission');
    expect(nearestKey('x', ['tables'])).toBeUndefined();
    expect(nearestKey('Tables', ['tables'])).toBe('tables');
  });
});
