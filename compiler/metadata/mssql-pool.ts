// `pool_settings` of an MSSQL source (and of its read replicas), as Hasura's MSSQL backend reads
// them: `max_connections` and `total_max_connections` (connections, at least 1) and
// `idle_timeout` (seconds an idle connection is kept, 0 or more). Anything else in them is
// PostgreSQL's and is kept as given; a malformed value is a parse error at its path.

import { readNat, readObject, type Issues, type Path } from './reader.js';

const COUNTS = ['max_connections', 'total_max_connections'] as const;

/** Checks one `pool_settings` object; problems are recorded, nothing is returned. */
function checkPool(v: unknown, path: Path, is: Issues): void {
  const o = readObject(v, path, is);
  if (o === undefined) return;
  for (const key of COUNTS) {
    if (!Object.hasOwn(o, key) || o[key] === null) continue;
    const n = readNat(o[key], [...path, key], is);
    if (n === 0) is.fail([...path, key], `${key} must be at least 1`);
  }
  if (Object.hasOwn(o, 'idle_timeout') && o['idle_timeout'] !== null) readNat(o['idle_timeout'], [...path, 'idle_timeout'], is);
}

/** Checks the pool settings of an MSSQL source's configuration: its connection_info's and each read replica's. */
export function checkMssqlPools(configuration: unknown, path: Path, is: Issues): void {
  if (typeof configuration !== 'object' || configuration === null) return;
  const c = configuration as { connection_info?: unknown; read_replicas?: unknown };
  const at = (info: unknown, infoPath: Path): void => {
    const pool = typeof info === 'object' && info !== null ? (info as { pool_settings?: unknown }).pool_settings : undefined;
    if (pool !== undefined && pool !== null) checkPool(pool, [...infoPath, 'pool_settings'], is);
  };
  at(c.connection_info, [...path, 'connection_info']);
  if (Array.isArray(c.read_replicas)) c.read_replicas.forEach((r, i) => at(r, [...path, 'read_replicas', i]));
}
