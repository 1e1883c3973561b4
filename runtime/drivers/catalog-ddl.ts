// DDL for Kiln's own catalog tables (svc_catalog) that is safe to run at every start and inside a
// metadata change's transaction.

/**
 * Creates an index of svc_catalog only when it is missing. CREATE INDEX IF NOT EXISTS takes a SHARE
 * lock on the table before it finds the index there, and the lock lasts until the transaction
 * ends: every insert into the table queues behind it, and a transaction that then waits for a
 * writer of that table (a metadata change waiting for a cron top-up; a start waiting for a
 * delivery) deadlocks with it. `name` is the index's name in svc_catalog; `create` its statement.
 */
export function createCatalogIndexIfMissing(name: string, create: string): string {
  return `DO $$ BEGIN
  IF to_regclass('svc_catalog.${name}') IS NULL THEN
    ${create};
  END IF;
END $$`;
}
