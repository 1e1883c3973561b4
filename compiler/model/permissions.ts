// Insert, update and delete permissions are not served yet, but what they name is checked, so that
// dropping a column, relationship or computed field they use shows them as dependents.

import type { Json, TableModel } from '../../runtime/bundle/index.js';
import type { Permission, TableEntry } from '../metadata/index.js';
import { resolveBoolExp, type BoolExpContext } from './bool-exp.js';
import type { Issues } from './issues.js';
import { permissionDefinition, permissionObjectName, type PermissionKind } from './names.js';

type Body = { readonly [k: string]: Json };

function problem(body: Body, table: TableModel, ctx: BoolExpContext): string | null {
  const cols = body['columns'];
  if (Array.isArray(cols)) {
    const missing = cols.find((c) => typeof c === 'string' && !table.columns.some((x) => x.name === c));
    if (missing !== undefined) return `no such column exists: ${JSON.stringify(missing)}`;
  }
  const set = body['set'];
  if (set && typeof set === 'object' && !Array.isArray(set)) {
    const missing = Object.keys(set).find((c) => !table.columns.some((x) => x.name === c));
    if (missing !== undefined) return `no such column exists: ${JSON.stringify(missing)}`;
  }
  for (const key of ['check', 'filter']) {
    const exp = body[key];
    if (exp === undefined || exp === null) continue;
    const r = resolveBoolExp(exp, table, ctx);
    if (typeof r === 'string') return r;
  }
  return null;
}

/** Reports insert/update/delete permissions naming a column, relationship or table that is not there. */
export function checkMutationPermissions(source: string, entry: TableEntry, table: TableModel, ctx: BoolExpContext, issues: Issues): void {
  const lists: [PermissionKind, readonly Permission<Json>[] | undefined][] = [
    ['insert', entry.insert_permissions], ['update', entry.update_permissions], ['delete', entry.delete_permissions],
  ];
  for (const [kind, list] of lists) {
    for (const p of list ?? []) {
      const body = p.permission && typeof p.permission === 'object' && !Array.isArray(p.permission) ? p.permission : {};
      const reason = problem(body, table, ctx);
      if (reason === null) continue;
      issues.add({
        type: `${kind}_permission`, name: permissionObjectName(kind, p.role, source, entry.table),
        definition: permissionDefinition(kind, source, entry.table, p),
        reason: `in table ${JSON.stringify(table.name)}: in permission for role ${JSON.stringify(p.role)}: ${reason}`,
      });
    }
  }
}
