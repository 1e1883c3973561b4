// What every mutation statement shares: data-modifying CTEs, guards that the database evaluates
// on the written rows (permission checks, nested inserts that wrote nothing), and the response
// JSON built by the database from the rows the CTEs return.
//
// A statement returns one text value, `<n>:<json>`: `0` when every guard holds, else the number of
// the first guard that failed; the runtime then rolls the transaction back and answers that
// guard's error. So a check costs no extra round trip.

import type { TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import type { ApiError } from '../errors/index.js';
import { Alias, aliasRef, compileSql, ident, join, jsonKey, raw, sql, type CompiledSql, type Sql } from '../sql/index.js';
import type { PlanContext } from './context.js';
import { collectFields, type FieldSel } from './fields.js';
import { rowJson } from './select.js';

type Path = readonly (string | number)[];

/** A condition that must hold for the statement to commit, and the error answered when it does not. */
export interface Guard {
  readonly cond: Sql;
  readonly error: ApiError;
}

/** The CTEs and guards of one statement, in the order they are added. */
export class StatementBuilder {
  readonly ctes: [Alias, Sql][] = [];
  readonly guards: Guard[] = [];

  /** Adds `name AS (body)` and answers its alias. */
  cte(hint: string, body: Sql): Alias {
    const a = new Alias(hint);
    this.ctes.push([a, body]);
    return a;
  }

  guard(cond: Sql, error: ApiError): void {
    this.guards.push({ cond, error });
  }
}

/** One planned statement with the errors its guards stand for (guard n is `errors[n - 1]`). */
export interface GuardedSql {
  readonly sql: CompiledSql;
  readonly errors: readonly ApiError[];
}

/** `WITH ... SELECT '<n>:' || <json>`. */
export function finishStatement(b: StatementBuilder, json: Sql, ctx: PlanContext): GuardedSql {
  const withs = b.ctes.length ? sql`WITH ${join(b.ctes.map(([a, body]) => sql`${aliasRef(a)} AS (${body})`), ', ')} ` : raw('');
  const status = b.guards.length === 0 ? raw(`'0:'`)
    : sql`(CASE ${join(b.guards.map((g, i) => sql`WHEN NOT coalesce(${g.cond}, true) THEN ${raw(`'${i + 1}:'`)}`), ' ')} ELSE '0:' END)`;
  return { sql: compileSql(sql`${withs}SELECT ${status} || coalesce((${json})::text, 'null')`, ctx.dialect), errors: b.guards.map((g) => g.error) };
}

/** The table's columns of the rows a CTE returned: a FROM item typed like the table's rows (computed fields take it). */
export function rowsOf(t: TableModel, cte: Alias, where?: Sql): Sql {
  const cols = join(t.columns.map((c) => ident(c.name)), ', ');
  return where ? sql`(SELECT ${cols} FROM ${aliasRef(cte)} WHERE ${where})` : sql`(SELECT ${cols} FROM ${aliasRef(cte)})`;
}

/** `<t>_mutation_response` of the rows in `rows`: affected_rows, returning, __typename as selected. */
export function responseJson(t: TableModel, f: FieldSel, affected: Sql, rows: Sql, ctx: PlanContext, path: Path): Sql {
  const fields = collectFields(f.node.selectionSet, typeNameOf(t, '_mutation_response'), ctx);
  const pairs = fields.map((s): readonly [Sql, Sql] => {
    if (s.name === 'affected_rows') return [jsonKey(s.key), affected];
    if (s.name === '__typename') return [jsonKey(s.key), jsonKey(typeNameOf(t, '_mutation_response'))];
    const r = new Alias(t.name);
    const row = rowJson(t, r, collectFields(s.node.selectionSet, typeNameOf(t), ctx), ctx, [...path, 'selectionSet', s.key, 'selectionSet']);
    return [jsonKey(s.key), sql`(SELECT coalesce(${ctx.dialect.jsonArrayAgg(row, null)}, ${ctx.dialect.emptyJsonArray()}) FROM ${rows} AS ${aliasRef(r)})`];
  });
  return ctx.dialect.jsonObject(pairs);
}

/** One row of `rows` as `<t>` (the `_one` and `_by_pk` fields), or JSON null. */
export function singleRowJson(t: TableModel, f: FieldSel, rows: Sql, ctx: PlanContext, path: Path): Sql {
  const r = new Alias(t.name);
  const row = rowJson(t, r, collectFields(f.node.selectionSet, typeNameOf(t), ctx), ctx, [...path, 'selectionSet']);
  return sql`(SELECT ${row} FROM ${rows} AS ${aliasRef(r)} LIMIT 1)`;
}

/** `count(*)` of a CTE's rows as a scalar subquery. */
export function countOf(cte: Alias): Sql {
  return sql`(SELECT count(*) FROM ${aliasRef(cte)})`;
}
