// Arguments shared by everything that selects rows (root fields, array relationships, table
// computed fields, functions): distinct_on, limit, offset, order_by, where; the
// `<t>_select_column` enum; and the `<fn>_args` inputs of functions.

import {
  GraphQLEnumType, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull,
  type GraphQLArgumentConfig, type GraphQLEnumValueConfig, type GraphQLFieldConfigArgumentMap,
} from 'graphql';
import type { FunctionArgModel, TableModel } from '../../runtime/bundle/index.js';
import { typeNameOf } from '../../runtime/bundle/index.js';
import { boolExpType } from './bool-exp.js';
import { named, qualifiedName, sortByKey, visibleColumns, type SchemaContext } from './context.js';
import { hasOrderBy, orderByType } from './order-by.js';
import { scalarType } from './scalars.js';
import { featuresOf } from './dialect-features.js';

/** `<t>_select_column`, or null when the role can read no column (Hasura makes no empty enum). */
export function selectColumnEnum(ctx: SchemaContext, t: TableModel): GraphQLEnumType | null {
  const columns = visibleColumns(ctx, t);
  if (columns.length === 0) return null;
  const name = typeNameOf(t, '_select_column');
  return named(ctx, name, () => new GraphQLEnumType({
    name,
    description: `select columns of table "${qualifiedName(t)}"`,
    values: sortByKey(columns.map((c): [string, GraphQLEnumValueConfig] => [c.field, { value: c.field, description: 'column name' }])),
  }));
}

/** The five select arguments for rows of `t`, each present when its type exists for the role. */
export function selectArgs(ctx: SchemaContext, t: TableModel): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {};
  const columns = selectColumnEnum(ctx, t);
  if (columns && featuresOf(ctx, t).distinctOn) {
    args['distinct_on'] = { type: new GraphQLList(new GraphQLNonNull(columns)), description: 'distinct select on columns' };
  }
  args['limit'] = { type: GraphQLInt, description: 'limit the number of rows returned' };
  args['offset'] = { type: GraphQLInt, description: 'skip the first n rows. Use only with order_by' };
  if (hasOrderBy(ctx, t)) {
    args['order_by'] = { type: new GraphQLList(new GraphQLNonNull(orderByType(ctx, t))), description: 'sort the rows by one or more columns' };
  }
  args['where'] = { type: boolExpType(ctx, t), description: 'filter the rows returned' };
  return args;
}

/** What the `args` argument of a function or computed field is built from. */
export interface FunctionArgsSpec {
  /** The input type's name, `<function>_args`. */
  readonly typeName: string;
  /** The user arguments (session and table-row arguments already removed). */
  readonly args: readonly FunctionArgModel[];
  readonly description: string;
}

/**
 * The `args` argument, or null when there is no user argument. Its fields are all optional:
 * Hasura checks missing non-default arguments itself (`Non default arguments cannot be
 * omitted`, not-supported). `args` itself is required, even when every argument has a default:
 * Hasura reads it with `P.field` over the `<function>_args` object (Schema/Select.hs and
 * Backends/Postgres/Instances/Schema.hs `functionArgs`), so it may not be left out or null.
 */
export function functionArgsArg(ctx: SchemaContext, spec: FunctionArgsSpec): GraphQLArgumentConfig | null {
  if (spec.args.length === 0) return null;
  const merged = ctx.functionArgs.get(spec.typeName) ?? [];
  for (const a of spec.args) if (!merged.some((m) => m.name === a.name)) merged.push(a);
  ctx.functionArgs.set(spec.typeName, merged);
  const input = named(ctx, spec.typeName, () => new GraphQLInputObjectType({
    name: spec.typeName,
    fields: () => sortByKey(merged.map((a) => [a.name, { type: scalarType(ctx, a.scalar) }])),
  }));
  return { type: new GraphQLNonNull(input), description: spec.description };
}

/** `<name>_args` for a function named in the model (schema-prefixed outside `public`, as table types are). */
export function functionArgsTypeName(fn: { readonly schema: string; readonly name: string }): string {
  return `${fn.schema === 'public' ? fn.name : `${fn.schema}_${fn.name}`}_args`;
}

/** Select arguments plus `args` when the function has user arguments, sorted by name. */
export function withFunctionArgs(ctx: SchemaContext, base: GraphQLFieldConfigArgumentMap, spec: FunctionArgsSpec): GraphQLFieldConfigArgumentMap {
  const fnArgs = functionArgsArg(ctx, spec);
  const entries = Object.entries(base);
  if (fnArgs) entries.push(['args', fnArgs]);
  return sortByKey(entries);
}
