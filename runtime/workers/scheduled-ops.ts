// The scheduled event operations of the metadata API (spec part-b §4.9, reference/events.md §6):
// create_scheduled_event, delete_scheduled_event, get_cron_triggers, get_scheduled_events,
// get_scheduled_event_invocations; and, inside every change of the document, the cron events that
// follow it (a deleted trigger loses its events, a replaced one its future events, which are made
// again with the new definition, and a new one gets its first events).

import type { Json } from '../bundle/index.js';
import type { ApiExtension, ApiKind, ExtensionContext, SettleContext, SqlRunner } from '../metadata-api/index.js';
import { ensureScheduledCatalog } from './catalog.js';
import { deleteCronEvents, deleteFutureCronEvents, generateCronEvents, lockCronEvents } from './cron-schedule.js';
import { ArgsReader } from '../errors/index.js';
import { fieldText, oneOffRequest, pagination, scheduledType, statuses } from './scheduled-args.js';
import { cronTriggersOf } from './scheduled-definitions.js';

/** The operations, and the APIs that take them (/v1/query has the two of spec part-b §4.12). */
const OPS: { readonly [type: string]: readonly ApiKind[] } = {
  create_scheduled_event: ['metadata', 'query'],
  delete_scheduled_event: ['metadata'],
  get_cron_triggers: ['metadata', 'query'],
  get_scheduled_events: ['metadata'],
  get_scheduled_event_invocations: ['metadata'],
};

const READ_ONLY = new Set(['get_cron_triggers', 'get_scheduled_events', 'get_scheduled_event_invocations']);

export interface ScheduledExtensionOptions {
  /** Time for the cron events made when the document changes (tests move it). */
  readonly clock?: () => Date;
  readonly log?: (line: string) => void;
}

// The event rows as get_scheduled_events answers them; while an event is locked its
// next_retry_at holds the claim time (scheduled-worker.ts), which is not shown.
const CRON_ROW = `json_build_object('id', id, 'name', trigger_name, 'scheduled_time', scheduled_time, 'status', status,
  'tries', tries, 'created_at', created_at, 'next_retry_at', CASE WHEN status = 'locked' THEN NULL ELSE next_retry_at END)`;
const ONE_OFF_ROW = `json_build_object('id', id, 'webhook_conf', webhook_conf, 'scheduled_time', scheduled_time,
  'retry_conf', retry_conf, 'payload', payload, 'header_conf', header_conf, 'status', status, 'tries', tries,
  'created_at', created_at, 'next_retry_at', CASE WHEN status = 'locked' THEN NULL ELSE next_retry_at END,
  'comment', comment, 'request_transform', request_transform, 'response_transform', response_transform)`;
const INVOCATION_ROW = `json_build_object('id', i.id, 'event_id', i.event_id, 'status', i.status, 'request', i.request,
  'response', i.response, 'created_at', i.created_at)`;

/**
 * Rows as JSON text, one array; the count when asked for, by the same statement (one snapshot: a
 * count from a second statement could include an event that became delivered in between).
 */
async function page(db: SqlRunner, rowJson: string, from: string, where: string, order: string, params: unknown[],
  p: { readonly limit: number | null; readonly offset: number }, key: string, withCount: boolean): Promise<Json> {
  const n = params.length;
  const count = withCount ? `, (SELECT count(*)::int FROM ${from} WHERE ${where})` : '';
  const rows = await db.query(
    `SELECT coalesce(json_agg(r.j ORDER BY r.o), '[]')::text${count} FROM (
       SELECT ${rowJson} AS j, row_number() OVER (ORDER BY ${order}) AS o FROM ${from} WHERE ${where}
       ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}) r`,
    [...params, p.limit, p.offset]);
  const out: Record<string, Json> = { [key]: JSON.parse(String(rows.rows[0]?.[0] ?? '[]')) as Json };
  if (withCount) out['count'] = Number(rows.rows[0]?.[1] ?? 0);
  return out;
}

async function createScheduledEvent(args: Json, ctx: ExtensionContext): Promise<Json> {
  const r = oneOffRequest(args, ctx.api);
  const res = await ctx.catalog.query(
    `INSERT INTO svc_catalog.hdb_scheduled_events
       (webhook_conf, scheduled_time, retry_conf, payload, header_conf, comment, request_transform, response_transform)
     VALUES ($1::json, $2::timestamptz, $3::json, $4::json, $5::json, $6, $7::json, $8::json) RETURNING id`,
    [JSON.stringify(r.webhook), r.scheduleAt, JSON.stringify(r.retryConf), r.payload === undefined ? null : JSON.stringify(r.payload),
      JSON.stringify(r.headers), r.comment ?? null,
      r.requestTransform === undefined ? null : JSON.stringify(r.requestTransform),
      r.responseTransform === undefined ? null : JSON.stringify(r.responseTransform)]);
  return { message: 'success', event_id: String(res.rows[0]?.[0]) };
}

// Hasura deletes by id and answers success whether or not the event existed.
async function deleteScheduledEvent(args: Json, ctx: ExtensionContext): Promise<Json> {
  const a = ArgsReader.args({ args, api: ctx.api });
  const type = scheduledType(a);
  const id = a.string('event_id');
  const table = type === 'cron' ? 'svc_catalog.hdb_cron_events' : 'svc_catalog.hdb_scheduled_events';
  await ctx.catalog.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
  return { message: 'success' };
}

async function getScheduledEvents(args: Json, ctx: ExtensionContext): Promise<Json> {
  const a = ArgsReader.args({ args, api: ctx.api });
  const type = scheduledType(a, 'hand-written');
  const p = pagination(a);
  const wanted = statuses(a);
  const withCount = a.bool('get_rows_count');
  const status = wanted.length > 0 ? wanted : null;
  if (type === 'cron') {
    const name = fieldText(a, 'trigger_name');
    return page(ctx.catalog, CRON_ROW, 'svc_catalog.hdb_cron_events', 'trigger_name = $1 AND ($2::text[] IS NULL OR status = ANY($2::text[]))',
      'scheduled_time, id', [name, status], p, 'events', withCount);
  }
  return page(ctx.catalog, ONE_OFF_ROW, 'svc_catalog.hdb_scheduled_events', '($1::text[] IS NULL OR status = ANY($1::text[]))',
    'scheduled_time, id', [status], p, 'events', withCount);
}

async function getInvocations(args: Json, ctx: ExtensionContext): Promise<Json> {
  const a = ArgsReader.args({ args, api: ctx.api });
  const type = scheduledType(a, 'hand-written');
  const p = pagination(a);
  const withCount = a.bool('get_rows_count');
  const eventId = a.optString('event_id');
  const order = 'i.created_at DESC, i.id';
  if (type === 'one_off') {
    return page(ctx.catalog, INVOCATION_ROW, 'svc_catalog.hdb_scheduled_event_invocation_logs i', '($1::text IS NULL OR i.event_id = $1)',
      order, [eventId ?? null], p, 'invocations', withCount);
  }
  const from = 'svc_catalog.hdb_cron_event_invocation_logs i JOIN svc_catalog.hdb_cron_events e ON e.id = i.event_id';
  if (eventId !== undefined) return page(ctx.catalog, INVOCATION_ROW, from, 'i.event_id = $1', order, [eventId], p, 'invocations', withCount);
  const name = fieldText(a, 'trigger_name');
  return page(ctx.catalog, INVOCATION_ROW, from, 'e.trigger_name = $1', order, [name], p, 'invocations', withCount);
}

/** Which cron triggers a change deleted, replaced (any part of the definition) or added. */
function cronChanges(before: Json, after: Json): { deleted: string[]; replaced: string[]; added: string[] } {
  const old = new Map(cronTriggersOf(before).map((t) => [t.name, JSON.stringify(t.stored)]));
  const now = new Map(cronTriggersOf(after).map((t) => [t.name, JSON.stringify(t.stored)]));
  return {
    deleted: [...old.keys()].filter((n) => !now.has(n)),
    replaced: [...now].filter(([n, d]) => old.has(n) && old.get(n) !== d).map(([n]) => n),
    added: [...now.keys()].filter((n) => !old.has(n)),
  };
}

/** The metadata API extension of scheduled events. */
export function scheduledEventExtension(opts: ScheduledExtensionOptions = {}): ApiExtension {
  const clock = opts.clock ?? (() => new Date());
  let ready = false;
  const ensure = async (db: SqlRunner): Promise<void> => {
    if (ready) return;
    await ensureScheduledCatalog(db);
    ready = true;
  };
  return {
    handles: (type, api) => OPS[type]?.includes(api) ?? false,
    readOnly: (type) => READ_ONLY.has(type),
    async run(type, args, ctx) {
      switch (type) {
        case 'get_cron_triggers':
          return { cron_triggers: cronTriggersOf(ctx.metadata).map((t) => t.stored) };
        case 'create_scheduled_event':
          await ensure(ctx.catalog);
          return createScheduledEvent(args, ctx);
        case 'delete_scheduled_event':
          await ensure(ctx.catalog);
          return deleteScheduledEvent(args, ctx);
        case 'get_scheduled_events':
          await ensure(ctx.catalog);
          return getScheduledEvents(args, ctx);
        default:
          await ensure(ctx.catalog);
          return getInvocations(args, ctx);
      }
    },
    async settle(ctx: SettleContext) {
      const now = clock();
      const after = cronTriggersOf(ctx.after);
      if (ctx.before === null) {
        await ensureScheduledCatalog(ctx.catalog);
        ready = true;
        await lockCronEvents(ctx.catalog);
        await generateCronEvents(ctx.catalog, after, now, opts.log);
        return;
      }
      const c = cronChanges(ctx.before, ctx.after);
      if (c.deleted.length + c.replaced.length + c.added.length === 0) return;
      await ensureScheduledCatalog(ctx.catalog);
      ready = true;
      await lockCronEvents(ctx.catalog);
      await deleteCronEvents(ctx.catalog, c.deleted);
      await deleteFutureCronEvents(ctx.catalog, c.replaced, now);
      const fresh = new Set([...c.replaced, ...c.added]);
      await generateCronEvents(ctx.catalog, after.filter((t) => fresh.has(t.name)), now, opts.log);
    },
  };
}
