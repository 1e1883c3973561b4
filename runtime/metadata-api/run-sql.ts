// run_sql (/v1/query, /v2/query, and pg_run_sql on /v1/metadata): the arguments, running the
// text over the simple query protocol, and the answer in Hasura's shape (spec part B 4.12):
// `{result_type: 'TuplesOk', result: [[column names], [values as text]...]}` for a last statement
// that returns rows, `{result_type: 'CommandOk', result: null}` otherwise.

import type { Json } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { ApiError, asBool, asObject, asString, type JsonPath, optional, required } from '../errors/index.js';

/** The arguments of run_sql. */
export interface RunSqlArgs {
  readonly sql: string;
  /** The source it runs on (`default` when not given). */
  readonly source: string;
  readonly cascade: boolean;
  /** As given: undefined when absent (Hasura then decides by the statement's keywords). */
  readonly checkMetadataConsistency: boolean | undefined;
  readonly readOnly: boolean;
}

/** Reads run_sql's `args` found at `path`; a wrong shape is `parse-failed` in aeson's words. */
export function parseRunSqlArgs(args: unknown, path: JsonPath): RunSqlArgs {
  const o = asObject(args, path, 'RunSQL');
  return {
    sql: required(o, 'sql', path, asString),
    source: optional(o, 'source', path, asString) ?? 'default',
    cascade: optional(o, 'cascade', path, asBool) ?? false,
    checkMetadataConsistency: optional(o, 'check_metadata_consistency', path, asBool),
    readOnly: optional(o, 'read_only', path, asBool) ?? false,
  };
}

/**
 * Runs the statements and answers with the result of the last one. Every database failure is
 * Hasura's `rawSqlErrHandler`: 400 `postgres-error` "query execution failed" at `path`, the
 * PostgreSQL details in `internal` (corpus: v1/run_sql/sql_select_query_read_only). A lost
 * connection stays the 500 the driver made of it.
 */
export async function runSql(runner: Pick<Driver, 'runScript'>, args: RunSqlArgs, path: JsonPath = ['args']): Promise<Json> {
  let result;
  try {
    result = await runner.runScript(args.sql);
  } catch (e) {
    if (!(e instanceof ApiError) || isConnectionError(e)) throw e;
    throw new ApiError('postgres-error', 'query execution failed', 400, path, e.internal);
  }
  if (result.fields === null) return { result_type: 'CommandOk', result: null };
  return { result_type: 'TuplesOk', result: [[...result.fields], ...result.rows.map((r) => [...r])] };
}

function isConnectionError(e: ApiError): boolean {
  const internal = e.internal as { error?: { exec_status?: unknown } } | undefined;
  return internal?.error?.exec_status === 'ConnectionError';
}

/**
 * True unless the text is clearly only statements that cannot change the catalog: SELECT,
 * INSERT, UPDATE, DELETE, VALUES, TABLE, WITH (whose parts are all of those), SET, RESET, SHOW
 * (not `SELECT ... INTO`, which creates a table). Comments, string literals, quoted names and dollar-quoted bodies are skipped when the
 * statements are split. In doubt (anything else, or text it cannot read) it says true.
 * Not detected: a SELECT calling a function that runs DDL, and DML on an enum table (whose
 * values are part of the schema); pass check_metadata_consistency for those.
 */
export function looksLikeDdl(sql: string): boolean {
  const heads = statementHeads(sql);
  if (heads === null) return true;
  return heads.some((h) => !NOT_DDL.has(h));
}

const NOT_DDL = new Set(['select', 'insert', 'update', 'delete', 'values', 'table', 'with', 'set', 'reset', 'show']);
// `SELECT ... INTO t` creates a table; INSERT INTO does not.
const INTO_CREATES = new Set(['select', 'with', 'table', 'values']);

/**
 * The first word of every non-empty statement, lower-cased; a parenthesised statement
 * (`(SELECT 1)`) counts as `select` only through its first word. Null for text the scanner
 * cannot follow (an unterminated literal or comment).
 */
function statementHeads(sql: string): string[] | null {
  const heads: string[] = [];
  let head: string | null = null;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (c === ';') { head = null; i++; continue; }
    if (/\s/.test(c) || c === '(') { i++; continue; }
    const skipped = skipOpaque(sql, i);
    if (skipped === -1) return null;
    if (skipped > i) {
      // A literal or a quoted name where a statement starts: not a keyword we know.
      if (head === null && !/^(--|\/\*)/.test(sql.slice(i, i + 2))) { head = '?'; heads.push(head); }
      i = skipped;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j]!)) j++;
      const word = sql.slice(i, j).toLowerCase();
      if (head === null) { head = word; heads.push(head); }
      else if (word === 'into' && INTO_CREATES.has(head)) heads.push('select into');
      i = j;
      continue;
    }
    if (head === null) { head = '?'; heads.push(head); }
    i++;
  }
  return heads;
}

/** The index just past a comment, string, quoted name or dollar-quoted body at `i`; `i` when none starts there; -1 when it never ends. */
function skipOpaque(sql: string, i: number): number {
  const two = sql.slice(i, i + 2);
  if (two === '--') {
    const end = sql.indexOf('\n', i);
    return end === -1 ? sql.length : end + 1;
  }
  if (two === '/*') {
    // Block comments nest in PostgreSQL.
    let depth = 0;
    let j = i;
    while (j < sql.length) {
      const t = sql.slice(j, j + 2);
      if (t === '/*') { depth++; j += 2; continue; }
      if (t === '*/') { depth--; j += 2; if (depth === 0) return j; continue; }
      j++;
    }
    return -1;
  }
  const c = sql[i]!;
  if (c === "'" || c === '"') {
    // E'...' strings may escape a quote with a backslash; the E itself was read as a word.
    const escapes = c === "'" && i > 0 && /[eE]/.test(sql[i - 1]!);
    let j = i + 1;
    while (j < sql.length) {
      if (escapes && sql[j] === '\\') { j += 2; continue; }
      if (sql[j] === c) {
        if (sql[j + 1] === c) { j += 2; continue; }
        return j + 1;
      }
      j++;
    }
    return -1;
  }
  if (c === '$') {
    const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
    if (!m) return i;
    const end = sql.indexOf(m[0], i + m[0].length);
    return end === -1 ? -1 : end + m[0].length;
  }
  return i;
}
