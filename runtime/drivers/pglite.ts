import type { PGlite, Results } from '@electric-sql/pglite';
import { lastScriptResult } from './script-result.js';
import { postgres } from '../sql/index.js';
import type { Driver, QueryResult, ScriptResult, TransactionRunner } from './driver.js';
import { mapDatabaseError } from './database-error.js';

/** Settings of the embedded database. */
export interface PgliteDriverOptions {
  /** The folder holding the data files (created on first start), e.g. `.kiln/pgdata`. */
  readonly dataDir: string;
}

/** The PGlite driver also runs whole SQL scripts (seeding the demo, setup in tests). */
export interface PgliteDriver extends Driver {
  /** Runs a multi-statement script with the simple protocol; no result. */
  exec(sqlScript: string): Promise<void>;
}

type Runner = TransactionRunner;
type Parsers = Record<number, (value: string) => unknown>;

const identity = (value: string): string => value;

// PGlite parses json, jsonb and int8 results by default: the response JSON must stay text.
const RAW_PARSERS: Parsers = { 114: identity, 3802: identity, 20: identity, 1700: identity };

// query(): like the pg driver: int8 and numeric as strings, date/time types as printed.
const TEXT_OIDS = [20, 1700, 1082, 1083, 1114, 1184, 1186, 1266, 1182, 1183, 1115, 1185, 1187, 1270, 1016];
const QUERY_PARSERS: Parsers = Object.fromEntries(TEXT_OIDS.map((oid) => [oid, identity]));

const SESSION_SETUP = "SET TIME ZONE 'UTC'; SET extra_float_digits = 1";

// After a script (run_sql) the one session is put back as it was: a `SET TIME ZONE` a user ran
// must not change how later responses print. (Temporary tables stay: only settings are reset.)
const SESSION_RESET = `RESET ALL; ${SESSION_SETUP}`;

// runScript(): every column as PostgreSQL's text. PGlite parses the types it knows (those in
// `db.parsers`, array types included); any other type already comes back as text.
function textParsers(db: PGlite): Parsers {
  return Object.fromEntries(Object.keys(db.parsers).map((oid) => [Number(oid), identity]));
}

function scriptResult(results: readonly Results<unknown[]>[]): ScriptResult {
  return lastScriptResult(results);
}

function runnerOn(db: PGlite, tainted: () => void): Runner {
  let parsers: Parsers | null = null;
  return {
    async queryText(text, params) {
      try {
        const res = await db.query<unknown[]>(text, params as unknown[], { rowMode: 'array', parsers: RAW_PARSERS });
        const row = res.rows[0];
        if (row === undefined || row.length === 0) throw new Error('queryText: the statement returned no row');
        const value = row[0];
        return value === null || value === undefined ? 'null' : String(value);
      } catch (e) {
        throw mapDatabaseError(e, { statement: text, prepared: false, arguments: params });
      }
    },
    async query(text, params = []) {
      try {
        const res = await db.query<unknown[]>(text, params as unknown[], { rowMode: 'array', parsers: QUERY_PARSERS });
        const result: QueryResult = {
          rows: res.rows,
          fields: res.fields.map((f) => f.name),
          rowCount: res.rowCount ?? res.affectedRows ?? res.rows.length,
        };
        return result;
      } catch (e) {
        throw mapDatabaseError(e, { statement: text, prepared: false, arguments: params });
      }
    },
    async runScript(text) {
      tainted();
      parsers ??= textParsers(db);
      try {
        const results = await db.exec(text, { rowMode: 'array', parsers }) as Results<unknown[]>[];
        return scriptResult(results);
      } catch (e) {
        throw mapDatabaseError(e, { statement: text, prepared: false, arguments: [] });
      }
    },
  };
}

/**
 * Serializes work on the single connection: each task starts when the previous one settled,
 * so a transaction's statements are never interleaved with another request's.
 */
function createQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * Starts embedded PostgreSQL (PGlite) in `dataDir` and wraps it as a Driver. One connection:
 * calls run one at a time; inside `transaction`, use only the `tx` handed to the callback
 * (calling the driver itself there would wait for the transaction to end).
 */
export async function createPgliteDriver(opts: PgliteDriverOptions): Promise<PgliteDriver> {
  // Loaded here, not with the module: a server of a database URL never needs it (2 MB of RSS).
  const { PGlite: Embedded } = await import('@electric-sql/pglite');
  const db = await Embedded.create(opts.dataDir);
  await db.exec(SESSION_SETUP);
  const enqueue = createQueue();
  // Set when a script ran since the session was last reset.
  let dirty = false;
  const direct = runnerOn(db, () => { dirty = true; });
  let closed = false;
  // A script outside a transaction of ours that left one open (`BEGIN; ...` without COMMIT, or a
  // statement that failed in it) would capture every later call of the one session: roll it back,
  // as PostgreSQL does when the pg driver discards such a connection.
  const endOpenTransaction = async (): Promise<void> => {
    if (db.isInTransaction()) await db.exec('ROLLBACK');
  };
  const resetSession = async (): Promise<void> => {
    if (!dirty) return;
    dirty = false;
    await db.exec(SESSION_RESET);
  };

  return {
    dialect: postgres,
    queryText: (text, params) => enqueue(() => direct.queryText(text, params)),
    query: (text, params) => enqueue(() => direct.query(text, params)),
    runScript: (text) => enqueue(async () => {
      try {
        return await direct.runScript(text);
      } finally {
        await endOpenTransaction();
        await resetSession();
      }
    }),
    exec: (script) => enqueue(async () => {
      try {
        await db.exec(script);
      } catch (e) {
        throw mapDatabaseError(e, { statement: script, prepared: false, arguments: [] });
      } finally {
        await endOpenTransaction().catch(() => undefined);
      }
    }),
    transaction: (fn, opts) => enqueue(async () => {
      await direct.query(opts?.readOnly ? 'BEGIN READ ONLY' : 'BEGIN');
      let result;
      try {
        result = await fn(direct);
      } catch (e) {
        await direct.query('ROLLBACK').catch(() => undefined);
        await resetSession().catch(() => undefined);
        throw e;
      }
      try {
        await direct.query('COMMIT');
      } finally {
        await resetSession();
      }
      return result;
    }),
    close: () => enqueue(async () => {
      if (closed) return;
      closed = true;
      await db.close();
    }),
  };
}
