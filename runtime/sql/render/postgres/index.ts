// The PostgreSQL renderer of the query IR.

import type { Renderer } from '../../dialect.js';
import { condSql } from './scalar.js';
import { mutationSql, mutationValueSql, recordSessionSql } from './mutation.js';
import { jsonSql, statementSql, valueStatementSql } from './select.js';

/** Renders IR nodes as PostgreSQL fragments. */
export const postgresRenderer: Renderer = {
  json: jsonSql,
  cond: (c) => condSql(c),
  statement: statementSql,
  valueStatement: valueStatementSql,
  mutation: mutationSql,
  mutationValue: mutationValueSql,
  recordSession: recordSessionSql,
};
