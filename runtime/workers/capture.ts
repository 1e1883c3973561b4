// The database side of event triggers (reference/events.md §2): `svc_catalog.insert_event_log`
// writes one event, and per (trigger, operation) a plpgsql function and an AFTER ROW trigger call
// it, so an event is written in the transaction of the change it records.
//
// DDL takes no parameters, so these statements are text. Every name goes through the postgres
// dialect's identifier quoting; the one literal (the trigger's name) through `literal()`, and
// the function body through a dollar quote whose tag does not occur in it.

import { assert } from '../errors/index.js';
import { compileSql, ident, postgres } from '../sql/index.js';
import type { ColumnSpec, EventTriggerDef, OperationSpec } from './definitions.js';

export type CaptureOp = 'INSERT' | 'UPDATE' | 'DELETE';

/** One database trigger: what one operation of one event trigger captures. */
export interface Capture {
  readonly trigger: string;
  readonly op: CaptureOp;
  readonly table: { readonly schema: string; readonly name: string };
  readonly spec: OperationSpec;
  readonly replication: boolean;
}

// The metadata API accepts only these names (compiler/ops/extra/event-triggers.ts); a name built
// into a function name must not be anything else, whatever path the document came by.
const TRIGGER_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const PREFIX = 'notify_svc_';
const OPS: readonly CaptureOp[] = ['INSERT', 'UPDATE', 'DELETE'];

/** The name of the function and of the database trigger of one capture (Hasura: notify_hasura_<t>_<OP>). */
export function captureName(trigger: string, op: CaptureOp): string {
  return `${PREFIX}${trigger}_${op}`;
}

/** The event trigger and operation of a database trigger or function name; null when it is not ours. */
export function parseCaptureName(name: string): { trigger: string; op: CaptureOp } | null {
  if (!name.startsWith(PREFIX)) return null;
  const op = OPS.find((o) => name.endsWith(`_${o}`));
  if (!op) return null;
  const trigger = name.slice(PREFIX.length, -(op.length + 1));
  return trigger.length > 0 ? { trigger, op } : null;
}

/** The captures of event triggers: one per operation each defines. */
export function capturesOf(defs: readonly EventTriggerDef[]): Capture[] {
  const out: Capture[] = [];
  for (const d of defs) {
    const specs: [CaptureOp, OperationSpec | undefined][] = [
      ['INSERT', d.definition.insert], ['UPDATE', d.definition.update], ['DELETE', d.definition.delete]];
    for (const [op, spec] of specs) {
      if (spec) out.push({ trigger: d.name, op, table: d.table, spec, replication: d.trigger_on_replication });
    }
  }
  return out;
}

/** What decides a capture's DDL: equal fingerprints need no new DDL. */
export function fingerprint(c: Capture): string {
  return JSON.stringify([c.table.schema, c.table.name, c.spec.columns, c.spec.payload ?? '*', c.replication]);
}

/** A quoted identifier (schema-qualified when given several parts), by the dialect's quoting. */
function id(...parts: string[]): string {
  const c = compileSql(ident(...parts), postgres);
  assert(c.params.length === 0, 'an identifier has no parameters');
  return c.text;
}

/** A string literal: quotes doubled; with a backslash, the escape form, whatever standard_conforming_strings says. */
export function literal(s: string): string {
  assert(!s.includes('\u0000'), 'a literal has no NUL character');
  const quoted = s.replace(/'/g, "''");
  return s.includes('\\') ? `E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/** `$svc$body$svc$` with a tag that does not occur in the body. */
function dollarQuoted(body: string): string {
  let tag = '$svc$';
  for (let i = 1; body.includes(tag); i++) tag = `$svc${i}$`;
  return `${tag}${body}${tag}`;
}

/** The JSON of the payload columns of `row` (NEW or OLD): the whole row for `*`. */
function rowJson(row: 'NEW' | 'OLD', payload: ColumnSpec): string {
  if (payload === '*') return `row_to_json(${row})`;
  const cols = payload.map((c) => `${row}.${id(c)} AS ${id(c)}`).join(', ');
  return `(SELECT row_to_json(_svc_r) FROM (SELECT ${cols}) AS _svc_r)`;
}

/**
 * The values an UPDATE must change to count (the listed columns, or the whole row), as jsonb: every
 * type converts to it and jsonb has equality, so types without an equality operator (json, point,
 * xml) compare too, and no exception handler (a subtransaction per row) is needed to find out.
 */
function compared(row: 'NEW' | 'OLD', columns: ColumnSpec): string {
  return columns === '*' ? `to_jsonb(${row})` : `jsonb_build_array(${columns.map((c) => `${row}.${id(c)}`).join(', ')})`;
}

/** The body of the capture's function. */
function functionBody(c: Capture): string {
  const payload = c.spec.payload ?? '*';
  const oldJson = c.op === 'INSERT' ? 'NULL' : rowJson('OLD', payload);
  const newJson = c.op === 'DELETE' ? 'NULL' : rowJson('NEW', payload);
  const insert = `PERFORM svc_catalog.insert_event_log(TG_TABLE_SCHEMA::text, TG_TABLE_NAME::text, ${literal(c.trigger)}, TG_OP::text,
      json_build_object('old', ${oldJson}, 'new', ${newJson}));`;
  if (c.op !== 'UPDATE') return `\nBEGIN\n  ${insert}\n  RETURN NULL;\nEND;\n`;
  const o = compared('OLD', c.spec.columns);
  const n = compared('NEW', c.spec.columns);
  // An update that leaves the compared values as they were is no event.
  return `
BEGIN
  IF ${o} IS DISTINCT FROM ${n} THEN
    ${insert}
  END IF;
  RETURN NULL;
END;
`;
}

/** Creates (or replaces) the capture's function and database trigger. */
export function installCapture(c: Capture): string[] {
  assert(TRIGGER_NAME.test(c.trigger), `event trigger name ${JSON.stringify(c.trigger)} is not a valid name`);
  const name = captureName(c.trigger, c.op);
  const fn = id('svc_catalog', name);
  const table = id(c.table.schema, c.table.name);
  // `AFTER UPDATE`, not `UPDATE OF <columns>`: the function compares the listed columns itself, and
  // a trigger naming columns would make PostgreSQL refuse to drop them, before the metadata's own
  // dependency check could answer (Hasura's triggers name no columns either).
  const out = [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS ${dollarQuoted(functionBody(c))}`,
    `DROP TRIGGER IF EXISTS ${id(name)} ON ${table}`,
    `CREATE TRIGGER ${id(name)} AFTER ${c.op} ON ${table} FOR EACH ROW EXECUTE PROCEDURE ${fn}()`,
  ];
  // Hasura's trigger_on_replication: fire for changes applied by logical replication too.
  if (c.replication) out.push(`ALTER TABLE ${table} ENABLE ALWAYS TRIGGER ${id(name)}`);
  return out;
}

/** Drops a database trigger of ours (the function goes separately: it may be kept for a capture on another table). */
export function dropTrigger(name: string, table: { readonly schema: string; readonly name: string }): string {
  return `DROP TRIGGER IF EXISTS ${id(name)} ON ${id(table.schema, table.name)}`;
}

/** Drops a capture function (and any trigger still calling it). */
export function dropFunction(name: string): string {
  return `DROP FUNCTION IF EXISTS ${id('svc_catalog', name)}() CASCADE`;
}

/**
 * `insert_event_log`: the event's payload is `{op, data, session_variables, trace_context}`; the
 * session and trace context are the transaction settings svc.user and svc.tracecontext, which the
 * engine sets before a mutation (null when unset or empty: a change made outside the engine).
 */
export const INSERT_EVENT_LOG = `CREATE OR REPLACE FUNCTION svc_catalog.insert_event_log(
  schema_name text, table_name text, trigger_name text, op text, row_data json) RETURNS text
LANGUAGE plpgsql AS $svc$
DECLARE
  _id text := svc_catalog.gen_svc_uuid()::text;
  _session json := nullif(current_setting('svc.user', true), '')::json;
  _trace json := nullif(current_setting('svc.tracecontext', true), '')::json;
BEGIN
  INSERT INTO svc_catalog.event_log (id, schema_name, table_name, trigger_name, payload)
  VALUES (_id, schema_name, table_name, trigger_name,
    jsonb_build_object('op', op, 'data', row_data, 'session_variables', _session, 'trace_context', _trace));
  RETURN _id;
END;
$svc$`;

/** What the source database has of ours: capture triggers (with their tables) and capture functions. */
export const INSTALLED_CAPTURES = `SELECT 'trigger', t.tgname::text, n.nspname::text, c.relname::text
  FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE NOT t.tgisinternal AND t.tgname LIKE 'notify\\_svc\\_%'
UNION ALL
SELECT 'function', p.proname::text, NULL, NULL
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = 'svc_catalog' AND p.proname LIKE 'notify\\_svc\\_%'`;
