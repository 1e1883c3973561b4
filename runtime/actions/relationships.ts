// Relationships from an action's output to tables (reference/actions.md §5): every relationship
// field of every output object is one JSON field of a single statement per source, each reading the target
// table under the role's select permission (filter, columns, limit) with the mapped columns equal
// to the object's values, bound as parameters. A row the role may not see reads as null (or is
// missing from the array).

import type { Json, Session } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { argsOf, bindParams, listSelect, objectSelect, tableSource, type JoinCond, type PlanContext } from '../graphql/index.js';
import { compileSql, type CompiledSql, type JsonField } from '../sql/index.js';
import type { PendingRelationship } from './output.js';

/** The statement that reads every pending relationship (one JSON field `r<i>` each), or null when there is none. */
export function relationshipStatement(pending: readonly PendingRelationship[], ctx: PlanContext): { sql: CompiledSql; source: string } | null {
  if (pending.length === 0) return null;
  const fields: JsonField[] = pending.map((p, i) => {
    const t = ctx.model.tables[p.relationship.target]!;
    const path = ['selectionSet', p.field.key];
    const on: JoinCond[] = [(b) => p.values.map(([column, value]) => ({
      kind: 'equals' as const,
      left: { kind: 'column' as const, row: b, column },
      right: { kind: 'param' as const, value: { kind: 'literal' as const, value: value as Json }, type: t.columns.find((c) => c.name === column)?.type ?? null },
    }))];
    const value = p.relationship.kind === 'object'
      ? objectSelect(t, tableSource(t), p.field, ctx, path, on)
      : listSelect(t, tableSource(t), argsOf(p.field.node), p.field, ctx, path, on);
    return { key: `r${i}`, value };
  });
  const sql = compileSql(ctx.dialect.render.statement(fields, ctx), ctx.dialect);
  return { sql, source: ctx.model.tables[pending[0]!.relationship.target]!.source };
}

/** Runs the statement of each source (session values bound as parameters) and writes each relationship's value into its object. */
export async function fillRelationships(pending: readonly PendingRelationship[], ctx: PlanContext, session: Session, driverFor: (source: string) => Driver): Promise<void> {
  // Relationships of one object type are on one source (custom types check it); different types may not be.
  const bySource = new Map<string, PendingRelationship[]>();
  for (const p of pending) {
    const source = ctx.model.tables[p.relationship.target]!.source;
    bySource.set(source, [...(bySource.get(source) ?? []), p]);
  }
  await Promise.all([...bySource.values()].map(async (group) => {
    const st = relationshipStatement(group, ctx);
    if (!st) return;
    const text = await driverFor(st.source).queryText(st.sql.text, bindParams(st.sql.params, ctx.variables, session));
    const values = JSON.parse(text) as { [k: string]: Json };
    group.forEach((p, i) => { p.target[p.key] = values[`r${i}`] ?? (p.relationship.kind === 'array' ? [] : null); });
  }));
}
