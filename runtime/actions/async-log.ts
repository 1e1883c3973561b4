// The log of asynchronous action calls, `svc_catalog.hdb_action_log` in the metadata database
// (reference/actions.md §4, Hasura's table and columns): the mutation inserts a `created` row,
// a worker claims rows with FOR UPDATE SKIP LOCKED (so several runtimes share them), calls the
// handler and stores the answer (`completed`) or the error (`error`); the result query reads it.
// Fixed statements; every value is a parameter.

import type { Json } from '../bundle/index.js';
import { createCatalogIndexIfMissing, type Driver } from '../drivers/index.js';

type Runner = Pick<Driver, 'query'>;

// Any constant works, as long as every Kiln uses the same one: instances starting together take turns.
// The ids come from gen_random_uuid() itself (what svc_catalog.gen_svc_uuid() wraps): replacing that
// function here would race the event tables' set-up, which runs at the same moment under its own lock.
const ACTION_LOG_INIT_LOCK = 7_242_018;

const TABLES: readonly string[] = [
  'CREATE SCHEMA IF NOT EXISTS svc_catalog',
  `CREATE TABLE IF NOT EXISTS svc_catalog.hdb_action_log (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     action_name text,
     input_payload jsonb NOT NULL,
     request_headers jsonb NOT NULL,
     session_variables jsonb NOT NULL,
     response_payload jsonb,
     errors jsonb,
     created_at timestamptz NOT NULL DEFAULT now(),
     response_received_at timestamptz,
     status text NOT NULL CHECK (status IN ('created', 'processing', 'completed', 'error')))`,
  createCatalogIndexIfMissing('hdb_action_log_pending',
    `CREATE INDEX IF NOT EXISTS hdb_action_log_pending ON svc_catalog.hdb_action_log (created_at) WHERE status = 'created'`),
];

/** Creates the log table when missing. */
export async function ensureActionLog(db: Pick<Driver, 'transaction'>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [ACTION_LOG_INIT_LOCK]);
    for (const s of TABLES) await tx.query(s);
  });
}

/** A call as the log holds it. */
export interface LoggedCall {
  readonly id: string;
  readonly action: string;
  readonly input: Json;
  readonly sessionVariables: { readonly [k: string]: string };
  readonly requestHeaders: { readonly [k: string]: string };
}

/** Records a call; answers its id. */
export async function logCall(db: Runner, action: string, input: Json, session: { readonly [k: string]: string }, headers: { readonly [k: string]: string }): Promise<string> {
  const r = await db.query(`INSERT INTO svc_catalog.hdb_action_log (action_name, input_payload, request_headers, session_variables, status)
    VALUES ($1, $2::jsonb, $3::jsonb, $4::jsonb, 'created') RETURNING id::text`, [action, JSON.stringify(input), JSON.stringify(headers), JSON.stringify(session)]);
  return String(r.rows[0]![0]);
}

/** Claims up to `limit` created calls (oldest first), marking them `processing`. */
export async function claimCalls(db: Runner, limit: number): Promise<LoggedCall[]> {
  const r = await db.query(`UPDATE svc_catalog.hdb_action_log SET status = 'processing'
    WHERE id IN (SELECT id FROM svc_catalog.hdb_action_log WHERE status = 'created' ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
    RETURNING id::text, action_name, input_payload::text, session_variables::text, request_headers::text`, [limit]);
  return r.rows.map((row) => ({ id: String(row[0]), action: String(row[1]), input: JSON.parse(String(row[2])) as Json,
    sessionVariables: JSON.parse(String(row[3])) as { [k: string]: string }, requestHeaders: JSON.parse(String(row[4])) as { [k: string]: string } }));
}

/** Stores a handler's answer. */
export async function completeCall(db: Runner, id: string, response: Json): Promise<void> {
  await db.query(`UPDATE svc_catalog.hdb_action_log SET status = 'completed', response_payload = $2::jsonb, response_received_at = now() WHERE id = $1::uuid`,
    [id, JSON.stringify(response)]);
}

/** Stores a failed call's error. */
export async function failCall(db: Runner, id: string, errors: Json): Promise<void> {
  await db.query(`UPDATE svc_catalog.hdb_action_log SET status = 'error', errors = $2::jsonb, response_received_at = now() WHERE id = $1::uuid`,
    [id, JSON.stringify(errors)]);
}

/**
 * Puts calls left `processing` back to `created` (Hasura does so at start: a runtime that stopped
 * mid-call never stored its answer, so the call is made again).
 */
export async function requeueProcessing(db: Runner): Promise<number> {
  return (await db.query(`UPDATE svc_catalog.hdb_action_log SET status = 'created' WHERE status = 'processing'`)).rowCount;
}

/** A call's state as the result query reads it (null: no such call of that action). */
export interface CallResult {
  readonly id: string;
  readonly createdAt: string;
  readonly status: 'created' | 'processing' | 'completed' | 'error';
  readonly output: Json;
  readonly errors: Json;
  readonly sessionVariables: { readonly [k: string]: string };
}

/** Reads calls by id (those of other actions are left out by the caller): one statement for them all. */
export async function readCalls(db: Runner, ids: readonly string[]): Promise<Map<string, CallResult & { readonly action: string }>> {
  const r = await db.query(`SELECT json_build_object('id', id, 'action', action_name, 'created_at', created_at, 'status', status, 'output', response_payload,
      'errors', errors, 'session_variables', session_variables)::text
    FROM svc_catalog.hdb_action_log WHERE id = ANY($1::uuid[])`, [ids]);
  const out = new Map<string, CallResult & { readonly action: string }>();
  for (const row of r.rows) {
    const o = JSON.parse(String(row[0])) as { id: string; action: string; created_at: string; status: CallResult['status']; output: Json; errors: Json; session_variables: { [k: string]: string } };
    out.set(o.id, { id: o.id, action: o.action, createdAt: o.created_at, status: o.status, output: o.output, errors: o.errors, sessionVariables: o.session_variables });
  }
  return out;
}

/**
 * Reads of logged calls asked for at about the same moment (the result queries of one request, the
 * subscriptions to results polled together) made in one statement: the ids asked before the event
 * loop next turns are read at once.
 */
export class CallReader {
  private waiting: { id: string; action: string; resolve(r: CallResult | null): void; reject(e: unknown): void }[] = [];

  constructor(private readonly db: Runner) {}

  read(action: string, id: string): Promise<CallResult | null> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => void this.flush());
      this.waiting.push({ id, action, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    try {
      const calls = await readCalls(this.db, [...new Set(batch.map((w) => w.id.toLowerCase()))]);
      for (const w of batch) {
        const call = calls.get(w.id.toLowerCase());
        w.resolve(call && call.action === w.action ? call : null);
      }
    } catch (e) {
      for (const w of batch) w.reject(e);
    }
  }
}
