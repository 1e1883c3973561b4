// An MSSQL source's pool settings, as Hasura's MSSQL source takes them
// (`connection_info.pool_settings`: max_connections, total_max_connections, idle_timeout, also on
// read replicas): malformed values refused by the metadata with a parse error at their path and
// nothing changed; well-formed ones carried into the model and applied to the source's pool of the
// mssql package, over SVC_GRAPHQL_PG_CONNECTIONS (the pool size per source). The served instance
// shows each source's pool size on /v1/metrics (no SQL Server is needed: the pool opens on first use).

import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, writeBundle } from '../../compiler/emit/index.js';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import type { Json, Metadata } from '../../compiler/metadata/index.js';
import { resolveModel } from '../../compiler/model/index.js';
import { applyOperation, emptyMetadata } from '../../compiler/ops/index.js';
import { ApiError } from '../../runtime/errors/index.js';
import { serveModel, type RunningServer } from '../../runtime/index.js';
import { mssqlPool } from '../../runtime/start/databases.js';

const catalog = introspectionFromJson(JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/chinook-mssql/introspection.json'), 'utf8')));
const URL_ = 'mssql://sa:secret@127.0.0.1:1/chinook';

function run(md: Metadata, type: string, args: unknown): Metadata {
  return applyOperation(md, { type, args: args as Json, api: 'metadata' }, { ms: catalog, ms2: catalog }).metadata ?? md;
}

function refusal(configuration: unknown): { code: string; message: string; path: readonly (string | number)[] } {
  try {
    applyOperation(emptyMetadata(), { type: 'mssql_add_source', args: { name: 'ms', configuration } as unknown as Json, api: 'metadata' }, {});
  } catch (e) {
    if (e instanceof ApiError) return { code: e.code, message: e.message, path: e.path };
    throw e;
  }
  throw new Error('mssql_add_source accepted it');
}

const info = (pool: unknown) => ({ connection_info: { connection_string: URL_, pool_settings: pool } });
const POOL = ['args', 'configuration', 'connection_info', 'pool_settings'];

describe('MSSQL pool_settings in metadata', () => {
  it('refuses malformed pool settings with a parse error at the key', () => {
    expect(refusal(info({ max_connections: 'ten' }))).toEqual({ code: 'parse-failed', message: 'parsing Int failed, expected Number, but encountered String', path: [...POOL, 'max_connections'] });
    expect(refusal(info({ max_connections: 0 }))).toEqual({ code: 'parse-failed', message: 'max_connections must be at least 1', path: [...POOL, 'max_connections'] });
    expect(refusal(info({ total_max_connections: 2.5 }))).toMatchObject({ code: 'parse-failed', path: [...POOL, 'total_max_connections'] });
    expect(refusal(info({ idle_timeout: -1 }))).toEqual({ code: 'parse-failed', message: 'expected a non-negative integer, but found -1', path: [...POOL, 'idle_timeout'] });
    expect(refusal(info(5))).toEqual({ code: 'parse-failed', message: 'parsing Object failed, expected Object, but encountered Number', path: POOL });
    expect(refusal({ ...info({ max_connections: 4 }), read_replicas: [{ database_url: URL_, pool_settings: { idle_timeout: 'soon' } }] }))
      .toMatchObject({ code: 'parse-failed', path: ['args', 'configuration', 'read_replicas', 0, 'pool_settings', 'idle_timeout'] });
  });

  it('carries well-formed settings into the model (seconds as given)', () => {
    let md = run(emptyMetadata(), 'mssql_add_source', { name: 'ms', configuration: info({ max_connections: 7, total_max_connections: 5, idle_timeout: 30 }) });
    md = run(md, 'mssql_add_source', { name: 'ms2', configuration: { connection_info: { connection_string: URL_ } } });
    md = run(md, 'mssql_track_table', { source: 'ms', table: { schema: 'dbo', name: 'album' } });
    const { value: model } = resolveModel(md, { engineVersion: 'test', introspection: { ms: catalog, ms2: catalog } });
    expect(model.sources.find((s) => s.name === 'ms')!.pool).toEqual({ maxConnections: 7, totalMaxConnections: 5, idleTimeout: 30 });
    expect(model.sources.find((s) => s.name === 'ms2')!.pool).toBeUndefined();
  });

  it('sizes the pool: pool_settings over the server\'s pool size per source, capped by total_max_connections, idle 5 s by default', () => {
    expect(mssqlPool(undefined, 50)).toEqual({ max: 50, idleTimeoutSeconds: 5 });
    expect(mssqlPool({ maxConnections: 7, idleTimeout: 60 }, 50)).toEqual({ max: 7, idleTimeoutSeconds: 60 });
    expect(mssqlPool({ totalMaxConnections: 12 }, 50)).toEqual({ max: 12, idleTimeoutSeconds: 5 });
    expect(mssqlPool({ maxConnections: 20, totalMaxConnections: 12 }, 3)).toEqual({ max: 12, idleTimeoutSeconds: 5 });
    expect(mssqlPool({}, 3)).toEqual({ max: 3, idleTimeoutSeconds: 5 });
  });
});

describe('MSSQL pool_settings applied by a served bundle', () => {
  let served: RunningServer;
  let dir: string;
  const previous = process.env.SVC_GRAPHQL_METRICS_SECRET;

  beforeAll(async () => {
    let md = run(emptyMetadata(), 'mssql_add_source', { name: 'ms', configuration: info({ max_connections: 7, total_max_connections: 5, idle_timeout: 30 }) });
    md = run(md, 'mssql_add_source', { name: 'ms2', configuration: { connection_info: { connection_string: URL_ } } });
    md = run(md, 'mssql_track_table', { source: 'ms', table: { schema: 'dbo', name: 'album' } });
    md = run(md, 'mssql_track_table', { source: 'ms2', table: { schema: 'dbo', name: 'artist' } });
    const only: Metadata = { ...md, sources: md.sources.filter((s) => s.name !== 'default') };
    const bundle = await buildBundle({ metadata: only, introspection: { ms: catalog, ms2: catalog }, engineVersion: 'test' });
    expect(bundle.inconsistencies).toEqual([]);
    dir = await mkdtemp(join(tmpdir(), 'kiln-mssql-pool-'));
    await writeBundle(dir, bundle);
    process.env.SVC_GRAPHQL_METRICS_SECRET = 'm';
    served = await serveModel({ dataDir: '/nonexistent', port: 0, host: '127.0.0.1', pgConnections: 3, stringifyNumericTypes: false, console: false,
      enabledApis: 'graphql,metrics' }, { kind: 'bundle', dir }, () => undefined);
  });

  afterAll(async () => {
    await served?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.SVC_GRAPHQL_METRICS_SECRET;
    else process.env.SVC_GRAPHQL_METRICS_SECRET = previous;
  });

  it('opens each source\'s pool with its own size: pool_settings for one, --pg-connections for the other', async () => {
    const res = await fetch(`http://127.0.0.1:${served.port}/v1/metrics`, { headers: { authorization: 'Bearer m' } });
    expect(res.status).toBe(200);
    const text = await res.text();
    const max = (source: string): number => Number(new RegExp(`^svc_postgres_pool_max_connections\\{source_name="${source}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    expect(max('ms')).toBe(5);
    expect(max('ms2')).toBe(3);
  });
});
