// SQL Server failures as the same ApiError codes PostgreSQL's get (database-error.ts), by the
// error number the server sends (never by message): constraint violations, data exceptions, the
// rest `mssql-error`. A failure to reach the server is a connection error.

import { ApiError } from '../errors/index.js';
import type { StatementContext } from './database-error.js';

// Error numbers of sys.messages.
const CONSTRAINT: Readonly<Record<number, string>> = {
  // 547: a foreign key or check constraint conflict (the message says which).
  2627: 'Uniqueness violation. ', 2601: 'Uniqueness violation. ', 547: 'Constraint violation. ', 515: 'Not-NULL violation. ',
};
const DATA = new Set([
  241, 242, 245, 8114, 8115, 8134, 8152, 2628, 220, 232, 517, 8116, 9413, 13609, 13608, 295, 296, 8169, 8153,
]);
const CONNECTION_CODES = new Set(['ESOCKET', 'ECONNCLOSED', 'ETIMEOUT', 'ELOGIN', 'EINSTLOOKUP', 'ECONNRESET', 'ECONNREFUSED', 'ENOTOPEN']);

/** The ApiError of a failure of the mssql package (RequestError, ConnectionError, TransactionError). */
export function mapMssqlError(e: unknown, ctx?: StatementContext): ApiError {
  if (e instanceof ApiError) return e;
  const err = e as { message?: unknown; number?: unknown; code?: unknown; originalError?: { info?: { number?: unknown } } } | null;
  const message = typeof err?.message === 'string' ? err.message : String(e);
  const number = typeof err?.number === 'number' ? err.number : typeof err?.originalError?.info?.number === 'number' ? err.originalError.info.number : null;
  const code = typeof err?.code === 'string' ? err.code : null;
  const internal = (exec: string): Record<string, unknown> => ({
    statement: ctx?.statement ?? null, prepared: ctx?.prepared ?? false, arguments: ctx?.arguments ?? [],
    error: { message, status_code: number, exec_status: exec },
  });
  if (number === null && code !== null && CONNECTION_CODES.has(code)) return new ApiError('mssql-error', 'connection error', 500, [], internal('ConnectionError'));
  if (number !== null && CONSTRAINT[number] !== undefined) return new ApiError('constraint-violation', CONSTRAINT[number] + message, 400, [], internal('FatalError'));
  if (number !== null && DATA.has(number)) return new ApiError('data-exception', message, 400, [], internal('FatalError'));
  return new ApiError('mssql-error', 'database query error', number === null ? 500 : 400, [], internal('FatalError'));
}
