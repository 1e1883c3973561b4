// The role's write permissions as the planner reads them — from the mutation root field's
// precompiled template when the statement has one (its written table), else from the model — and
// preset values as IR.

import type { ColumnModel, MutationTemplate, PermissionRule, PresetSlot, PresetValue, TableModel, WriteTemplate } from '../bundle/index.js';
import type { Expr, QualifiedName, SqlTemplate, WrittenTable } from '../sql/index.js';
import type { PlanContext } from './context.js';

/** An insert or update permission as the planners use it. */
export interface WritePermission {
  /** Columns the client may give or change, in table order. */
  readonly columns: readonly string[];
  /** Column -> its preset as a parameter (the session value's slot or the constant), sorted by column. */
  readonly presets: ReadonlyMap<string, Expr>;
  /** Whether written rows are checked (false: the permission's check admits every row). */
  readonly checked: boolean;
}

/** What the role may write in one table; a missing part is a missing permission. */
export interface WritePermissions {
  readonly insert?: WritePermission;
  readonly update?: WritePermission;
  readonly delete?: true;
}

/** The role's insert/update/delete permissions on table `t` (empty when it has none). */
export function mutationPermsOf(ctx: PlanContext, t: TableModel): WritePermissions {
  const template = ctx.mutationTemplate;
  if (template?.table === t.id) return templatePerms(template);
  const perms = ctx.model.mutations?.[ctx.role]?.[t.id] ?? {};
  const model = (p: { readonly columns: readonly string[]; readonly set: { readonly [column: string]: PresetValue }; readonly check: { readonly kind: string } }): WritePermission =>
    ({ columns: p.columns, presets: new Map(Object.entries(p.set).map(([name, preset]) => [name, presetExpr(preset, t.columns.find((c) => c.name === name)!)])), checked: p.check.kind !== 'true' });
  return { ...(perms.insert ? { insert: model(perms.insert) } : {}), ...(perms.update ? { update: model(perms.update) } : {}), ...(perms.delete ? { delete: true as const } : {}) };
}

// The template's parts: its columns, its presets' slots as parameters, its checks (null: none).
function templatePerms(t: MutationTemplate): WritePermissions {
  const part = (w: WriteTemplate): WritePermission =>
    ({ columns: w.columns, presets: new Map(Object.entries(w.presets).map(([name, slot]) => [name, slotExpr(slot)])), checked: w.check !== null });
  return { ...(t.insert ? { insert: part(t.insert) } : {}), ...(t.update ? { update: part(t.update) } : {}), ...(t.delete ? { delete: true as const } : {}) };
}

/**
 * The table a write of `t` names: with the mutation template of the statement on `t`, its rendered
 * `target` (the table engine.mjs holds is the table written), else `t` itself.
 */
export function writtenTableOf(ctx: PlanContext, t: TableModel): { readonly table: QualifiedName } & WrittenTable {
  const table = { schema: t.schema, name: t.name };
  const template = ctx.mutationTemplate;
  return template?.table === t.id ? { table, template: template.target } : { table };
}

/**
 * The predicate `rule` of the context's mutation template on `table`: a template, null (no
 * condition), or undefined (the template has none: the planner reads the model). Where the
 * statement reads some tables through the rows it writes (`ctx.relations`, nested inserts), a
 * predicate that reads other rows is left to the planner's lowering, which reads them through.
 */
export function mutationRuleOf(ctx: PlanContext, table: string, rule: Exclude<PermissionRule, 'select'>): SqlTemplate | null | undefined {
  const m = ctx.mutationTemplate;
  if (m?.table !== table) return undefined;
  const t = rule === 'insertCheck' ? m.insert?.check : rule === 'updateFilter' ? m.update?.filter : rule === 'updateCheck' ? m.update?.check : m.delete?.filter;
  if (t === undefined || t === null || ctx.relations === undefined) return t;
  return t.slots.some((s) => s.kind === 'alias') ? undefined : t;
}

/** A preset (`set`) value of the column's type: a constant, or the session variable's slot. */
export function presetExpr(preset: PresetValue, c: ColumnModel): Expr {
  return { kind: 'param', value: preset.kind === 'session' ? { kind: 'session', name: preset.name } : { kind: 'literal', value: preset.value }, type: c.type };
}

// A template's preset slot as the parameter it binds.
function slotExpr(s: PresetSlot): Expr {
  return { kind: 'param', value: s.kind === 'session' ? { kind: 'session', name: s.name } : { kind: 'literal', value: s.value as never }, type: s.type };
}
