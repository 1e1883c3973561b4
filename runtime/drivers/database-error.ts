import { ApiError } from '../errors/index.js';
import { ResponseTooLarge } from './pg-guard.js';

/** What was being run when the database failed; becomes `internal` like Hasura's PGTxErr. */
export interface StatementContext {
  readonly statement?: string;
  readonly prepared?: boolean;
  readonly arguments?: readonly unknown[];
}

/** The fields of a PostgreSQL error response that both `pg` and PGlite carry. */
interface PgErrorFields {
  readonly message: string;
  readonly code: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly schema?: string;
  readonly table?: string;
}

// The relation PostgreSQL named in an error (a constraint's table), kept beside the ApiError so
// that callers can say which part of a request failed without changing the error's wire shape.
const relations = new WeakMap<ApiError, { readonly schema: string; readonly table: string }>();

/** The schema and table PostgreSQL named in the error this ApiError was made of, if any. */
export function relationOf(e: ApiError): { readonly schema: string; readonly table: string } | null {
  return relations.get(e) ?? null;
}

/** Marks a failure to reach the database (checking out a connection, a socket that broke). */
export class ConnectionError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

// Node's socket errors: the server is unreachable or went away.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH', 'EAI_AGAIN']);

function pgFields(e: unknown): PgErrorFields | null {
  if (!(e instanceof Error)) return null;
  const code = (e as { code?: unknown }).code;
  // A SQLSTATE is five characters of digits and upper-case letters; Node's codes start with E.
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return null;
  const { detail, hint, schema, table } = e as { detail?: unknown; hint?: unknown; schema?: unknown; table?: unknown };
  return {
    message: e.message,
    code,
    detail: typeof detail === 'string' ? detail : undefined,
    hint: typeof hint === 'string' ? hint : undefined,
    schema: typeof schema === 'string' ? schema : undefined,
    table: typeof table === 'string' ? table : undefined,
  };
}

function isConnectionFailure(e: unknown, pg: PgErrorFields | null): boolean {
  if (e instanceof ConnectionError) return true;
  if (pg) return pg.code.startsWith('08') || pg.code === '57P01' || pg.code === '57P02' || pg.code === '57P03' || pg.code === '53300';
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SOCKET_CODES.has(code);
}

// Hasura's Integrity-constraint prefixes (Hasura.Backends.Postgres.Execute.Types.mkTxErrorHandler).
const CONSTRAINT_PREFIX: Readonly<Record<string, string>> = {
  '23001': 'Can not delete or update due to data being referred. ',
  '23502': 'Not-NULL violation. ',
  '23503': 'Foreign key violation. ',
  '23505': 'Uniqueness violation. ',
  '23P01': 'Exclusion violation. ',
};

function classify(pg: PgErrorFields): { code: ApiError['code']; message: string; status: number } {
  const c = pg.code;
  if (c === '23514') {
    // Hasura reports a CHECK constraint as a permission error, not a constraint violation.
    return { code: 'permission-error', message: `Check constraint violation. ${pg.message}`, status: 400 };
  }
  if (c.startsWith('23')) {
    return { code: 'constraint-violation', message: (CONSTRAINT_PREFIX[c] ?? '') + pg.message, status: 400 };
  }
  if (c === '22025') return { code: 'bad-request', message: pg.message, status: 400 };
  if (c.startsWith('22')) return { code: 'data-exception', message: pg.message, status: 400 };
  if (c === '42830') {
    return { code: 'constraint-error', message: 'there is no unique or exclusion constraint on target column(s)', status: 400 };
  }
  if (c === '42704') return { code: 'constraint-error', message: pg.message, status: 400 };
  // A statement cancelled (statement_timeout, or a cancel request): PostgreSQL's message says which
  // ("canceling statement due to statement timeout"); Hasura would hide it behind "database query error".
  if (c === '57014') return { code: 'postgres-error', message: pg.message, status: 400 };
  // Every other failure of a statement is one Hasura does not expect of its own SQL (its
  // dmlTxErrorHandler: a read-only transaction, a deadlock, a syntax error...): 500 `unexpected`
  // "database query error", PostgreSQL's own words in `internal` only.
  return { code: 'unexpected', message: 'database query error', status: 500 };
}

function internalOf(ctx: StatementContext | undefined, error: Record<string, unknown>): Record<string, unknown> {
  return {
    statement: ctx?.statement ?? null,
    prepared: ctx?.prepared ?? false,
    arguments: (ctx?.arguments ?? []).map(renderArgument),
    error,
  };
}

function renderArgument(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/**
 * Turns whatever the driver threw into an ApiError by SQLSTATE (never by message), with
 * Hasura's wording and its `internal` shape `{statement, prepared, arguments, error}`.
 * An ApiError passes through unchanged.
 */
export function mapDatabaseError(e: unknown, ctx?: StatementContext): ApiError {
  if (e instanceof ApiError) return e;
  // The connection closed for a row over the cap (pg-guard.ts), directly or as the cause of the
  // connection failure. Not Hasura's (it has no such cap): the client asked for too much at once.
  const tooLarge = e instanceof ResponseTooLarge ? e : e instanceof ConnectionError && e.cause instanceof ResponseTooLarge ? e.cause : null;
  if (tooLarge) {
    return new ApiError('validation-failed', `the response is larger than the server allows (${tooLarge.limit} bytes in one row); ask for fewer rows or fields`, 400, [],
      internalOf(ctx, { message: tooLarge.message, status_code: null, description: null, exec_status: 'FatalError', hint: null }));
  }
  const pg = pgFields(e);
  if (isConnectionFailure(e, pg)) {
    const message = e instanceof Error ? e.message : String(e);
    return new ApiError('postgres-error', 'connection error', 500, [], internalOf(ctx, {
      message, status_code: pg?.code ?? null, description: pg?.detail ?? null, exec_status: 'ConnectionError', hint: pg?.hint ?? null,
    }));
  }
  if (!pg) {
    const message = e instanceof Error ? e.message : String(e);
    return new ApiError('postgres-error', 'database query error', 500, [], internalOf(ctx, {
      message, status_code: null, description: null, exec_status: 'FatalError', hint: null,
    }));
  }
  const { code, message, status } = classify(pg);
  const mapped = new ApiError(code, message, status, [], internalOf(ctx, {
    message: pg.message, status_code: pg.code, description: pg.detail ?? null, exec_status: 'FatalError', hint: pg.hint ?? null,
  }));
  if (pg.schema && pg.table) relations.set(mapped, { schema: pg.schema, table: pg.table });
  return mapped;
}
