import type { BundleModel, ColumnModel, ComputedFieldModel, SelectPermissionModel, TableModel } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { Dialect, RenderHints, Source } from '../sql/index.js';
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
}

/** The rows of table `t`: the table itself, or what `ctx.relations` puts in its place. */
export function sourceOf(ctx: PlanContext, t: TableModel): Source {
  return ctx.relations?.get(t.id) ?? tableSource(t);
}

/** The table itself as a row source. */
export function tableSource(t: TableModel): Source {
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
  return p;
}

/** A table of the model. */
export function tableOf(ctx: PlanContext, id: string): TableModel {
  const t = ctx.model.tables[id];
  if (!t) throw new Error(`assertion failed: unknown table ${id}`);
  return t;
}

/** The column behind a GraphQL field name, when the role may read it. */
export function columnByField(ctx: PlanContext, t: TableModel, field: string): ColumnModel | undefined {
  const perm = ctx.model.select[ctx.role]?.[t.id];
  const c = t.columns.find((x) => x.field === field);
  return c && perm?.columns.includes(c.name) ? c : undefined;
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
