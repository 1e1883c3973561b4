// Every role's permission predicates precompiled (DESIGN.md "the bundle"): per role and table, the
// select filter lowered by the planners' own lowering and rendered for the table's source's dialect
// into a template (runtime/sql/template.ts). Identical templates are one object, whatever role has
// them, so a bundle writes each once.

import type { BundleModel, PermissionTemplates, TemplatesModel } from '../../runtime/bundle/index.js';
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
    for (const [table, perm] of Object.entries(model.select[role] ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const dialect = tableDialect(model, table);
      const ctx: PlanContext = { model, role, dialect, stringifyNumeric: model.options.stringifyNumeric,
        fragments: new Map(), hints: { valueSensitive: false }, variables: {}, structural: new Set() };
      const row = new Alias(model.tables[table]?.name ?? 't');
      const cond = boolCond(perm.filter, row, ctx);
      if (cond.kind === 'true') { part[table] = { select: null }; continue; }
      let template: SqlTemplate;
      try {
        template = makeTemplate(cond, row, row, dialect);
      } catch {
        // A predicate the dialect cannot write (an operator BigQuery lacks): not precompiled, so a
        // request that reaches it gets the renderer's own error, as without templates.
        part[table] = {};
        continue;
      }
      part[table] = { select: once(template) };
    }
    roles[role] = part;
  }
  return { roles };
}
