// `if_matched` of MSSQL inserts (Hasura's MSSQL upsert argument, in place of `on_conflict`):
// `<t>_if_matched { match_columns, update_columns, where }`, for roles that may update the table.

import { GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, type GraphQLEnumValueConfig } from 'graphql';
import type { TableModel } from '../../runtime/bundle/index.js';
import { typeNameOf } from '../../runtime/bundle/index.js';
import { boolExpType } from './bool-exp.js';
import { named, qualifiedName, sortByKey } from './context.js';
import type { SchemaContext } from './context.js';
import { featuresOf } from './dialect-features.js';
import { insertPerm, updatePerm } from './mutation-inputs.js';

function columnEnum(ctx: SchemaContext, t: TableModel, suffix: string, columns: readonly string[], description: string): GraphQLEnumType | null {
  const cols = t.columns.filter((c) => columns.includes(c.name));
  if (cols.length === 0) return null;
  const name = typeNameOf(t, suffix);
  return named(ctx, name, () => new GraphQLEnumType({
    name, description: `${description} of table "${qualifiedName(t)}"`,
    values: sortByKey(cols.map((c): [string, GraphQLEnumValueConfig] => [c.field, { value: c.field, description: 'column name' }])),
  }));
}

/** `<t>_if_matched`, or null when the source has none or the role may not update `t`. */
export function ifMatchedType(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType | null {
  const update = updatePerm(ctx, t.id);
  const insert = insertPerm(ctx, t.id);
  if (!featuresOf(ctx, t).ifMatched || !update || !insert) return null;
  const match = columnEnum(ctx, t, '_insert_match_column', insert.columns, 'select match_columns');
  const updates = columnEnum(ctx, t, '_update_column', update.columns, 'update columns');
  if (!match || !updates) return null;
  const name = typeNameOf(t, '_if_matched');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `upsert condition type for table "${qualifiedName(t)}"`,
    fields: () => ({
      match_columns: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(match))), defaultValue: [] },
      update_columns: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(updates))), defaultValue: [] },
      where: { type: boolExpType(ctx, t) },
    }),
  }));
}
