// Live queries on SQL Server: the cohorts' values arrive as JSON arrays (the cohort ids, then one
// array per value slot, as multiplexParams gives them) and are read with OPENJSON: one row per
// cohort, its slot `i` the `i`-th array's item at the cohort's index. The select reads slot `i`
// as that column instead of a parameter; SQL Server converts the text to the compared type.

import { compileSql } from '../../compile.js';
import type { Dialect, MultiplexedSql, RenderContext } from '../../dialect.js';
import type { Cohort, LiveQuery } from '../../ir/index.js';
import { statementSql } from './select.js';

function cohortColumns(base: Dialect, cohort: Cohort): Dialect {
  const column = (i: number): string => `${base.quoteIdent(cohort.relation)}.${base.quoteIdent(cohort.slot(i))}`;
  return { ...base, placeholder: column, typedPlaceholder: column };
}

/** One row per cohort: its id as text and the select's JSON; `@p1` the ids, `@p2..` one JSON array per slot. */
export function liveSql(query: LiveQuery, rc: RenderContext): MultiplexedSql {
  const base = rc.dialect;
  const { cohort } = query;
  const inner = compileSql(statementSql(query.fields, rc), cohortColumns(base, cohort));
  const q = (s: string): string => base.quoteIdent(s);
  const slots = inner.params.map((_, i) =>
    `(SELECT [value] FROM OPENJSON(${base.placeholder(i + 2)}) WHERE [key] = ${q('_c')}.[key]) AS ${q(cohort.slot(i + 1))}`);
  const values = [`CAST(${q('_c')}.[value] AS int) AS ${q(cohort.id)}`, ...slots].join(', ');
  const text = `SELECT CAST(${q(cohort.relation)}.${q(cohort.id)} AS nvarchar(20)) AS ${q('cohort')}, (${inner.text}) AS ${q('result')}\n`
    + `FROM OPENJSON(${base.placeholder(1)}) AS ${q('_c')} CROSS APPLY (SELECT ${values}) AS ${q(cohort.relation)}`;
  const header = ['-- one row per cohort of subscribers sharing this plan; @p1 = the cohort ids, a JSON array',
    ...inner.params.map((p, i) => {
      const what = p.source.kind === 'session' ? `session ${p.source.name}` : p.source.kind === 'variable' ? `variable $${p.source.name}${p.source.path.map((k) => `.${k}`).join('')}` : `constant ${JSON.stringify(p.source.value)}`;
      return `-- @p${i + 2} = ${what}, one per cohort: a JSON array of text${p.type ? ` (read as ${p.type})` : ''}`;
    })];
  return { text, slots: inner.params, header };
}
