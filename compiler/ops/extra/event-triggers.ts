// Event trigger definitions: `pg_create_event_trigger` / `create_event_trigger` and their delete
// (Hasura.RQL.DDL.EventTrigger, checks and messages kept). Only the document changes here: the
// database trigger and delivery belong to the events worker. Stored in the table's
// `event_triggers` as `{name, definition: {insert?, update?, delete?, enable_manual}, retry_conf,
// webhook | webhook_from_env, headers?, request_transform?, response_transform?, ...}`.

import { ApiError, ArgsReader, asArray, asString, type JsonObject, type JsonPath, parseFailed } from '../../../runtime/errors/index.js';
import type { Json, Metadata, QualifiedTable, Source } from '../../metadata/index.js';
import type { OpHandler, OpInput } from '../types.js';
import { compact } from './compact.js';
import { findSource, sameTable, tableText, withTable } from './document.js';
import { readHeaders } from './headers.js';
import { readTable } from './table-ref.js';

const q = JSON.stringify;
const NAME = /^[A-Za-z]+[A-Za-z0-9_-]*$/;
const MAX_NAME = 42;

function readColumns(v: unknown, path: JsonPath): Json {
  if (v === '*') return '*';
  if (!Array.isArray(v)) throw parseFailed(path, 'unexpected columns');
  return asArray(v, path).map((c, i) => asString(c, [...path, i]));
}

function readOpSpec(r: ArgsReader, key: string): JsonObject | undefined {
  const o = r.optObject(key);
  if (o === undefined) return undefined;
  const columns = readColumns(o.required('columns'), o.at('columns'));
  const payload = o.has('payload') ? readColumns(o.value['payload'], o.at('payload')) : undefined;
  return compact({ columns, payload });
}

function readRetryConf(r: ArgsReader): JsonObject {
  const rc = r.optObject('retry_conf');
  return {
    num_retries: rc?.nat('num_retries', 0) ?? 0,
    interval_sec: rc?.nat('interval_sec', 10) ?? 10,
    timeout_sec: rc?.nat('timeout_sec', 60) ?? 60,
  };
}

function sourceName(input: OpInput, r: ArgsReader): string {
  return input.api === 'metadata' ? (r.optName('source') ?? 'default') : 'default';
}

interface Parsed { readonly source: string; readonly table: QualifiedTable; readonly replace: boolean; readonly entry: JsonObject }

function readCreate(input: OpInput): Parsed {
  const r = ArgsReader.args(input);
  const source = sourceName(input, r);
  const name = r.name('name');
  const table = readTable(r.required('table'), r.at('table'));
  const ops = { insert: readOpSpec(r, 'insert'), update: readOpSpec(r, 'update'), delete: readOpSpec(r, 'delete') };
  const enableManual = r.bool('enable_manual', false);
  const retryConf = readRetryConf(r);
  const webhook = r.optString('webhook');
  const webhookFromEnv = r.optString('webhook_from_env');
  const headers = readHeaders(r);
  const replace = r.bool('replace', false);
  if (!NAME.test(name)) r.fail('only alphanumeric and underscore and hyphens allowed for name');
  if (name.length > MAX_NAME) r.fail(`event trigger name can be at most ${MAX_NAME} characters`);
  if (!ops.insert && !ops.update && !ops.delete && !enableManual) {
    r.fail('atleast one amongst insert/update/delete/enable_manual spec must be provided');
  }
  if (webhook !== undefined && webhookFromEnv !== undefined) r.fail('only one of webhook or webhook_from_env should be given');
  if (webhook === undefined && webhookFromEnv === undefined) r.fail('must provide webhook or webhook_from_env');
  for (const spec of Object.values(ops)) {
    if (Array.isArray(spec?.['columns']) && spec['columns'].length === 0) r.fail('found empty column specification');
    if (Array.isArray(spec?.['payload']) && spec['payload'].length === 0) r.fail('found empty payload specification');
  }
  const entry = compact({
    name,
    definition: compact({ ...ops, enable_manual: enableManual }),
    retry_conf: retryConf,
    webhook,
    webhook_from_env: webhookFromEnv,
    headers,
    request_transform: input.api === 'metadata' ? r.raw('request_transform') : undefined,
    response_transform: input.api === 'metadata' ? r.raw('response_transform') : undefined,
    cleanup_config: r.raw('cleanup_config'),
    trigger_on_replication: r.raw('trigger_on_replication'),
  });
  return { source, table, replace, entry };
}

function triggersOf(t: { readonly event_triggers?: readonly Json[] }): JsonObject[] {
  return (t.event_triggers ?? []).filter((x): x is JsonObject => x !== null && typeof x === 'object' && !Array.isArray(x));
}

/** The table of a source that holds the trigger. */
function tableOfTrigger(source: Source, name: string): QualifiedTable | undefined {
  return source.tables.find((t) => triggersOf(t).some((e) => e['name'] === name))?.table;
}

function setTriggers(md: Metadata, source: string, table: QualifiedTable, f: (list: JsonObject[]) => JsonObject[]): Metadata {
  return withTable(md, source, table, (t) => {
    const list = f(triggersOf(t));
    const next: Record<string, unknown> = { ...t, event_triggers: list };
    if (list.length === 0) delete next['event_triggers'];
    return next as unknown as typeof t;
  });
}

export function eventTriggerObject(name: string, table: QualifiedTable, source: string): { type: string; name: string } {
  return { type: 'event_trigger', name: `event_trigger ${name} in table ${tableText(table)} in source ${source}` };
}

export const createEventTrigger: OpHandler = (input) => {
  const { source, table, replace, entry } = readCreate(input);
  const name = entry['name'] as string;
  const src = findSource(input.metadata, source);
  if (!src.tables.some((t) => sameTable(t.table, table))) {
    throw new ApiError('not-exists', `table ${q(tableText(table))} does not exist in source: ${source}`, 400, ['args', 'table']);
  }
  const holder = tableOfTrigger(src, name);
  if (holder !== undefined && !replace) {
    throw new ApiError('already-exists', `Event trigger with name ${q(name)} already exists`, 400, ['args']);
  }
  // Hasura's resolveEventTriggerQuery: replace needs the trigger, on the same table; the
  // listened columns (not the payload ones) must be columns of the table, else askColInfo's error.
  if (replace && holder === undefined) throw new ApiError('not-exists', `event trigger ${q(name)} does not exist`, 400, ['args']);
  if (replace && holder !== undefined && !sameTable(holder, table)) {
    throw new ApiError('not-supported', 'cannot replace table or schema for trigger', 400, ['args']);
  }
  assertListenedColumns(input, source, table, entry);
  // A replaced definition keeps its place among the table's triggers.
  const md = holder !== undefined
    ? setTriggers(input.metadata, source, table, (l) => l.map((e) => (e['name'] === name ? entry : e)))
    : setTriggers(input.metadata, source, table, (l) => [...l, entry]);
  const obj = eventTriggerObject(name, table, source);
  return { metadata: md, effect: { kind: 'create', object: obj } };
};

function assertListenedColumns(input: OpInput, source: string, table: QualifiedTable, entry: JsonObject): void {
  const catalog = input.introspection[source]?.tables.find((t) => t.schema === table.schema && t.name === table.name);
  if (catalog === undefined) return;
  const known = new Set(catalog.columns.map((c) => c.name));
  const definition = entry['definition'] as JsonObject;
  for (const op of ['insert', 'update', 'delete']) {
    const columns = (definition[op] as JsonObject | undefined)?.['columns'];
    if (!Array.isArray(columns)) continue;
    const missing = columns.find((c) => !known.has(c as string));
    if (missing !== undefined) throw new ApiError('not-exists', `column ${q(missing)} does not exist`, 400, ['args']);
  }
}

export const deleteEventTrigger: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const name = r.name('name');
  const source = sourceName(input, r);
  const src = findSource(input.metadata, source);
  const holder = tableOfTrigger(src, name);
  if (holder === undefined) throw new ApiError('not-exists', `event trigger ${q(name)} does not exist`, 400, ['args']);
  const md = setTriggers(input.metadata, source, holder, (l) => l.filter((e) => e['name'] !== name));
  return { metadata: md, effect: { kind: 'drop', cascade: false } };
};
