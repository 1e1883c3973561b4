// The SQL Server (T-SQL) renderer of the query IR.

import type { Renderer } from '../../dialect.js';
import { liveSql } from './live.js';
import { mutationSql, mutationValueSql } from './mutation.js';
import { condSql, sourceSql, unsupported } from './scalar.js';
import { jsonSql, statementSql, valueStatementSql } from './select.js';
import { recordSessionSql } from './session.js';

/** Renders IR nodes as T-SQL fragments. */
export const mssqlRenderer: Renderer = {
  json: (v, rc) => jsonSql(v, rc),
  cond: (c) => condSql(c),
  source: sourceSql,
  statement: statementSql,
  valueStatement: valueStatementSql,
  mutation: mutationSql,
  mutationValue: mutationValueSql,
  recordSession: recordSessionSql,
  // T-SQL has no statement timeout a statement can set: the driver gives each request its own.
  statementTimeout: () => unsupported('a statement timeout set by a statement (the driver times requests)'),
  live: liveSql,
  // The batch query already holds the cursor condition, order and limit: a stream renders as it.
  stream: (s, rc) => liveSql(s.live, rc),
};

/** Where rendering may be refused: a clear error naming what SQL Server cannot do. */
export { unsupported } from './scalar.js';
