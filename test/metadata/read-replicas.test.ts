// `configuration.read_replicas`: parsed as a list of connection_info, refused with a JSON path when
// malformed, and carried into the compiled model's source with the pool settings the runtime uses.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata, readReplicas } from '../../compiler/metadata/index.js';
import { metadataCompiler } from '../../compiler/metadata-compiler/index.js';
import { emptyMetadata } from '../../compiler/ops/index.js';
import { apply, failure, openFixture, type OpsFixture } from '../ops/helpers.js';

const doc = (configuration: unknown) => ({ version: 3, sources: [{ name: 'default', kind: 'postgres', tables: [], configuration }] });

describe('read_replicas in a source configuration', () => {
  it('reads each replica URL (literal or from_env) and its pool settings', () => {
    const r = parseMetadata(doc({
      connection_info: { database_url: 'postgres://primary/db' },
      read_replicas: [
        { database_url: 'postgres://replica1/db', pool_settings: { max_connections: 7, idle_timeout: 60, retries: 1 } },
        { database_url: { from_env: 'REPLICA_2_URL' } },
      ],
    }));
    expect(r.errors).toEqual([]);
    expect(readReplicas(r.value!.sources[0]!)).toEqual([
      { databaseUrl: { kind: 'literal', url: 'postgres://replica1/db' }, pool: { maxConnections: 7, idleTimeout: 60 } },
      { databaseUrl: { kind: 'env', name: 'REPLICA_2_URL' }, pool: {} },
    ]);
  });

  it('refuses a replica without database_url and a list that is not a list, at their paths', () => {
    const missing = parseMetadata(doc({ read_replicas: [{ pool_settings: {} }] }));
    expect(missing.value).toBeNull();
    expect(missing.errors.map((e) => [e.code, e.path, e.message])).toEqual([
      ['parse-failed', ['sources', 0, 'configuration', 'read_replicas', 0], "the key 'database_url' was not present"]]);
    const notList = parseMetadata(doc({ read_replicas: { database_url: 'postgres://x/y' } }));
    expect(notList.errors.map((e) => e.path)).toEqual([['sources', 0, 'configuration', 'read_replicas']]);
  });

  it('has no replicas when the configuration names none', () => {
    expect(readReplicas(parseMetadata(doc({})).value!.sources[0]!)).toEqual([]);
    expect(readReplicas({ configuration: { read_replicas: 'x' } })).toEqual([]);
  });
});

describe('read_replicas through the metadata API operations', () => {
  let f: OpsFixture;
  beforeAll(async () => { f = await openFixture('ops_replicas'); });
  afterAll(async () => { await f.db.drop(); });

  it('pg_add_source keeps the replicas, refuses a malformed one at its path, and the sources list names them', () => {
    const configuration = { connection_info: { database_url: { from_env: 'PG1_URL' } }, read_replicas: [{ database_url: { from_env: 'PG1_REPLICA_URL' } }] };
    const md = apply(f, emptyMetadata(), 'pg_add_source', { name: 'pg1', configuration }).metadata!;
    expect(md.sources[1]!.configuration).toEqual(configuration);
    expect(metadataCompiler('test').sources(md as never).map((s) => [s.name, s.readReplicas]))
      .toEqual([['default', []], ['pg1', [{ databaseUrl: { kind: 'env', name: 'PG1_REPLICA_URL' }, pool: {} }]]]);
    expect(failure(() => apply(f, emptyMetadata(), 'pg_add_source', { name: 'pg2', configuration: { read_replicas: [{}] } })))
      .toEqual({ path: '$.args.configuration.read_replicas[0]', error: "the key 'database_url' was not present", code: 'parse-failed' });
  });
});
