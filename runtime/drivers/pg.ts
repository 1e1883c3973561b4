import pg from 'pg';
import { postgres } from '../sql/index.js';
import type { Driver, QueryResult, ScriptResult, TransactionOptions, TransactionRunner } from './driver.js';
import { ConnectionError, mapDatabaseError } from './database-error.js';
import { statementName } from './statement-name.js';
import { lastScriptResult } from './script-result.js';
import { PlanChoices } from './plan-choice.js';

/** Settings of a PostgreSQL source. */
export interface PgDriverOptions {
  readonly url: string;
  /** Pool size (SVC_GRAPHQL_PG_CONNECTIONS). */
  readonly max?: number;
  /** Milliseconds to wait for a free connection before failing; 0 waits forever. */
  readonly connectionTimeoutMillis?: number;
}

type Runner = TransactionRunner;

const identity = (value: string): string => value;

// queryText: every column stays the text PostgreSQL sent (the response JSON is never parsed).
const RAW_TYPES = { getTypeParser: () => identity } as unknown as pg.CustomTypesConfig;

// query(): pg's parsers, except date/time types, which stay as PostgreSQL prints them
// (a JS Date would drop microseconds and the offset).
const TEXT_OIDS = new Set([1082, 1083, 1114, 1184, 1186, 1266, 1182, 1183, 1115, 1185, 1187, 1270]);
const QUERY_TYPES = {
  getTypeParser: (oid: number, format?: string) =>
    TEXT_OIDS.has(oid) ? identity : pg.types.getTypeParser(oid, (format ?? 'text') as 'text'),
} as unknown as pg.CustomTypesConfig;

// Session settings every connection starts with: UTC timestamps and PostgreSQL's default
// (shortest exact) float output, whatever the server or role defaults say.
const SESSION_SETUP = "SET TIME ZONE 'UTC'; SET extra_float_digits = 1";

/** True for the ApiError mapDatabaseError makes of a connection that failed: drop that client. */
function isConnectionFailure(e: unknown): boolean {
  const internal = (e as { internal?: { error?: { exec_status?: unknown } } } | null)?.internal;
  return internal?.error?.exec_status === 'ConnectionError';
}

/**
 * The runner of one checked-out client. `tainted` is called when the client ran a script: its
 * session may have been changed (SET, temporary tables, LISTEN, prepared statements), so it is
 * not given back to the pool.
 */
function runnerOn(client: pg.PoolClient, tainted: () => void): Runner {
  return {
    async queryText(text, params, name) {
      const prepared = name !== undefined;
      const config: pg.QueryArrayConfig = {
        text,
        values: params as unknown[],
        rowMode: 'array',
        types: RAW_TYPES,
        ...(prepared ? { name: statementName(text) } : {}),
      };
      try {
        const res = await client.query(config);
        return firstCell(res.rows);
      } catch (e) {
        throw mapDatabaseError(e, { statement: text, prepared, arguments: params });
      }
    },
    async query(text, params = []) {
      try {
        const res = await client.query({ text, values: params as unknown[], rowMode: 'array', types: QUERY_TYPES });
        return toResult(res);
      } catch (e) {
        throw mapDatabaseError(e, { statement: text, prepared: false, arguments: params });
      }
    },
    async runScript(text) {
      tainted();
      try {
        // No values: pg sends a simple query, which may hold several statements.
        const res = await client.query({ text, rowMode: 'array', types: RAW_TYPES } as pg.QueryArrayConfig);
        return scriptResult(res as pg.QueryArrayResult | pg.QueryArrayResult[] | undefined);
      } catch (e) {
        throw mapDatabaseError(e, { statement: text, prepared: false, arguments: [] });
      }
    },
  };
}

// pg answers a simple query with one result per statement (an array when there are several).
function scriptResult(res: pg.QueryArrayResult | pg.QueryArrayResult[] | undefined): ScriptResult {
  return lastScriptResult(res === undefined ? [] : Array.isArray(res) ? res : [res]);
}

function firstCell(rows: readonly unknown[][]): string {
  const row = rows[0];
  if (row === undefined || row.length === 0) throw new Error('queryText: the statement returned no row');
  const value = row[0];
  return value === null || value === undefined ? 'null' : String(value);
}

function toResult(res: pg.QueryArrayResult): QueryResult {
  return { rows: res.rows, fields: res.fields.map((f) => f.name), rowCount: res.rowCount ?? 0 };
}

function createPool(opts: PgDriverOptions, options?: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectionTimeoutMillis ?? 0,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
    ...(options ? { options } : {}),
  });
  // pg queues this before anything the pool's caller sends on the new client.
  pool.on('connect', (client) => {
    client.query(SESSION_SETUP).catch(() => { /* the caller's first query reports the broken connection */ });
  });
  // An idle client whose server went away must not crash the process.
  pool.on('error', (e) => {
    process.stderr.write(`kiln: idle PostgreSQL connection failed: ${e.message}\n`);
  });
  return pool;
}

/** A Driver over a `pg.Pool`: the PostgreSQL dialect, prepared statements for named plans. */
export function createPgDriver(opts: PgDriverOptions): Driver {
  // The engine prepares every statement once per connection and runs it many times, so its
  // sessions keep the generic plan: in 'auto' mode PostgreSQL compares the generic plan's cost
  // with its custom plans' and, whenever a parameter LIMIT makes the generic one look dearer
  // (it guesses 10% of the rows), plans again on every run (bench Q1: twice the database CPU).
  const pool = createPool(opts, '-c plan_cache_mode=force_generic_plan');
  // Runs planned for their values go to connections whose sessions always plan for the actual
  // values (plan_cache_mode is per session); opened on first use, so most servers never do. Which
  // runs go there: a value-sensitive statement's choice, made by timing both (plan-choice.ts).
  let customPool: pg.Pool | null = null;
  const choices = new PlanChoices();

  async function checkout(custom = false): Promise<pg.PoolClient> {
    try {
      if (!custom) return await pool.connect();
      customPool ??= createPool(opts, '-c plan_cache_mode=force_custom_plan');
      return await customPool.connect();
    } catch (e) {
      throw mapDatabaseError(new ConnectionError(e));
    }
  }

  async function withClient<T>(fn: (r: Runner, markBroken: () => void) => Promise<T>, custom = false): Promise<T> {
    const client = await checkout(custom);
    let broken = false;
    const markBroken = (): void => { broken = true; };
    try {
      return await fn(runnerOn(client, markBroken), markBroken);
    } catch (e) {
      broken ||= isConnectionFailure(e);
      throw e;
    } finally {
      client.release(broken);
    }
  }

  return {
    dialect: postgres,
    queryText: (text, params, name, valueSensitive) => {
      if (valueSensitive !== true || name === undefined) return withClient((r) => r.queryText(text, params, name));
      const choice = choices.for(name);
      const custom = choice.next();
      if (choice.chosen !== null) return withClient((r) => r.queryText(text, params, name), custom);
      return withClient(async (r) => {
        const start = performance.now();
        const answer = await r.queryText(text, params, name);
        choice.record(custom, performance.now() - start);
        return answer;
      }, custom);
    },
    query: (text, params) => withClient((r) => r.query(text, params)),
    runScript: (text) => withClient((r) => r.runScript(text)),
    transaction: (fn, opts?: TransactionOptions) => withClient(async (runner, markBroken) => {
      await control(runner, opts?.readOnly ? 'BEGIN READ ONLY' : 'BEGIN');
      let result;
      try {
        result = await fn(runner);
      } catch (e) {
        // The caller needs fn's error; a connection that cannot even roll back is discarded.
        await control(runner, 'ROLLBACK').catch(markBroken);
        throw e;
      }
      // A failed COMMIT has already ended the transaction on the server (deferred constraints).
      await control(runner, 'COMMIT');
      return result;
    }),
    close: async () => {
      await pool.end();
      await customPool?.end();
    },
  };
}

async function control(runner: Runner, statement: 'BEGIN' | 'BEGIN READ ONLY' | 'COMMIT' | 'ROLLBACK'): Promise<void> {
  await runner.query(statement);
}
