import type { BundleModel, ColumnModel, ComputedFieldModel, MutationTemplate, RootTemplate, SelectPermissionModel, TableModel } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { Dialect, RenderHints, Source, TableSource } from '../sql/index.js';
import type { InputContext } from './input.js';

/** Everything planning one operation for one role reads. */
export interface PlanContext extends InputContext {
  readonly model: BundleModel;
  readonly role: string;
  readonly dialect: Dialect;
  readonly stringifyNumeric: boolean;
  readonly fragments: ReadonlyMap<string, import('graphql').FragmentDefinitionNode>;
  /** What planning learned about the statement (mutable, one object per plan). */
  readonly hints: PlanHints;
  /**
   * Tables written earlier in the same statement (nested inserts): what to read instead of the
   * table, so relationships and checks see the rows the statement's own CTEs inserted.
   */
  readonly relations?: ReadonlyMap<string, Source>;
  /** Remote relationship fields met while planning (remote-join-site.ts); absent where they are not served. */
  readonly remoteJoins?: import('./remote-join-site.js').RemoteJoinSite[];
  /**
   * The root field's precompiled template (rootTemplateOf) while its value is planned: the role's
   * filter, columns, row limit and aggregation switch on the template's table come from it.
   */
  readonly rootTemplate?: RootTemplate;
  /**
   * The mutation root field's precompiled template (mutationTemplateOf) while its statement is
   * planned: the written table's columns, presets, checks and filters come from it.
   */
  readonly mutationTemplate?: MutationTemplate;
}

/**
 * The bundle's template of root field `field` for the context's role, when it is of the plan's
 * dialect and the plan reads tables as they are (not through rows its own statement writes).
 */
export function rootTemplateOf(ctx: PlanContext, field: string): RootTemplate | undefined {
  if (ctx.relations !== undefined) return undefined;
  const t = ctx.model.rootTemplates?.roles[ctx.role]?.[field];
  return t !== undefined && t.dialect === ctx.dialect.name ? t : undefined;
}

/** The bundle's template of mutation root field `field` for the context's role, when it is of the plan's dialect. */
export function mutationTemplateOf(ctx: PlanContext, field: string): MutationTemplate | undefined {
  const t = ctx.model.mutationTemplates?.roles[ctx.role]?.[field];
  return t !== undefined && t.dialect === ctx.dialect.name ? t : undefined;
}

/** The rows of table `t`: the table itself, or what `ctx.relations` puts in its place. */
export function sourceOf(ctx: PlanContext, t: TableModel): Source {
  return ctx.relations?.get(t.id) ?? tableSource(t);
}

/** The table itself as a row source. */
export function tableSource(t: TableModel): TableSource {
  return { kind: 'table', table: { schema: t.schema, name: t.name } };
}

/**
 * Facts about a planned statement that decide how it is run: `valueSensitive` marks a filtered,
 * ordered query with a LIMIT, whose best plan may depend on the values. A generic plan guesses a
 * parameter LIMIT at 10% of the rows (the planning bound answers that one) and a filter on a
 * parameter at a fixed selectivity, which is wrong on skewed data; the driver times the generic
 * plan against per-run plans and keeps the faster (runtime/drivers/plan-choice.ts). The renderer
 * sets it, as it writes the statement.
 */
export type PlanHints = RenderHints;

/** The role's select permission on a table; planning only reaches tables the schema exposes. */
export function permissionOf(ctx: PlanContext, table: string): SelectPermissionModel {
  const p = ctx.model.select[ctx.role]?.[table];
  if (!p) throw new ApiError('permission-denied', `no select permission on table "${table}" for role "${ctx.role}"`);
  const t = ctx.rootTemplate;
  return t?.table === table ? { ...p, columns: t.columns, limit: t.limit, allowAggregations: t.aggregations } : p;
}

/** A table of the model. */
export function tableOf(ctx: PlanContext, id: string): TableModel {
  const t = ctx.model.tables[id];
  if (!t) throw new Error(`assertion failed: unknown table ${id}`);
  return t;
}

/** The column behind a GraphQL field name, when the role may read it. */
export function columnByField(ctx: PlanContext, t: TableModel, field: string): ColumnModel | undefined {
  const columns = ctx.rootTemplate?.table === t.id ? ctx.rootTemplate.columns : ctx.model.select[ctx.role]?.[t.id]?.columns;
  const c = t.columns.find((x) => x.field === field);
  return c && columns?.includes(c.name) ? c : undefined;
}

/**
 * The computed field behind a GraphQL field name, when the role may read it. Scalar ones must be
 * in the permission's `computed_fields`; table ones follow the select permission of the table
 * they return (Hasura v2 derives them; listing one in `computed_fields` is an error).
 */
export function computedFieldOf(ctx: PlanContext, t: TableModel, field: string): ComputedFieldModel | undefined {
  const cf = t.computedFields.find((c) => c.name === field);
  if (!cf) return undefined;
  if (cf.returns.kind === 'table') return ctx.model.select[ctx.role]?.[cf.returns.table] ? cf : undefined;
  return ctx.model.select[ctx.role]?.[t.id]?.computedFields.includes(cf.name) ? cf : undefined;
}
