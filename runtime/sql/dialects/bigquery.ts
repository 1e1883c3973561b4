import { join, sql, type Sql } from '../fragment.js';
import type { Dialect } from '../dialect.js';
import { multiplexValue } from '../multiplex.js';
import { bigqueryRenderer, responseOfRow } from '../render/bigquery/index.js';
import { refuse } from '../render/bigquery/scalar.js';

/**
 * The BigQuery types a parameter is cast to, by the catalog type the planner gives it: BigQuery's
 * own names (a BigQuery source's columns), and the PostgreSQL names some planners use for
 * integers and text. A value with no known type is sent with the type its JSON value has.
 */
const TYPES: { readonly [type: string]: string } = {
  INT64: 'INT64', INTEGER: 'INT64', FLOAT64: 'FLOAT64', FLOAT: 'FLOAT64', NUMERIC: 'NUMERIC', BIGNUMERIC: 'BIGNUMERIC',
  BOOL: 'BOOL', BOOLEAN: 'BOOL', STRING: 'STRING', BYTES: 'BYTES', DATE: 'DATE', DATETIME: 'DATETIME', TIME: 'TIME',
  TIMESTAMP: 'TIMESTAMP', JSON: 'JSON',
  int2: 'INT64', int4: 'INT64', int8: 'INT64', text: 'STRING', bool: 'BOOL', float8: 'FLOAT64', numeric: 'NUMERIC',
};

/**
 * BigQuery Standard SQL: named `@p0..` parameters (cast to the type they meet), names in
 * backticks (`` `dataset.table` `` is one name), typed rows that the engine writes as JSON.
 */
export const bigquery: Dialect = {
  name: 'bigquery',
  can: {
    jsonInSql: false, returning: false, outputClause: false, distinctOn: true, lateral: false,
    upsert: null, multiplexing: false, writes: false, transactions: false,
  },
  render: bigqueryRenderer,
  quoteIdent: (part) => `\`${part.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``,
  placeholder: (i) => `@p${i - 1}`,
  typedPlaceholder: (i, type) => {
    // A BigQuery source's column types come qualified by their schema (`bigquery.INT64`).
    const t = type === null ? undefined : TYPES[type.replace(/^bigquery\./, '')];
    return t ? `CAST(@p${i - 1} AS ${t})` : `@p${i - 1}`;
  },
  keyLiteral: (name) => `'${name}'`,
  jsonObject: () => refuse('JSON built in SQL'),
  jsonArrayAgg: () => refuse('JSON built in SQL'),
  emptyJsonArray: () => refuse('JSON built in SQL'),
  // No live queries on BigQuery (can.multiplexing is false); the common text form.
  cohortValue: multiplexValue,
  page(limit, offset) {
    const parts: Sql[] = [];
    if (limit) parts.push(sql` LIMIT ${limit}`);
    if (offset) parts.push(sql` OFFSET ${offset}`);
    return join(parts, '');
  },
  rowsToJson: responseOfRow,
};
