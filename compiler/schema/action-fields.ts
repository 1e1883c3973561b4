// Actions in a role's schema (reference/actions.md §1, §4): a query action is a field of
// query_root, a mutation action one of mutation_root, typed with the custom types; an
// asynchronous action's mutation answers `uuid!` and its result is read through `<name>(id:)` on
// query_root and subscription_root. Admin sees every action, another role those it was granted.
// Relationships of custom object types to tables appear when the role may read the table.

import {
  GraphQLEnumType, GraphQLID, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLObjectType, Kind, parseType,
  type GraphQLEnumValueConfig, type GraphQLFieldConfig, type GraphQLInputType, type GraphQLNamedType, type GraphQLOutputType, type TypeNode,
} from 'graphql';
import type { ActionModel, CustomObjectModel, CustomRelationshipModel } from '../../runtime/bundle/index.js';
import { canAggregate, canSelect, describe, hasObjectType, named, sortByKey, tableOf, type SchemaContext } from './context.js';
import { aggregateType } from './aggregate.js';
import { objectType, rowsType } from './object-type.js';
import { scalarType } from './scalars.js';
import { selectArgs } from './select-args.js';

type Field = GraphQLFieldConfig<unknown, unknown>;

/** The root a field goes to. */
export type ActionRoot = 'query' | 'mutation' | 'subscription';

/** The actions the role may call. */
export function actionsOf(ctx: Pick<SchemaContext, 'model' | 'role'>): readonly ActionModel[] {
  return (ctx.model.actions?.actions ?? []).filter((a) => ctx.role === 'admin' || a.roles.includes(ctx.role));
}

/** The action fields of one root type for the role, unsorted. */
export function actionRootFields(ctx: SchemaContext, root: ActionRoot): [string, Field][] {
  const out: [string, Field][] = [];
  for (const a of actionsOf(ctx)) {
    const description = describe(a.comment);
    const args = sortByKey(a.arguments.map((x): [string, { type: GraphQLInputType; description?: string }] =>
      [x.name, { type: inputType(ctx, parseType(x.type)), ...(x.description ? { description: x.description } : {}) }]));
    if (a.kind === 'asynchronous') {
      if (root === 'mutation') out.push([a.name, { type: new GraphQLNonNull(scalarType(ctx, 'uuid')), args, description }]);
      else out.push([a.name, { type: asyncResultType(ctx, a), args: { id: { type: new GraphQLNonNull(scalarType(ctx, 'uuid')) } }, description }]);
      continue;
    }
    if (root !== a.type) continue;
    out.push([a.name, { type: outputType(ctx, parseType(a.outputType)), args, description }]);
  }
  return out;
}

/** `<action>`: what the result of an asynchronous action reads as. */
function asyncResultType(ctx: SchemaContext, a: ActionModel): GraphQLObjectType {
  return named(ctx, a.name, () => new GraphQLObjectType({
    name: a.name,
    description: describe(a.comment),
    fields: () => sortByKey<Field>([
      ['created_at', { type: new GraphQLNonNull(scalarType(ctx, 'timestamptz')) }],
      ['errors', { type: scalarType(ctx, 'json') }],
      ['id', { type: new GraphQLNonNull(scalarType(ctx, 'uuid')) }],
      ['output', { type: outputType(ctx, parseType(a.outputType)) }],
    ]),
  }));
}

function wrap<T extends GraphQLInputType | GraphQLOutputType>(node: TypeNode, named: (name: string) => T): T {
  switch (node.kind) {
    case Kind.NON_NULL_TYPE: return new GraphQLNonNull(wrap(node.type, named) as never) as unknown as T;
    case Kind.LIST_TYPE: return new GraphQLList(wrap(node.type, named)) as unknown as T;
    case Kind.NAMED_TYPE: return named(node.name.value);
  }
}

function inputType(ctx: SchemaContext, node: TypeNode): GraphQLInputType {
  return wrap<GraphQLInputType>(node, (name) => {
    const types = ctx.model.actions!;
    const input = types.inputObjects.find((o) => o.name === name);
    if (input) {
      return named(ctx, name, () => new GraphQLInputObjectType({
        name, description: describe(input.description),
        fields: () => sortByKey(input.fields.map((f) => [f.name, { type: inputType(ctx, parseType(f.type)), description: describe(f.description) }])),
      }));
    }
    return leafType(ctx, name);
  });
}

function outputType(ctx: SchemaContext, node: TypeNode): GraphQLOutputType {
  return wrap<GraphQLOutputType>(node, (name) => {
    const object = ctx.model.actions!.objects.find((o) => o.name === name);
    return object ? customObjectType(ctx, object) : leafType(ctx, name);
  });
}

function leafType(ctx: SchemaContext, name: string): GraphQLNamedType & GraphQLInputType & GraphQLOutputType {
  if (name === 'ID') return GraphQLID;
  const e = ctx.model.actions!.enums.find((x) => x.name === name);
  if (e) {
    return named(ctx, name, () => new GraphQLEnumType({
      name, description: describe(e.description),
      values: Object.fromEntries(e.values.map((v): [string, GraphQLEnumValueConfig] => [v.value,
        { value: v.value, description: describe(v.description), ...(v.isDeprecated ? { deprecationReason: 'No longer supported' } : {}) }])),
    }));
  }
  return scalarType(ctx, name);
}

function customObjectType(ctx: SchemaContext, o: CustomObjectModel): GraphQLObjectType {
  return named(ctx, o.name, () => new GraphQLObjectType({
    name: o.name,
    description: describe(o.description),
    fields: () => sortByKey<Field>([
      ...o.fields.map((f): [string, Field] => [f.name, { type: outputType(ctx, parseType(f.type)), description: describe(f.description) }]),
      ...o.relationships.flatMap((r) => relationshipField(ctx, r)),
    ]),
  }));
}

// A relationship shows only when the role may read its table (and the table's type has a field).
function relationshipField(ctx: SchemaContext, r: CustomRelationshipModel): [string, Field][] {
  if (!canSelect(ctx, r.target)) return [];
  const t = tableOf(ctx, r.target);
  if (!hasObjectType(ctx, t)) return [];
  if (r.kind === 'object') return [[r.name, { type: objectType(ctx, t) }]];
  const fields: [string, Field][] = [[r.name, { type: rowsType(ctx, t), args: selectArgs(ctx, t) }]];
  // Hasura's remoteSourceField: an array relationship also has its aggregate when the role may aggregate the table.
  if (canAggregate(ctx, r.target)) {
    fields.push([`${r.name}_aggregate`, { type: new GraphQLNonNull(aggregateType(ctx, t, () => objectType(ctx, t))), args: selectArgs(ctx, t) }]);
  }
  return fields;
}
