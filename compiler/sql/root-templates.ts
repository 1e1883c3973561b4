// Every role's root fields precompiled (DESIGN.md "the bundle"): per role and query or subscription
// root field, the part of the field's statement the role fixes — its source (the table, view or
// function call) rendered for the source's dialect, the role's row filter (the permission
// template of compileTemplates), the columns it may read, its row limit and aggregation switch.
// The planner completes it with a request's selection and arguments. Identical ones are one
// object, whatever role or field has them, so a bundle writes each once.

import type { BundleModel, RootField, RootTemplate, RootTemplatesModel } from '../../runtime/bundle/index.js';
import { makeSourceTemplate, type FunctionSource, type SqlTemplate, type TableSource } from '../../runtime/sql/index.js';
import { tableDialect } from './source-dialect.js';

/** The root templates of every role of `model`, whose permission templates are `model.templates` (absent: none). */
export function compileRootTemplates(model: BundleModel): RootTemplatesModel | undefined {
  if (!model.templates) return undefined;
  const pool = new Map<string, RootTemplate>();
  const sources = new Map<string, SqlTemplate | null>();
  const roles: { [role: string]: { [field: string]: RootTemplate } } = {};
  for (const role of model.roles) {
    const part: { [field: string]: RootTemplate } = {};
    const roots = model.roots[role];
    // A subscription field is the query field of the same name (live queries plan it alike).
    const fields = { ...roots?.subscription, ...roots?.query };
    for (const field of Object.keys(fields).sort()) {
      const root = fields[field]!;
      const perm = model.select[role]?.[root.table];
      const filter = model.templates.roles[role]?.[root.table]?.select;
      // Not precompiled (no permission, or a filter the dialect cannot write): the planner reads the permission.
      if (!perm || filter === undefined) continue;
      const sourceKey = root.kind === 'function' || root.kind === 'function_aggregate' ? `f\u0000${root.function}` : `t\u0000${root.table}`;
      let source = sources.get(sourceKey);
      if (source === undefined) sources.set(sourceKey, (source = sourceTemplate(model, root)));
      if (source === null) continue;
      const made: RootTemplate = { dialect: source.dialect, table: root.table, source, filter, columns: perm.columns, limit: perm.limit, aggregations: perm.allowAggregations };
      const key = JSON.stringify(made);
      let hit = pool.get(key);
      if (!hit) pool.set(key, (hit = made));
      part[field] = hit;
    }
    roles[role] = part;
  }
  return { roles };
}

// The FROM item of a root field: its table, or its function with a slot for the arguments; null
// where the dialect cannot read rows so (BigQuery functions), left to the planner's own error.
function sourceTemplate(model: BundleModel, root: RootField): SqlTemplate | null {
  const dialect = tableDialect(model, root.table);
  let from: TableSource | FunctionSource;
  if (root.kind === 'function' || root.kind === 'function_aggregate') {
    const fn = model.functions[root.function];
    if (!fn) return null;
    from = { kind: 'function', call: { kind: 'call', fn: { schema: fn.schema, name: fn.name }, args: [] } };
  } else {
    const t = model.tables[root.table];
    if (!t) return null;
    from = { kind: 'table', table: { schema: t.schema, name: t.name } };
  }
  try {
    return makeSourceTemplate(from, dialect);
  } catch {
    return null;
  }
}
