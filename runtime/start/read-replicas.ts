// The read replicas of the served sources: a source's `configuration.read_replicas`, or for the
// source `default` without any, SVC_GRAPHQL_READ_REPLICA_URLS (comma-separated). Each source with
// replicas gets a reader (runtime/drivers/replicas.ts) over its primary and a pool per replica;
// the engine reads through it, while mutations, events, cron and the catalog keep the primary.
// On a metadata change the readers whose replicas are the same are kept (their pools stay warm),
// the others are closed once the new ones are in place.

import type { BundleModel, ReplicaModel } from '../bundle/index.js';
import { createMssqlDriver, createPgDriver, createReplicaReader, isMssqlConnectionString, type Driver, type ReplicaReader } from '../drivers/index.js';
import { mssqlPool } from './databases.js';
import { sourceDefaults, type Log } from './settings.js';
import { redact } from './start-error.js';

/** One replica to open: its URL and its pool settings. */
interface ReplicaTarget {
  readonly url: string;
  readonly pool: ReplicaModel['pool'];
}

/** The replica URLs of SVC_GRAPHQL_READ_REPLICA_URLS (empty when unset). */
export function envReplicaUrls(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  return (env.SVC_GRAPHQL_READ_REPLICA_URLS ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** Opens, keeps and closes the readers of the sources that have read replicas. */
export class ReadReplicas {
  private readers = new Map<string, { readonly key: string; readonly reader: ReplicaReader }>();

  // SVC_GRAPHQL_READ_REPLICA_URLS is read once, at start, like the other settings.
  constructor(private readonly pgConnections: number, private readonly log: Log, private readonly envUrls = envReplicaUrls()) {}

  /**
   * The reader of each source of `model` that has replicas, over its primary in `primaries`.
   * Readers no longer wanted (a source dropped, its replicas changed) are closed.
   */
  update(model: BundleModel, primaries: ReadonlyMap<string, Driver>): ReadonlyMap<string, Driver> {
    const next = new Map<string, { readonly key: string; readonly reader: ReplicaReader }>();
    for (const source of model.sources) {
      const primary = primaries.get(source.name);
      const targets = this.targets(source);
      if (!primary || targets.length === 0) continue;
      const key = JSON.stringify(targets);
      const kept = this.readers.get(source.name);
      next.set(source.name, kept?.key === key ? kept : { key, reader: this.open(source.name, primary, targets) });
    }
    const old = this.readers;
    this.readers = next;
    for (const [name, r] of old) if (next.get(name) !== r) void r.reader.close();
    return new Map([...next].map(([name, r]) => [name, r.reader]));
  }

  /** Closes every replica pool. */
  /** True when `source`'s reads go to its replicas now. */
  has(source: string): boolean {
    return this.readers.has(source);
  }

  async close(): Promise<void> {
    const all = [...this.readers.values()];
    this.readers = new Map();
    for (const r of all) await r.reader.close();
  }

  private targets(source: BundleModel['sources'][number]): ReplicaTarget[] {
    const listed = source.readReplicas ?? [];
    if (listed.length === 0) {
      return source.name === 'default' ? this.envUrls.map((url) => ({ url, pool: {} })) : [];
    }
    const out: ReplicaTarget[] = [];
    for (const r of listed) {
      const url = r.databaseUrl.kind === 'literal' ? r.databaseUrl.url : process.env[r.databaseUrl.name];
      // A replica is an addition: one whose variable is unset is left out, the source still answers.
      if (url) out.push({ url, pool: r.pool });
      else if (r.databaseUrl.kind === 'env') this.log(`warning: source ${source.name}: read replica variable ${r.databaseUrl.name} is not set; that replica is left out`);
    }
    return out;
  }

  private open(source: string, primary: Driver, targets: readonly ReplicaTarget[]): ReplicaReader {
    const labels = targets.map((t) => redact(t.url));
    this.log(`source ${source}: reading from ${targets.length} replica(s): ${labels.join(', ')}`);
    // An MSSQL source's replicas are SQL Server databases: pools of the mssql package, sized as its primary's.
    const replicas = targets.map((t) => isMssqlConnectionString(t.url)
      ? createMssqlDriver({ connectionString: t.url, ...mssqlPool(t.pool, this.pgConnections), requestTimeoutMs: sourceDefaults().statementTimeoutMs })
      : createPgDriver({
      url: t.url, max: t.pool.maxConnections ?? this.pgConnections, ...sourceDefaults(), log: this.log,
      ...(t.pool.idleTimeout !== undefined ? { idleTimeoutMillis: t.pool.idleTimeout * 1000 } : {}),
      ...(t.pool.connectionLifetime !== undefined ? { maxLifetimeSeconds: t.pool.connectionLifetime } : {}),
      ...(t.pool.poolTimeout !== undefined ? { connectionTimeoutMillis: t.pool.poolTimeout * 1000 } : {}),
      }));
    return createReplicaReader({ primary, replicas, labels, log: this.log });
  }
}
