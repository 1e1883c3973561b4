// Hasura's time_limit: the database work of an operation runs under a statement timeout, so
// PostgreSQL cancels a statement that runs longer and the connection goes back to the pool
// healthy. The timeout is set with SET LOCAL semantics inside a transaction around the work, so
// it can never outlive the request on a pooled connection. This costs a BEGIN, a set_config and
// a COMMIT per operation, paid only by roles that have a time limit.

import type { Driver, TransactionRunner } from '../drivers/index.js';
import { ApiError } from '../errors/index.js';
import { compileSql } from '../sql/index.js';

// SQLSTATE query_canceled: what a statement stopped by statement_timeout fails with.
const QUERY_CANCELED = '57014';

function canceled(e: unknown): boolean {
  if (!(e instanceof ApiError)) return false;
  const internal = e.internal as { error?: { status_code?: unknown } } | undefined;
  return internal?.error?.status_code === QUERY_CANCELED;
}

/** A driver whose every statement (or transaction) runs under a statement timeout of `seconds`. */
export function withStatementTimeout(driver: Driver, seconds: number): Driver {
  // Local to the transaction (SET LOCAL on PostgreSQL); its value is a constant parameter.
  const setTimeout = compileSql(driver.dialect.render.statementTimeout(Math.max(1, Math.round(seconds * 1000))), driver.dialect);
  const values = setTimeout.params.map((p) => (p.source.kind === 'value' ? p.source.value : null));
  const timed = async <T>(fn: (tx: TransactionRunner) => Promise<T>, readOnly = false): Promise<T> => {
    try {
      return await driver.transaction(async (tx) => {
        await tx.queryText(setTimeout.text, values, 'kiln_statement_timeout');
        return fn(tx);
      }, readOnly ? { readOnly } : undefined);
    } catch (e) {
      if (canceled(e)) throw new ApiError('time-limit-exceeded', 'The time limit has been exceeded for this query', 400, [], (e as ApiError).internal);
      throw e;
    }
  };
  return {
    dialect: driver.dialect,
    queryText: (text, params, name, valueSensitive) => timed((tx) => tx.queryText(text, params, name, valueSensitive)),
    query: (text, params) => timed((tx) => tx.query(text, params)),
    runScript: (text) => timed((tx) => tx.runScript(text)),
    transaction: (fn, opts) => timed(fn, opts?.readOnly ?? false),
    close: () => driver.close(),
  };
}
