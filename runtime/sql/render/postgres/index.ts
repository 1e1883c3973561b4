// The PostgreSQL renderer of the query IR.

import type { Renderer } from '../../dialect.js';
import { condSql, sourceSql } from './scalar.js';
import { mutationSql, mutationValueSql } from './mutation.js';
import { recordSessionSql, statementTimeoutSql } from './session.js';
import { liveSql } from './live.js';
import { jsonSql, statementSql, valueStatementSql } from './select.js';

/** Renders IR nodes as PostgreSQL fragments. */
export const postgresRenderer: Renderer = {
  json: jsonSql,
  cond: (c) => condSql(c),
  source: sourceSql,
  statement: statementSql,
  valueStatement: valueStatementSql,
  mutation: mutationSql,
  mutationValue: mutationValueSql,
  recordSession: recordSessionSql,
  statementTimeout: statementTimeoutSql,
  live: liveSql,
  // The batch query already holds the cursor condition, order and limit: a stream renders as it.
  stream: (s, rc) => liveSql(s.live, rc),
};
