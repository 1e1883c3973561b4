// Aggregate output types: `<t>_aggregate { aggregate nodes }`, `<t>_aggregate_fields` and the
// per-function `<t>_<fn>_fields` (reference/schema.md §3).

import {
  GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType,
  type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap,
} from 'graphql';
import type { TableModel } from '../../runtime/bundle/index.js';
import { typeNameOf } from '../../runtime/bundle/index.js';
import { aggregateGroups, type AggregateFunction } from './aggregate-groups.js';
import { describe, hasObjectType, named, qualifiedName, sortByKey, type SchemaContext } from './context.js';
import { scalarType } from './scalars.js';
import { selectColumnEnum } from './select-args.js';

type Fields = [string, GraphQLFieldConfig<unknown, unknown>][];

/**
 * `<t>_aggregate`; `nodes` (of `node()`, the object type `<t>`) is left out when the role can read
 * no field of `<t>`. The caller passes `<t>` because `<t>` refers back here through its
 * array relationships' aggregates, and files must not import each other in a loop.
 */
export function aggregateType(ctx: SchemaContext, t: TableModel, node: () => GraphQLObjectType): GraphQLObjectType {
  const name = typeNameOf(t, '_aggregate');
  return named(ctx, name, () => new GraphQLObjectType({
    name,
    description: `aggregated selection of "${qualifiedName(t)}"`,
    fields: () => {
      const fields: Fields = [['aggregate', { type: aggregateFieldsType(ctx, t) }]];
      if (hasObjectType(ctx, t)) {
        fields.push(['nodes', { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(node()))) }]);
      }
      return sortByKey(fields);
    },
  }));
}

function aggregateFieldsType(ctx: SchemaContext, t: TableModel): GraphQLObjectType {
  const name = typeNameOf(t, '_aggregate_fields');
  return named(ctx, name, () => new GraphQLObjectType({
    name,
    description: `aggregate fields of "${qualifiedName(t)}"`,
    fields: () => {
      const fields: Fields = [['count', { type: new GraphQLNonNull(GraphQLInt), args: countArgs(ctx, t) }]];
      for (const g of aggregateGroups(ctx, t)) fields.push([g.fn, { type: groupFieldsType(ctx, t, g.fn) }]);
      return sortByKey(fields);
    },
  }));
}

// A role that can read no column counts rows only: `count` then has no `columns` argument
// (corpus: graphql_query/agg_perm/article_agg_with_role_without_select_access).
function countArgs(ctx: SchemaContext, t: TableModel): GraphQLFieldConfigArgumentMap {
  const columns = selectColumnEnum(ctx, t);
  const args: GraphQLFieldConfigArgumentMap = {};
  if (columns) args['columns'] = { type: new GraphQLList(new GraphQLNonNull(columns)) };
  args['distinct'] = { type: GraphQLBoolean };
  return args;
}

function groupFieldsType(ctx: SchemaContext, t: TableModel, fn: AggregateFunction): GraphQLObjectType {
  const name = typeNameOf(t, `_${fn}_fields`);
  return named(ctx, name, () => new GraphQLObjectType({
    name,
    description: `aggregate ${fn} on columns`,
    fields: () => {
      const columns = aggregateGroups(ctx, t).find((g) => g.fn === fn)?.columns ?? [];
      // sum, max and min keep the column's type; the statistics are Float.
      const keepsType = fn === 'sum' || fn === 'max' || fn === 'min';
      return sortByKey(columns.map((c) => [c.field, {
        type: keepsType ? scalarType(ctx, c.scalar, c.category) : GraphQLFloat,
        description: describe(c.comment),
      }]));
    },
  }));
}
