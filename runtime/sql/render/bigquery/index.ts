// The BigQuery renderer of the query IR: reads only. BigQuery has no writes, transactions or
// live queries here (as Hasura's BigQuery backend); the dialect's capabilities say so, so the
// planners refuse those before rendering, and these entries refuse again if reached.

import type { Renderer } from '../../dialect.js';
import { condSql, refuse, sourceSql } from './scalar.js';
import { statementSql, valueSql } from './select.js';

/** Renders IR nodes as BigQuery Standard SQL fragments (typed rows; response.ts writes the JSON). */
export const bigqueryRenderer: Renderer = {
  json: (v, rc) => valueSql(v, [], rc),
  cond: (c) => condSql(c),
  source: sourceSql,
  statement: statementSql,
  valueStatement: () => refuse('the v1 data API'),
  mutation: () => refuse('a mutation'),
  mutationValue: () => refuse('a mutation'),
  recordSession: () => refuse('a transaction'),
  statementTimeout: () => refuse('a statement timeout'),
  live: () => refuse('a subscription'),
  stream: () => refuse('a streaming subscription'),
};

/** The response JSON from the statement's typed row. */
export { responseOfRow } from './response.js';
