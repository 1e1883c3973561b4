// The event triggers of a metadata document, typed. The document is plain JSON to the runtime
// (metadata-api/contract.ts); the compiler has already checked every definition when it was
// stored (compiler/ops/extra/event-triggers.ts), so this reading fills defaults and skips what
// is not shaped as expected instead of reporting it.

import type { Json } from '../bundle/index.js';

/** `*` or a list of column names. */
export type ColumnSpec = '*' | readonly string[];

/** What one operation of a trigger captures: the columns that fire it and the columns sent. */
export interface OperationSpec {
  readonly columns: ColumnSpec;
  readonly payload?: ColumnSpec;
}

export interface TriggerDefinition {
  readonly insert?: OperationSpec;
  readonly update?: OperationSpec;
  readonly delete?: OperationSpec;
  readonly enable_manual: boolean;
}

export interface RetryConf {
  readonly num_retries: number;
  readonly interval_sec: number;
  readonly timeout_sec: number;
}

/** `{name, value}` or `{name, value_from_env}`. */
export type HeaderConf =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly value_from_env: string };

export interface EventTriggerDef {
  readonly source: string;
  readonly table: { readonly schema: string; readonly name: string };
  readonly name: string;
  readonly definition: TriggerDefinition;
  readonly retry_conf: RetryConf;
  readonly webhook?: string;
  readonly webhook_from_env?: string;
  readonly headers: readonly HeaderConf[];
  readonly request_transform?: Json;
  readonly response_transform?: Json;
  readonly trigger_on_replication: boolean;
}

type Obj = { readonly [k: string]: Json };

function obj(v: Json | undefined): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

function list(v: Json | undefined): readonly Json[] {
  return Array.isArray(v) ? v : [];
}

function str(v: Json | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function nat(v: Json | undefined, dflt: number): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : dflt;
}

function columnSpec(v: Json | undefined): ColumnSpec | undefined {
  if (v === '*') return '*';
  if (Array.isArray(v)) return v.filter((c): c is string => typeof c === 'string');
  return undefined;
}

function operation(v: Json | undefined): OperationSpec | undefined {
  const o = obj(v);
  if (!o) return undefined;
  const columns = columnSpec(o['columns']) ?? '*';
  const payload = columnSpec(o['payload']);
  return payload === undefined ? { columns } : { columns, payload };
}

/** A table reference: `"name"` (schema public) or `{schema, name}`. */
function tableOf(v: Json | undefined): { schema: string; name: string } | undefined {
  if (typeof v === 'string') return { schema: 'public', name: v };
  const o = obj(v);
  const name = str(o?.['name']);
  if (name === undefined) return undefined;
  return { schema: str(o?.['schema']) ?? 'public', name };
}

/** A header list as stored (`{name, value}` / `{name, value_from_env}`); other entries are skipped. */
export function headerConfs(v: Json | undefined): HeaderConf[] {
  const out: HeaderConf[] = [];
  for (const h of list(v)) {
    const o = obj(h);
    const name = str(o?.['name']);
    if (name === undefined) continue;
    const value = str(o?.['value']);
    const fromEnv = str(o?.['value_from_env']);
    if (value !== undefined) out.push({ name, value });
    else if (fromEnv !== undefined) out.push({ name, value_from_env: fromEnv });
  }
  return out;
}

/** The first environment variable the trigger's webhook or headers name that `env` lacks. */
export function unsetVariable(t: Pick<EventTriggerDef, 'webhook_from_env' | 'headers'>, env: NodeJS.ProcessEnv): string | undefined {
  const names = [t.webhook_from_env, ...t.headers.map((h) => ('value_from_env' in h ? h.value_from_env : undefined))];
  return names.find((n): n is string => n !== undefined && env[n] === undefined);
}

function trigger(source: string, table: { schema: string; name: string }, v: Json): EventTriggerDef | undefined {
  const o = obj(v);
  const name = str(o?.['name']);
  if (!o || name === undefined) return undefined;
  const d = obj(o['definition']) ?? {};
  const ops = { insert: operation(d['insert']), update: operation(d['update']), delete: operation(d['delete']) };
  const definition: TriggerDefinition = {
    ...(ops.insert ? { insert: ops.insert } : {}),
    ...(ops.update ? { update: ops.update } : {}),
    ...(ops.delete ? { delete: ops.delete } : {}),
    enable_manual: d['enable_manual'] === true,
  };
  const rc = obj(o['retry_conf']) ?? {};
  const webhook = str(o['webhook']);
  const webhookFromEnv = str(o['webhook_from_env']);
  return {
    source, table, name, definition,
    retry_conf: { num_retries: nat(rc['num_retries'], 0), interval_sec: nat(rc['interval_sec'], 10), timeout_sec: nat(rc['timeout_sec'], 60) },
    ...(webhook !== undefined ? { webhook } : {}),
    ...(webhookFromEnv !== undefined ? { webhook_from_env: webhookFromEnv } : {}),
    headers: headerConfs(o['headers']),
    ...(o['request_transform'] !== undefined && o['request_transform'] !== null ? { request_transform: o['request_transform'] } : {}),
    ...(o['response_transform'] !== undefined && o['response_transform'] !== null ? { response_transform: o['response_transform'] } : {}),
    // Hasura's default on Postgres: the database trigger does not fire under logical replication.
    trigger_on_replication: o['trigger_on_replication'] === true,
  };
}

/** Every event trigger of the document, in document order (sources, tables, triggers). */
export function eventTriggersOf(metadata: Json): EventTriggerDef[] {
  const out: EventTriggerDef[] = [];
  for (const s of list(obj(metadata)?.['sources'])) {
    const source = obj(s);
    const sourceName = str(source?.['name']);
    if (!source || sourceName === undefined) continue;
    for (const t of list(source['tables'])) {
      const tableEntry = obj(t);
      const table = tableOf(tableEntry?.['table']);
      if (!tableEntry || !table) continue;
      for (const e of list(tableEntry['event_triggers'])) {
        const def = trigger(sourceName, table, e);
        if (def) out.push(def);
      }
    }
  }
  return out;
}

/** The event triggers of one source. */
export function eventTriggersOfSource(metadata: Json, source: string): EventTriggerDef[] {
  return eventTriggersOf(metadata).filter((t) => t.source === source);
}
