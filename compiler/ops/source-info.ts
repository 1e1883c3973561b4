// The sources of a document as the metadata API opens them: name, kind, where the database is,
// its read replicas, an MSSQL source's pool settings, and a BigQuery source's connection (project,
// service account, datasets).

import type { SourceInfo } from '../../runtime/metadata-api/index.js';
import { databaseUrl, readReplicas, sourcePool, type Metadata } from '../metadata/index.js';
import { readBigQueryConnection } from '../model/index.js';

/** Every source of `md`, in document order. */
export function sourceInfos(md: Metadata): SourceInfo[] {
  return md.sources.map((s) => {
    const bigquery = s.kind === 'bigquery' ? readBigQueryConnection(s) : null;
    const pool = s.kind === 'mssql' ? sourcePool(s) : null;
    return { name: s.name, kind: s.kind, location: databaseUrl(s), readReplicas: readReplicas(s), ...(bigquery && !('reason' in bigquery) ? { bigquery } : {}),
      ...(pool && Object.keys(pool).length > 0 ? { pool } : {}) };
  });
}
