// What every mutation statement shares: data-modifying parts, guards that the database evaluates
// on the written rows (permission checks, nested inserts that wrote nothing), and the response
// JSON built by the database from the rows the parts return.
//
// A statement returns one text value, `<n>:<json>`: `0` when every guard holds, else the number of
// the first guard that failed; the runtime then rolls the transaction back and answers that
// guard's error. So a check costs no extra round trip.

import type { BundleModel, TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import type { ApiError } from '../errors/index.js';
import { Alias, compileSql, type CompiledSql, type Guard, type MutationJson, type MutationStatement, type Write, type WriteBody, type WrittenRows } from '../sql/index.js';
import type { PlanContext } from './context.js';
import { collectFields, type FieldSel } from './fields.js';
import { rowShape } from './select.js';

type Path = readonly (string | number)[];

/** The write parts and guards of one statement, in the order they are added. */
export class StatementBuilder {
  readonly writes: Write[] = [];
  readonly guards: { readonly guard: Guard; readonly error: ApiError }[] = [];

  /** Adds a write part and answers its name. */
  cte(hint: string, body: WriteBody): Alias {
    const name = new Alias(hint);
    this.writes.push({ name, body });
    return name;
  }

  guard(guard: Guard, error: ApiError): void {
    this.guards.push({ guard, error });
  }
}

/** One planned statement with the errors its guards stand for (guard n is `errors[n - 1]`). */
export interface GuardedSql {
  readonly sql: CompiledSql;
  /** The statement as IR (what the permission proof reads); absent on plans restored from a persisted form. */
  readonly ir?: MutationStatement;
  readonly errors: readonly ApiError[];
  /**
   * The statement answering the response, run after this one on the rows it kept (its JSON is the
   * variable KEPT_ROWS); absent when this statement answers the response itself.
   */
  readonly output?: GuardedSql;
}

/** The variable a later statement reads the kept rows from: not a GraphQL name, so no request can send it. */
export const KEPT_ROWS = '$kept_rows';

/** The statement of the writes, guards and response, rendered by the source's dialect. */
export function finishStatement(b: StatementBuilder, result: MutationJson, ctx: PlanContext): GuardedSql {
  const ir: MutationStatement = { writes: b.writes, guards: b.guards.map((g) => g.guard), result };
  return { sql: compileSql(ctx.dialect.render.mutation(ir, ctx), ctx.dialect), ir, errors: b.guards.map((g) => g.error) };
}

/**
 * The writes and guards as one statement that answers the written rows, and the response read in a
 * second statement from those rows given back, after the writes: there every read (relationships,
 * computed fields, aggregates of `returning`) sees the rows the first statement wrote, as in
 * Hasura, whose nested inserts write object by object and then select the response from the
 * inserted rows (Backends/Postgres/Execute/Mutation.hs, executeMutationOutputQuery over the rows'
 * values). `later` is planned without read-through relations: the tables hold the rows by then.
 * PostgreSQL sources; `null` when a write's table is not in the model.
 */
export function finishReadingAfter(b: StatementBuilder, later: MutationJson, ctx: PlanContext): GuardedSql | null {
  const kept = b.writes.flatMap((w) => {
    const body = w.body;
    if (body.kind === 'union') return [];
    if (body.kind === 'restored') return [null];
    const t = tableNamed(ctx.model, body.table.schema, body.table.name);
    return [t ? { write: w.name, table: body.table, columns: t.columns.map((c) => c.name), flagged: body.kind === 'insert' && body.conflict !== null } : null];
  });
  if (kept.some((k) => k === null)) return null;
  const keptWrites = kept as NonNullable<(typeof kept)[number]>[];
  const first: MutationStatement = { writes: b.writes, guards: b.guards.map((g) => g.guard), result: { kind: 'kept_rows', writes: keptWrites } };
  const restored: MutationStatement = {
    writes: b.writes.map((w) => {
      const i = keptWrites.findIndex((k) => k.write === w.name);
      if (i < 0) return w;
      const k = keptWrites[i]!;
      return { name: w.name, body: { kind: 'restored', table: k.table, flagged: k.flagged, value: { kind: 'variable', name: KEPT_ROWS, path: [i] } } };
    }),
    guards: [], result: later,
  };
  const output: GuardedSql = { sql: compileSql(ctx.dialect.render.mutation(restored, ctx), ctx.dialect), ir: restored, errors: [] };
  return { sql: compileSql(ctx.dialect.render.mutation(first, ctx), ctx.dialect), ir: first, errors: b.guards.map((g) => g.error), output };
}

function tableNamed(model: BundleModel, schema: string, name: string): TableModel | undefined {
  return Object.values(model.tables).find((t) => t.schema === schema && t.name === name);
}

/** The table's columns of the rows a write part returned: read like the table's rows (computed fields take them). */
export function rowsOf(t: TableModel, write: Alias, only: WrittenRows['only'] = null): WrittenRows {
  return { kind: 'written', write, columns: t.columns.map((c) => c.name), only };
}

/** `<t>_mutation_response` of the rows in `rows`: affected_rows, returning, __typename as selected. */
export function responseJson(t: TableModel, f: FieldSel, affected: readonly Alias[], rows: WrittenRows, ctx: PlanContext, path: Path): MutationJson {
  const fields = collectFields(f.node.selectionSet, typeNameOf(t, '_mutation_response'), ctx);
  return { kind: 'response', fields: fields.map((s) => {
    if (s.name === 'affected_rows') return { key: s.key, value: { kind: 'affected', writes: affected } };
    if (s.name === '__typename') return { key: s.key, value: { kind: 'name', name: typeNameOf(t, '_mutation_response') } };
    const r = new Alias(t.name);
    const shape = rowShape(t, r, collectFields(s.node.selectionSet, typeNameOf(t), ctx), ctx, [...path, 'selectionSet', s.key, 'selectionSet']);
    return { key: s.key, value: { kind: 'returning', rows, row: r, shape, single: false } };
  }) };
}

/** One row of `rows` as `<t>` (the `_one` and `_by_pk` fields), or JSON null. */
export function singleRowJson(t: TableModel, f: FieldSel, rows: WrittenRows, ctx: PlanContext, path: Path): MutationJson {
  const r = new Alias(t.name);
  const shape = rowShape(t, r, collectFields(f.node.selectionSet, typeNameOf(t), ctx), ctx, [...path, 'selectionSet']);
  return { kind: 'returning', rows, row: r, shape, single: true };
}
