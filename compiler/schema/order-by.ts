// `order_by` types: the shared `order_by` enum, `<t>_order_by` per table and, for ordering by
// an array relationship's aggregates, `<t>_aggregate_order_by` with `<t>_<fn>_order_by` groups.

import { GraphQLEnumType, GraphQLInputObjectType, type GraphQLInputFieldConfig } from 'graphql';
import type { TableModel } from '../../runtime/bundle/index.js';
import { typeNameOf } from '../../runtime/bundle/index.js';
import { aggregateGroups } from './aggregate-groups.js';
import {
  canAggregate, named, qualifiedName, sortByKey, tableOf, visibleColumns, visibleComputedFields, visibleRelationships,
  type SchemaContext,
} from './context.js';

/** The `order_by` enum; `asc` is `ASC NULLS LAST` and `desc` is `DESC NULLS FIRST`, Postgres' defaults. */
export function orderByEnum(ctx: SchemaContext): GraphQLEnumType {
  return named(ctx, 'order_by', () => new GraphQLEnumType({
    name: 'order_by',
    description: 'column ordering options',
    values: {
      asc: { value: 'asc', description: 'in ascending order, nulls last' },
      asc_nulls_first: { value: 'asc_nulls_first', description: 'in ascending order, nulls first' },
      asc_nulls_last: { value: 'asc_nulls_last', description: 'in ascending order, nulls last' },
      desc: { value: 'desc', description: 'in descending order, nulls first' },
      desc_nulls_first: { value: 'desc_nulls_first', description: 'in descending order, nulls first' },
      desc_nulls_last: { value: 'desc_nulls_last', description: 'in descending order, nulls last' },
    },
  }));
}

/** Whether `<t>_order_by` exists for the role (it would have no field otherwise). */
export function hasOrderBy(ctx: SchemaContext, t: TableModel): boolean {
  return ctx.nonEmptyOrderBys.has(t.id);
}

/** `<t>_order_by`: columns, argument-less computed fields, object relationships nested, array relationships and set-returning computed fields by aggregate. */
export function orderByType(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType {
  const name = typeNameOf(t, '_order_by');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `Ordering options when selecting data from "${qualifiedName(t)}".`,
    fields: () => sortByKey(orderByFields(ctx, t)),
  }));
}

function orderByFields(ctx: SchemaContext, t: TableModel): [string, GraphQLInputFieldConfig][] {
  const order = orderByEnum(ctx);
  const fields: [string, GraphQLInputFieldConfig][] = visibleColumns(ctx, t).map((c) => [c.field, { type: order }]);
  // Computed fields without user arguments: scalar ones by value, set-returning ones by the
  // aggregates of their rows (`<cf>_aggregate`), as array relationships are.
  for (const cf of visibleComputedFields(ctx, t)) {
    if (cf.args.length > 0) continue;
    if (cf.returns.kind === 'scalar') fields.push([cf.name, { type: order }]);
    else if (cf.returns.set && canAggregate(ctx, cf.returns.table)) {
      fields.push([`${cf.name}_aggregate`, { type: aggregateOrderByType(ctx, tableOf(ctx, cf.returns.table)) }]);
    }
  }
  for (const r of visibleRelationships(ctx, t)) {
    const target = tableOf(ctx, r.target);
    if (r.kind === 'object' && hasOrderBy(ctx, target)) fields.push([r.name, { type: orderByType(ctx, target) }]);
    if (r.kind === 'array' && canAggregate(ctx, r.target)) {
      fields.push([`${r.name}_aggregate`, { type: aggregateOrderByType(ctx, target) }]);
    }
  }
  return fields;
}

/** `<t>_aggregate_order_by`: `count` plus one group per aggregate function that has columns. */
export function aggregateOrderByType(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType {
  const name = typeNameOf(t, '_aggregate_order_by');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `order by aggregate values of table "${qualifiedName(t)}"`,
    fields: () => {
      const fields: [string, GraphQLInputFieldConfig][] = [['count', { type: orderByEnum(ctx) }]];
      for (const g of aggregateGroups(ctx, t)) fields.push([g.fn, { type: groupOrderByType(ctx, t, g.fn) }]);
      return sortByKey(fields);
    },
  }));
}

function groupOrderByType(ctx: SchemaContext, t: TableModel, fn: string): GraphQLInputObjectType {
  const name = typeNameOf(t, `_${fn}_order_by`);
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `order by ${fn}() on columns of table "${qualifiedName(t)}"`,
    fields: () => {
      const columns = aggregateGroups(ctx, t).find((g) => g.fn === fn)?.columns ?? [];
      return sortByKey(columns.map((c) => [c.field, { type: orderByEnum(ctx) }]));
    },
  }));
}
