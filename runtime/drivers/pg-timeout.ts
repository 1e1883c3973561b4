// Per-call statement timeouts on pooled PostgreSQL sessions.
//
// The source's default timeout is a startup parameter of every connection (pg-pool.ts), so a call
// without its own timeout costs nothing. A call with one changes the session's statement_timeout
// before it runs, and the value is remembered per client: the next call with the same timeout
// (the same role's limit, typically) runs without a round trip, and the first call without one
// puts the session back with RESET (which returns to the startup value).
// Inside a transaction the change is transaction-local (set_config(..., true)): a session-level
// SET made in a transaction that rolls back would be undone behind the record's back.

import type pg from 'pg';

// undefined: the session's own default (the startup parameter).
const sessionTimeout = new WeakMap<pg.PoolClient, number | undefined>();

function validMs(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`assertion failed: a statement timeout is a number of milliseconds >= 0, got ${ms}`);
  return String(Math.ceil(ms));
}

/**
 * Makes the session's statement_timeout `ms` (milliseconds, 0 = none), or the source default when
 * `ms` is undefined, before a call outside a transaction. Undefined when the session has it already
 * (the common case: no promise, no extra turn of the event loop per query).
 */
export function sessionTimeoutFor(client: pg.PoolClient, ms: number | undefined): Promise<void> | undefined {
  if (sessionTimeout.get(client) === ms) return undefined;
  return setSessionTimeout(client, ms);
}

async function setSessionTimeout(client: pg.PoolClient, ms: number | undefined): Promise<void> {
  if (ms === undefined) await client.query('RESET statement_timeout');
  else await client.query({ text: "SELECT set_config('statement_timeout', $1, false)", values: [validMs(ms)] });
  sessionTimeout.set(client, ms);
}

/** The statement timeout of one transaction's calls: local to it, changed only when a call asks for another. */
export function transactionTimeouts(client: pg.PoolClient): (ms: number | undefined) => Promise<void> | undefined {
  let current: number | undefined;
  const set = async (ms: number): Promise<void> => {
    await client.query({ text: "SELECT set_config('statement_timeout', $1, true)", values: [validMs(ms)] });
    current = ms;
  };
  return (ms) => (ms === undefined || ms === current ? undefined : set(ms));
}
