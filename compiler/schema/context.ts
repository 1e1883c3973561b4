// The state one role's schema is built from: the model, the role's permissions, and a cache
// that makes every GraphQL type name map to exactly one type object within that role.

import type { GraphQLNamedType } from 'graphql';
import type {
  BundleModel, ColumnModel, ComputedFieldModel, FunctionArgModel, RelationshipModel, SelectPermissionModel, TableId, TableModel,
} from '../../runtime/bundle/index.js';

export interface SchemaContext {
  readonly model: BundleModel;
  readonly role: string;
  readonly perms: { readonly [id: TableId]: SelectPermissionModel };
  /** `<t>_enum` type name -> the enum table behind it. */
  readonly enumTables: ReadonlyMap<string, TableModel>;
  /** Tables whose object type `<t>` has at least one field for this role. */
  readonly nonEmptyObjects: ReadonlySet<TableId>;
  /** Tables whose `<t>_order_by` has at least one field for this role. */
  readonly nonEmptyOrderBys: ReadonlySet<TableId>;
  readonly types: Map<string, GraphQLNamedType>;
  /**
   * The fields of each `<function>_args` input: a function tracked as a root field and also used
   * as a computed field shares the name, so the one type takes the arguments of both (the
   * computed field's lack the table-row argument).
   */
  readonly functionArgs: Map<string, FunctionArgModel[]>;
}

export function createContext(model: BundleModel, role: string): SchemaContext {
  const perms = model.select[role] ?? {};
  const enumTables = new Map<string, TableModel>();
  for (const t of Object.values(model.tables)) if (t.enumValues) enumTables.set(`${t.typeName}_enum`, t);
  const base = { model, role, perms, enumTables, types: new Map<string, GraphQLNamedType>(), functionArgs: new Map<string, FunctionArgModel[]>() };
  return { ...base, nonEmptyObjects: objectFixpoint(base), nonEmptyOrderBys: orderByFixpoint(base) };
}

/** The one type object of `name` for this role, created on first use. */
export function named<T extends GraphQLNamedType>(ctx: SchemaContext, name: string, create: () => T): T {
  const existing = ctx.types.get(name);
  if (existing) return existing as T;
  const created = create();
  ctx.types.set(name, created);
  return created;
}

export function tableOf(ctx: Pick<SchemaContext, 'model'>, id: TableId): TableModel {
  const t = ctx.model.tables[id];
  if (!t) throw new Error(`schema: unknown table ${id}`);
  return t;
}

export function canSelect(ctx: Pick<SchemaContext, 'perms'>, id: TableId): boolean {
  return ctx.perms[id] !== undefined;
}

export function permOf(ctx: Pick<SchemaContext, 'perms'>, id: TableId): SelectPermissionModel {
  const p = ctx.perms[id];
  if (!p) throw new Error(`schema: no select permission on ${id}`);
  return p;
}

export function canAggregate(ctx: Pick<SchemaContext, 'perms'>, id: TableId): boolean {
  return ctx.perms[id]?.allowAggregations === true;
}

/** The columns the role may read, in table order. */
export function visibleColumns(ctx: Pick<SchemaContext, 'perms'>, t: TableModel): ColumnModel[] {
  const p = ctx.perms[t.id];
  if (!p) return [];
  const allowed = new Set(p.columns);
  return t.columns.filter((c) => allowed.has(c.name));
}

/**
 * Computed fields the role may read: scalar ones listed in the permission's `computed_fields`,
 * table ones whenever the role may read the table they return (Hasura v2 derives their
 * permission from that table's; runtime/graphql/context.ts computedFieldOf is the same rule).
 */
export function visibleComputedFields(ctx: Pick<SchemaContext, 'perms'>, t: TableModel): ComputedFieldModel[] {
  const p = ctx.perms[t.id];
  if (!p) return [];
  const allowed = new Set(p.computedFields);
  return t.computedFields.filter((cf) => (cf.returns.kind === 'scalar' ? allowed.has(cf.name) : canSelect(ctx, cf.returns.table)));
}

/** Relationships whose target the role may read. */
export function visibleRelationships(ctx: Pick<SchemaContext, 'perms'>, t: TableModel): RelationshipModel[] {
  return t.relationships.filter((r) => canSelect(ctx, r.target));
}

type BaseContext = Pick<SchemaContext, 'model' | 'perms'>;

// An object type needs a field: columns and scalar computed fields give one directly; a
// relationship or table computed field gives one when its target's type itself has a field.
// Hasura would emit an empty type here, which graphql-js refuses, so such types are left out.
function objectFixpoint(ctx: BaseContext): Set<TableId> {
  return fixpoint(ctx, (t, done) =>
    visibleColumns(ctx, t).length > 0
    || visibleComputedFields(ctx, t).some((cf) => cf.returns.kind === 'scalar' || done.has(cf.returns.table))
    || visibleRelationships(ctx, t).some((r) => done.has(r.target) || (r.kind === 'array' && canAggregate(ctx, r.target))));
}

function orderByFixpoint(ctx: BaseContext): Set<TableId> {
  return fixpoint(ctx, (t, done) =>
    visibleColumns(ctx, t).length > 0
    || visibleComputedFields(ctx, t).some((cf) => cf.args.length === 0
      && (cf.returns.kind === 'scalar' || (cf.returns.set && canAggregate(ctx, cf.returns.table))))
    || visibleRelationships(ctx, t).some((r) => r.kind === 'object' ? done.has(r.target) : canAggregate(ctx, r.target)));
}

function fixpoint(ctx: BaseContext, has: (t: TableModel, done: ReadonlySet<TableId>) => boolean): Set<TableId> {
  const done = new Set<TableId>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const id of Object.keys(ctx.perms)) {
      const t = ctx.model.tables[id];
      if (t && !done.has(id) && has(t, done)) {
        done.add(id);
        changed = true;
      }
    }
  }
  return done;
}

/** How Hasura names a table or function in descriptions: `name`, or `schema.name` outside `public`. */
export function qualifiedName(o: { readonly schema: string; readonly name: string }): string {
  return o.schema === 'public' ? o.name : `${o.schema}.${o.name}`;
}

/** A comment as a description: null gives the default, an empty string removes it. */
export function describe(comment: string | null | undefined, fallback?: string): string | undefined {
  if (comment === '') return undefined;
  return comment ?? fallback;
}

/** Hasura lists fields, arguments and enum values sorted by name. */
export function sortByKey<T>(entries: Iterable<readonly [string, T]>): { [key: string]: T } {
  const list = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const out: { [key: string]: T } = {};
  for (const [k, v] of list) out[k] = v;
  return out;
}

/** Whether `<t>` exists for the role: a type with no field is invalid GraphQL, so it is left out with every field returning it. */
export function hasObjectType(ctx: SchemaContext, t: TableModel): boolean {
  return ctx.nonEmptyObjects.has(t.id);
}
