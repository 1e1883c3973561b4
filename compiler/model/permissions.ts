// Insert, update and delete permissions: checked against the table (a column, relationship or
// computed field they name that is not there makes them inconsistent, so dropping it shows them
// as dependents) and resolved into what the schema and the planner read.

import type {
  BoolIr, DeletePermissionModel, InsertPermissionModel, Json, PresetValue, TableModel, TableMutationPermissions,
  UpdatePermissionModel,
} from '../../runtime/bundle/index.js';
import type { IntrospectedTable } from '../introspect/index.js';
import type { Permission, TableEntry } from '../metadata/index.js';
import { resolveBoolExp, type BoolExpContext } from './bool-exp.js';
import type { Issues } from './issues.js';
import { permissionDefinition, permissionObjectName, type PermissionKind, qualifiedText } from './names.js';

type Body = { readonly [k: string]: Json };

/** The parts of a permission body every kind shares, resolved; or the reason it does not fit. */
interface Parts {
  readonly columns: readonly string[];
  readonly set: { readonly [column: string]: PresetValue };
  readonly check: BoolIr;
  readonly filter: BoolIr;
  readonly backendOnly: boolean;
}

function resolveParts(body: Body, table: TableModel, ctx: BoolExpContext): Parts | string {
  const cols = body['columns'];
  // An insert permission without `columns` allows every column (Hasura keeps that for old metadata).
  const names = cols === undefined || cols === null || cols === '*' ? table.columns.map((c) => c.name)
    : Array.isArray(cols) ? cols.filter((c): c is string => typeof c === 'string') : [];
  const missing = names.find((c) => !table.columns.some((x) => x.name === c));
  if (missing !== undefined) return `no such column exists: ${JSON.stringify(missing)}`;
  const setBody = body['set'];
  const set: { [column: string]: PresetValue } = {};
  if (setBody && typeof setBody === 'object' && !Array.isArray(setBody)) {
    for (const column of Object.keys(setBody).sort()) {
      if (!table.columns.some((x) => x.name === column)) return `no such column exists: ${JSON.stringify(column)}`;
      const v = setBody[column]!;
      set[column] = typeof v === 'string' && /^x-svc-/i.test(v) ? { kind: 'session', name: v.toLowerCase() } : { kind: 'literal', value: v };
    }
  }
  const exps: BoolIr[] = [];
  for (const key of ['check', 'filter']) {
    const r = resolveBoolExp(body[key], table, ctx);
    if (typeof r === 'string') return r;
    exps.push(r);
  }
  // Preset columns are not the client's to give: they leave the input types.
  const columns = table.columns.filter((c) => names.includes(c.name) && !(c.name in set)).map((c) => c.name);
  return { columns, set, check: exps[0]!, filter: exps[1]!, backendOnly: body['backend_only'] === true };
}

/**
 * The columns a write may give a value: not an identity column GENERATED ALWAYS nor a generated
 * column, which Hasura's table metadata marks neither insertable nor updatable (its column
 * `mutability`, pg_table_metadata.sql), so they leave the insert and update inputs.
 */
function writableColumns(table: TableModel, db: IntrospectedTable): string[] {
  const fixed = new Set(db.columns.filter((c) => c.generated === 'always' || c.generated === 'stored' || c.generated === 'virtual').map((c) => c.name));
  return table.columns.map((c) => c.name).filter((c) => !fixed.has(c));
}

/** The full permissions of `admin`, as far as the table (or view) allows writing. */
export function adminMutationPermissions(table: TableModel, db: IntrospectedTable): TableMutationPermissions {
  const all = writableColumns(table, db);
  const t: BoolIr = { kind: 'true' };
  const m = db.mutable ?? { insertable: true, updatable: true, deletable: true };
  return {
    ...(m.insertable ? { insert: { columns: all, check: t, set: {}, backendOnly: false } } : {}),
    ...(m.updatable ? { update: { columns: all, filter: t, check: t, set: {}, backendOnly: false } } : {}),
    ...(m.deletable ? { delete: { filter: t, backendOnly: false } } : {}),
  };
}

/**
 * Resolves the insert, update and delete permissions of a table by role, reporting the ones that
 * name something missing. A view that PostgreSQL cannot write through gets no such permission.
 */
export function resolveMutationPermissions(source: string, entry: TableEntry, table: TableModel, db: IntrospectedTable,
  ctx: BoolExpContext, issues: Issues): Map<string, TableMutationPermissions> {
  const out = new Map<string, { insert?: InsertPermissionModel; update?: UpdatePermissionModel; delete?: DeletePermissionModel }>();
  const m = db.mutable ?? { insertable: true, updatable: true, deletable: true };
  const lists: [PermissionKind, readonly Permission<Json>[] | undefined, boolean][] = [
    ['insert', entry.insert_permissions, m.insertable], ['update', entry.update_permissions, m.updatable],
    ['delete', entry.delete_permissions, m.deletable],
  ];
  const settable = new Set(writableColumns(table, db));
  for (const [kind, list, writable] of lists) {
    for (const p of list ?? []) {
      const body = p.permission && typeof p.permission === 'object' && !Array.isArray(p.permission) ? p.permission : {};
      const parts = resolveParts(body, table, ctx);
      if (typeof parts === 'string') {
        issues.add({
          type: `${kind}_permission`, name: permissionObjectName(kind, p.role, source, entry.table),
          definition: permissionDefinition(kind, source, entry.table, p),
          reason: `in table ${JSON.stringify(qualifiedText(entry.table))}: in permission for role ${JSON.stringify(p.role)}: ${parts}`,
        });
        continue;
      }
      if (!writable) continue;
      const perms = out.get(p.role) ?? {};
      const columns = parts.columns.filter((c) => settable.has(c));
      if (kind === 'insert') perms.insert = { columns, check: parts.check, set: parts.set, backendOnly: parts.backendOnly };
      if (kind === 'update') {
        perms.update = { columns, filter: parts.filter, check: parts.check, set: parts.set, backendOnly: parts.backendOnly };
      }
      if (kind === 'delete') perms.delete = { filter: parts.filter, backendOnly: parts.backendOnly };
      out.set(p.role, perms);
    }
  }
  return out;
}
