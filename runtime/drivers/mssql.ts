// A Driver over the `mssql` package (tedious): one connection pool per source. Statements with
// parameters run through sp_executesql (the server caches their plans by text); each parameter
// `@pN` is declared with a type read from its value (parameterType). Arrays (the `_in` lists, the
// cohorts of live queries) travel as JSON text, read back with OPENJSON.

import { mssql } from '../sql/index.js';
import type { CallOptions, Driver, PoolStats, QueryResult, ScriptResult, TransactionOptions, TransactionRunner } from './driver.js';
import { isMssqlConnectionString, mssqlUrlConfig, type MssqlConfig } from './mssql-config.js';
import { mapMssqlError } from './mssql-error.js';

/** Settings of an MSSQL source (connection_info.pool_settings, SVC_GRAPHQL_* defaults). */
export interface MssqlDriverOptions {
  readonly connectionString: string;
  /** pool_settings.max_connections. */
  readonly max?: number;
  /** pool_settings.idle_timeout, seconds. */
  readonly idleTimeoutSeconds?: number;
  /** Milliseconds a request may run (0: no limit). */
  readonly requestTimeoutMs?: number;
}

// The parts of the mssql package Kiln uses (it ships no types of its own).
interface MssqlRequest {
  arrayRowMode: boolean;
  input(name: string, type: unknown, value: unknown): MssqlRequest;
  query(text: string): Promise<{ recordsets: { columns?: Record<string, { index: number; name: string }> }[] & unknown[][][]; recordset?: unknown[][]; rowsAffected: number[] }>;
  batch(text: string): Promise<{ recordsets: unknown[][][]; rowsAffected: number[] }>;
}
interface MssqlPool {
  connect(): Promise<MssqlPool>;
  close(): Promise<void>;
  request(): MssqlRequest;
  size: number; available: number; pending: number; borrowed: number;
}
interface MssqlTransaction {
  begin(): Promise<unknown>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}
interface MssqlModule {
  ConnectionPool: { new(config: unknown): MssqlPool; parseConnectionString(s: string): MssqlConfig };
  Transaction: new (pool: MssqlPool) => MssqlTransaction;
  Request: new (parent: MssqlTransaction) => MssqlRequest;
  Int: unknown; BigInt: unknown; Bit: unknown; Float: unknown;
  NVarChar: (length: unknown) => unknown; MAX: unknown;
}

let loaded: Promise<MssqlModule> | null = null;
async function load(): Promise<MssqlModule> {
  // A variable specifier: the package has no type declarations, and the PostgreSQL-only build needs none.
  const name = 'mssql';
  loaded ??= import(name).then((m: { default?: MssqlModule } & MssqlModule) => m.default ?? m);
  return loaded;
}

type TypeSet = Pick<MssqlModule, 'Int' | 'BigInt' | 'Bit' | 'Float' | 'NVarChar' | 'MAX'>;

/**
 * The declared SQL Server type of a parameter, from its value (the engine hands values, not slot
 * types): integers as int (bigint past its range), other numbers as float, booleans as bit,
 * everything else as nvarchar(max), which SQL Server converts exactly where it meets a column of
 * another type (numeric, dates and times, uniqueidentifier) by the rules of type precedence.
 */
export function parameterType(m: TypeSet, value: unknown): unknown {
  if (typeof value === 'boolean') return m.Bit;
  if (typeof value === 'bigint') return m.BigInt;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return m.Float;
    return value >= -2147483648 && value <= 2147483647 ? m.Int : m.BigInt;
  }
  return m.NVarChar(m.MAX);
}

/** A parameter value as the mssql package takes it: arrays and objects as JSON text. */
export function parameterValue(v: unknown): unknown {
  if (v === undefined) return null;
  if (Array.isArray(v) || (typeof v === 'object' && v !== null && !(v instanceof Date) && !Buffer.isBuffer(v))) return JSON.stringify(v);
  return v;
}

/** The mssql package's config for a connection string. */
export function mssqlConfig(m: Pick<MssqlModule, 'ConnectionPool'>, o: MssqlDriverOptions): MssqlConfig {
  if (!isMssqlConnectionString(o.connectionString)) throw new Error('not a SQL Server connection string (expected mssql://… or Server=…;Database=…)');
  const base = mssqlUrlConfig(o.connectionString) ?? m.ConnectionPool.parseConnectionString(o.connectionString);
  return {
    ...base,
    pool: { max: o.max ?? 10, min: 0, idleTimeoutMillis: (o.idleTimeoutSeconds ?? 180) * 1000 },
    requestTimeout: o.requestTimeoutMs ?? 0,
    arrayRowMode: true,
  };
}

function bind(m: MssqlModule, req: MssqlRequest, params: readonly unknown[]): MssqlRequest {
  params.forEach((v, i) => {
    const value = parameterValue(v);
    req.input(`p${i + 1}`, parameterType(m, value), value);
  });
  req.arrayRowMode = true;
  return req;
}

function firstText(recordsets: readonly unknown[][][]): string {
  const row = recordsets.find((r) => r.length > 0)?.[0];
  const v = row?.[0];
  if (typeof v !== 'string') throw new Error('assertion failed: the statement answered no text value');
  return v;
}

function scriptResult(r: { recordsets: unknown[][][]; rowsAffected: number[] }): ScriptResult {
  const last = r.recordsets[r.recordsets.length - 1];
  if (!last) return { command: r.rowsAffected.length ? 'EXECUTE' : '', fields: null, rows: [] };
  const cols = (last as unknown as { columns?: Record<string, { index: number; name: string }> }).columns;
  const fields = cols ? Object.values(cols).sort((a, b) => a.index - b.index).map((c) => c.name) : [];
  return { command: 'SELECT', fields, rows: last.map((row) => row.map((v) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v)))) };
}

/** A Driver for one SQL Server database. */
export function createMssqlDriver(o: MssqlDriverOptions): Driver {
  let pool: Promise<{ m: MssqlModule; pool: MssqlPool }> | null = null;
  let current: MssqlPool | null = null;
  const open = (): Promise<{ m: MssqlModule; pool: MssqlPool }> => (pool ??= (async () => {
    const m = await load();
    const p = new m.ConnectionPool(mssqlConfig(m, o));
    await p.connect();
    current = p;
    return { m, pool: p };
  })().catch((e) => { pool = null; throw mapMssqlError(e); }));

  const runner = (make: () => Promise<{ m: MssqlModule; req: () => MssqlRequest }>): TransactionRunner => ({
    async queryText(text, params) {
      const { m, req } = await make();
      try {
        return firstText((await bind(m, req(), params).query(text)).recordsets as unknown as unknown[][][]);
      } catch (e) { throw mapMssqlError(e, { statement: text, prepared: true, arguments: params }); }
    },
    async query(text, params = []) {
      const { m, req } = await make();
      try {
        const r = await bind(m, req(), params).query(text);
        const s = scriptResult({ recordsets: r.recordsets as unknown as unknown[][][], rowsAffected: r.rowsAffected });
        const rows = (r.recordsets[0] ?? []) as unknown as unknown[][];
        return { rows, fields: s.fields ?? [], rowCount: rows.length || (r.rowsAffected[0] ?? 0) } satisfies QueryResult;
      } catch (e) { throw mapMssqlError(e, { statement: text, prepared: params.length > 0, arguments: params }); }
    },
    async runScript(text) {
      const { req } = await make();
      try {
        const r = req();
        r.arrayRowMode = true;
        return scriptResult(await r.batch(text));
      } catch (e) { throw mapMssqlError(e, { statement: text }); }
    },
  });

  const onPool = runner(async () => { const { m, pool: p } = await open(); return { m, req: () => p.request() }; });
  return {
    dialect: mssql,
    queryText: (text, params) => onPool.queryText(text, params),
    query: (text, params, _opts?: CallOptions) => onPool.query(text, params),
    runScript: (text) => onPool.runScript(text),
    async transaction<T>(fn: (tx: TransactionRunner) => Promise<T>, _opts?: TransactionOptions): Promise<T> {
      const { m, pool: p } = await open();
      const tx = new m.Transaction(p);
      try { await tx.begin(); } catch (e) { throw mapMssqlError(e); }
      try {
        const out = await fn(runner(async () => ({ m, req: () => new m.Request(tx) })));
        await tx.commit();
        return out;
      } catch (e) {
        await tx.rollback().catch(() => undefined);
        throw mapMssqlError(e);
      }
    },
    // The pool's own figures (tarn); checkouts that waited are not counted by it.
    poolStats(): PoolStats {
      const p = current;
      return { total: p?.size ?? 0, idle: p?.available ?? 0, waiting: p?.pending ?? 0, max: o.max ?? 10, waits: 0, waitSeconds: 0 };
    },
    async close() {
      const p = pool;
      pool = null;
      current = null;
      if (p) await (await p.catch(() => null))?.pool.close().catch(() => undefined);
    },
  };
}
