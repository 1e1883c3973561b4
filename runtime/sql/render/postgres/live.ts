// Live queries on PostgreSQL: the cohorts' values travel as arrays, one per value slot, unnested
// into the cohort relation; the select reads slot `i` as a column of that relation instead of a
// placeholder. Values are sent as text and cast back to the slot's type inside the statement, so
// a slot holding an array (`_in`) still fits in one array element.

import { compileSql } from '../../compile.js';
import type { Dialect, MultiplexedSql, RenderContext } from '../../dialect.js';
import type { Cohort, LiveQuery } from '../../ir/index.js';
import { statementSql } from './select.js';

// The dialect the select is printed with: slot `i` is the column `"<relation>"."<slot i>"`,
// keeping the base dialect's cast.
function cohortColumns(base: Dialect, cohort: Cohort): Dialect {
  const column = (i: number): string => `${base.quoteIdent(cohort.relation)}.${base.quoteIdent(cohort.slot(i))}`;
  return {
    ...base,
    placeholder: column,
    typedPlaceholder(i, type) {
      const typed = base.typedPlaceholder(i, type);
      const placeholder = base.placeholder(i);
      // The base prints `(<placeholder>)::<type>`: keep its cast, read the column instead.
      return typed.startsWith(`(${placeholder})`) ? `(${column(i)})${typed.slice(placeholder.length + 2)}` : column(i);
    },
  };
}

/**
 * The statement answering rows of (cohort id as text, the select's JSON text) for every cohort:
 * `$1` is the int4[] of cohort ids, `$2..` one text[] per slot of the select.
 */
export function liveSql(query: LiveQuery, rc: RenderContext): MultiplexedSql {
  const base = rc.dialect;
  const { cohort } = query;
  const inner = compileSql(statementSql(query.fields, rc), cohortColumns(base, cohort));
  const q = (s: string): string => base.quoteIdent(s);
  const arrays = [`${base.placeholder(1)}::int4[]`, ...inner.params.map((_, i) => `${base.placeholder(i + 2)}::text[]`)];
  const columns = [q(cohort.id), ...inner.params.map((_, i) => q(cohort.slot(i + 1)))];
  const text = `SELECT ${q(cohort.relation)}.${q(cohort.id)}::text AS ${q('cohort')}, (${inner.text}) AS ${q('result')}\n`
    + `FROM unnest(${arrays.join(', ')}) AS ${q(cohort.relation)}(${columns.join(', ')})`;
  return { text, slots: inner.params };
}
