// The role's write permissions as the planner reads them, and preset values as IR.

import type { ColumnModel, PresetValue, TableMutationPermissions } from '../bundle/index.js';
import type { Expr } from '../sql/index.js';
import type { PlanContext } from './context.js';

/** The role's insert/update/delete permissions on a table (empty when it has none). */
export function mutationPermsOf(ctx: PlanContext, table: string): TableMutationPermissions {
  return ctx.model.mutations?.[ctx.role]?.[table] ?? {};
}

/** A preset (`set`) value of the column's type: a constant, or the session variable's slot. */
export function presetExpr(preset: PresetValue, c: ColumnModel): Expr {
  return { kind: 'param', value: preset.kind === 'session' ? { kind: 'session', name: preset.name } : { kind: 'literal', value: preset.value }, type: c.type };
}
