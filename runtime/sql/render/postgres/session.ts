// PostgreSQL: settings local to a transaction (`set_config(.., true)` is SET LOCAL), so none
// outlives the operation on a pooled connection.

import { param, session, sql, type Sql } from '../../fragment.js';

/** Records the session for event triggers' capture (reference/events.md §2), first in the transaction. */
export function recordSessionSql(): Sql {
  return sql`SELECT set_config('svc.user', ${session('*', 'text')}, true)`;
}

/** Sets the statement timeout (Hasura's time_limit) for the rest of the transaction. */
export function statementTimeoutSql(ms: number): Sql {
  return sql`SELECT set_config('statement_timeout', ${param(String(ms), 'text')}, true)`;
}
