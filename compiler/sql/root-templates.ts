// Every role's root fields precompiled (DESIGN.md "the bundle"): per role and query or subscription
// root field, the part of the field's statement the role fixes — its source (the table, view or
// function call) rendered for the source's dialect, the role's row filter (the permission
// template of compileTemplates), the columns it may read, its row limit and aggregation switch.
// The planner completes it with a request's selection and arguments. Identical ones are one
// object, whatever role or field has them, so a bundle writes each once.
//
// Identical is decided by identity, not by text: the filter is already one object per distinct
// predicate (compileTemplates), sources are made once per table or function, column lists are
// interned; a template's key is a few numbers. At 1,000 tables x 20 roles, keying the pool with
// each template's JSON text (its whole filter and column list, for every role and field) was a
// third of the compile.

import type { BundleModel, RootField, RootTemplate, RootTemplatesModel } from '../../runtime/bundle/index.js';
import { makeSourceTemplate, type FunctionSource, type SqlTemplate, type TableSource } from '../../runtime/sql/index.js';
import { tableDialect } from './source-dialect.js';

/**
 * The root templates of every role of `model`, whose permission templates are `model.templates`
 * (absent: none); `pool` shares them with the mutation templates' `returning`.
 */
export function compileRootTemplates(model: BundleModel, pool: RootTemplatePool = new RootTemplatePool(model), memo?: RoleTemplatesMemo): RootTemplatesModel | undefined {
  if (!model.templates) return undefined;
  // A subscription field is the query field of the same name (live queries plan it alike).
  return { roles: templatesByRole(model, (roots) => ({ ...roots?.subscription, ...roots?.query }), (role, root) => pool.of(role, root),
    memo && ((role, build) => memo('root', model, role, build))) };
}

/**
 * A role's part of the root or mutation templates: what `build` makes, or the part an earlier
 * compile made from the same inputs (the metadata API's compiles, metadata-compiler/reuse.ts), so
 * that an unchanged role's part is the same object from one compile to the next.
 */
export type RoleTemplatesMemo = <T>(kind: 'root' | 'mutation', model: BundleModel, role: string, build: () => T) => T;

/**
 * Per role, per field of `fieldsOf(roots)` in name order, the template `make` gives it (fields it
 * gives none are left out): the walk the root and mutation templates share. `memo` may give a
 * role's part from an earlier compile instead.
 */
export function templatesByRole<F, T>(model: BundleModel, fieldsOf: (roots: BundleModel['roots'][string] | undefined) => { readonly [field: string]: F },
  make: (role: string, root: F) => T | undefined,
  memo?: (role: string, build: () => { [field: string]: T }) => { [field: string]: T }): { [role: string]: { [field: string]: T } } {
  const roles: { [role: string]: { [field: string]: T } } = {};
  for (const role of model.roles) {
    const build = (): { [field: string]: T } => {
      const part: { [field: string]: T } = {};
      const fields = fieldsOf(model.roots[role]);
      for (const field of Object.keys(fields).sort()) {
        const made = make(role, fields[field]!);
        if (made !== undefined) part[field] = made;
      }
      return part;
    };
    roles[role] = memo ? memo(role, build) : build();
  }
  return roles;
}

/** Numbers for objects by identity, and for column lists by content (interned). */
export class Identities {
  private readonly objects = new Map<object, number>();
  private readonly lists = new Map<string, number>();
  private readonly listIds = new Map<readonly string[], number>();

  /** A number per distinct object (null: -1). */
  of(o: object | null): number {
    if (o === null) return -1;
    let id = this.objects.get(o);
    if (id === undefined) this.objects.set(o, (id = this.objects.size));
    return id;
  }

  /** A number per distinct list of names (equal lists, even as different arrays, have one). */
  list(names: readonly string[]): number {
    let id = this.listIds.get(names);
    if (id === undefined) {
      // Names are SQL identifiers or GraphQL names: none holds a NUL.
      const key = names.join('\u0000');
      id = this.lists.get(key);
      if (id === undefined) this.lists.set(key, (id = this.lists.size));
      this.listIds.set(names, id);
    }
    return id;
  }
}

/** Root templates of one model, each distinct one made once (compileRootTemplates, and what mutation templates return). */
export class RootTemplatePool {
  readonly ids = new Identities();
  private readonly pool = new Map<string, RootTemplate>();
  private readonly sources = new Map<string, SqlTemplate | null>();

  constructor(private readonly model: BundleModel) {}

  /** The template of `root` for `role`; undefined where it is not precompiled (no permission, or a filter the dialect cannot write: the planner reads the permission). */
  of(role: string, root: RootField): RootTemplate | undefined {
    const perm = this.model.select[role]?.[root.table];
    const filter = this.model.templates?.roles[role]?.[root.table]?.select;
    if (!perm || filter === undefined) return undefined;
    const source = this.source(root);
    if (source === null) return undefined;
    const key = `${root.table}\u0000${this.ids.of(source)}\u0000${this.ids.of(filter)}\u0000${this.ids.list(perm.columns)}\u0000${perm.limit}\u0000${perm.allowAggregations ? 1 : 0}`;
    let hit = this.pool.get(key);
    if (!hit) {
      hit = { dialect: source.dialect, table: root.table, source, filter, columns: perm.columns, limit: perm.limit, aggregations: perm.allowAggregations };
      this.pool.set(key, hit);
    }
    return hit;
  }

  /** The FROM item of a root field, made once per table or function. */
  source(root: RootField): SqlTemplate | null {
    const key = root.kind === 'function' || root.kind === 'function_aggregate' ? `f\u0000${root.function}` : `t\u0000${root.table}`;
    let source = this.sources.get(key);
    if (source === undefined) this.sources.set(key, (source = sourceTemplate(this.model, root)));
    return source;
  }
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
