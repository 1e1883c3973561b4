// SQL Server: the session for event capture is kept in the connection's session context
// (sp_set_session_context), read by the capture triggers with SESSION_CONTEXT(N'svc.user').

import { session, sql, type Sql } from '../../fragment.js';

/** Records the session for event capture, first in a write transaction. */
export function recordSessionSql(): Sql {
  return sql`EXEC sp_set_session_context @key = N'svc.user', @value = ${session('*', 'nvarchar(max)')}`;
}
