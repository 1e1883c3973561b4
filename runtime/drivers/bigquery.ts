// A Driver for a BigQuery source over @google-cloud/bigquery: each statement is a query job
// (jobs.query, polled by the client while not done), its rows read page by page (pageToken).
// Parameters are named: the dialect prints `@p0`, `@p1`, ... for the statement's values in order.
// With BIGQUERY_EMULATOR_HOST set, the client library talks to that host instead of Google.

import { ApiError } from '../errors/index.js';
import { bigquery } from '../sql/index.js';
import type { Driver, QueryResult } from './driver.js';

/** A BigQuery source's connection: what `configuration` gives, resolved (no `{from_env}` left). */
export interface BigQueryDriverOptions {
  readonly projectId: string;
  /** The service account key (JSON object); absent when the client finds credentials itself or talks to a stand-in. */
  readonly serviceAccount?: { readonly client_email?: string; readonly private_key?: string; readonly [k: string]: unknown };
  /** Rows per page read (the API's `maxResults`); the client reads every page. */
  readonly pageSize?: number;
  /** Milliseconds a query may take before it is given up (jobs.query `timeoutMs` and the polling). */
  readonly timeoutMs?: number;
  /** BigQuery's location of the jobs (`US`, `EU`, ...). */
  readonly location?: string;
  /** Retries of a failed API call (the client library's backoff); default 2. */
  readonly maxRetries?: number;
}

interface Client {
  query(q: object): Promise<[readonly { readonly [k: string]: unknown }[], ...unknown[]]>;
  createQueryJob(q: object): Promise<[{ getQueryResults(o: object): Promise<[readonly { readonly [k: string]: unknown }[], ...unknown[]]> }, ...unknown[]]>;
  getDatasets(o?: object): Promise<[readonly { readonly id?: string }[], ...unknown[]]>;
  dataset(id: string): { getTables(o?: object): Promise<[readonly { readonly id?: string; getMetadata(): Promise<[TableMetadata, ...unknown[]]> }[], ...unknown[]]> };
}

/** What tables.get gives of a table (introspection reads it). */
export interface TableMetadata {
  readonly type?: string;
  readonly description?: string;
  readonly schema?: { readonly fields?: readonly TableField[] };
}

export interface TableField {
  readonly name: string;
  readonly type: string;
  readonly mode?: string;
  readonly description?: string;
  readonly fields?: readonly TableField[];
}

/** A BigQuery Driver, with the catalog reads introspection needs. */
export interface BigQueryDriver extends Driver {
  /** The dataset's tables with their metadata (schema), sorted by name. */
  tablesOf(dataset: string): Promise<readonly { readonly name: string; readonly metadata: TableMetadata }[]>;
}

/** The part of an auth client the library calls, adding no credential (the stand-in takes none). */
const noCredentials = { getRequestHeaders: async (): Promise<Headers> => new Headers(), universeDomain: 'googleapis.com' };

/** Opens a client (the library is loaded on first use: PostgreSQL-only servers never load it). */
export function createBigQueryDriver(o: BigQueryDriverOptions): BigQueryDriver {
  let client: Promise<Client> | null = null;
  const open = (): Promise<Client> => (client ??= import('@google-cloud/bigquery').then((m) => {
    // A local stand-in (BIGQUERY_EMULATOR_HOST) with no key given is sent no credentials: looking
    // for default ones would ask Google's metadata server, over the network.
    const creds = o.serviceAccount?.client_email && o.serviceAccount.private_key
      ? { credentials: { client_email: o.serviceAccount.client_email, private_key: o.serviceAccount.private_key } }
      : process.env['BIGQUERY_EMULATOR_HOST'] ? { authClient: noCredentials as unknown as NonNullable<ConstructorParameters<typeof m.BigQuery>[0]>['authClient'] } : {};
    return new m.BigQuery({ projectId: o.projectId, maxRetries: o.maxRetries ?? 2, ...creds, ...(o.location ? { location: o.location } : {}) }) as unknown as Client;
  }));
  const run = async (text: string, params: readonly unknown[]): Promise<QueryResult> => {
    const c = await open();
    const named: Record<string, unknown> = {};
    const types: Record<string, unknown> = {};
    params.forEach((v, i) => {
      const [value, type] = bindValue(v);
      named[`p${i}`] = value;
      types[`p${i}`] = type;
    });
    let rows: readonly { readonly [k: string]: unknown }[];
    try {
      [rows] = await c.query({ query: text, params: named, types, wrapIntegers: true, ...(o.pageSize ? { maxResults: o.pageSize } : {}),
        ...(o.timeoutMs ? { timeoutMs: o.timeoutMs, jobTimeoutMs: o.timeoutMs } : {}) });
    } catch (e) {
      throw bigqueryError(e);
    }
    const fields = rows.length ? Object.keys(rows[0]!) : [];
    return { fields, rows: rows.map((r) => fields.map((f) => plain(r[f]))), rowCount: rows.length };
  };
  const refuse = (what: string): never => {
    throw new ApiError('not-supported', `${what} is not supported on a bigquery source`, 400, []);
  };
  return {
    dialect: bigquery,
    query: (text, params = []) => run(text, params),
    queryText: async () => refuse('a statement answering JSON'),
    runScript: async () => refuse('run_sql'),
    transaction: async () => refuse('a transaction'),
    async tablesOf(dataset) {
      const c = await open();
      try {
        const [tables] = await c.dataset(dataset).getTables({ autoPaginate: true });
        const out = await Promise.all(tables.map(async (t) => ({ name: t.id ?? '', metadata: (await t.getMetadata())[0] })));
        return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      } catch (e) {
        throw bigqueryError(e);
      }
    },
    async close() { client = null; },
  };
}

// A value and the BigQuery type it is sent as. Slots the dialect knows the type of are cast in
// the statement (`CAST(@p0 AS INT64)`), so plain values keep their JSON kind; null goes as STRING.
function bindValue(v: unknown): [unknown, unknown] {
  if (v === null || v === undefined) return [null, 'STRING'];
  if (typeof v === 'boolean') return [v, 'BOOL'];
  if (typeof v === 'number') return [v, Number.isInteger(v) ? 'INT64' : 'FLOAT64'];
  if (typeof v === 'bigint') return [v.toString(), 'INT64'];
  if (typeof v === 'string') return [v, 'STRING'];
  if (Array.isArray(v)) {
    const items = v.map(bindValue);
    const type = items.find(([x]) => x !== null)?.[1] ?? 'STRING';
    return [items.map(([x]) => x), [type]];
  }
  return [JSON.stringify(v), 'STRING'];
}

// The client's typed values as plain JSON values: INT64 (wrapped), NUMERIC and BIGNUMERIC as
// their decimal strings, dates and times as BigQuery's text, bytes as base64.
function plain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(plain);
  if (Buffer.isBuffer(v)) return v.toString('base64');
  if (typeof v === 'object') {
    const o = v as { readonly [k: string]: unknown };
    const ctor = (v as object).constructor?.name;
    if (ctor === 'BigQueryInt' || ctor === 'BigQueryDate' || ctor === 'BigQueryDatetime' || ctor === 'BigQueryTime' || ctor === 'BigQueryTimestamp') return String(o['value']);
    if (ctor === 'Big') return String(v);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

// The API's error (its message names the problem: a bad column, a missing table) as `bigquery-error`.
function bigqueryError(e: unknown): ApiError {
  const err = e as { message?: string; code?: number | string; errors?: readonly { message?: string }[] };
  const message = err.errors?.[0]?.message ?? err.message ?? String(e);
  if (err.code === 'ECONNREFUSED' || /ECONNREFUSED|ENOTFOUND|socket hang up/.test(String(err.message))) {
    return new ApiError('bigquery-error', `BigQuery is not reachable: ${message}`, 500, [], e);
  }
  return new ApiError('bigquery-error', message, 400, [], e);
}
