// The predicates of a role's permissions by name: what a template is made of and what replaces it.

import type { BoolIr, BundleModel, PermissionRule, TableId } from './model.js';

/** The predicate `rule` of a role's permissions on a table (undefined: the role has no such permission). */
export function permissionRule(model: BundleModel, role: string, table: TableId, rule: PermissionRule): BoolIr | undefined {
  const w = model.mutations?.[role]?.[table];
  switch (rule) {
    case 'select': return model.select[role]?.[table]?.filter;
    case 'insertCheck': return w?.insert?.check;
    case 'updateFilter': return w?.update?.filter;
    case 'updateCheck': return w?.update?.check;
    case 'deleteFilter': return w?.delete?.filter;
  }
}

/** Every rule, in the order a bundle writes them. */
export const PERMISSION_RULES: readonly PermissionRule[] = ['select', 'insertCheck', 'updateFilter', 'updateCheck', 'deleteFilter'];
