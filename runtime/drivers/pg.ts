import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import { postgres } from '../sql/index.js';
import type { CallOptions, Driver, QueryResult, ScriptResult, TransactionOptions, TransactionRunner } from './driver.js';
import { ConnectionError, mapDatabaseError } from './database-error.js';
import { statementName } from './statement-name.js';
import { lastScriptResult } from './script-result.js';
import { PlanChoices } from './plan-choice.js';
import { connectionFailed, createPool, justConnected, type PoolSettings } from './pg-pool.js';
import { sessionTimeoutFor, transactionTimeouts } from './pg-timeout.js';
import { listenOn } from './pg-listen.js';
import { LOCK_TIMEOUT_CODE, PipelineLane, type LaneSubmit } from './pg-pipeline.js';

/** Settings of a PostgreSQL source. */
export interface PgDriverOptions {
  readonly url: string;
  /** Pool size (SVC_GRAPHQL_PG_CONNECTIONS). */
  readonly max?: number;
  /** Milliseconds to wait for a free connection before failing; 0 waits forever. */
  readonly connectionTimeoutMillis?: number;
  /** Default statement timeout of every session, milliseconds (SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT); 0 or absent: none. */
  readonly statementTimeoutMs?: number;
  /** Milliseconds an idle connection stays open (pool_settings.idle_timeout); default 30 s. */
  readonly idleTimeoutMillis?: number;
  /** Seconds after which a connection is retired (pool_settings.connection_lifetime); 0 or absent: never. */
  readonly maxLifetimeSeconds?: number;
  /** Where warnings go (a lost connection); default stderr. */
  readonly log?: (line: string) => void;
  /** The largest row accepted from PostgreSQL, bytes (pg-guard.ts); default 256 MiB. */
  readonly maxMessageBytes?: number;
  /**
   * Connections of the pipeline lane (pg-pipeline.ts), taken from `max` (at most half of it); 0 or
   * absent: no lane. A served source gets SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS (default 2).
   */
  readonly pipelineConnections?: number;
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

/**
 * Runs a statement of the hot path (queryText) as a pg Query made from its text, rows as arrays of
 * the text PostgreSQL sent. Given a config object, pg copies it with all its property descriptors
 * and wraps its promise in a second one on every call: about 2 µs of a request's 30 µs of
 * JavaScript, measured with --cpu-prof on bench Q1. A Query made from a text string is not copied;
 * its row mode and type parsers are then those of a config's `rowMode: 'array'` and `types`.
 */
function submitText(client: pg.PoolClient, text: string, values: readonly unknown[], name: string | undefined): Promise<pg.QueryArrayResult> {
  return new Promise((resolve, reject) => {
    submitWith(client, text, values, name, (err, rows, res) => (err ? reject(err) : resolve(res!)));
  });
}

/** submitText with a callback: the read path makes one promise per statement, not one per step. */
function submitWith(client: pg.PoolClient, text: string, values: readonly unknown[], name: string | undefined,
  done: (err: Error | null, rows: unknown[][] | undefined, res: pg.QueryArrayResult | undefined) => void): void {
  const q = new CellQuery(text, values as unknown[]) as unknown as ArrayTextQuery;
  if (name !== undefined) q.name = name;
  q.types = RAW_TYPES;
  q._rowMode = 'array';
  const result = new pg.Result('array', RAW_TYPES as never) as unknown as { parseRow: (fields: unknown[]) => unknown[] };
  // Rows are kept as pg read them (an array of each column's text, or null): every parser is the
  // identity here, and there is no row description to read parsers from.
  result.parseRow = keepRow;
  q._result = q._results = result;
  q._accumulateRows = true;
  q.callback = (err, res) => (err ? done(err, undefined, undefined) : done(null, (res as unknown as pg.QueryArrayResult).rows, res as unknown as pg.QueryArrayResult));
  client.query(q);
}

const keepRow = (fields: unknown[]): unknown[] => fields;

// The pipeline lane sends its statements as the pool's runs send theirs (on a client of its own).
const submitLane: LaneSubmit = (client, text, values, name, done) => submitWith(client as pg.PoolClient, text, values, name, (e, rows) => done(e, rows));

/** The part of pg's connection (lib/connection.js) that the extended protocol's steps are sent through. */
interface ProtocolConnection {
  readonly parsedStatements: Record<string, string>;
  readonly submittedNamedStatements: Record<string, string>;
  parse(m: { text: string; name?: string; types?: unknown }): void;
  bind(m: { portal: string; statement?: string; values: unknown[]; binary: boolean; valueMapper: unknown }): void;
  execute(m: { portal: string; rows?: number }): void;
  sync(): void;
}

/**
 * A statement answered with text only (the read path, queryText): sent as Parse (once per
 * connection for a named statement), Bind, Execute and Sync, without the Describe that pg sends
 * before every Execute. PostgreSQL then sends no row description, and pg reads none and builds
 * no parsers from it: reading the description came to 3% of the server's CPU on bench Q1, for
 * columns whose text is taken as it is. A statement without values or name goes as pg sends it
 * (a simple query, which always describes its rows).
 */
class CellQuery extends pg.Query {
  prepare(connection: ProtocolConnection): void {
    const self = this as unknown as { name?: string; text: string; types: unknown; values: unknown[]; _canceledDueToError: unknown };
    const name = self.name;
    const parsed = name !== undefined && name !== '' && (connection.parsedStatements[name] !== undefined || connection.submittedNamedStatements[name] !== undefined);
    if (!parsed) {
      connection.parse({ text: self.text, name, types: self.types });
      if (name) connection.submittedNamedStatements[name] = self.text;
    }
    try {
      connection.bind({ portal: '', statement: name, values: self.values, binary: false, valueMapper: pgUtils.prepareValue });
    } catch (e) {
      // A value pg cannot write: nothing is bound or run, and the error is answered once the
      // connection is in step again (at ReadyForQuery, which reports a cancelled query's error).
      // pg answers at once instead, and then again at ReadyForQuery: the caller released the
      // client twice, while it still had a query in flight, and the next caller waited forever.
      // A statement parsed just now stays prepared (its name is recorded when PostgreSQL confirms it).
      self._canceledDueToError = e;
      connection.sync();
      return;
    }
    connection.execute({ portal: '' });
    connection.sync();
  }
}

/** The fields of pg's Query that a config object sets (lib/query.js), which submitText sets itself. */
interface ArrayTextQuery extends pg.Query {
  name?: string;
  _accumulateRows: boolean;
  types: pg.CustomTypesConfig;
  _rowMode: 'array';
  _result: unknown;
  _results: unknown;
  callback: (err: Error | null, res?: unknown) => void;
}

/** True for the ApiError mapDatabaseError makes of a connection that failed: drop that client. */
function isConnectionFailure(e: unknown): boolean {
  const internal = (e as { internal?: { error?: { exec_status?: unknown } } } | null)?.internal;
  return internal?.error?.exec_status === 'ConnectionError';
}

/** Sets the statement timeout a call asked for before it runs (pg-timeout.ts); undefined when nothing is to change. */
type TimeoutHook = (ms: number | undefined) => Promise<void> | undefined;

/**
 * The runner of one checked-out client. `tainted` is called when the client ran a script: its
 * session may have been changed (SET, temporary tables, LISTEN, prepared statements), so it is
 * not given back to the pool. A failure on a client whose connection broke is reported as a
 * connection error, whatever pg's message says ("Connection terminated unexpectedly" has no code).
 */
function runnerOn(client: pg.PoolClient, tainted: () => void, timeout: TimeoutHook): Runner {
  const fail = (e: unknown, statement: string, prepared: boolean, params: readonly unknown[]): never => {
    throw mapDatabaseError(causeOn(client, e), { statement, prepared, arguments: params });
  };
  return {
    async queryText(text, params, name, _valueSensitive, opts) {
      const prepared = name !== undefined;
      try {
        const setting = timeout(opts?.timeoutMs);
        if (setting) await setting;
        const res = await submitText(client, text, params, prepared ? statementName(text) : undefined);
        return firstCell(res.rows);
      } catch (e) {
        return fail(e, text, prepared, params);
      }
    },
    async query(text, params = [], opts) {
      try {
        const setting = timeout(opts?.timeoutMs);
        if (setting) await setting;
        const res = await client.query({ text, values: params as unknown[], rowMode: 'array', types: QUERY_TYPES });
        return toResult(res);
      } catch (e) {
        return fail(e, text, false, params);
      }
    },
    async runScript(text, opts) {
      tainted();
      try {
        const setting = timeout(opts?.timeoutMs);
        if (setting) await setting;
        // No values: pg sends a simple query, which may hold several statements.
        const res = await client.query({ text, rowMode: 'array', types: RAW_TYPES } as pg.QueryArrayConfig);
        return scriptResult(res as pg.QueryArrayResult | pg.QueryArrayResult[] | undefined);
      } catch (e) {
        return fail(e, text, false, []);
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

/** A Driver over a `pg.Pool`: the PostgreSQL dialect, prepared statements for named plans. */
export function createPgDriver(opts: PgDriverOptions): Driver {
  const max = opts.max ?? 10;
  const laneSize = Math.max(0, Math.min(opts.pipelineConnections ?? 0, Math.floor(max / 2)));
  const settings: PoolSettings = {
    url: opts.url,
    max: max - laneSize,
    connectionTimeoutMillis: opts.connectionTimeoutMillis ?? 0,
    statementTimeoutMs: opts.statementTimeoutMs ?? 0,
    idleTimeoutMillis: opts.idleTimeoutMillis ?? 30_000,
    maxLifetimeSeconds: opts.maxLifetimeSeconds ?? 0,
    log: opts.log ?? ((line) => { process.stderr.write(`${line}\n`); }),
    ...(opts.maxMessageBytes !== undefined ? { maxMessageBytes: opts.maxMessageBytes } : {}),
  };
  // The engine prepares every statement once per connection and runs it many times, so its
  // sessions keep the generic plan: in 'auto' mode PostgreSQL compares the generic plan's cost
  // with its custom plans' and, whenever a parameter LIMIT makes the generic one look dearer
  // (it guesses 10% of the rows), plans again on every run (bench Q1: twice the database CPU).
  const GENERIC = '-c plan_cache_mode=force_generic_plan';
  const pool = createPool(settings, GENERIC);
  // Statements sent alone go pipelined on a few connections of their own when they may (pg-pipeline.ts).
  const lane = laneSize > 0 ? new PipelineLane(settings, laneSize, GENERIC, submitLane) : null;
  // Runs planned for their values go to connections whose sessions always plan for the actual
  // values (plan_cache_mode is per session); opened on first use, so most servers never do. Which
  // runs go there: a value-sensitive statement's choice, made by timing both (plan-choice.ts).
  let customPool: pg.Pool | null = null;
  const choices = new PlanChoices();
  // Checkouts that found the pool full, and how long they waited (for /v1/metrics).
  const waited = { count: 0, seconds: 0 };
  // The pool's mean statement time, ms, from its sending to its answer (over the statements the
  // lane could have taken and the pool ran): what each checkout ahead adds to a new one's wait.
  let poolMean = 0;
  let poolTimed = 0;
  const poolRan = (laneName: string, ms: number): void => {
    lane!.observe(laneName, ms);
    poolMean = poolTimed++ === 0 ? ms : poolMean + (ms - poolMean) / 16;
  };

  /** Whether a checkout from `p` now gets a connection without waiting (an idle one, or room to open one). */
  const hasFree = (p: pg.Pool): boolean => p.idleCount > 0 || p.totalCount < settings.max;

  /**
   * How long a statement sent to the pool now would wait for a connection, ms: 0 while one is idle
   * or may be opened; else the checkouts ahead of it, each a mean statement time over the pool's size.
   */
  function poolWait(): number {
    if (hasFree(pool)) return 0;
    return ((pool.waitingCount + 1) * poolMean) / settings.max;
  }

  async function connect(p: pg.Pool): Promise<pg.PoolClient> {
    // Only a checkout that must queue is timed: the common case costs one comparison.
    if (hasFree(p)) return p.connect();
    const start = performance.now();
    try {
      return await p.connect();
    } finally {
      waited.count++;
      waited.seconds += (performance.now() - start) / 1000;
    }
  }

  async function checkout(custom = false): Promise<pg.PoolClient> {
    try {
      if (!custom) return await connect(pool);
      customPool ??= createPool(settings, '-c plan_cache_mode=force_custom_plan');
      return await connect(customPool);
    } catch (e) {
      throw mapDatabaseError(new ConnectionError(e));
    }
  }

  /**
   * Runs `fn` on a checked-out client. Outside a transaction each call sets its own timeout on
   * the session; `inTransaction` makes them transaction-local. The client goes back to the pool
   * unless its connection failed or its session was changed by a script.
   */
  async function withClient<T>(fn: (r: Runner, markBroken: () => void, client: pg.PoolClient) => Promise<T>,
    custom = false, inTransaction = false): Promise<T> {
    const client = await checkout(custom);
    let broken = false;
    const markBroken = (): void => { broken = true; };
    const timeout: TimeoutHook = inTransaction ? transactionTimeouts(client) : (ms) => sessionTimeoutFor(client, ms);
    try {
      return await fn(runnerOn(client, markBroken, timeout), markBroken, client);
    } catch (e) {
      broken ||= isConnectionFailure(e);
      throw e;
    } finally {
      client.release(broken || connectionFailed(client));
    }
  }

  /**
   * One statement's text answer outside a transaction: what runnerOn(...).queryText does inside
   * withClient, with callbacks under one promise. Every GraphQL read and one-statement mutation
   * comes here, so it makes no runner object and no promise per step: pg-pool's checkout and the
   * statement are callbacks (an async function awaiting both made three promises and a generator
   * per call); only a session timeout that changes is awaited.
   */
  function textOnce(text: string, params: readonly unknown[], name: string | undefined, custom: boolean,
    timeoutMs: number | undefined, timed?: (ms: number) => void): Promise<string> {
    const p = custom ? (customPool ??= createPool(settings, '-c plan_cache_mode=force_custom_plan')) : pool;
    // Only a checkout that must queue is timed: the common case costs one comparison.
    const start = hasFree(p) ? -1 : performance.now();
    return new Promise((resolve, reject) => {
      p.connect((connectError, client, _done) => {
        if (start >= 0) {
          waited.count++;
          waited.seconds += (performance.now() - start) / 1000;
        }
        if (connectError || client === undefined) {
          reject(mapDatabaseError(new ConnectionError(connectError)));
          return;
        }
        const prepared = name !== undefined;
        const fail = (e: unknown): void => {
          const err = mapDatabaseError(causeOn(client, e), { statement: text, prepared, arguments: params });
          client.release(isConnectionFailure(err) || connectionFailed(client));
          reject(err);
        };
        const run = (): void => {
          try {
            const sent = timed === undefined ? 0 : performance.now();
            submitWith(client, text, params, prepared ? statementName(text) : undefined, (e, rows) => {
              if (e) return fail(e);
              if (timed !== undefined) timed(performance.now() - sent);
              let cell: string;
              try {
                cell = firstCell(rows!);
              } catch (x) {
                return fail(x);
              }
              client.release(connectionFailed(client));
              resolve(cell);
            });
          } catch (x) {
            fail(x);
          }
        };
        const begin = (): void => {
          const setting = sessionTimeoutFor(client, timeoutMs);
          if (setting) setting.then(run, fail);
          else run();
        };
        if (justConnected(client)) queueMicrotask(begin);
        else begin();
      });
    });
  }

  /**
   * One statement on the pipeline lane: undefined when no lane connection may take it now (the
   * caller runs it on the pool); its failure mapped as textOnce maps one. One that waited on a lock
   * past the lane's lock_timeout was rolled back there, and runs again on the pool (`name` is the
   * caller's, `laneName` the prepared statement's; `write` marks a mutation's, which may queue
   * deeper; `seen` learns its time there).
   */
  function viaLane(text: string, params: readonly unknown[], name: string, laneName: string, write: boolean, seen: (ms: number) => void): Promise<string> | undefined {
    const c = lane!.connectionFor(laneName, write, poolWait());
    if (c === null) return undefined;
    return new Promise((resolve, reject) => {
      lane!.send(c, text, params, laneName, (e, rows, lost) => {
        if (e && !lost && (e as { code?: unknown }).code === LOCK_TIMEOUT_CODE) {
          lane!.lockTimedOut(laneName);
          textOnce(text, params, name, false, undefined, seen).then(resolve, reject);
          return;
        }
        let cell: string;
        try {
          if (e) throw lost && !(e instanceof ConnectionError) ? new ConnectionError(e) : e;
          cell = firstCell(rows!);
        } catch (x) {
          reject(mapDatabaseError(x, { statement: text, prepared: true, arguments: params }));
          return;
        }
        resolve(cell);
      });
    });
  }

  return {
    dialect: postgres,
    connectionString: opts.url,
    queryText: (text, params, name, valueSensitive, callOpts) => {
      const timeoutMs = callOpts?.timeoutMs;
      // A statement sent alone with the session's own settings may go to the pipeline lane; when
      // the lane cannot take it now, it runs on the pool and its time there is what the lane learns of it.
      const laneName = lane !== null && name !== undefined && callOpts?.alone === true && timeoutMs === undefined ? statementName(text) : undefined;
      const seen = laneName === undefined ? undefined : (ms: number) => poolRan(laneName, ms);
      const write = callOpts?.write === true;
      if (valueSensitive !== true || name === undefined) {
        return (laneName !== undefined && viaLane(text, params, name!, laneName, write, seen!)) || textOnce(text, params, name, false, timeoutMs, seen);
      }
      const choice = choices.for(name);
      const custom = choice.next();
      if (choice.chosen !== null || choice.warming) {
        if (custom) return textOnce(text, params, name, true, timeoutMs);
        return (laneName !== undefined && viaLane(text, params, name, laneName, write, seen!)) || textOnce(text, params, name, false, timeoutMs, seen);
      }
      // Timed from the statement sent to its answer: the wait for a pooled connection is left
      // out, since per-run plans have a pool of their own that is idle while the main one queues.
      return textOnce(text, params, name, custom, timeoutMs, (ms) => {
        choice.record(custom, ms);
        if (!custom) seen?.(ms);
      });
    },
    query: (text, params, callOpts) => withClient((r) => r.query(text, params, callOpts)),
    runScript: (text, callOpts) => withClient((r) => r.runScript(text, callOpts)),
    transaction: (fn, txOpts?: TransactionOptions) => withClient(async (runner, markBroken, client) => {
      // The transaction's own bound is set on the session before BEGIN (no extra statement when
      // the session already has it); calls inside may tighten it for themselves.
      await sessionTimeoutFor(client, txOpts?.timeoutMs)?.catch((e: unknown) => { throw mapDatabaseError(causeOn(client, e)); });
      await control(runner, txOpts?.readOnly ? 'BEGIN READ ONLY' : 'BEGIN');
      let result;
      try {
        result = await fn(runner);
      } catch (e) {
        // The caller needs fn's error; a connection that cannot even roll back is discarded.
        await control(runner, 'ROLLBACK').catch(markBroken);
        throw e;
      }
      // A failed COMMIT has already ended the transaction on the server (deferred constraints).
      // A connection lost during COMMIT leaves the outcome unknown: the caller gets a connection error.
      await control(runner, 'COMMIT');
      return result;
    }, false, true),
    poolStats: () => {
      const l = lane?.stats();
      return {
        total: pool.totalCount + (customPool?.totalCount ?? 0) + (l?.total ?? 0),
        idle: pool.idleCount + (customPool?.idleCount ?? 0) + (l?.idle ?? 0),
        waiting: pool.waitingCount + (customPool?.waitingCount ?? 0),
        max: settings.max * (customPool ? 2 : 1) + (l?.max ?? 0),
        waits: waited.count,
        waitSeconds: waited.seconds,
      };
    },
    listen: (channel, handlers) => listenOn(settings.url, channel, handlers, settings.log),
    close: async () => {
      await lane?.close();
      await pool.end();
      await customPool?.end();
    },
  };
}

/** What a call on `client` failed with: a connection failure when its connection broke, whatever pg said. */
function causeOn(client: pg.PoolClient, e: unknown): unknown {
  return connectionFailed(client) && !(e instanceof ConnectionError) ? new ConnectionError(e) : e;
}

async function control(runner: Runner, statement: 'BEGIN' | 'BEGIN READ ONLY' | 'COMMIT' | 'ROLLBACK'): Promise<void> {
  await runner.query(statement);
}
