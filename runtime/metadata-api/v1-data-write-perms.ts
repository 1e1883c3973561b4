// A role's write permissions on the v1 query API's `insert`, `update` and `delete` (Hasura v2's
// DML checks): the permission the operation needs (none: the refusal of v1-data-access.ts), the
// columns the role may give (not one its permission presets), the presets themselves, the row
// filter of an update or delete, and the check every written row must pass, which fails the whole
// statement with 400 `permission-error` "check constraint of an insert/update permission has failed".

import type { BoolIr, ColumnModel, InsertPermissionModel, TableModel, UpdatePermissionModel } from '../bundle/index.js';
import type { ApiError, JsonPath } from '../errors/index.js';
import { permissionCond, presetExpr } from '../graphql/index.js';
import type { Alias, Cond, Expr } from '../sql/index.js';
import { refuseWrite } from './v1-data-access.js';
import { fail, type DataContext } from './v1-data-context.js';

type Kind = 'insert' | 'update' | 'delete';
type PermOf<K extends Kind> = K extends 'insert' ? InsertPermissionModel : K extends 'update' ? UpdatePermissionModel : { readonly filter: BoolIr };

/** The role's permission for the operation on `t`, null for admin; none is the refusal. */
export function writePermission<K extends Kind>(ctx: DataContext, kind: K, t: TableModel): PermOf<K> | null {
  if (ctx.access.kind === 'admin') return null;
  const perm = ctx.model.mutations?.[ctx.access.session.role]?.[t.id]?.[kind];
  if (!perm) refuseWrite(ctx, kind, t);
  return perm as PermOf<K>;
}

/** Refuses a column the role may not give (Hasura's wordings: not permitted, or preset by the permission). */
export function checkWritable(ctx: DataContext, kind: 'insert' | 'update', perm: InsertPermissionModel | UpdatePermissionModel | null, c: ColumnModel,
  at: JsonPath): void {
  if (perm === null || ctx.access.kind === 'admin') return;
  const role = ctx.access.session.role;
  if (c.name in perm.set) {
    throw fail(ctx, 'not-supported', `column ${JSON.stringify(c.name)} is not ${kind === 'insert' ? 'insertable' : 'updatable'} for role ${JSON.stringify(role)}; its value is predefined in permission`, at);
  }
  if (!perm.columns.includes(c.name)) {
    throw fail(ctx, 'permission-denied', `role ${JSON.stringify(role)} does not have permission to ${kind} column ${JSON.stringify(c.name)}`, at);
  }
}

/** The permission's presets as (column, value) pairs, in table order. */
export function presets(perm: InsertPermissionModel | UpdatePermissionModel | null, t: TableModel): (readonly [ColumnModel, Expr])[] {
  if (!perm) return [];
  return t.columns.filter((c) => c.name in perm.set).map((c) => [c, presetExpr(perm.set[c.name]!, c)] as const);
}

/** The permission's row filter `rule` on rows of `t` at `a` (the bundle's template; null when it has none, or for admin). */
export function permissionRows(ctx: DataContext, filter: BoolIr | undefined, t: TableModel, rule: 'updateFilter' | 'deleteFilter', a: Alias): Cond | null {
  if (!filter || filter.kind === 'true' || ctx.access.kind === 'admin') return null;
  return permissionCond(ctx.access.plan, t.id, rule, a);
}

/** The role's check `rule` on the row of `t` at `r` (the bundle's template; null when there is nothing to check). */
export function rowCheck(ctx: DataContext, check: BoolIr | undefined, t: TableModel, rule: 'insertCheck' | 'updateCheck', r: Alias): Cond | null {
  if (!check || check.kind === 'true' || ctx.access.kind === 'admin') return null;
  return permissionCond(ctx.access.plan, t.id, rule, r);
}

/** The error of a failed check. */
export function checkFailed(ctx: DataContext): ApiError {
  return fail(ctx, 'permission-error', 'check constraint of an insert/update permission has failed', []);
}
