// The fields of a role's mutation_root, named as the table's root fields are (custom_root_fields,
// source prefix and suffix already applied in rootFieldNames). Which fields exist follows
// Hasura v2: `_one` and `_by_pk` return a row, so they need a select permission (and, for
// `_by_pk`, every primary-key column readable); `backend_only` permissions are left out of the
// client schema (a trusted backend request's root is built from runtime/bundle `trustedPermissions`).

import type {
  FunctionModel, MutationKind, MutationRootField, SelectPermissionModel, TableModel, TableMutationPermissions,
} from '../../runtime/bundle/index.js';
import type { Issues } from './issues.js';

/**
 * update_<t>_many came with Hasura v2.10. The issue asks for it, so it is on, although the schema the
 * conformance corpus (v2.3) expects has none (known deviation: graphql_introspection/descriptions
 * root_fields lists mutation_root's fields).
 */
const UPDATE_MANY = true;

function kindsFor(t: TableModel, perms: TableMutationPermissions, select: SelectPermissionModel | undefined): MutationKind[] {
  const kinds: MutationKind[] = [];
  const pkReadable = select !== undefined && t.primaryKey.length > 0 && t.primaryKey.every((c) => select.columns.includes(c));
  if (perms.insert && !perms.insert.backendOnly) {
    kinds.push('insert');
    if (select) kinds.push('insert_one');
  }
  if (perms.update && !perms.update.backendOnly && perms.update.columns.length + Object.keys(perms.update.set).length > 0) {
    kinds.push('update');
    if (pkReadable) kinds.push('update_by_pk');
    if (UPDATE_MANY) kinds.push('update_many');
  }
  if (perms.delete && !perms.delete.backendOnly) {
    kinds.push('delete');
    if (pkReadable) kinds.push('delete_by_pk');
  }
  return kinds;
}

/**
 * mutation_root of one role, sorted by field name; a name used twice is reported as Hasura words it.
 * Functions exposed as mutations come after the tables' fields, for roles that may read the table
 * they return and (but admin) hold a function permission: Hasura does not infer permissions for
 * them (Schema/Build.hs buildMutationFields, Note [Function Permissions]).
 */
export function buildMutationRoots(role: string, tables: ReadonlyMap<string, TableModel>,
  mutations: { readonly [id: string]: TableMutationPermissions }, select: { readonly [id: string]: SelectPermissionModel },
  issues: Issues, functions: readonly FunctionModel[] = []): { [field: string]: MutationRootField } {
  const root: { [field: string]: MutationRootField } = {};
  const add = (name: string, field: MutationRootField): void => {
    if (root[name]) {
      issues.add({ type: 'root_field', name, definition: { role, field: name },
        reason: `found duplicate fields in selection set for mutation root: ${name}` });
      return;
    }
    root[name] = field;
  };
  for (const t of tables.values()) {
    const perms = mutations[t.id];
    if (!perms) continue;
    for (const kind of kindsFor(t, perms, select[t.id])) add(t.rootFieldNames[kind]!, { kind, table: t.id });
  }
  for (const f of functions) {
    if (!f.mutation || !select[f.returns] || (role !== 'admin' && !f.mutation.roles.includes(role))) continue;
    add(f.field, { kind: 'function', table: f.returns, function: f.id });
  }
  return Object.fromEntries(Object.entries(root).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
