// The database side of the change feed: one trigger function in svc_catalog that notifies the
// channel with the changed table's identity, and per table read by a live query one statement-
// level AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE trigger calling it. A statement-level trigger
// fires once per statement however many rows it touched, and PostgreSQL folds equal notifications
// of one transaction into one, so a bulk write costs the writer one notification per table.
//
// DDL takes no parameters: every name goes through the postgres dialect's identifier quoting.

import { assert } from '../../../errors/index.js';
import { compileSql } from '../../compile.js';
import { ident } from '../../fragment.js';
import { postgres } from '../../dialects/postgres.js';
import type { QualifiedName } from '../../ir/index.js';

/** The channel the triggers notify. */
export const CHANGE_CHANNEL = 'svc_live_change';
/** The name of the trigger on each table (kept out of Hasura's notify_svc_ event-trigger names). */
export const CHANGE_TRIGGER = 'svc_live_change';
const FUNCTION = ['svc_catalog', 'notify_live_change'] as const;

function id(...parts: string[]): string {
  const c = compileSql(ident(...parts), postgres);
  assert(c.params.length === 0, 'an identifier has no parameters');
  return c.text;
}

/** True when the notifying function exists (one parameter: its regprocedure text). */
export const FUNCTION_PRESENT = `SELECT to_regprocedure($1) IS NOT NULL`;
export const FUNCTION_SIGNATURE = `${id(...FUNCTION)}()`;

/** Creates the schema and the notifying function (its payload: `["schema", "table"]`). */
export const INSTALL_FUNCTION: readonly string[] = [
  `CREATE SCHEMA IF NOT EXISTS ${id('svc_catalog')}`,
  `CREATE OR REPLACE FUNCTION ${id(...FUNCTION)}() RETURNS trigger LANGUAGE plpgsql AS $svc$
BEGIN
  PERFORM pg_notify(${`'${CHANGE_CHANNEL}'`}, json_build_array(TG_TABLE_SCHEMA, TG_TABLE_NAME)::text);
  RETURN NULL;
END;
$svc$`,
];

/**
 * For each of the tables (schemas in $1, names in $2, as text arrays): its relkind and whether it
 * carries the change trigger already. A table that does not exist has no row.
 */
export const TABLE_STATES = `SELECT n.nspname::text, c.relname::text, c.relkind::text,
       EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = $3)
  FROM unnest($1::text[], $2::text[]) AS w(schema_name, table_name)
  JOIN pg_namespace n ON n.nspname = w.schema_name
  JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = w.table_name`;

/** How long creating a trigger may wait for the table's lock (its transaction only). */
export const LOCK_TIMEOUT = `SET LOCAL lock_timeout = '2s'`;

/** The change trigger of one table. */
export function createTrigger(t: QualifiedName): string {
  return `CREATE TRIGGER ${id(CHANGE_TRIGGER)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${id(t.schema, t.name)}
  FOR EACH STATEMENT EXECUTE PROCEDURE ${id(...FUNCTION)}()`;
}
