// The event trigger operations the metadata API answers beside the compiler's edits (redeliver,
// invoke, the event-log reads, cleanup), and what follows every metadata change: the capture
// triggers of each source brought in line with the document (sync.ts), inside the change.

import type { Json, Session } from '../bundle/index.js';
import { ApiError, ArgsReader, unsetVariableReason, type JsonPath } from '../errors/index.js';
import type { ApiExtension, ApiKind, ExtensionContext, SettleContext } from '../metadata-api/index.js';
import { eventTriggersOf, unsetVariable, type EventTriggerDef } from './definitions.js';
import {
  cleanupEventLogs, eventById, eventLogs, hasEventLog, insertManualEvent, invocationLogs, redeliver, type EventStatus,
} from './event-log.js';
import { retireSourceEvents } from './retire.js';
import { syncEventTriggers } from './sync.js';
import { templateProblem } from './webhook-environment.js';

type Op = 'invoke' | 'redeliver' | 'logs' | 'invocations' | 'by_id' | 'cleanup';

/** Operation types by API: `pg_` names on /v1/metadata, Hasura's older names on /v1/query. */
const OPS: { readonly [api in ApiKind]: { readonly [type: string]: Op } } = {
  metadata: {
    pg_invoke_event_trigger: 'invoke', pg_redeliver_event: 'redeliver', pg_get_event_logs: 'logs',
    pg_get_event_invocation_logs: 'invocations', pg_get_event_by_id: 'by_id', cleanup_event_trigger_logs: 'cleanup',
  },
  query: { invoke_event_trigger: 'invoke', redeliver_event: 'redeliver' },
};

const READ_ONLY = new Set<Op>(['logs', 'invocations', 'by_id']);

function opOf(type: string): Op | undefined {
  return OPS.metadata[type] ?? OPS.query[type];
}

/** The session a manual event records: the caller's variables, lower-case, with its role. */
function sessionJson(s: Session): Json {
  return { ...s.variables, 'x-svc-role': s.role };
}

function findTrigger(metadata: Json, source: string, name: string): EventTriggerDef {
  const def = eventTriggersOf(metadata).find((t) => t.source === source && t.name === name);
  if (!def) throw new ApiError('not-exists', `event trigger ${JSON.stringify(name)} does not exist`, 400, ['args']);
  return def;
}

/** The source an operation names (only /v1/metadata takes one), checked to exist. */
function sourceOf(a: ArgsReader, ctx: ExtensionContext): string {
  const source = ctx.api === 'metadata' ? a.optName('source', 'default') : 'default';
  ctx.runnerOf(source);
  return source;
}

async function run(op: Op, a: ArgsReader, ctx: ExtensionContext): Promise<Json> {
  switch (op) {
    case 'invoke': {
      const name = a.name('name');
      const source = sourceOf(a, ctx);
      const payload = a.given('payload');
      const def = findTrigger(ctx.metadata, source, name);
      if (!def.definition.enable_manual) throw new ApiError('not-supported', 'manual mode is not enabled for event trigger', 400, ['args']);
      const id = await insertManualEvent(ctx.runnerOf(source), { table: def.table, trigger: name, payload, session: sessionJson(ctx.session) });
      return { event_id: id };
    }
    case 'redeliver': {
      const id = a.name('event_id');
      const db = ctx.runnerOf(sourceOf(a, ctx));
      const outcome = await hasEventLog(db) ? await redeliver(db, id) : 'unknown';
      if (outcome === 'unknown') throw new ApiError('not-exists', 'event not found', 400, ['args']);
      if (outcome === 'busy') throw new ApiError('busy', 'event is already being processed', 400, ['args']);
      return { message: 'success' };
    }
    case 'logs': {
      const name = a.name('name');
      const source = sourceOf(a, ctx);
      const page = { limit: a.count('limit', 100), offset: a.count('offset', 0) };
      const status = a.oneOf<EventStatus>('status', ['processed', 'pending'], 'event logs status can only be one of the following: processed or pending');
      findTrigger(ctx.metadata, source, name);
      const db = ctx.runnerOf(source);
      return await hasEventLog(db) ? eventLogs(db, name, { ...page, ...(status ? { status } : {}) }) : [];
    }
    case 'invocations': {
      const name = a.name('name');
      const source = sourceOf(a, ctx);
      const page = { limit: a.count('limit', 100), offset: a.count('offset', 0) };
      findTrigger(ctx.metadata, source, name);
      const db = ctx.runnerOf(source);
      return await hasEventLog(db) ? invocationLogs(db, name, page) : [];
    }
    case 'by_id': {
      const source = sourceOf(a, ctx);
      const id = a.name('event_id');
      const page = { limit: a.count('invocation_log_limit', 100), offset: a.count('invocation_log_offset', 0) };
      const db = ctx.runnerOf(source);
      return await hasEventLog(db) ? eventById(db, id, page) : { event: null, invocations: [] };
    }
    case 'cleanup': {
      const trigger = a.name('event_trigger_name');
      const source = sourceOf(a, ctx);
      const batchSize = a.count('batch_size', 10000);
      const clearOlderThan = a.requiredCount('clear_older_than');
      const timeout = a.count('timeout', 60);
      const cleanInvocationLogs = a.bool('clean_invocation_logs', false);
      findTrigger(ctx.metadata, source, trigger);
      const db = ctx.runnerOf(source);
      if (!await hasEventLog(db)) return { deleted_event_logs: 0, deleted_event_invocation_logs: 0 };
      // The cleanup's own bound; set for the rest of the transaction, then put back.
      const { rows } = await db.query("SELECT current_setting('statement_timeout'), set_config('statement_timeout', $1, true)", [`${timeout * 1000}`]);
      try {
        return await cleanupEventLogs(db, { trigger, batchSize, clearOlderThan, cleanInvocationLogs });
      } finally {
        await db.query("SELECT set_config('statement_timeout', $1, true)", [rows[0]![0] as string]);
      }
    }
  }
}

/**
 * Hasura's getEnv and resolveWebhook: a webhook (a URL template's variables, or webhook_from_env)
 * or header named by environment variable must be set when the trigger is defined. It fails while
 * the trigger is built (buildEventTriggerInfo), so the reason carries the context `in table "t":
 * in event trigger "e": ` and the object is reported whole, with the definition the other reasons
 * of an event trigger carry.
 */
function checkEnvironment(before: Json, after: Json): void {
  const prior = new Map(eventTriggersOf(before).map((t) => [`${t.source}\u0000${t.name}`, JSON.stringify(t)]));
  for (const t of eventTriggersOf(after)) {
    if (prior.get(`${t.source}\u0000${t.name}`) === JSON.stringify(t)) continue;
    // Hasura resolves the webhook (a URL template's variables, or webhook_from_env), then the headers.
    const missing = unsetVariable(t, process.env);
    const problem = (t.webhook !== undefined ? templateProblem(t.webhook, process.env) : undefined)
      ?? (missing !== undefined ? unsetVariableReason(missing) : undefined);
    if (problem === undefined) continue;
    const table = t.table.schema === 'public' ? t.table.name : `${t.table.schema}.${t.table.name}`;
    const reason = `Inconsistent object: in table ${JSON.stringify(table)}: in event trigger ${JSON.stringify(t.name)}: ${problem}`;
    const object = { type: 'event_trigger', name: `event_trigger ${t.name} in table ${table} in source ${t.source}`,
      definition: { ...storedTrigger(after, t), source: t.source, table: { ...t.table } }, reason };
    throw new ApiError('invalid-configuration', reason, 400, ['args'], [object]);
  }
}

/** The trigger as the document stores it (the definition an inconsistent event trigger is shown with). */
function storedTrigger(metadata: Json, t: EventTriggerDef): { readonly [k: string]: Json } {
  const isObj = (v: Json | undefined): v is { readonly [k: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);
  const sources = isObj(metadata) && Array.isArray(metadata['sources']) ? metadata['sources'] : [];
  for (const s of sources) {
    if (!isObj(s) || s['name'] !== t.source || !Array.isArray(s['tables'])) continue;
    for (const entry of s['tables']) {
      if (!isObj(entry) || !Array.isArray(entry['event_triggers'])) continue;
      const ref = entry['table'];
      const schema = isObj(ref) ? ref['schema'] ?? 'public' : 'public';
      const name = isObj(ref) ? ref['name'] : ref;
      if (schema !== t.table.schema || name !== t.table.name) continue;
      const found = entry['event_triggers'].find((e) => isObj(e) && e['name'] === t.name);
      if (isObj(found)) return found;
    }
  }
  return { name: t.name };
}

async function settle(ctx: SettleContext): Promise<void> {
  if (ctx.before !== null) checkEnvironment(ctx.before, ctx.after);
  const sources = new Set([...eventTriggersOf(ctx.after), ...(ctx.before ? eventTriggersOf(ctx.before) : [])].map((t) => t.source));
  for (const source of [...sources].sort()) {
    // Only sources the document still has and whose database could be read: a dropped source's
    // catalog is taken out when it leaves (retire.ts), and an unreachable one is inconsistent, not a failed change.
    if (!sourceKept(ctx, source)) continue;
    await syncEventTriggers(ctx.runnerOf(source), {
      source, before: ctx.before, after: ctx.after, model: ctx.compiled.model, recreate: ctx.recreateEventTriggers,
      verify: ctx.schemaChanged === true,
    });
  }
}

function sourceKept(ctx: SettleContext, source: string): boolean {
  return ctx.compiled.model.sources.some((s) => s.name === source);
}

/** The event trigger operations and the capture-trigger upkeep, for `MetadataApi`'s extensions. */
export function eventTriggerExtension(): ApiExtension {
  return {
    handles: (type, api) => OPS[api][type] !== undefined,
    readOnly: (type) => READ_ONLY.has(opOf(type)!),
    async run(type, args, ctx) {
      const op = opOf(type);
      if (!op) throw new ApiError('parse-failed', `unknown operation "${type}"`, 400, ['type']);
      const root: JsonPath = ctx.api === 'metadata' ? ['args'] : [];
      return run(op, ArgsReader.object(args, root), ctx);
    },
    settle,
    retire: async (db) => {
      await retireSourceEvents(db);
    },
  };
}
