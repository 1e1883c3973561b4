// What a role may do with the v1 data operations (Hasura v2's DML permission checks): `select`
// and `count` read through the role's select permission (its filter on every table reached, its
// columns, its row limit); the writes are refused, as the runtime carries no write permissions.

import type { BoolIr, RelationshipModel, SelectPermissionModel, TableModel } from '../bundle/index.js';
import type { JsonPath } from '../errors/index.js';
import { permissionCond } from '../graphql/index.js';
import type { Alias, Cond } from '../sql/index.js';
import { fail, shownName, type DataContext } from './v1-data-context.js';

/** The permission a check names in its message. */
type Operation = 'select' | 'count';

/**
 * The role's select permission on the table an operation names (or an `_exists` reads), or null
 * for admin. None is 400 `permission-denied` (at `args` for the operation's table), Hasura's askPermInfo wording (the trailing space is Hasura's);
 * `count` adds why (corpus: v1/count/permissions/count_user_has_no_select_perm_error).
 */
export function tablePermission(ctx: DataContext, t: TableModel, op: Operation, at: JsonPath = []): SelectPermissionModel | null {
  if (ctx.access.kind === 'admin') return null;
  const role = ctx.access.session.role;
  const perm = ctx.model.select[role]?.[t.id];
  if (perm) return perm;
  const denied = `select on ${JSON.stringify(shownName(t))} for role ${JSON.stringify(role)} is not allowed. `;
  const why = op === 'count' ? '; "count" is only allowed if the role has "select" permissions on the table' : '';
  throw fail(ctx, 'permission-denied', denied + why, at);
}

/**
 * The role's select permission on the target of a relationship a selection, `where` or
 * `order_by` goes through, or null for admin; none is Hasura's fetchRelDet error at `at`.
 */
export function relationshipPermission(ctx: DataContext, rel: RelationshipModel, target: TableModel, at: JsonPath): SelectPermissionModel | null {
  if (ctx.access.kind === 'admin') return null;
  const role = ctx.access.session.role;
  const perm = ctx.model.select[role]?.[target.id];
  if (perm) return perm;
  throw fail(ctx, 'permission-denied',
    `role ${JSON.stringify(role)} does not have permission to read relationship ${JSON.stringify(rel.name)}; no permission on table ${JSON.stringify(shownName(target))}`, at);
}

/** The role's select filter on rows of `t` at alias `a` (the bundle's template, as the GraphQL engine uses it), or null for admin. */
export function permissionFilter(ctx: DataContext, perm: SelectPermissionModel | null, t: TableModel, a: Alias): Cond | null {
  if (perm === null || ctx.access.kind === 'admin') return null;
  if (perm.filter.kind === 'true') return null;
  return permissionCond(ctx.access.plan, t.id, 'select', a);
}

/** The row limit: the request's, capped by the permission's (Hasura's applyPermLimit). */
export function cappedLimit(requested: number | undefined, perm: SelectPermissionModel | null): number | undefined {
  const cap = perm?.limit ?? null;
  if (cap === null) return requested;
  return requested === undefined ? cap : Math.min(requested, cap);
}

/**
 * A `select` needs every session variable its table's filter reads (Hasura's validateHeaders):
 * a missing one is 400 `not-found` at `args`. Elsewhere a missing variable reads as null, as
 * Hasura's v1 `current_setting` lookup does.
 */
export function requireSessionVariables(ctx: DataContext, perm: SelectPermissionModel | null): void {
  if (perm === null || ctx.access.kind === 'admin') return;
  const have = ctx.access.session.variables;
  for (const name of sessionNames(perm.filter)) {
    if (have[name] === undefined) throw fail(ctx, 'not-found', `${JSON.stringify(name)} header is expected but not found`, []);
  }
}

function sessionNames(ir: BoolIr): string[] {
  switch (ir.kind) {
    case 'true': return [];
    case 'and': case 'or': return ir.items.flatMap(sessionNames);
    case 'not': return sessionNames(ir.item);
    case 'column': case 'computed': return ir.value.kind === 'session' ? [ir.value.name] : [];
    case 'computed_table': case 'relationship': case 'exists': return sessionNames(ir.where);
  }
}

/**
 * `insert`, `update` and `delete` for a role: 400 `permission-denied` at `args`, Hasura's wording
 * for a role without that permission. The runtime's model carries only select permissions, so
 * every role is refused the writes of the v1 API.
 */
export function refuseWrite(ctx: DataContext, op: 'insert' | 'update' | 'delete', t: TableModel): void {
  if (ctx.access.kind === 'admin') return;
  const role = ctx.access.session.role;
  throw fail(ctx, 'permission-denied', `${op} on ${JSON.stringify(shownName(t))} for role ${JSON.stringify(role)} is not allowed. `, []);
}
