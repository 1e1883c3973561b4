// Every role's permission predicates precompiled (DESIGN.md "the bundle"): per role and table, the
// select filter, the insert check, the update filter and check and the delete filter, each lowered by the planners' own lowering and rendered for the table's source's dialect
// into a template (runtime/sql/template.ts). Identical templates are one object, whatever role has
// them, so a bundle writes each once.

import { PERMISSION_RULES, permissionRule, type BundleModel, type PermissionRule, type PermissionTemplates, type TemplatesModel } from '../../runtime/bundle/index.js';
import { boolCond, type PlanContext } from '../../runtime/graphql/index.js';
import { Alias, makeTemplate, type SqlTemplate } from '../../runtime/sql/index.js';
import { tableDialect } from './source-dialect.js';

/** The templates of every role of `model` (a pure function of the model: the same model gives equal templates). */
export function compileTemplates(model: BundleModel): TemplatesModel {
  const pool = new Map<string, SqlTemplate>();
  const once = (t: SqlTemplate): SqlTemplate => {
    const key = JSON.stringify(t);
    const hit = pool.get(key);
    if (hit) return hit;
    pool.set(key, t);
    return t;
  };
  const roles: { [role: string]: { [table: string]: PermissionTemplates } } = {};
  for (const role of model.roles) {
    const part: { [table: string]: PermissionTemplates } = {};
    const tables = [...new Set([...Object.keys(model.select[role] ?? {}), ...Object.keys(model.mutations?.[role] ?? {})])].sort();
    for (const table of tables) {
      const dialect = tableDialect(model, table);
      const ctx: PlanContext = { model, role, dialect, stringifyNumeric: model.options.stringifyNumeric,
        fragments: new Map(), hints: { valueSensitive: false }, variables: {}, structural: new Set() };
      const row = new Alias(model.tables[table]?.name ?? 't');
      const templates: { [rule in PermissionRule]?: SqlTemplate | null } = {};
      for (const rule of PERMISSION_RULES) {
        const ir = permissionRule(model, role, table, rule);
        if (ir === undefined) continue;
        let made: SqlTemplate | null | undefined;
        try {
          const cond = boolCond(ir, row, ctx);
          // Hasura's "null operand is no condition" as the whole filter: renderers drop it from a
          // conjunction (SQL Server) where a template would stay; left to the planner's lowering.
          made = cond.kind === 'true' ? null : cond.kind === 'no_condition' ? undefined : once(makeTemplate(cond, row, row, dialect));
        } catch {
          // A predicate the dialect cannot write (an operator BigQuery lacks): not precompiled, so a
          // request that reaches it gets the planner's or the renderer's own error, as without templates.
          made = undefined;
        }
        if (made !== undefined) templates[rule] = made;
      }
      part[table] = templates;
    }
    roles[role] = part;
  }
  return { roles };
}
