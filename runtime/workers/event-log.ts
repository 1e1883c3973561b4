// Reading and changing a source's event log for the metadata API: the rows in Hasura's JSON
// shapes (EventLog, EventInvocationLog), redelivery, manual events and cleanup. Every value is a
// parameter; the JSON is built by the database. Timestamps are UTC, ISO 8601 with `Z`.

import type { Json } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';

type Runner = Pick<Driver, 'query'>;

const EVENT_JSON = `json_build_object(
  'id', l.id, 'schema_name', l.schema_name, 'table_name', l.table_name, 'trigger_name', l.trigger_name,
  'payload', l.payload, 'delivered', l.delivered, 'error', l.error, 'tries', l.tries,
  'created_at', (to_json(l.created_at) #>> '{}') || 'Z',
  'locked', (to_json(l.locked AT TIME ZONE 'UTC') #>> '{}') || 'Z',
  'next_retry_at', (to_json(l.next_retry_at) #>> '{}') || 'Z',
  'archived', l.archived)`;

const INVOCATION_JSON = `json_build_object(
  'id', i.id, 'trigger_name', i.trigger_name, 'event_id', i.event_id, 'http_status', i.status,
  'request', i.request, 'response', i.response, 'created_at', (to_json(i.created_at) #>> '{}') || 'Z')`;

/** `processed`: delivered or failed for good; `pending`: still to be delivered. */
export type EventStatus = 'processed' | 'pending';

/** False when the source has never had an event trigger (no event log yet). */
export async function hasEventLog(db: Runner): Promise<boolean> {
  const { rows } = await db.query("SELECT to_regclass('svc_catalog.event_log') IS NOT NULL");
  return rows[0]?.[0] === true;
}

function jsonColumn(rows: readonly unknown[][]): Json[] {
  return rows.map((r) => r[0] as Json);
}

/** The events of a trigger, newest first. */
export async function eventLogs(db: Runner, trigger: string, o: { limit: number; offset: number; status?: EventStatus }): Promise<Json[]> {
  const filter = o.status === 'processed' ? 'AND (l.delivered OR l.error)'
    : o.status === 'pending' ? 'AND NOT l.delivered AND NOT l.error AND NOT l.archived' : '';
  const { rows } = await db.query(`SELECT ${EVENT_JSON} FROM svc_catalog.event_log l
    WHERE l.trigger_name = $1 ${filter} ORDER BY l.created_at DESC, l.id LIMIT $2 OFFSET $3`, [trigger, o.limit, o.offset]);
  return jsonColumn(rows);
}

/** The delivery attempts of a trigger's events, newest first. */
export async function invocationLogs(db: Runner, trigger: string, o: { limit: number; offset: number }): Promise<Json[]> {
  const { rows } = await db.query(`SELECT ${INVOCATION_JSON} FROM svc_catalog.event_invocation_logs i
    WHERE i.trigger_name = $1 ORDER BY i.created_at DESC, i.id LIMIT $2 OFFSET $3`, [trigger, o.limit, o.offset]);
  return jsonColumn(rows);
}

/** One event (null when unknown) and its delivery attempts, newest first. */
export async function eventById(db: Runner, id: string, o: { limit: number; offset: number }): Promise<{ event: Json; invocations: Json[] }> {
  const event = await db.query(`SELECT ${EVENT_JSON} FROM svc_catalog.event_log l WHERE l.id = $1`, [id]);
  const invocations = await db.query(`SELECT ${INVOCATION_JSON} FROM svc_catalog.event_invocation_logs i
    WHERE i.event_id = $1 ORDER BY i.created_at DESC, i.id LIMIT $2 OFFSET $3`, [id, o.limit, o.offset]);
  return { event: (event.rows[0]?.[0] ?? null) as Json, invocations: jsonColumn(invocations.rows) };
}

/**
 * Marks an event for delivery again: `unknown` when there is none, `busy` when a worker holds it
 * (a lock younger than 30 minutes; an older one is a crashed worker's and is released).
 */
export async function redeliver(db: Runner, id: string): Promise<'ok' | 'unknown' | 'busy'> {
  const { rows } = await db.query(`SELECT l.locked IS NOT NULL AND l.locked >= now() - interval '30 minutes'
    FROM svc_catalog.event_log l WHERE l.id = $1 FOR UPDATE`, [id]);
  if (rows.length === 0) return 'unknown';
  if (rows[0]![0] === true) return 'busy';
  await db.query(`UPDATE svc_catalog.event_log
    SET tries = 0, error = false, delivered = false, next_retry_at = NULL, locked = NULL WHERE id = $1`, [id]);
  return 'ok';
}

/** Inserts a MANUAL event (`data.old` null, `data.new` the given payload); answers its id. */
export async function insertManualEvent(db: Runner, e: {
  table: { schema: string; name: string }; trigger: string; payload: Json; session: Json;
}): Promise<string> {
  const payload = { op: 'MANUAL', data: { old: null, new: e.payload }, session_variables: e.session, trace_context: null };
  const { rows } = await db.query(`INSERT INTO svc_catalog.event_log (schema_name, table_name, trigger_name, payload)
    VALUES ($1, $2, $3, $4::jsonb) RETURNING id`, [e.table.schema, e.table.name, e.trigger, JSON.stringify(payload)]);
  return rows[0]![0] as string;
}

export interface Cleanup {
  readonly trigger: string;
  readonly batchSize: number;
  /** Hours. */
  readonly clearOlderThan: number;
  readonly cleanInvocationLogs: boolean;
}

/**
 * Deletes a trigger's processed events older than `clearOlderThan` hours, `batchSize` rows a
 * statement (locked ones are left alone), and their invocation logs when asked.
 */
export async function cleanupEventLogs(db: Runner, c: Cleanup): Promise<{ deleted_event_logs: number; deleted_event_invocation_logs: number }> {
  let events = 0;
  let invocations = 0;
  for (;;) {
    const { rows } = await db.query(`WITH gone AS (
        DELETE FROM svc_catalog.event_log WHERE id IN (
          SELECT id FROM svc_catalog.event_log
           WHERE trigger_name = $1 AND (delivered OR error) AND locked IS NULL
             AND created_at < now() - make_interval(hours => $2)
           LIMIT $3)
        RETURNING id),
      logs AS (
        DELETE FROM svc_catalog.event_invocation_logs WHERE $4 AND event_id IN (SELECT id FROM gone) RETURNING 1)
      SELECT (SELECT count(*) FROM gone)::int, (SELECT count(*) FROM logs)::int`,
    [c.trigger, c.clearOlderThan, c.batchSize, c.cleanInvocationLogs]);
    const [e, i] = rows[0] as [number, number];
    events += e;
    invocations += i;
    if (e < c.batchSize || c.batchSize === 0) break;
  }
  return { deleted_event_logs: events, deleted_event_invocation_logs: invocations };
}
