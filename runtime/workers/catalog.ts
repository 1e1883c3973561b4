// The tables of event delivery, with Hasura's table and column names in schema svc_catalog
// (reference/events.md), so that cleanup SQL written for Hasura ports with only the schema renamed.
// Event triggers keep their events in each source's database (written by the database triggers in
// the transaction of the change); cron and one-off scheduled events live in the metadata database.

import { createCatalogIndexIfMissing, type Driver } from '../drivers/index.js';

type Runner = Pick<Driver, 'query'>;

// Any constant works, as long as every Kiln uses the same one: instances starting together take
// turns creating the tables.
const EVENTS_INIT_LOCK = 7_242_002;

const COMMON: readonly string[] = [
  'CREATE SCHEMA IF NOT EXISTS svc_catalog',
  `CREATE OR REPLACE FUNCTION svc_catalog.gen_svc_uuid() RETURNS uuid LANGUAGE sql AS 'SELECT gen_random_uuid()'`,
];

/**
 * Adds a column that catalogs made by an earlier Kiln lack. ALTER TABLE takes an exclusive lock
 * even when the column exists, which would queue every capture trigger's insert behind it at
 * each start; so the catalog is asked first and the table altered only when the column is missing.
 */
function addColumn(table: string, column: string, type: string): string {
  return `DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'svc_catalog.${table}'::regclass AND attname = '${column}' AND NOT attisdropped) THEN
    ALTER TABLE svc_catalog.${table} ADD COLUMN ${column} ${type};
  END IF;
END $$`;
}

/**
 * The event log of a source database (event triggers). Hasura's columns, and `claim_id`: the
 * token of the fetch that claimed a locked event, so that a fetch whose answer was lost on the
 * way back (committed, but the connection dropped) can put back exactly what it claimed.
 */
const SOURCE_TABLES: readonly string[] = [
  ...COMMON,
  `CREATE TABLE IF NOT EXISTS svc_catalog.event_log (
     id text PRIMARY KEY DEFAULT svc_catalog.gen_svc_uuid(),
     schema_name text NOT NULL,
     table_name text NOT NULL,
     trigger_name text NOT NULL,
     payload jsonb NOT NULL,
     delivered boolean NOT NULL DEFAULT false,
     error boolean NOT NULL DEFAULT false,
     tries integer NOT NULL DEFAULT 0,
     created_at timestamp DEFAULT now(),
     locked timestamptz,
     next_retry_at timestamp,
     archived boolean NOT NULL DEFAULT false)`,
  addColumn('event_log', 'claim_id', 'text'),
  createCatalogIndexIfMissing('event_log_trigger_name_idx', 'CREATE INDEX IF NOT EXISTS event_log_trigger_name_idx ON svc_catalog.event_log (trigger_name)'),
  createCatalogIndexIfMissing('event_log_fetch_events', `CREATE INDEX IF NOT EXISTS event_log_fetch_events ON svc_catalog.event_log
     (locked NULLS FIRST, next_retry_at NULLS FIRST, created_at)
     WHERE delivered = false AND error = false AND archived = false`),
  `CREATE TABLE IF NOT EXISTS svc_catalog.event_invocation_logs (
     id text PRIMARY KEY DEFAULT svc_catalog.gen_svc_uuid(),
     trigger_name text,
     event_id text,
     status integer,
     request json,
     response json,
     created_at timestamp DEFAULT now())`,
  createCatalogIndexIfMissing('event_invocation_logs_event_id_idx', 'CREATE INDEX IF NOT EXISTS event_invocation_logs_event_id_idx ON svc_catalog.event_invocation_logs (event_id)'),
];

/** Cron and one-off scheduled events, in the metadata database. */
const SCHEDULED_TABLES: readonly string[] = [
  ...COMMON,
  `CREATE TABLE IF NOT EXISTS svc_catalog.hdb_cron_events (
     id text PRIMARY KEY DEFAULT svc_catalog.gen_svc_uuid(),
     trigger_name text NOT NULL,
     scheduled_time timestamptz NOT NULL,
     status text NOT NULL DEFAULT 'scheduled'
       CHECK (status IN ('scheduled', 'locked', 'delivered', 'error', 'dead')),
     tries integer NOT NULL DEFAULT 0,
     created_at timestamptz DEFAULT now(),
     next_retry_at timestamptz)`,
  addColumn('hdb_cron_events', 'claim_id', 'text'),
  createCatalogIndexIfMissing('hdb_cron_events_unique_scheduled', `CREATE UNIQUE INDEX IF NOT EXISTS hdb_cron_events_unique_scheduled
     ON svc_catalog.hdb_cron_events (trigger_name, scheduled_time) WHERE status = 'scheduled'`),
  `CREATE TABLE IF NOT EXISTS svc_catalog.hdb_cron_event_invocation_logs (
     id text PRIMARY KEY DEFAULT svc_catalog.gen_svc_uuid(),
     event_id text REFERENCES svc_catalog.hdb_cron_events (id) ON UPDATE CASCADE ON DELETE CASCADE,
     status integer,
     request json,
     response json,
     created_at timestamptz DEFAULT now())`,
  `CREATE TABLE IF NOT EXISTS svc_catalog.hdb_scheduled_events (
     id text PRIMARY KEY DEFAULT svc_catalog.gen_svc_uuid(),
     webhook_conf json NOT NULL,
     scheduled_time timestamptz NOT NULL,
     retry_conf json,
     payload json,
     header_conf json,
     status text NOT NULL DEFAULT 'scheduled'
       CHECK (status IN ('scheduled', 'locked', 'delivered', 'error', 'dead')),
     tries integer NOT NULL DEFAULT 0,
     created_at timestamptz DEFAULT now(),
     next_retry_at timestamptz,
     comment text,
     request_transform json,
     response_transform json)`,
  addColumn('hdb_scheduled_events', 'claim_id', 'text'),
  `CREATE TABLE IF NOT EXISTS svc_catalog.hdb_scheduled_event_invocation_logs (
     id text PRIMARY KEY DEFAULT svc_catalog.gen_svc_uuid(),
     event_id text REFERENCES svc_catalog.hdb_scheduled_events (id) ON UPDATE CASCADE ON DELETE CASCADE,
     status integer,
     request json,
     response json,
     created_at timestamptz DEFAULT now())`,
];

async function ensure(db: Runner | Driver, statements: readonly string[]): Promise<void> {
  const run = async (tx: Runner): Promise<void> => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [EVENTS_INIT_LOCK]);
    for (const s of statements) await tx.query(s);
  };
  // A driver gets its own transaction (so the advisory lock holds until the tables exist); a runner
  // is already inside one.
  if ('transaction' in db) await db.transaction(run);
  else await run(db);
}

/** Creates the event log tables of a source database if they are missing. Safe from several instances at once. */
export function ensureSourceEventCatalog(db: Runner | Driver): Promise<void> {
  return ensure(db, SOURCE_TABLES);
}

/** Creates the cron and one-off event tables of the metadata database if they are missing. */
export function ensureScheduledCatalog(db: Runner | Driver): Promise<void> {
  return ensure(db, SCHEDULED_TABLES);
}
