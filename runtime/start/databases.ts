// The databases a served instance opens: the default one (--database-url, or the embedded demo
// database when none is given), opened on first use and shared, and one pool per source that
// names its own URL.

import type { BundleModel, PoolModel } from '../bundle/index.js';
import { createMssqlDriver, createPgDriver, isMssqlConnectionString, type Driver } from '../drivers/index.js';
import { openEmbedded } from './embedded.js';
import { sourceDefaults, type Log, type ServeSettings } from './settings.js';
import { redact, StartError } from './start-error.js';

/**
 * An MSSQL source's pool as Hasura's MSSQL backend sizes it: `pool_settings.max_connections`, else
 * the server's pool size per source (SVC_GRAPHQL_PG_CONNECTIONS, 50 by default, Hasura's MSSQL
 * default too), capped by `total_max_connections` (Hasura divides it among the server's instances;
 * this is one); idle connections closed after `idle_timeout` seconds (Hasura's default 5).
 */
export function mssqlPool(pool: PoolModel | undefined, connections: number): { readonly max: number; readonly idleTimeoutSeconds: number } {
  const max = pool?.maxConnections ?? connections;
  return { max: pool?.totalMaxConnections === undefined ? max : Math.min(max, pool.totalMaxConnections), idleTimeoutSeconds: pool?.idleTimeout ?? 5 };
}

/** A source's database URL as the model (and the metadata) states it. */
export type SourceUrl = BundleModel['sources'][number]['databaseUrl'];

/** Opens databases on demand and closes them all at the end. */
export class Databases {
  private embedded: Driver | null = null;
  private shared: Driver | null = null;
  private readonly opened: Driver[] = [];

  constructor(private readonly o: ServeSettings, private readonly log: Log) {}

  /** The default database: --database-url, else the embedded one in --data-dir. */
  async fallback(): Promise<Driver> {
    if (this.o.databaseUrl) return (this.shared ??= createPgDriver({ url: this.o.databaseUrl, max: this.o.pgConnections, ...sourceDefaults() }));
    this.embedded ??= await openEmbedded(this.o.dataDir, this.log);
    return this.embedded;
  }

  /**
   * A pool of its own for a source database (with the sources' statement timeout), closed with the
   * rest; `pool`: an MSSQL source's pool_settings.
   */
  open(url: string, max = this.o.pgConnections, timeouts = true, pool?: PoolModel): Driver {
    // A SQL Server connection string (an mssql source) gets a pool of the mssql package, sized by its
    // pool settings; SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT bounds each request as it bounds PostgreSQL statements.
    const d = isMssqlConnectionString(url)
      ? createMssqlDriver({ connectionString: url, ...mssqlPool(pool, max), requestTimeoutMs: timeouts ? sourceDefaults().statementTimeoutMs : 0 })
      : createPgDriver({ url, max, ...(timeouts ? sourceDefaults() : {}) });
    this.opened.push(d);
    return d;
  }

  /** The database of a source: its own URL (a literal, or a variable that is set), else the default. */
  async forSource(url: SourceUrl, pool?: PoolModel): Promise<Driver> {
    if (url?.kind === 'literal') return this.open(url.url, undefined, true, pool);
    if (url?.kind === 'env') {
      const v = process.env[url.name];
      // Unset: --database-url serves the source, as it does in `kiln compile`.
      if (!v && this.o.databaseUrl) return this.fallback();
      if (!v) throw new StartError(`environment variable ${url.name} (the database URL of a source) is not set; set it or pass --database-url`, 2);
      this.log(`source database from $${url.name}: ${redact(v)}`);
      return this.open(v, undefined, true, pool);
    }
    return this.fallback();
  }

  /**
   * The metadata database: SVC_GRAPHQL_METADATA_DATABASE_URL when set, else the default one; a pool
   * of its own when sources have a statement timeout (metadata writes and event bookkeeping are
   * not user queries to cut short).
   */
  async metadata(): Promise<Driver> {
    const url = process.env.SVC_GRAPHQL_METADATA_DATABASE_URL;
    if (url) return this.open(url, 4, false);
    if (this.o.databaseUrl && sourceDefaults().statementTimeoutMs > 0) return this.open(this.o.databaseUrl, 4, false);
    return this.fallback();
  }

  /** Closes every database opened here, each once; `more` are closed too. */
  async close(more: Iterable<Driver> = []): Promise<void> {
    const all = new Set([...more, ...this.opened, ...(this.embedded ? [this.embedded] : []), ...(this.shared ? [this.shared] : [])]);
    for (const d of all) await d.close().catch(() => undefined);
  }
}
