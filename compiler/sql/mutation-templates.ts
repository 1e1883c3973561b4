// Every role's mutation root fields precompiled (DESIGN.md "the bundle"), as compileRootTemplates
// does for query fields: per role and insert, update or delete field, the written table rendered
// for its source's dialect, the columns the role may give or change, its presets as parameter
// slots, its check and filter (the permission templates of compileTemplates) and what `returning`
// reads (the role's select template of the table, shared with the query fields'). A function
// exposed as a mutation has its call (with an `{arguments}` slot) as the target and the role's
// template of its rows, as a query field on a function has. The planners complete it with the
// request's arguments and selection. Identical parts and templates are one
// object, keyed by the identities of what they are made of, so a bundle writes each once.

import type {
  BundleModel, InsertPermissionModel, MutationRootField, MutationTemplate, MutationTemplatesModel, PermissionTemplates, PresetSlot, PresetValue, TableModel,
  TableMutationPermissions, UpdatePermissionModel, WriteTemplate,
} from '../../runtime/bundle/index.js';
import type { SqlTemplate } from '../../runtime/sql/index.js';
import { RootTemplatePool, templatesByRole, type RoleTemplatesMemo } from './root-templates.js';

/** The mutation templates of every role of `model`, whose permission templates are `model.templates` (absent: none). */
export function compileMutationTemplates(model: BundleModel, pool: RootTemplatePool = new RootTemplatePool(model), memo?: RoleTemplatesMemo): MutationTemplatesModel | undefined {
  if (!model.templates) return undefined;
  const made = new MutationTemplateMaker(model, pool);
  // A trusted request's mutation_root adds the `backend_only` permissions' fields to the others.
  return { roles: templatesByRole(model, (roots) => ({ ...roots?.mutation, ...roots?.backendOnlyMutation }), (role, root) => made.of(role, root),
    memo && ((role, build) => memo('mutation', model, role, build))) };
}

class MutationTemplateMaker {
  private readonly templates = new Map<string, MutationTemplate>();
  private readonly writes = new Map<string, WriteTemplate>();
  private readonly deletes = new Map<SqlTemplate | null, { readonly filter: SqlTemplate | null }>();

  constructor(private readonly model: BundleModel, private readonly pool: RootTemplatePool) {}

  /** The template of a mutation root field for `role`; undefined: not precompiled (a predicate or a function call the dialect cannot write). */
  of(role: string, root: MutationRootField): MutationTemplate | undefined {
    if (root.kind === 'function') return this.call(role, root);
    const t = this.model.tables[root.table];
    const target = this.pool.source({ kind: 'select', table: root.table });
    if (!t || target === null) return undefined;
    const perms: TableMutationPermissions = this.model.mutations?.[role]?.[root.table] ?? {};
    const rules: PermissionTemplates = this.model.templates?.roles[role]?.[root.table] ?? {};
    let parts: Pick<MutationTemplate, 'insert' | 'update' | 'delete'>;
    let backendOnly: boolean;
    switch (root.kind) {
      case 'insert': case 'insert_one': {
        if (!perms.insert) return undefined;
        const insert = this.write(t, perms.insert, null, rules.insertCheck);
        // on_conflict updates with the update permission.
        const update = perms.update ? this.write(t, perms.update, rules.updateFilter, rules.updateCheck) : null;
        if (!insert || update === undefined) return undefined;
        parts = { insert, ...(update ? { update } : {}) };
        backendOnly = perms.insert.backendOnly;
        break;
      }
      case 'update': case 'update_by_pk': case 'update_many': {
        const update = perms.update ? this.write(t, perms.update, rules.updateFilter, rules.updateCheck) : undefined;
        if (!update) return undefined;
        parts = { update };
        backendOnly = perms.update!.backendOnly;
        break;
      }
      case 'delete': case 'delete_by_pk': {
        const filter = rules.deleteFilter;
        if (!perms.delete || filter === undefined) return undefined;
        let del = this.deletes.get(filter);
        if (!del) this.deletes.set(filter, (del = { filter }));
        parts = { delete: del };
        backendOnly = perms.delete.backendOnly;
        break;
      }
    }
    const returning = this.pool.of(role, { kind: 'select', table: root.table }) ?? null;
    const ids = this.pool.ids;
    const key = `${root.table}\u0000${ids.of(parts.insert ?? null)}\u0000${ids.of(parts.update ?? null)}\u0000${ids.of(parts.delete ?? null)}\u0000${backendOnly ? 1 : 0}\u0000${ids.of(returning)}`;
    let hit = this.templates.get(key);
    if (!hit) this.templates.set(key, (hit = { dialect: target.dialect, table: root.table, target, ...parts, backendOnly, returning }));
    return hit;
  }

  // A function exposed as a mutation: its call and the role's template of its rows, the query
  // function root's (one object per function and role's select template); undefined where the
  // role may not read the rows or the dialect cannot call the function so.
  private call(role: string, root: MutationRootField): MutationTemplate | undefined {
    if (root.function === undefined) return undefined;
    const returning = this.pool.of(role, { kind: 'function', function: root.function, table: root.table });
    if (!returning) return undefined;
    const key = `f\u0000${root.function}\u0000${this.pool.ids.of(returning)}`;
    let hit = this.templates.get(key);
    if (!hit) {
      hit = { dialect: returning.dialect, table: root.table, target: returning.source, function: root.function, backendOnly: false, returning };
      this.templates.set(key, hit);
    }
    return hit;
  }

  // An insert permission's part (`filter` null: it has none) or an update permission's; undefined
  // where a predicate is not precompiled.
  private write(t: TableModel, perm: InsertPermissionModel | UpdatePermissionModel, filter: SqlTemplate | null | undefined,
    check: SqlTemplate | null | undefined): WriteTemplate | undefined {
    const update = 'filter' in perm;
    if (check === undefined || filter === undefined) return undefined;
    const presets: { [column: string]: PresetSlot } = {};
    for (const [column, preset] of Object.entries(perm.set)) presets[column] = presetSlot(preset, t.columns.find((c) => c.name === column)?.type ?? null);
    const ids = this.pool.ids;
    // Presets are few (most permissions have none): their text is a short key.
    const presetKey = Object.keys(presets).length === 0 ? '' : JSON.stringify(presets);
    const key = `${update ? 'u' : 'i'}\u0000${ids.list(perm.columns)}\u0000${presetKey}\u0000${ids.of(filter)}\u0000${ids.of(check)}`;
    let hit = this.writes.get(key);
    if (!hit) this.writes.set(key, (hit = { columns: perm.columns, presets, ...(update ? { filter } : {}), check }));
    return hit;
  }
}

// A preset as the slot the planner binds: the session value, or the constant, as a parameter of the column's type.
function presetSlot(preset: PresetValue, type: string | null): PresetSlot {
  return preset.kind === 'session' ? { kind: 'session', name: preset.name, type } : { kind: 'literal', value: preset.value, type };
}
