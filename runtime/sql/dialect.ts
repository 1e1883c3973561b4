import type { ParamSource, Sql } from './fragment.js';
import type { Cond, JsonField, JsonValue, LiveQuery, MutationStatement, Source, Stream } from './ir/index.js';

/**
 * What a dialect can do; planners read these and refuse at planning time what a dialect cannot
 * do, instead of asking for a dialect by name.
 */
export interface DialectCapabilities {
  /** The database builds the response JSON (else the engine assembles typed rows). */
  readonly jsonInSql: boolean;
  /** `RETURNING` on writes. */
  readonly returning: boolean;
  /** `OUTPUT` on writes (SQL Server). */
  readonly outputClause: boolean;
  readonly distinctOn: boolean;
  /** Correlated joins (`LATERAL`, `APPLY`). */
  readonly lateral: boolean;
  /** How an upsert is written: `INSERT .. ON CONFLICT`, `MERGE`, or not at all. */
  readonly upsert: 'on_conflict' | 'merge' | null;
  /** Live queries of many subscribers in one polled statement. */
  readonly multiplexing: boolean;
  /** Inserts, updates and deletes at all. */
  readonly writes: boolean;
  readonly transactions: boolean;
}

/** Facts rendering learns about a statement that decide how it is run (one object per plan). */
export interface RenderHints {
  /** The statement's best plan may depend on the values bound (runtime/drivers/plan-choice.ts). */
  valueSensitive: boolean;
}

/** What a renderer reads besides the IR. */
export interface RenderContext {
  readonly dialect: Dialect;
  readonly hints: RenderHints;
}

/** A multiplexed statement: rows of (cohort id as text, the select's JSON text) for every cohort. */
export interface MultiplexedSql {
  readonly text: string;
  /** The select's value slots (compile.ts ParamSlot), in order; parameter `i + 2` carries slot `i` for every cohort. */
  readonly slots: readonly { readonly source: ParamSource; readonly type: string | null }[];
  /** Comment lines saying how the cohorts' values are passed, where the renderer words them itself. */
  readonly header?: readonly string[];
}

/** Turns IR nodes into fragments of one dialect. */
export interface Renderer {
  json(value: JsonValue, rc: RenderContext): Sql;
  cond(cond: Cond, rc: RenderContext): Sql;
  /** The FROM item of a row source (a root field's source is precompiled from it). */
  source(source: Source): Sql;
  /** The statement whose single text value is the JSON object of the root fields. */
  statement(fields: readonly JsonField[], rc: RenderContext): Sql;
  /** The statement whose single text value is one JSON value. */
  valueStatement(value: JsonValue, rc: RenderContext): Sql;
  /** A mutation statement whose single text value is `<failed guard number>:<json>`. */
  mutation(statement: MutationStatement, rc: RenderContext): Sql;
  /** A statement of writes without guards whose single text value is the response JSON. */
  mutationValue(statement: MutationStatement, rc: RenderContext): Sql;
  /** The statement that records the session for event capture, run first in a write transaction. */
  recordSession(): Sql;
  /** The statement that limits every later statement of the transaction to `ms` milliseconds. */
  statementTimeout(ms: number): Sql;
  /** A live query as one statement for every cohort of subscribers (dialects that can multiplex). */
  live(query: LiveQuery, rc: RenderContext): MultiplexedSql;
  /** A stream's batch query for every cohort, each at its own cursor value. */
  stream(stream: Stream, rc: RenderContext): MultiplexedSql;
}

/** What generic SQL code asks of a dialect; no shared code branches on a dialect name. */
export interface Dialect {
  readonly name: 'postgres' | 'mssql' | 'bigquery';
  readonly can: DialectCapabilities;
  readonly render: Renderer;
  quoteIdent(part: string): string;
  placeholder(index: number): string;
  /** `$1::int4`, or just the placeholder when the dialect binds types itself. */
  typedPlaceholder(index: number, type: string | null): string;
  /** A string literal for a JSON key (already checked to be a GraphQL name). */
  keyLiteral(name: string): string;
  jsonObject(pairs: ReadonlyArray<readonly [Sql, Sql]>): Sql;
  jsonArrayAgg(row: Sql, orderBy: Sql | null): Sql;
  emptyJsonArray(): Sql;
  page(limit: Sql | null, offset: Sql | null): Sql;
  /**
   * One subscriber's bound value as the text its cohort array carries (multiplexed live queries):
   * what the dialect's live statement reads back, e.g. a list as an array literal or as JSON.
   */
  cohortValue(v: unknown): string | null;
  /**
   * Dialects whose statements return typed rows (`can.jsonInSql` false): the response JSON of
   * root `fields` from the statement's one row, as column name to value.
   */
  rowsToJson?(fields: readonly JsonField[], row: { readonly [column: string]: unknown }): string;
}
