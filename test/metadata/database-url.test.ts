import { describe, expect, it } from 'vitest';
import { databaseUrl, parseMetadata, type Source } from '../../compiler/metadata/index.js';

function source(configuration: unknown): Source {
  const r = parseMetadata({ version: 3, sources: [{ name: 'd', kind: 'postgres', tables: [], configuration }] });
  expect(r.errors).toEqual([]);
  return r.value!.sources[0]!;
}

describe('databaseUrl', () => {
  it('returns a URL string as a literal', () => {
    expect(databaseUrl(source({ connection_info: { database_url: 'postgres://u@h/db' } }))).toEqual({ kind: 'literal', url: 'postgres://u@h/db' });
  });

  it('returns {from_env} as the variable name', () => {
    expect(databaseUrl(source({ connection_info: { database_url: { from_env: 'SVC_GRAPHQL_DATABASE_URL' } } }))).toEqual({ kind: 'env', name: 'SVC_GRAPHQL_DATABASE_URL' });
  });

  it('builds a literal URL from connection parameters', () => {
    expect(databaseUrl(source({ connection_info: { database_url: { host: '127.0.0.1', port: '5432', username: 'postgres', database: 'test' } } })))
      .toEqual({ kind: 'literal', url: 'postgres://postgres@127.0.0.1:5432/test' });
  });

  it('returns null when the metadata gives no URL (legacy metadata, or no connection_info)', () => {
    const legacy = parseMetadata({ version: 2, tables: [] }).value!;
    expect(databaseUrl(legacy.sources[0]!)).toBeNull();
    expect(databaseUrl(source({ connection_info: { pool_settings: {} } }))).toBeNull();
  });

  it('reads MSSQL connection_string and the older forms on unchecked input', () => {
    expect(databaseUrl({ configuration: { connection_info: { connection_string: { from_env: 'MSSQL_URL' } } } })).toEqual({ kind: 'env', name: 'MSSQL_URL' });
    expect(databaseUrl({ configuration: { database_url: { from_env: 'OLD' } } })).toEqual({ kind: 'env', name: 'OLD' });
    expect(databaseUrl({ connection_info: { database_url: 'postgres://x/y' } } as { configuration?: unknown })).toEqual({ kind: 'literal', url: 'postgres://x/y' });
  });

  it('never throws on wrong shapes', () => {
    for (const configuration of [null, 5, 'x', [], { connection_info: 'x' }, { connection_info: { database_url: { from_env: 5 } } }, { connection_info: { database_url: [] } }]) {
      expect(databaseUrl({ configuration })).toBeNull();
    }
  });
});
