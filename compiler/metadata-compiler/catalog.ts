// The catalog reader of a source in the metadata API: BigQuery sources through the BigQuery API
// (the datasets their configuration names), SQL Server sources with the sys.* catalog query, and
// PostgreSQL (the default, also the catalog transaction's own runner) with pg_catalog.

import type { BigQueryConnection } from '../../runtime/bundle/index.js';
import type { CatalogDatabase, SourceInfo } from '../../runtime/metadata-api/index.js';
import { introspectBigQuery, introspectMssql, introspectPostgres, type Introspection } from '../introspect/index.js';

/** Reads the catalog of `source` from `db` with the reader of the source's kind. */
export async function readCatalog(db: CatalogDatabase, source: SourceInfo | undefined): Promise<Introspection> {
  if (source?.kind === 'bigquery') {
    if (!source.bigquery) throw new Error(`BigQuery source "${source.name}" has no usable configuration (project_id, datasets)`);
    if (!('tablesOf' in db)) throw new Error(`assertion failed: BigQuery source "${source.name}" is not open with a BigQuery driver`);
    return introspectBigQuery(db as unknown as Parameters<typeof introspectBigQuery>[0], datasetsOf(source.bigquery));
  }
  if (db.dialect?.name === 'mssql') return introspectMssql(db);
  return introspectPostgres(db);
}

/** The datasets a connection names: its list, or the comma-separated names in its variable (none when unset). */
function datasetsOf(c: BigQueryConnection): readonly string[] {
  if (Array.isArray(c.datasets)) return c.datasets;
  return (process.env[(c.datasets as { readonly name: string }).name] ?? '').split(',').map((d) => d.trim()).filter(Boolean);
}
