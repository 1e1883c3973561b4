// The database side of event triggers (reference/events.md §2): `svc_catalog.insert_event_log`
// writes one event, and per (trigger, operation) a plpgsql function and an AFTER ROW trigger call
// it, so an event is written in the transaction of the change it records.
//
// DDL takes no parameters, so these statements are text. Every name goes through the postgres
// dialect's identifier quoting; the one literal (the trigger's name) through `literal()`, and
// the function body through a dollar quote whose tag does not occur in it.

import { assert } from '../errors/index.js';
import { compileSql, ident, postgres, scalarOutputOf } from '../sql/index.js';
import type { ColumnSpec, EventTriggerDef, OperationSpec } from './definitions.js';

export type CaptureOp = 'INSERT' | 'UPDATE' | 'DELETE';

/**
 * A payload column whose JSON is not what row_to_json writes: a number sent as a string
 * (stringified numbers) or a PostGIS value as GeoJSON, as the engine writes the column everywhere.
 */
export interface RenderedColumn {
  readonly name: string;
  readonly output: 'string' | 'geojson';
}

/** One database trigger: what one operation of one event trigger captures. */
export interface Capture {
  readonly trigger: string;
  readonly op: CaptureOp;
  readonly table: { readonly schema: string; readonly name: string };
  readonly spec: OperationSpec;
  readonly replication: boolean;
  /** The payload's columns written otherwise than row_to_json does (absent or empty: none). */
  readonly rendered?: readonly RenderedColumn[];
}

/** A table's columns as the served model has them (name and GraphQL scalar), for the payload's values. */
export type TableColumns = (table: { readonly schema: string; readonly name: string }) => readonly { readonly name: string; readonly scalar: string }[] | undefined;

/** The payload columns of `spec` that are not sent as row_to_json writes them. */
function renderedColumns(spec: OperationSpec, columns: TableColumns, table: Capture['table'], stringifyNumeric: boolean): RenderedColumn[] {
  const payload = spec.payload ?? '*';
  const out: RenderedColumn[] = [];
  for (const c of columns(table) ?? []) {
    if (payload !== '*' && !payload.includes(c.name)) continue;
    const output = scalarOutputOf(c.scalar, stringifyNumeric);
    if (output !== 'json') out.push({ name: c.name, output });
  }
  return out;
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

/**
 * The captures of event triggers: one per operation each defines. Given the tables' columns, each
 * knows which payload values it must write as the engine writes them (`rendered`).
 */
export function capturesOf(defs: readonly EventTriggerDef[], columns?: TableColumns, stringifyNumeric = false): Capture[] {
  const out: Capture[] = [];
  for (const d of defs) {
    const specs: [CaptureOp, OperationSpec | undefined][] = [
      ['INSERT', d.definition.insert], ['UPDATE', d.definition.update], ['DELETE', d.definition.delete]];
    for (const [op, spec] of specs) {
      if (!spec) continue;
      const rendered = columns ? renderedColumns(spec, columns, d.table, stringifyNumeric) : [];
      out.push({ trigger: d.name, op, table: d.table, spec, replication: d.trigger_on_replication, ...(rendered.length > 0 ? { rendered } : {}) });
    }
  }
  return out;
}

/** What decides a capture's DDL: equal fingerprints need no new DDL. */
export function fingerprint(c: Capture): string {
  return JSON.stringify([c.table.schema, c.table.name, c.spec.columns, c.spec.payload ?? '*', c.replication, c.rendered ?? []]);
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

/**
 * Statements that rewrite the rendered columns in `v` (the jsonb of `row`): numbers as their text,
 * PostGIS values as GeoJSON with 15 digits and the long CRS name (select.ts writes query answers
 * so). A column the row no longer has (dropped after the trigger was written) or that is no longer
 * spatial is left as row_to_json wrote it, never an error that would fail the change.
 */
function renderStatements(v: '_old' | '_new', row: 'NEW' | 'OLD', rendered: readonly RenderedColumn[]): string {
  return rendered.map((c) => {
    const key = literal(c.name);
    const present = `jsonb_typeof(${v} -> ${key}) <> 'null'`;
    if (c.output === 'string') return `\n  IF ${present} THEN ${v} := jsonb_set(${v}, ARRAY[${key}], to_jsonb(${v} ->> ${key})); END IF;`;
    // The field is read only once the row is known to have it, and only while it is still spatial.
    return `\n  IF ${present} THEN\n    IF pg_typeof(${row}.${id(c.name)})::text ~ '(^|[.])(geometry|geography)$' THEN`
      + `\n      ${v} := jsonb_set(${v}, ARRAY[${key}], st_asgeojson(${row}.${id(c.name)}, 15, 4)::jsonb);\n    END IF;\n  END IF;`;
  }).join('');
}

/** The body of the capture's function (what pg_proc.prosrc holds once it is installed). */
export function functionBody(c: Capture): string {
  const payload = c.spec.payload ?? '*';
  const oldJson = c.op === 'INSERT' ? 'NULL' : rowJson('OLD', payload);
  const newJson = c.op === 'DELETE' ? 'NULL' : rowJson('NEW', payload);
  const rendered = c.rendered ?? [];
  // The event names the trigger's table, as literals: on a partitioned table PostgreSQL runs the
  // trigger on the partition, whose name TG_TABLE_NAME would give (Hasura writes the names in too).
  // With values to rewrite, the rows are jsonb variables first (the event log keeps jsonb anyway).
  const declare = rendered.length === 0 ? '' : `\nDECLARE\n  _old jsonb;\n  _new jsonb;`;
  const prepare = rendered.length === 0 ? '' : `\n  _old := (${oldJson})::jsonb;\n  _new := (${newJson})::jsonb;`
    + (c.op === 'INSERT' ? '' : renderStatements('_old', 'OLD', rendered))
    + (c.op === 'DELETE' ? '' : renderStatements('_new', 'NEW', rendered));
  const [o, n] = rendered.length === 0 ? [oldJson, newJson] : ['_old', '_new'];
  const insert = `${prepare}
  PERFORM svc_catalog.insert_event_log(${literal(c.table.schema)}, ${literal(c.table.name)}, ${literal(c.trigger)}, TG_OP::text,
      json_build_object('old', ${o}, 'new', ${n}));`;
  if (c.op !== 'UPDATE') return `${declare}\nBEGIN${insert}\n  RETURN NULL;\nEND;\n`;
  // An update that leaves the compared values as they were is no event.
  return `${declare}
BEGIN
  IF ${compared('OLD', c.spec.columns)} IS DISTINCT FROM ${compared('NEW', c.spec.columns)} THEN${insert}
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

/** What the source database has of ours: capture triggers (with their tables) and capture functions (with their bodies). */
export const INSTALLED_CAPTURES = `SELECT 'trigger', t.tgname::text, n.nspname::text, c.relname::text
  FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE NOT t.tgisinternal AND t.tgname LIKE 'notify\\_svc\\_%'
   -- not the clones PostgreSQL keeps on a partitioned table's partitions (tgparentid, PostgreSQL 13+)
   AND coalesce((to_jsonb(t) ->> 'tgparentid')::oid, 0) = 0
UNION ALL
SELECT 'function', p.proname::text, p.prosrc, NULL
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = 'svc_catalog' AND p.proname LIKE 'notify\\_svc\\_%'`;
