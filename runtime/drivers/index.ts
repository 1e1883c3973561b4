/** The Driver interface every source is served through, its result types and transaction options. */
export { SENT_ALONE, SENT_ALONE_WRITE } from './driver.js';
export type { CallOptions, ChannelListener, Driver, ListenHandlers, PoolStats, QueryResult, ScriptResult, TransactionOptions, TransactionRunner } from './driver.js';
/** A Driver over a `pg.Pool` for a PostgreSQL server. */
export { createPgDriver, type PgDriverOptions } from './pg.js';
export { createCatalogIndexIfMissing } from './catalog-ddl.js';
export { listenOn, type ListenOptions } from './pg-listen.js';
/** A Driver over embedded PGlite (one in-process connection, calls serialized). */
export { createPgliteDriver, type PgliteDriver, type PgliteDriverOptions } from './pglite.js';
/** Maps a database failure to an ApiError by SQLSTATE, Hasura's wording and `internal`. */
export { mapDatabaseError, relationOf, ConnectionError, type StatementContext } from './database-error.js';
/** A Driver that reads from a source's read replicas (random pick, failing ones skipped for a while), else its primary. */
export { createReplicaReader, isConnectionError, type ReplicaReader, type ReplicaReaderOptions } from './replicas.js';
/** A Driver over the mssql package (tedious) for a SQL Server source; its connection strings; its error mapping. */
export { createMssqlDriver, type MssqlDriverOptions } from './mssql.js';
export { isMssqlConnectionString } from './mssql-config.js';
export { mapMssqlError } from './mssql-error.js';
/** A Driver for a BigQuery source (@google-cloud/bigquery; BIGQUERY_EMULATOR_HOST for a stand-in). */
export { createBigQueryDriver, type BigQueryDriver, type BigQueryDriverOptions, type TableField, type TableMetadata } from './bigquery.js';
