// Inherited roles (`inherited_roles: [{role_name, role_set}]`, Hasura v2): a role made of other
// roles (inherited ones included) gets, for every table it has no permission of its own on:
// - an insert, update or delete permission when the parents that have one all have the same one;
//   parents that disagree leave the role without it and report Hasura's "inherited role permission
//   inconsistency" (which blocks no edit; a permission of the role's own resolves it);
// - a select permission that is the union of the parents': rows any parent may see (filters
//   joined with OR), the columns and computed fields any parent grants, the largest limit (none
//   when a parent has none), aggregations when any parent allows them. A column only some parents
//   grant is read on the rows those parents may see and is null on the others (`fieldFilters`).

import type { BoolIr, Json, SelectPermissionModel, TableModel, TableMutationPermissions } from '../../runtime/bundle/index.js';
import { inheritedRoles, type InheritedRole, type Metadata } from '../metadata/index.js';
import type { Issues } from './issues.js';

type SelectMap = Record<string, Record<string, SelectPermissionModel>>;
type MutationMap = Record<string, Record<string, TableMutationPermissions>>;

const isRecord = (v: Json): v is { readonly [k: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

// Rows any of `perms` admits: their filters joined with OR (true when one is true).
function anyOf(perms: readonly SelectPermissionModel[]): BoolIr {
  const filters: BoolIr[] = perms.map((p) => p.filter);
  return filters.some((f) => f.kind === 'true') ? { kind: 'true' } : filters.length === 1 ? filters[0]! : { kind: 'or', items: filters };
}

// A parent's own row condition for `field`: its field filter when it has one, else its filter.
function grantOf(p: SelectPermissionModel, field: string): BoolIr {
  return p.fieldFilters?.[field] ?? p.filter;
}

function unionSelect(perms: readonly SelectPermissionModel[], t: TableModel): SelectPermissionModel {
  const limits = perms.map((p) => p.limit);
  const filter = anyOf(perms);
  // Columns and computed fields any parent grants (Hasura's union of column permissions); one that
  // not every parent grants is read on the rows of the parents that grant it, null on the others.
  const columns = t.columns.map((c) => c.name).filter((c) => perms.some((p) => p.columns.includes(c)));
  const computedFields = [...new Set(perms.flatMap((p) => p.computedFields))].sort();
  const fieldFilters: Record<string, BoolIr> = {};
  const guard = (field: string, grants: (p: SelectPermissionModel) => boolean): void => {
    const granting = perms.filter(grants);
    if (granting.length === perms.length && granting.every((p) => p.fieldFilters?.[field] === undefined)) return;
    const conds = granting.map((p) => grantOf(p, field));
    fieldFilters[field] = conds.some((f) => f.kind === 'true') ? { kind: 'true' } : conds.length === 1 ? conds[0]! : { kind: 'or', items: conds };
  };
  for (const c of columns) guard(c, (p) => p.columns.includes(c));
  for (const f of computedFields) guard(f, (p) => p.computedFields.includes(f));
  return {
    columns, computedFields, filter,
    limit: limits.includes(null) ? null : Math.max(...(limits as number[])),
    allowAggregations: perms.some((p) => p.allowAggregations),
    ...(Object.keys(fieldFilters).length > 0 ? { fieldFilters } : {}),
  };
}

/**
 * `direct` and every inherited role one of whose parents (inherited ones included) is among them:
 * the roles that may call an action or a function granted to `direct` (Hasura v2 gives an
 * inherited role the action and function permissions of any parent).
 */
export function withInheritedRoles(direct: readonly string[], inherited: readonly Json[] | undefined): string[] {
  const roles = new Set(direct);
  const list = inheritedRoles(inherited);
  for (let changed = true; changed;) {
    changed = false;
    for (const r of list) {
      if (!roles.has(r.name) && r.parents.some((p) => roles.has(p))) { roles.add(r.name); changed = true; }
    }
  }
  return [...roles].sort();
}

/**
 * The roles the metadata grants something (Hasura's allRoleNames in Schema/Cache.hs): table
 * permissions of every source, remote schema and action permissions, and the inherited roles.
 */
function metadataRoles(md: Metadata): ReadonlySet<string> {
  const roles = new Set<string>();
  const add = (entries: unknown): void => {
    if (!Array.isArray(entries)) return;
    for (const e of entries as readonly Json[]) if (isRecord(e) && typeof e['role'] === 'string') roles.add(e['role']);
  };
  for (const source of md.sources) {
    for (const t of source.tables) {
      for (const kind of ['insert_permissions', 'select_permissions', 'update_permissions', 'delete_permissions'] as const) add(t[kind]);
    }
  }
  for (const entry of [...md.remote_schemas ?? [], ...md.actions ?? []]) if (isRecord(entry)) add(entry['permissions']);
  for (const r of inheritedRoles(md.inherited_roles)) roles.add(r.name);
  return roles;
}

/**
 * Inherited roles whose every parent is a role of the metadata; the others are inconsistent
 * objects with Hasura's reason (RQL/DDL/InheritedRoles.hs, resolveInheritedRole) and get nothing.
 */
function withKnownParents(md: Metadata, issues: Issues): InheritedRole[] {
  const known = metadataRoles(md);
  return inheritedRoles(md.inherited_roles).filter((role) => {
    const missing = role.parents.filter((p) => !known.has(p)).sort();
    if (missing.length === 0) return true;
    issues.add({ type: 'inherited_role', name: `inherited_role ${role.name}`, definition: { role_name: role.name, role_set: [...role.parents] },
      reason: `the following parent role(s) are not found: ${missing.join(', ')} which are required to construct the inherited role: ${JSON.stringify(role.name)}` });
    return false;
  });
}

/** Adds the permissions of every inherited role to `select` and `mutations` (parents first), and the role to `roles`. */
export function resolveInheritedRoles(md: Metadata, tables: ReadonlyMap<string, TableModel>, select: SelectMap,
  mutations: MutationMap, roles: Set<string>, issues: Issues): void {
  const defs = new Map(withKnownParents(md, issues).map((r) => [r.name, r]));
  const done = new Set<string>();
  const resolve = (role: InheritedRole, seen: ReadonlySet<string>): void => {
    if (done.has(role.name) || seen.has(role.name)) return;
    for (const p of role.parents) {
      const parent = defs.get(p);
      if (parent) resolve(parent, new Set([...seen, role.name]));
    }
    done.add(role.name);
    roles.add(role.name);
    const ownSelect = (select[role.name] ??= {});
    const ownMutations = (mutations[role.name] ??= {});
    for (const t of tables.values()) {
      if (!ownSelect[t.id]) {
        const perms = role.parents.map((p) => select[p]?.[t.id]).filter((x): x is SelectPermissionModel => x !== undefined);
        const union = perms.length > 0 ? unionSelect(perms, t) : null;
        if (union) ownSelect[t.id] = union;
      }
      const inherited: { -readonly [K in keyof TableMutationPermissions]: TableMutationPermissions[K] } = { ...ownMutations[t.id] };
      for (const kind of ['insert', 'update', 'delete'] as const) {
        if (inherited[kind]) continue;
        const perms = role.parents.map((p) => mutations[p]?.[t.id]?.[kind]).filter((x) => x !== undefined);
        if (perms.length === 0) continue;
        if (perms.every((p) => same(p, perms[0]))) {
          (inherited as Record<string, unknown>)[kind] = perms[0];
          continue;
        }
        issues.add({ type: 'inherited role permission inconsistency', name: role.name,
          entity: { permission_type: kind, source: t.source, table: t.name },
          reason: `Could not inherit permission for the role '${role.name}' for the entity: '${kind} permission, table: ${t.name}, source: '${t.source}''` });
      }
      if (Object.keys(inherited).length > 0) ownMutations[t.id] = inherited;
    }
  };
  for (const role of defs.values()) resolve(role, new Set());
}
