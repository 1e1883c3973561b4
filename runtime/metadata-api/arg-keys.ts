// The keys of the args of the operations the runtime answers itself (metadata as a whole, run_sql,
// event and scheduled-event operations): an unknown key is refused with its path and the nearest
// known key, never ignored (issue 15). The compiler checks the args of its own edits
// (compiler/ops/arg-keys.ts); the v1 data operations read their args themselves.

import { unknownKeyError, type ApiError } from '../errors/index.js';
import type { ApiKind } from './contract.js';

const EVENTS_PAGE = ['name', 'source', 'limit', 'offset'];

/** By operation type as sent; `/v1/metadata` prefixes (`pg_`) are taken off where the command has one. */
const KEYS: { readonly [type: string]: readonly string[] } = {
  replace_metadata: ['allow_inconsistent_metadata', 'allow_warnings', 'metadata'],
  reload_metadata: ['reload_remote_schemas', 'reload_sources', 'recreate_event_triggers'],
  export_metadata: [],
  get_inconsistent_metadata: [],
  dump_internal_state: [],
  drop_inconsistent_metadata: [],
  run_sql: ['sql', 'source', 'cascade', 'check_metadata_consistency', 'read_only'],
  test_webhook_transform: ['webhook_url', 'body', 'request_transform', 'session_variables', 'env'],
  invoke_event_trigger: ['name', 'source', 'payload'],
  redeliver_event: ['event_id', 'source'],
  get_event_logs: [...EVENTS_PAGE, 'status'],
  get_event_invocation_logs: EVENTS_PAGE,
  get_event_by_id: ['event_id', 'source', 'invocation_log_limit', 'invocation_log_offset'],
  cleanup_event_trigger_logs: ['event_trigger_name', 'source', 'batch_size', 'clear_older_than', 'timeout', 'clean_invocation_logs'],
  create_scheduled_event: ['webhook', 'schedule_at', 'payload', 'headers', 'retry_conf', 'comment', 'request_transform', 'response_transform'],
  delete_scheduled_event: ['type', 'event_id'],
  get_cron_triggers: [],
  get_scheduled_events: ['type', 'trigger_name', 'limit', 'offset', 'status', 'get_rows_count'],
  get_scheduled_event_invocations: ['type', 'event_id', 'trigger_name', 'limit', 'offset', 'get_rows_count'],
};

/** The event and scheduled-event operations report their argument errors relative to args on /v1/query (runtime/workers). */
const RELATIVE_ON_QUERY = new Set(['invoke_event_trigger', 'redeliver_event', 'create_scheduled_event', 'get_cron_triggers']);

function isObject(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The first unknown key of a runtime operation's args (path `args.<key>`; relative to args for
 * the event operations on `/v1/query`, as they report their other argument errors), or undefined. `wrapped` tells a
 * replace_metadata whose args are `{metadata, ...}` from one whose args are the document itself
 * (whose keys the metadata parser checks).
 */
export function runtimeArgKeyProblem(type: string, args: unknown, api: ApiKind, wrapped = true): ApiError | undefined {
  const command = type.startsWith('pg_') && Object.hasOwn(KEYS, type.slice(3)) ? type.slice(3) : type;
  if (!Object.hasOwn(KEYS, command) || !isObject(args)) return undefined;
  if (command === 'replace_metadata' && !wrapped) return undefined;
  const known = KEYS[command]!;
  const unknown = Object.keys(args).find((k) => !known.includes(k));
  if (unknown === undefined) return undefined;
  const relative = api === 'query' && RELATIVE_ON_QUERY.has(command);
  return unknownKeyError(relative ? [unknown] : ['args', unknown], `the arguments of ${type}`, known);
}
