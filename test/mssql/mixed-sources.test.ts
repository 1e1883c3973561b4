// One request reading a PostgreSQL source and an MSSQL source: Chinook on PostgreSQL (`default`)
// beside Chinook on SQL Server (`ms`, root fields and types prefixed `ms_`). The plan has one
// statement per source, each in its own dialect (T-SQL that parses for `ms`, PostgreSQL for
// `default`), merged in request order. Its meaning is checked without SQL Server: the `ms` part's
// IR, rendered for PostgreSQL, runs on a database holding Chinook in `dbo`, and the merged answer
// must hold the same rows for the same filters on both sources.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, type Bundle } from '../../compiler/emit/index.js';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { bindParams, planOperation, type Plan } from '../../runtime/graphql/index.js';
import { mssql, postgres, type Dialect } from '../../runtime/sql/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { TABLES } from './cases.js';
import { postgresOfMssql } from './postgres-of-mssql.js';
import { validateTsql } from './tsql.js';

const fixtures = join(import.meta.dirname, '../../fixtures');
const read = (path: string): any => JSON.parse(readFileSync(join(fixtures, path), 'utf8'));

const QUERY = `{
  a: ms_album(where: {artist_id: {_in: [1, 8, 22]}}, order_by: {album_id: asc}) { album_id title artist { name } }
  b: album(where: {artist_id: {_in: [1, 8, 22]}}, order_by: {album_id: asc}) { album_id title artist { name } }
  __typename
  c: ms_track_aggregate(where: {genre_id: {_eq: 2}}) { aggregate { count max { milliseconds } } }
  d: track_aggregate(where: {genre_id: {_eq: 2}}) { aggregate { count max { milliseconds } } }
}`;

describe('a request reading a PostgreSQL and an MSSQL source', () => {
  let bundle: Bundle;
  let db: TestDatabase;
  let client: pg.Client;

  beforeAll(async () => {
    const ms = { ...read('chinook-mssql/metadata.json').sources[0], name: 'ms', customization: { root_fields: { prefix: 'ms_' }, type_names: { prefix: 'ms_' } } };
    // The request is also a stored query (a query collection in the allow-list), planned when the bundle is compiled.
    const md = parseMetadata({ version: 3, sources: [read('chinook/metadata.json').sources[0], ms],
      query_collections: [{ name: 'mixed', definition: { queries: [{ name: 'both', query: QUERY }] } }], allowlist: [{ collection: 'mixed' }] });
    if (!md.value) throw new Error(md.errors.map((e) => e.message).join('; '));
    bundle = await buildBundle({ metadata: md.value, engineVersion: 'test', introspection: {
      default: introspectionFromJson(read('chinook/introspection.json')), ms: introspectionFromJson(read('chinook-mssql/introspection.json')) } });
    db = await createTestDatabase('mssql20_mixed', readFileSync(join(fixtures, 'chinook/schema.sql'), 'utf8'));
    await db.exec(['CREATE SCHEMA dbo;', ...TABLES.map((t) => `CREATE TABLE dbo.${t} (LIKE public.${t} INCLUDING ALL); INSERT INTO dbo.${t} SELECT * FROM public.${t};`)].join('\n'));
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  const plan = (dialectOf: (source: string) => Dialect): Plan => {
    const document = parse(QUERY);
    return planOperation({ model: bundle.model, schema: buildSchema(bundle.sdl['admin']!), role: 'admin', dialect: postgres, dialectOf,
      stringifyNumeric: false, document, operation: document.definitions[0] as OperationDefinitionNode, variables: {}, structural: new Set() });
  };

  it('compiles both sources into one schema with no inconsistency', () => {
    expect(bundle.inconsistencies).toEqual([]);
    expect(bundle.model.sources.map((s) => [s.name, s.dialect])).toEqual([['default', 'postgres'], ['ms', 'mssql']]);
  });

  it('plans one statement per source, each in its own dialect, keyed in request order', async () => {
    const p = plan((s) => (s === 'ms' ? mssql : postgres));
    if (p.kind !== 'multi') throw new Error(`expected a plan over two sources, got ${p.kind}`);
    expect(p.keys).toEqual(['a', 'b', '__typename', 'c', 'd']);
    expect(p.parts.map((x) => x.source)).toEqual(['ms', 'default']);
    const [tsql, pgsql] = p.parts;
    expect(await validateTsql(tsql!.sql.text)).toEqual([]);
    expect(tsql!.sql.text).toContain('FOR JSON PATH');
    expect(tsql!.sql.text).toContain('[dbo].[album]');
    expect(tsql!.sql.text).not.toMatch(/json_build_object|"public"/);
    expect(pgsql!.sql.text).toContain('"public"."album"');
    expect(pgsql!.sql.text).not.toMatch(/FOR JSON|\[dbo\]/);
  });

  it('a stored query reading both sources is compiled into the bundle with each part in its own dialect', async () => {
    const stored = bundle.model.persisted?.queries.find((q) => q.name === 'both');
    const compiled = stored?.plans['admin'];
    if (!compiled || compiled.kind !== 'multi') throw new Error(`expected a compiled plan over two sources, got ${JSON.stringify(compiled)?.slice(0, 200)}`);
    expect(compiled.parts.map((x) => x.source)).toEqual(['ms', 'default']);
    expect(await validateTsql(compiled.parts[0]!.sql.text)).toEqual([]);
    expect(compiled.parts[0]!.sql.text).toContain('FOR JSON PATH');
    expect(compiled.parts[1]!.sql.text).toContain('"public"."album"');
  });

  it('answers each source\'s fields, merged in request order (the MSSQL part run as its PostgreSQL rendering)', async () => {
    const p = plan((s) => (s === 'ms' ? postgresOfMssql : postgres));
    if (p.kind !== 'multi') throw new Error('expected a plan over two sources');
    const session = { role: 'admin', variables: {}, isAdmin: true };
    const parts = await Promise.all(p.parts.map(async (part) => {
      const r = await client.query({ text: part.sql.text, values: bindParams(part.sql.params, {}, session) as unknown[], rowMode: 'array' });
      return JSON.parse((r.rows[0] as unknown[])[0] as string) as Record<string, unknown>;
    }));
    const merged = Object.assign({}, ...parts) as Record<string, any>;
    const data = Object.fromEntries(p.keys.map((k) => [k, merged[k]]));
    expect(Object.keys(data)).toEqual(['a', 'b', '__typename', 'c', 'd']);
    expect(data['__typename']).toBe('query_root');
    expect(data['a'].length).toBeGreaterThan(2);
    expect(data['a']).toEqual(data['b']);
    expect(data['c'].aggregate.count).toBeGreaterThan(0);
    expect(data['c']).toEqual(data['d']);
  });

  it('gives each backend its own comparison types, as Hasura names them, so PostgreSQL keeps its operators beside an MSSQL source', async () => {
    // No customization: a PostgreSQL table beside the MSSQL tables, sharing the scalar String.
    const pgSource = { name: 'default', kind: 'postgres', tables: [{ table: { schema: 'public', name: 'playlist' }, configuration: { custom_name: 'pg_playlist' } }],
      configuration: { connection_info: { database_url: { from_env: 'DATABASE_URL' } } } };
    const md = parseMetadata({ version: 3, sources: [pgSource, { ...read('chinook-mssql/metadata.json').sources[0], name: 'ms' }] });
    const both = await buildBundle({ metadata: md.value!, engineVersion: 'test', introspection: {
      default: introspectionFromJson(read('chinook/introspection.json')), ms: introspectionFromJson(read('chinook-mssql/introspection.json')) } });
    expect(both.inconsistencies).toEqual([]);
    const sdl = both.sdl['admin']!;
    const fieldsOf = (type: string): string[] => (new RegExp(`input ${type} \\{([^}]*)\\}`).exec(sdl)?.[1] ?? '').split('\n').map((l) => l.trim().split(':')[0]!).filter((f) => f.startsWith('_'));
    expect(fieldsOf('String_comparison_exp')).toEqual(expect.arrayContaining(['_regex', '_similar', '_iregex', '_like']));
    expect(fieldsOf('String_MSSQL_comparison_exp')).toEqual(expect.arrayContaining(['_like', '_ilike']));
    expect(fieldsOf('String_MSSQL_comparison_exp')).not.toContain('_regex');
    expect(sdl).toMatch(/input pg_playlist_bool_exp \{[^}]*name: String_comparison_exp/);
    expect(sdl).toMatch(/input album_bool_exp \{[^}]*title: String_MSSQL_comparison_exp/);
  });
});
