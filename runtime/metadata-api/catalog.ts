// The metadata catalog: schema `svc_catalog` in the metadata database, with table and column
// names as Hasura's hdb_catalog has them (DESIGN.md, decisions). One row holds the document and
// its `resource_version`, which grows by one with every change; `hdb_version` records which
// catalog layout this database has, so that a later Kiln can migrate it.

import type { Json } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { ApiError } from '../errors/index.js';

/** The catalog layout this Kiln writes; a database with a newer one is refused. */
export const CATALOG_VERSION = 1;

/** The channel every instance listens on; the payload is `{resource_version, instance}`. */
export const METADATA_CHANNEL = 'svc_metadata_changed';

type Runner = Pick<Driver, 'query'>;

/** Migrations by the version they lead to; each runs in the creating transaction. */
const MIGRATIONS: readonly (readonly string[])[] = [
  [],
  [
    'CREATE SCHEMA IF NOT EXISTS svc_catalog',
    `CREATE TABLE svc_catalog.hdb_version (
       svc_uuid uuid PRIMARY KEY DEFAULT gen_random_uuid(),
       version text NOT NULL,
       upgraded_on timestamptz NOT NULL DEFAULT now(),
       cli_state jsonb NOT NULL DEFAULT '{}'::jsonb,
       console_state jsonb NOT NULL DEFAULT '{}'::jsonb)`,
    `CREATE TABLE svc_catalog.hdb_metadata (
       id integer PRIMARY KEY,
       metadata json NOT NULL,
       resource_version integer NOT NULL DEFAULT 1 UNIQUE)`,
  ],
];

/** A stored document and its version. */
export interface StoredMetadata {
  readonly metadata: Json;
  readonly resourceVersion: number;
}

// Hasura's catalog creates pgcrypto, and Hasura projects' migrations call
// `public.gen_random_uuid()` (in pg_catalog only since PostgreSQL 13, never in public without
// pgcrypto). A database where it cannot be created (no contrib package, no privilege, embedded
// PGlite without the extension loaded) still gets its catalog: the failure is only a notice, and
// the DO block's own subtransaction keeps the caller's transaction usable.
const ENSURE_PGCRYPTO = `DO $$ BEGIN
  CREATE EXTENSION IF NOT EXISTS pgcrypto;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pgcrypto not created: %', SQLERRM;
END $$`;

/** Creates the pgcrypto extension when it can (as Hasura's catalog does); never fails for want of it. */
export async function ensurePgcrypto(db: Runner): Promise<void> {
  await db.query(ENSURE_PGCRYPTO);
}

// Any constant works, as long as every Kiln uses the same one: first starts of several
// instances on one database take turns creating the catalog.
const INIT_LOCK = 7_242_001;

/**
 * Creates or migrates the catalog and returns what it stores; `initial` is the document a
 * fresh catalog starts with. Safe to run from several instances at once.
 */
export async function openCatalog(db: Driver, initial: () => Json): Promise<StoredMetadata> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [INIT_LOCK]);
    await ensurePgcrypto(tx);
    const found = await tx.query("SELECT to_regclass('svc_catalog.hdb_version') IS NOT NULL");
    let version = 0;
    if (found.rows[0]?.[0] === true) {
      const v = await tx.query('SELECT version FROM svc_catalog.hdb_version LIMIT 1');
      version = Number(v.rows[0]?.[0] ?? 0);
    }
    if (!Number.isInteger(version) || version > CATALOG_VERSION) {
      throw new ApiError('not-supported', `unsupported catalog version ${String(v0(version))}: this Kiln knows catalog versions up to ${CATALOG_VERSION}; upgrade Kiln`, 500);
    }
    for (let next = version + 1; next <= CATALOG_VERSION; next++) {
      for (const statement of MIGRATIONS[next]!) await tx.query(statement);
    }
    if (version === 0) {
      await tx.query('INSERT INTO svc_catalog.hdb_version (version) VALUES ($1)', [String(CATALOG_VERSION)]);
    } else if (version < CATALOG_VERSION) {
      await tx.query('UPDATE svc_catalog.hdb_version SET version = $1, upgraded_on = now()', [String(CATALOG_VERSION)]);
    }
    const row = await tx.query('SELECT metadata::text, resource_version FROM svc_catalog.hdb_metadata WHERE id = 1');
    if (row.rows.length > 0) return { metadata: JSON.parse(String(row.rows[0]![0])) as Json, resourceVersion: Number(row.rows[0]![1]) };
    const metadata = initial();
    await tx.query('INSERT INTO svc_catalog.hdb_metadata (id, metadata, resource_version) VALUES (1, $1, 1)', [JSON.stringify(metadata)]);
    return { metadata, resourceVersion: 1 };
  });
}

const v0 = (n: number): number | string => (Number.isFinite(n) ? n : 'unknown');

/**
 * Locks the stored document's row until the transaction ends (writers take turns) and answers its
 * version; the document itself is read only when that version is not `served` (another instance
 * wrote it): on a large schema it is megabytes to fetch and parse for nothing.
 */
export async function lockCatalog(tx: Runner, served: number): Promise<{ readonly resourceVersion: number; readonly metadata: Json | null }> {
  const row = await tx.query('SELECT resource_version FROM svc_catalog.hdb_metadata WHERE id = 1 FOR UPDATE');
  if (row.rows.length === 0) throw new ApiError('unexpected', 'the metadata catalog has no metadata row; restart the server to recreate it', 500);
  const resourceVersion = Number(row.rows[0]![0]);
  if (resourceVersion === served) return { resourceVersion, metadata: null };
  return { resourceVersion, metadata: (await readCatalog(tx)).metadata };
}

/** Reads the stored version only (cheap: used to tell whether a notification is news). */
export async function readVersion(db: Runner): Promise<number> {
  const row = await db.query('SELECT resource_version FROM svc_catalog.hdb_metadata WHERE id = 1');
  return Number(row.rows[0]?.[0] ?? 0);
}

/** Reads the stored document. */
export async function readCatalog(db: Runner): Promise<StoredMetadata> {
  const row = await db.query('SELECT metadata::text, resource_version FROM svc_catalog.hdb_metadata WHERE id = 1');
  if (row.rows.length === 0) throw new ApiError('unexpected', 'the metadata catalog has no metadata row', 500);
  return { metadata: JSON.parse(String(row.rows[0]![0])) as Json, resourceVersion: Number(row.rows[0]![1]) };
}

/** Writes a new document inside the transaction that locked the row; returns the new version. */
export async function writeCatalog(tx: Runner, metadata: Json, instance: string): Promise<number> {
  const row = await tx.query(
    'UPDATE svc_catalog.hdb_metadata SET metadata = $1, resource_version = resource_version + 1 WHERE id = 1 RETURNING resource_version',
    [JSON.stringify(metadata)]);
  const version = Number(row.rows[0]![0]);
  // Delivered to listeners when the transaction commits, and not at all if it rolls back.
  await tx.query('SELECT pg_notify($1, $2)', [METADATA_CHANNEL, JSON.stringify({ resource_version: version, instance })]);
  return version;
}
