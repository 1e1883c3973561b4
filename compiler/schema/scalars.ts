// Scalar and enum-table types. Int, Float, String and Boolean are graphql's own; every other
// database type is a custom scalar named as Hasura names it (`bigint`, `jsonb`, `_text`) that
// accepts any JSON value: the database, not GraphQL, checks its format.

import {
  GraphQLBoolean, GraphQLEnumType, GraphQLFloat, GraphQLInt, GraphQLScalarType, GraphQLString, Kind,
  type GraphQLEnumValueConfig, type ValueNode,
} from 'graphql';
import type { Json, ScalarCategory, TableModel } from '../../runtime/bundle/index.js';
import { describe, named, sortByKey, type SchemaContext } from './context.js';

const builtIns: { readonly [name: string]: GraphQLScalarType } = {
  Int: GraphQLInt, Float: GraphQLFloat, String: GraphQLString, Boolean: GraphQLBoolean,
};

// Types whose values may not fit a JS number: their literals are kept as the source text.
const exactNumberScalars = new Set(['bigint', 'numeric', 'decimal', 'money', 'int8']);

/** The scalar or enum type for a GraphQL scalar name from the model (`Int`, `jsonb`, `colors_enum`). */
export function scalarType(ctx: SchemaContext, name: string, category?: ScalarCategory): GraphQLScalarType | GraphQLEnumType {
  const builtIn = builtIns[name];
  if (builtIn) return builtIn;
  const enumTable = ctx.enumTables.get(name);
  if (enumTable) return enumType(ctx, name, enumTable);
  const exact = category === 'numeric' || exactNumberScalars.has(name);
  return named(ctx, name, () => customScalar(name, exact));
}

/** Whether a scalar name denotes an enum table's enum. */
export function isEnumScalar(ctx: SchemaContext, name: string): boolean {
  return ctx.enumTables.has(name);
}

function enumType(ctx: SchemaContext, name: string, t: TableModel): GraphQLEnumType {
  return named(ctx, name, () => {
    // Enum values are listed sorted by name, as Hasura's introspection shows them.
    const values = sortByKey((t.enumValues ?? []).map((v): [string, GraphQLEnumValueConfig] =>
      [v.value, { value: v.value, description: describe(v.comment) }]));
    return new GraphQLEnumType({ name, description: describe(t.comment), values });
  });
}

function customScalar(name: string, exactNumbers: boolean): GraphQLScalarType {
  return new GraphQLScalarType({
    name,
    serialize: (value) => value,
    parseValue: (value) => value,
    parseLiteral: (node, variables) => literalValue(node, variables ?? undefined, exactNumbers),
  });
}

/**
 * The JS value of a literal inside a custom scalar: objects and lists as JSON, variables looked
 * up; with `exactNumbers`, numbers stay the text the client wrote so no precision is lost.
 */
export function literalValue(node: ValueNode, variables: { readonly [name: string]: unknown } | undefined, exactNumbers: boolean): Json {
  switch (node.kind) {
    case Kind.NULL: return null;
    case Kind.INT:
    case Kind.FLOAT: return exactNumbers ? node.value : Number(node.value);
    case Kind.STRING:
    case Kind.ENUM: return node.value;
    case Kind.BOOLEAN: return node.value;
    case Kind.LIST: return node.values.map((v) => literalValue(v, variables, exactNumbers));
    case Kind.OBJECT: {
      const out: { [k: string]: Json } = {};
      for (const f of node.fields) out[f.name.value] = literalValue(f.value, variables, exactNumbers);
      return out;
    }
    case Kind.VARIABLE: {
      const v = variables?.[node.name.value];
      return v === undefined ? null : (v as Json);
    }
  }
}
