// The role's write permissions as the planner reads them, and preset values as SQL.

import type { ColumnModel, PresetValue, TableMutationPermissions } from '../bundle/index.js';
import { param, session, type Sql } from '../sql/index.js';
import type { PlanContext } from './context.js';

/** The role's insert/update/delete permissions on a table (empty when it has none). */
export function mutationPermsOf(ctx: PlanContext, table: string): TableMutationPermissions {
  return ctx.model.mutations?.[ctx.role]?.[table] ?? {};
}

/** A preset (`set`) value cast to the column's type: a constant, or the session variable's slot. */
export function presetSql(preset: PresetValue, c: ColumnModel): Sql {
  return preset.kind === 'session' ? session(preset.name, c.type) : param(preset.value, c.type);
}
