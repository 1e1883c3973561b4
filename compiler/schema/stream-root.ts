// Streaming subscriptions `<t>_stream(batch_size, cursor, where)` (reference/schema.md §1, §7;
// Hasura v2.7+, Postgres): rows after a cursor value, in cursor order, a batch at a time.

import {
  GraphQLEnumType, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, type GraphQLInputFieldConfig,
} from 'graphql';
import type { TableId, TableModel } from '../../runtime/bundle/index.js';
import { typeNameOf } from '../../runtime/bundle/index.js';
import { boolExpType } from './bool-exp.js';
import { canSelect, describe, hasObjectType, named, qualifiedName, sortByKey, tableOf, visibleColumns, type SchemaContext } from './context.js';
import { rowsType } from './object-type.js';
import { scalarType } from './scalars.js';
import type { RootFieldConfig } from './select-root.js';

/** `cursor_ordering`: shared by every stream field. */
function cursorOrdering(ctx: SchemaContext): GraphQLEnumType {
  return named(ctx, 'cursor_ordering', () => new GraphQLEnumType({
    name: 'cursor_ordering',
    description: 'ordering argument of a cursor',
    values: {
      ASC: { value: 'ASC', description: 'ascending ordering of the cursor' },
      DESC: { value: 'DESC', description: 'descending ordering of the cursor' },
    },
  }));
}

/** `<t>_stream_cursor_value_input`: one optional field per column the role may read. */
function cursorValueInput(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType {
  const name = typeNameOf(t, '_stream_cursor_value_input');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: 'Initial value of the column from where the streaming should start',
    fields: () => sortByKey(visibleColumns(ctx, t).map((c): [string, GraphQLInputFieldConfig] =>
      [c.field, { type: scalarType(ctx, c.scalar, c.category), description: describe(c.comment) }])),
  }));
}

/** `<t>_stream_cursor_input {initial_value, ordering}`. */
function cursorInput(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType {
  const name = typeNameOf(t, '_stream_cursor_input');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `Streaming cursor of the table "${qualifiedName(t)}"`,
    fields: () => ({
      initial_value: { type: new GraphQLNonNull(cursorValueInput(ctx, t)), description: 'Stream column input with initial value' },
      ordering: { type: cursorOrdering(ctx), description: 'cursor ordering' },
    }),
  }));
}

/** The `<t>_stream` field, or null when the role can read no column of the table. */
export function streamRootField(ctx: SchemaContext, table: TableId): RootFieldConfig | null {
  if (!canSelect(ctx, table)) return null;
  const t = tableOf(ctx, table);
  if (!hasObjectType(ctx, t) || visibleColumns(ctx, t).length === 0) return null;
  const description = describe(t.rootFieldComments['select_stream'], `fetch data from the table in a streaming manner: "${qualifiedName(t)}"`);
  return {
    type: rowsType(ctx, t),
    args: {
      batch_size: { type: new GraphQLNonNull(GraphQLInt), description: 'maximum number of rows returned in a single batch' },
      cursor: { type: new GraphQLNonNull(new GraphQLList(cursorInput(ctx, t))), description: 'cursor to stream the results returned by the query' },
      where: { type: boolExpType(ctx, t), description: 'filter the rows returned' },
    },
    description,
  };
}

/** The stream fields of a role, by name. */
export function streamRootFields(ctx: SchemaContext, fields: { readonly [name: string]: TableId }): [string, RootFieldConfig][] {
  const out: [string, RootFieldConfig][] = [];
  for (const [name, table] of Object.entries(fields)) {
    const config = streamRootField(ctx, table);
    if (config) out.push([name, config]);
  }
  return out;
}
