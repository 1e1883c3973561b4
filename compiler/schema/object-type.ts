// The object type `<t>` of a table as one role sees it: permitted columns, computed fields and
// relationships to tables the role may also read (reference/schema.md §2, §9).

import {
  GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString,
  type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap, type GraphQLOutputType,
} from 'graphql';
import type { ColumnModel, ComputedFieldModel, RelationshipModel, TableModel } from '../../runtime/bundle/index.js';
import { typeNameOf } from '../../runtime/bundle/index.js';
import { aggregateType } from './aggregate.js';
import {
  canAggregate, describe, hasObjectType, named, qualifiedName, sortByKey, tableOf, visibleColumns, visibleComputedFields,
  visibleRelationships, type SchemaContext,
} from './context.js';
import { scalarType } from './scalars.js';
import { functionArgsTypeName, selectArgs, withFunctionArgs, type FunctionArgsSpec } from './select-args.js';

type Field = GraphQLFieldConfig<unknown, unknown>;
type Fields = [string, Field][];

/** `<t>`, described by the table's comment or Hasura's default text. */
export function objectType(ctx: SchemaContext, t: TableModel): GraphQLObjectType {
  return named(ctx, typeNameOf(t), () => new GraphQLObjectType({
    name: typeNameOf(t),
    description: describe(t.comment, `columns and relationships of "${qualifiedName(t)}"`),
    fields: () => sortByKey([
      ...visibleColumns(ctx, t).map((c): [string, Field] => [c.field, columnField(ctx, c)]),
      ...visibleComputedFields(ctx, t).flatMap((cf) => computedField(ctx, t, cf)),
      ...visibleRelationships(ctx, t).flatMap((r) => relationshipFields(ctx, r)),
    ]),
  }));
}

/** `[<t>!]!`, the type of every field that returns rows. */
export function rowsType(ctx: SchemaContext, t: TableModel): GraphQLOutputType {
  return new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objectType(ctx, t))));
}

function isJson(scalar: string): boolean {
  return scalar === 'json' || scalar === 'jsonb';
}

// json/jsonb values take an optional JSON path that extracts a sub-value.
function pathArg(scalar: string): GraphQLFieldConfigArgumentMap {
  return isJson(scalar) ? { path: { type: GraphQLString, description: 'JSON select path' } } : {};
}

function columnField(ctx: SchemaContext, c: ColumnModel): Field {
  const scalar = scalarType(ctx, c.scalar, c.category);
  return {
    type: c.nullable ? scalar : new GraphQLNonNull(scalar),
    args: pathArg(c.scalar),
    description: describe(c.comment),
  };
}

function computedField(ctx: SchemaContext, t: TableModel, cf: ComputedFieldModel): Fields {
  const description = describe(cf.comment, `A computed field, executes function "${qualifiedName(cf.function)}"`);
  const spec: FunctionArgsSpec = {
    typeName: functionArgsTypeName(cf.function),
    args: cf.args,
    description: `input parameters for computed field "${cf.name}" defined on table "${qualifiedName(t)}"`,
  };
  if (cf.returns.kind === 'scalar') {
    const args = withFunctionArgs(ctx, pathArg(cf.returns.scalar), spec);
    return [[cf.name, { type: scalarType(ctx, cf.returns.scalar, cf.returns.category), args, description }]];
  }
  const target = tableOf(ctx, cf.returns.table);
  if (!hasObjectType(ctx, target)) return [];
  if (!cf.returns.set) {
    return [[cf.name, { type: objectType(ctx, target), args: withFunctionArgs(ctx, {}, spec), description }]];
  }
  return [[cf.name, { type: rowsType(ctx, target), args: withFunctionArgs(ctx, selectArgs(ctx, target), spec), description }]];
}

function relationshipFields(ctx: SchemaContext, r: RelationshipModel): Fields {
  const target = tableOf(ctx, r.target);
  const fields: Fields = [];
  if (r.kind === 'object') {
    if (hasObjectType(ctx, target)) {
      const type = objectType(ctx, target);
      fields.push([r.name, { type: r.nullable ? type : new GraphQLNonNull(type), description: describe(r.comment, 'An object relationship') }]);
    }
    return fields;
  }
  if (hasObjectType(ctx, target)) {
    fields.push([r.name, { type: rowsType(ctx, target), args: selectArgs(ctx, target), description: describe(r.comment, 'An array relationship') }]);
  }
  if (canAggregate(ctx, r.target)) {
    fields.push([`${r.name}_aggregate`, {
      type: new GraphQLNonNull(aggregateType(ctx, target, () => objectType(ctx, target))),
      args: selectArgs(ctx, target),
      description: describe(r.comment, 'An aggregate relationship'),
    }]);
  }
  return fields;
}
