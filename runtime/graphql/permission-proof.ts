// A proof on the IR that every read of a table carries the role's select permission: its filter
// (lists, aggregates, single rows, EXISTS, scalar subqueries) and its row limit where it applies.
// Reads inside a permission filter are what the filter names and are exempt, as in Hasura. No SQL
// is parsed, so it holds for every dialect's renderer.

import { permissionRule, type BundleModel, type PermissionRule, type TableId } from '../bundle/index.js';
import { Alias, readsOf, type Cond, type JsonValue, type LiveQuery, type Source, type Stream, type TableRead } from '../sql/index.js';
import { boolCond, filterAfterParent, permissionCond } from './bool.js';
import type { PlanContext } from './context.js';
import { readsTable } from './rows.js';

/** What is wrong with the reads of `values` for the role `ctx.role` (empty: every read is guarded). */
export function permissionGaps(values: readonly (JsonValue | LiveQuery | Stream)[], ctx: PlanContext): string[] {
  return readGaps(values.flatMap((v) => readsOf(v)), ctx);
}

/** What is wrong with `reads` (a plan's reads of rows) for the role `ctx.role`. */
export function readGaps(reads: readonly TableRead[], ctx: PlanContext): string[] {
  const gaps: string[] = [];
  for (const read of reads) {
    if (read.inPermission) continue;
    const table = tableRead(ctx.model, read.from);
    if (table === null) continue;
    const gap = checkRead(read, table, reads, ctx);
    if (gap) gaps.push(`${table}: ${gap}`);
  }
  return gaps;
}

function checkRead(read: TableRead, table: TableId, reads: readonly TableRead[], ctx: PlanContext): string | null {
  const perm = ctx.model.select[ctx.role]?.[table];
  if (!perm) return `role "${ctx.role}" has no select permission`;
  if (!read.permission) return 'no permission on the rows read';
  if (read.permission.afterParent) {
    const gap = afterParentGap(read, read.permission.afterParent, table, reads, ctx);
    if (gap) return gap;
  } else if (!isRoleRule(read.permission.filter, table, 'select', read.row, ctx)) return 'the permission node is not the role\'s filter';
  if (read.limited && read.permission.limit !== perm.limit) return `row limit ${read.permission.limit} instead of ${perm.limit}`;
  return null;
}

// A filter left out in part because of the parent row: that row is a read of its table itself
// (checked as any other read), the rows are tied to it by the keys the filter's relationship
// names, and what is left is what filterAfterParent leaves.
function afterParentGap(read: TableRead, parent: Alias, table: TableId, reads: readonly TableRead[], ctx: PlanContext): string | null {
  const up = reads.find((r) => r.row === parent);
  const parentTable = up && readsTable(up.from) ? tableRead(ctx.model, up.from) : null;
  if (!up || up.inPermission || !up.permission || parentTable === null) return 'the filter is left out in part for a parent that is not a read of a table';
  const pairs = (read.join ?? []).flatMap((c): [string, string][] => (c.kind === 'equals' && c.left.kind === 'column' && c.left.row === read.row
    && c.right.kind === 'column' && c.right.row === parent ? [[c.right.column, c.left.column]] : []));
  const rest = filterAfterParent(ctx, table, parentTable, pairs, read.row);
  if (rest === null || canonical(rest, read.row) !== canonical(read.permission!.filter, read.row)) return 'the filter left out is not what the parent row proves';
  return null;
}

// The table whose rows a source reads: a table, or a function returning rows of one.
function tableRead(model: BundleModel, s: Source): TableId | null {
  switch (s.kind) {
    case 'table': return Object.values(model.tables).find((t) => t.schema === s.table.schema && t.name === s.table.name)?.id ?? null;
    case 'function': {
      const fn = s.call.fn;
      const root = Object.values(model.functions).find((f) => f.schema === fn.schema && f.name === fn.name);
      if (root) return root.returns;
      for (const t of Object.values(model.tables)) {
        for (const cf of t.computedFields) if (cf.returns.kind === 'table' && cf.function.schema === fn.schema && cf.function.name === fn.name) return cf.returns.table;
      }
      return null;
    }
    case 'template': return tableRead(model, s.of);
    case 'written': case 'read_through': return null;
  }
}

/**
 * True when `found` is the role's predicate `rule` on `table` at `row`: the bundle's template of it,
 * or (where the planner lowers it itself: no template, reads through written rows) its lowering.
 */
export function isRoleRule(found: Cond, table: TableId, rule: PermissionRule, row: Alias, ctx: PlanContext): boolean {
  const text = canonical(found, row);
  if (text === canonical(permissionCond(ctx, table, rule, row), row)) return true;
  const ir = permissionRule(ctx.model, ctx.role, table, rule);
  return ir !== undefined && text === canonical(boolCond(ir, row, ctx), row);
}

// A condition as text with aliases numbered by first appearance, `row` first: equal conditions on
// the same row print equal however their inner aliases were made.
export function canonical(c: Cond, row: Alias): string {
  const ids = new Map<Alias, number>([[row, 0]]);
  return JSON.stringify(c, (_k, v: unknown) => {
    if (v instanceof Alias) {
      if (!ids.has(v)) ids.set(v, ids.size);
      return `@${ids.get(v)}`;
    }
    return v;
  });
}
