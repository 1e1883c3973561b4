import type { Dialect } from '../sql/index.js';

/** Result rows of a plain statement. */
export interface QueryResult {
  readonly rows: readonly unknown[][];
  readonly fields: readonly string[];
  readonly rowCount: number;
}

/**
 * What the last statement of a script gave back, every value as PostgreSQL printed it (booleans
 * `t`/`f`, numbers as written, json as its text, arrays as `{1,2}`; SQL NULL as null).
 */
export interface ScriptResult {
  /** The command tag's first word (`SELECT`, `INSERT`, `CREATE`, `SET`); '' for an empty script. */
  readonly command: string;
  /** The column names when the statement described rows (libpq's TUPLES_OK), else null. */
  readonly fields: readonly string[] | null;
  readonly rows: readonly (readonly (string | null)[])[];
}

/** Options of one call. */
export interface CallOptions {
  /**
   * This call's statement timeout in milliseconds, instead of the source's default (0: none).
   * A statement that runs longer is cancelled by the database (SQLSTATE 57014, answered as a
   * `postgres-error`) and the connection is kept. Drivers that cannot cancel ignore it (PGlite).
   */
  readonly timeoutMs?: number;
  /**
   * The statement is sent alone: its own implicit transaction, nothing set on the session for it
   * (a query's statement, or a mutation's only one when no guard can fail). A driver may run it
   * pipelined behind others on a shared connection (PostgreSQL's pipeline lane, pg-pipeline.ts).
   * Ignored inside a transaction.
   */
  readonly alone?: boolean;
  /**
   * With `alone`: the statement is a mutation's (it writes, and commits on its own). The pipeline
   * lane lets such a statement queue deeper than a read (pg-pipeline.ts).
   */
  readonly write?: boolean;
}

/** The options of a query's statement sent alone (CallOptions.alone). */
export const SENT_ALONE: CallOptions = Object.freeze({ alone: true });
/** The options of a mutation's only statement sent alone (CallOptions.write). */
export const SENT_ALONE_WRITE: CallOptions = Object.freeze({ alone: true, write: true });

/** How a transaction starts. */
export interface TransactionOptions extends CallOptions {
  /** `BEGIN READ ONLY`: every write in it fails with SQLSTATE 25006. */
  readonly readOnly?: boolean;
}

/** What a transaction's callback may run: the statements of a Driver, on the transaction's connection. */
export type TransactionRunner = Pick<Driver, 'queryText' | 'query' | 'runScript'>;

/** One database connection pool behind one dialect; every source is served through one of these. */
export interface Driver {
  readonly dialect: Dialect;
  /**
   * Runs one statement whose result is a single row with a single text column (the response JSON
   * the database built) and returns that text unparsed. `name` marks a statement worth preparing.
   * `valueSensitive` says its best plan may depend on its values: a driver may plan it for each
   * run's values where that is faster than one plan kept (PostgreSQL: timed, plan-choice.ts);
   * drivers without the notion ignore it.
   */
  queryText(text: string, params: readonly unknown[], name?: string, valueSensitive?: boolean, opts?: CallOptions): Promise<string>;
  /** Runs a statement and returns its rows as arrays (values in the driver's text-parsed form). */
  query(text: string, params?: readonly unknown[], opts?: CallOptions): Promise<QueryResult>;
  /**
   * Runs a text of one or more statements over the simple query protocol (run_sql) and returns
   * the result of the last one. Without a transaction around it, the statements of a script with
   * several run in one implicit transaction, as PostgreSQL does for a simple query.
   */
  runScript(text: string, opts?: CallOptions): Promise<ScriptResult>;
  /**
   * Runs `fn` inside one transaction on one connection. `opts.timeoutMs` bounds each statement of
   * it; a call inside may ask for its own (local to the transaction).
   */
  transaction<T>(fn: (tx: TransactionRunner) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  /** The connection string of a PostgreSQL server (what /v1alpha1/pg_dump hands pg_dump); drivers without one leave it out. */
  readonly connectionString?: string;
  /** The pool's figures now, for /v1/metrics; drivers without a pool leave it out. */
  poolStats?(): PoolStats;
  /**
   * Listens on a notification channel over a dedicated connection of its own, opened again
   * (and LISTEN sent again) after it is lost. Drivers without notifications leave it out.
   */
  listen?(channel: string, handlers: ListenHandlers): ChannelListener;
  close(): Promise<void>;
}

/** A connection pool's figures: connections now, and checkouts that found every connection busy. */
export interface PoolStats {
  /** Open connections (idle and in use). */
  readonly total: number;
  readonly idle: number;
  /** Checkouts queued now for a connection. */
  readonly waiting: number;
  readonly max: number;
  /** Checkouts so far that had to wait (no idle connection, pool full), and their total wait in seconds. */
  readonly waits: number;
  readonly waitSeconds: number;
}

/** What a channel listener reports: each notification's payload, and when listening starts and stops holding. */
export interface ListenHandlers {
  notify(payload: string): void;
  /** LISTEN holds (after the first connect and after every reconnect). */
  up(): void;
  /** The connection was lost: notifications may be missed until the next `up`. */
  down(): void;
}

/** A running listener. */
export interface ChannelListener {
  close(): Promise<void>;
}
