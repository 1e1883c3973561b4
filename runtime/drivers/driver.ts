import type { Dialect } from '../sql/index.js';

/** Result rows of a plain statement. */
export interface QueryResult {
  readonly rows: readonly unknown[][];
  readonly fields: readonly string[];
  readonly rowCount: number;
}

/** One database connection pool behind one dialect; every source is served through one of these. */
export interface Driver {
  readonly dialect: Dialect;
  /**
   * Runs one statement whose result is a single row with a single text column (the response JSON
   * the database built) and returns that text unparsed. `name` marks a statement worth preparing.
   * `customPlan` asks that the statement be planned for its actual values on every run (where a
   * generic plan's guesses are known to mislead); drivers without the notion ignore it.
   */
  queryText(text: string, params: readonly unknown[], name?: string, customPlan?: boolean): Promise<string>;
  /** Runs a statement and returns its rows as arrays (values in the driver's text-parsed form). */
  query(text: string, params?: readonly unknown[]): Promise<QueryResult>;
  /** Runs `fn` inside one transaction on one connection. */
  transaction<T>(fn: (tx: Pick<Driver, 'queryText' | 'query'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
