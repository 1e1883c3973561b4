// Root fields that read rows: `<t>`, `<t>_by_pk`, `<t>_aggregate`, and tracked functions with
// their `_aggregate` (reference/schema.md §1, §9). Used by query_root and subscription_root.

import { GraphQLNonNull, type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap } from 'graphql';
import type { FunctionModel, RootField, TableModel } from '../../runtime/bundle/index.js';
import { aggregateType } from './aggregate.js';
import { canAggregate, canSelect, describe, hasObjectType, qualifiedName, sortByKey, tableOf, visibleColumns, type SchemaContext } from './context.js';
import { objectType, rowsType } from './object-type.js';
import { scalarType } from './scalars.js';
import { functionArgsTypeName, selectArgs, withFunctionArgs, type FunctionArgsSpec } from './select-args.js';

export type RootFieldConfig = GraphQLFieldConfig<unknown, unknown>;

/** Builds one root field of a kind; null when the role's permissions leave nothing to return. */
export type RootFieldBuilder<K extends RootField['kind']> =
  (ctx: SchemaContext, field: Extract<RootField, { kind: K }>) => RootFieldConfig | null;

type SelectKind = 'select' | 'select_by_pk' | 'select_aggregate' | 'function' | 'function_aggregate';

/** Builders for the row-reading root field kinds. */
export const selectRootBuilders: { readonly [K in SelectKind]: RootFieldBuilder<K> } = {
  select: (ctx, f) => {
    const t = readable(ctx, f.table);
    if (!t || !hasObjectType(ctx, t)) return null;
    return { type: rowsType(ctx, t), args: selectArgs(ctx, t), description: tableFieldDescription(t, 'select') };
  },
  select_by_pk: (ctx, f) => {
    const t = readable(ctx, f.table);
    if (!t || !hasObjectType(ctx, t)) return null;
    const args = primaryKeyArgs(ctx, t);
    return args ? { type: objectType(ctx, t), args, description: tableFieldDescription(t, 'select_by_pk') } : null;
  },
  select_aggregate: (ctx, f) => {
    const t = aggregatable(ctx, f.table);
    if (!t) return null;
    return { type: new GraphQLNonNull(aggregateType(ctx, t, () => objectType(ctx, t))), args: selectArgs(ctx, t), description: tableFieldDescription(t, 'select_aggregate') };
  },
  function: (ctx, f) => {
    const t = readable(ctx, f.table);
    const fn = ctx.model.functions[f.function];
    if (!t || !fn || !hasObjectType(ctx, t)) return null;
    const description = describe(fn.comment, `execute function "${qualifiedName(fn)}" which returns "${qualifiedName(t)}"`);
    return { ...functionField(ctx, fn, t), description };
  },
  function_aggregate: (ctx, f) => {
    const t = aggregatable(ctx, f.table);
    const fn = ctx.model.functions[f.function];
    if (!t || !fn) return null;
    const description = describe(fn.comment,
      `execute function "${qualifiedName(fn)}" and query aggregates on result of table type "${qualifiedName(t)}"`);
    return { type: new GraphQLNonNull(aggregateType(ctx, t, () => objectType(ctx, t))), args: functionFieldArgs(ctx, fn, t), description };
  },
};

function readable(ctx: SchemaContext, id: string): TableModel | null {
  return canSelect(ctx, id) ? tableOf(ctx, id) : null;
}

function aggregatable(ctx: SchemaContext, id: string): TableModel | null {
  return canAggregate(ctx, id) ? tableOf(ctx, id) : null;
}

const defaultDescriptions: { readonly [key: string]: (table: string) => string } = {
  select: (table) => `fetch data from the table: "${table}"`,
  select_by_pk: (table) => `fetch data from the table: "${table}" using primary key columns`,
  select_aggregate: (table) => `fetch aggregated fields from the table: "${table}"`,
};

// A `custom_root_fields` comment replaces the default; an empty one removes it.
function tableFieldDescription(t: TableModel, key: string): string | undefined {
  return describe(t.rootFieldComments[key], defaultDescriptions[key]?.(qualifiedName(t)));
}

// `<t>_by_pk` needs every primary-key column readable (user_should_not_be_able_to_access_books_by_pk).
function primaryKeyArgs(ctx: SchemaContext, t: TableModel): GraphQLFieldConfigArgumentMap | null {
  if (t.primaryKey.length === 0) return null;
  const columns = visibleColumns(ctx, t);
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const name of t.primaryKey) {
    const c = columns.find((col) => col.name === name);
    if (!c) return null;
    args[c.field] = { type: new GraphQLNonNull(scalarType(ctx, c.scalar, c.category)), description: describe(c.comment) };
  }
  return sortByKey(Object.entries(args));
}

/** A function's field without its description: its rows (or row) of `t`, with `args` and the select arguments. */
export function functionField(ctx: SchemaContext, fn: FunctionModel, t: TableModel): RootFieldConfig {
  return { type: fn.returnsSet ? rowsType(ctx, t) : objectType(ctx, t), args: functionFieldArgs(ctx, fn, t) };
}

function functionFieldArgs(ctx: SchemaContext, fn: FunctionModel, t: TableModel): GraphQLFieldConfigArgumentMap {
  const spec: FunctionArgsSpec = {
    typeName: functionArgsTypeName(fn),
    // The session argument is filled from the session, never by the client.
    args: fn.args.filter((a) => a.position !== fn.sessionArgument),
    description: `input parameters for function "${qualifiedName(fn)}"`,
  };
  return withFunctionArgs(ctx, selectArgs(ctx, t), spec);
}
