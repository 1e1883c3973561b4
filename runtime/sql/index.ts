/** Fragment constructors: the only way to build SQL text. */
export { sql, raw, ident, param, variable, session, aliasRef, jsonKey, join, empty, isSql, Alias } from './fragment.js';
/** Fragment and parameter-source types. */
export type { Sql, ParamSource } from './fragment.js';
/** The dialect interface, its capabilities and its renderer of the query IR. */
export type { Dialect, DialectCapabilities, Renderer, RenderContext, RenderHints } from './dialect.js';
/** The dialect-neutral query IR. */
export * from './ir/index.js';
/** Prints a fragment tree to `{text, params}`. */
export { compileSql, type CompiledSql, type ParamSlot } from './compile.js';
/** The PostgreSQL dialect. */
export { postgres } from './dialects/postgres.js';
/** The BigQuery dialect (typed rows; the engine writes the JSON). */
export { bigquery } from './dialects/bigquery.js';
/** Multiplexed live queries: per-cohort values sent as arrays, one per value slot. */
export { multiplexValue, jsonCohortValue, multiplexParams, type MultiplexedSql } from './multiplex.js';
/** For reading: line breaks and indentation (only whitespace outside quotes changes), and a comment line per parameter. */
export { closingQuote, formatSql, paramHeader } from './format.js';
/** The SQL Server dialect (T-SQL renderer in render/mssql). */
export { mssql } from './dialects/mssql.js';
/** The dialects by name. */
export { dialectNamed } from './dialects/registry.js';
/** Precompiled conditions: made once per role and table at compile time, completed per statement. */
export { makeSourceTemplate, makeTemplate, templateSql, templateText, type TemplateFill } from './template.js';
/** The text of a decimal as Hasura sends it: Haskell's `show` (mutations) or a binary numeric (queries, v1 DML). */
export { binaryNumericText, plainDecimalText, scientificText } from './numeric-text.js';
/** How a column's value is written into the engine's JSON (GeoJSON, stringified numbers). */
export { scalarOutputOf } from './scalar-output.js';
/** The change feed's DDL and catalog queries on PostgreSQL (live queries refetched on a commit's notification). */
export {
  CHANGE_CHANNEL, CHANGE_TRIGGER, FUNCTION_PRESENT, FUNCTION_SIGNATURE, INSTALL_FUNCTION, LOCK_TIMEOUT, TABLE_STATES, createTrigger,
} from './render/postgres/change-feed.js';
