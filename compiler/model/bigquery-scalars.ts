import type { ScalarCategory } from '../../runtime/bundle/index.js';

/**
 * BigQuery column types as Hasura's BigQuery backend names their GraphQL scalars: INT64 is `Int`,
 * FLOAT64, NUMERIC and BIGNUMERIC are `Float`, BOOL is `Boolean`, and STRING, BYTES and the date
 * and time types are `String`. (Values of INT64, NUMERIC and BIGNUMERIC are written as JSON
 * strings all the same, as Hasura prints them: runtime/sql/render/bigquery/response.ts.)
 */
export const BIGQUERY_SCALARS: { readonly [bigqueryType: string]: readonly [string, ScalarCategory] } = {
  INT64: ['Int', 'int'], FLOAT64: ['Float', 'float'], NUMERIC: ['Float', 'float'], BIGNUMERIC: ['Float', 'float'],
  BOOL: ['Boolean', 'boolean'], STRING: ['String', 'string'], BYTES: ['String', 'string'], DATE: ['String', 'string'],
  TIME: ['String', 'string'], DATETIME: ['String', 'string'], TIMESTAMP: ['String', 'string'], GEOGRAPHY: ['String', 'string'],
};
