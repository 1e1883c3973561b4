// A role's GraphQLSchema whose types are built when first asked for (issue 19). graphql-js builds
// every type of a schema at once: on a 1,000-table role that is 30,000 types, 176 MB of heap and
// seconds of work, though a query touches a few dozen. This schema is a real GraphQLSchema
// (validation, variable coercion, the planner and introspection use it unchanged) whose type map
// is filled from the SDL one definition at a time (runtime/bundle sdl-index.ts). Asking for the
// whole map (introspection's `__schema`) builds every type, in the order buildSchema gives.

import {
  GraphQLDeprecatedDirective, GraphQLDirective, GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull,
  GraphQLObjectType, GraphQLOneOfDirective, GraphQLScalarType, GraphQLSchema, GraphQLSpecifiedByDirective, GraphQLUnionType,
  Kind, buildSchema, getDirectiveValues, introspectionTypes, parse, specifiedDirectives, specifiedScalarTypes, valueFromAST,
  type DirectiveDefinitionNode, type DirectiveLocation, type EnumValueDefinitionNode, type FieldDefinitionNode,
  type GraphQLArgumentConfig, type GraphQLEnumValue, type GraphQLField, type GraphQLFieldConfigMap, type GraphQLFieldMap, type ObjectTypeDefinitionNode, type GraphQLInputFieldConfigMap, type GraphQLInputType,
  type GraphQLNamedType, type GraphQLOutputType, type GraphQLType, type InputObjectTypeDefinitionNode, type InputValueDefinitionNode, type SchemaDefinitionNode,
  type TypeDefinitionNode, type TypeNode,
} from 'graphql';
import { flat, membersOf, rangeOf, type SdlSource } from '../bundle/index.js';

// A type whose definition is larger than this (bytes) has its fields built one at a time (a root type).
const LARGE_DEFINITION = 32 * 1024;

const STANDARD = new Map<string, GraphQLNamedType>([...specifiedScalarTypes, ...introspectionTypes].map((t) => [t.name, t]));

// Hasura's introspection lists every enum's values by name (Schema/Introspect.hs: `enumValues`
// sorts on the name), graphql-js's own `__TypeKind` and `__DirectiveLocation` too (ENUM,
// INPUT_OBJECT, ..., UNION). Those two are graphql-js singletons shared by every schema, so their
// value lists are ordered once, here; graphql-js looks values up by name and value, never by position.
for (const t of introspectionTypes) {
  if (t instanceof GraphQLEnumType) (t.getValues() as GraphQLEnumValue[]).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

type Deprecatable = Parameters<typeof getDirectiveValues>[1];
const deprecation = (node: Deprecatable): string | undefined => flat(getDirectiveValues(GraphQLDeprecatedDirective, node)?.['reason'] as string | undefined);

// graphql-js gives every type, field, argument and enum value an `extensions` map of its own when
// none is passed (an empty null-prototype object, which V8 keeps as a dictionary: about 170 bytes
// each, 7 MB of the types a 1,000-table schema's queries built) and every type an empty
// `extensionASTNodes` list. A null-prototype map is taken as it is, so all share these two.
const NO_EXTENSIONS: Readonly<Record<string, never>> = Object.freeze(Object.create(null) as Record<string, never>);
const NO_EXTENSION_NODES: readonly never[] = Object.freeze([]);
const shared = { extensions: NO_EXTENSIONS, extensionASTNodes: NO_EXTENSION_NODES } as const;


// The head of an object type definition (description, name, interfaces, directives); null for another kind.
function objectHead(text: string): ObjectTypeDefinitionNode | null {
  try {
    const def = parse(`${text} { x: String }`, { noLocation: true }).definitions[0]!;
    return def.kind === Kind.OBJECT_TYPE_DEFINITION ? def : null;
  } catch {
    return null;
  }
}

// How much of each lazy schema is built: the bytes of SDL its built types and fields were read from.
const weights = new WeakMap<GraphQLSchema, () => number>();

/**
 * The bytes of SDL a schema has built so far (its heap is about ten times that): what the
 * engine's schema cache weighs a schema by. A schema not made by lazySchema weighs 0.
 */
export function schemaWeight(schema: GraphQLSchema): number {
  return weights.get(schema)?.() ?? 0;
}

/** The directives of a schema from those its SDL defines (default: graphql-js's specified ones after them). */
export type DirectivesOf = (custom: readonly GraphQLDirective[]) => GraphQLDirective[];

const specifiedAfter: DirectivesOf = (custom) => [...custom, ...specifiedDirectives.filter((s) => custom.every((d) => d.name !== s.name))];

/**
 * A GraphQLSchema built from SDL a type at a time; the same schema buildSchema gives (with
 * `directivesOf`'s directives). `onType` is told of each type when it is built (an eager schema's
 * all at once): column-nulls.ts marks the input fields that take no null so.
 */
export function lazySchema(source: SdlSource, largeDefinition = LARGE_DEFINITION, directivesOf: DirectivesOf = specifiedAfter, onType?: (type: GraphQLNamedType) => void): GraphQLSchema {
  const { index } = source;
  if (index.eager) {
    let eager = buildSchema(source.text(), { noLocation: true, assumeValidSDL: true });
    if (directivesOf !== specifiedAfter) {
      const custom = eager.getDirectives().filter((d) => !specifiedDirectives.includes(d));
      eager = new GraphQLSchema({ ...eager.toConfig(), directives: directivesOf(custom), assumeValid: true });
    }
    if (onType) for (const t of Object.values(eager.getTypeMap())) onType(t);
    weights.set(eager, () => index.bytes);
    return eager;
  }
  const built = new Map<string, GraphQLNamedType>();
  let weight = 0;
  const node = (i: number): { kind: Kind } => parse(source.definition(i), { noLocation: true }).definitions[0]!;

  const known = (name: string): boolean => index.types.has(name) || (STANDARD.has(name) && (!/^(Int|Float|ID)$/.test(name) || index.scalars.has(name)));
  const named = (name: string): GraphQLNamedType => {
    const std = STANDARD.get(name);
    if (std) return std;
    let t = built.get(name);
    if (t) return t;
    const i = index.types.get(name);
    if (i === undefined) throw new Error(`assertion failed: type ${name} is not in the schema`);
    const [begin, end] = rangeOf(index, i);
    if (end - begin > largeDefinition) t = buildLarge(i);
    else {
      weight += end - begin;
      t = buildType(i);
    }
    // Keyed by the built type's own name: `name` is often a slice of the text that named it.
    built.set(t.name, t);
    onType?.(t);
    return t;
  };
  // One list and one non-null wrapper per inner type (graphql-js compares wrapped types by structure).
  const lists = new Map<GraphQLType, GraphQLList<GraphQLType>>(), nonNulls = new Map<GraphQLType, GraphQLNonNull<never>>();
  const typeOf = (t: TypeNode): GraphQLType => {
    if (t.kind === Kind.NAMED_TYPE) return named(t.name.value);
    const inner = typeOf(t.type);
    if (t.kind === Kind.LIST_TYPE) {
      let w = lists.get(inner);
      if (!w) lists.set(inner, (w = new GraphQLList(inner)));
      return w;
    }
    let w = nonNulls.get(inner);
    if (!w) nonNulls.set(inner, (w = new GraphQLNonNull(inner as never)));
    return w;
  };
  const args = (nodes: readonly InputValueDefinitionNode[] | undefined): { [name: string]: GraphQLArgumentConfig } => {
    const out: { [name: string]: GraphQLArgumentConfig } = Object.create(null);
    for (const a of nodes ?? []) {
      const type = typeOf(a.type) as GraphQLInputType;
      out[a.name.value] = { type, description: flat(a.description?.value), defaultValue: valueFromAST(a.defaultValue, type), deprecationReason: deprecation(a),
        extensions: NO_EXTENSIONS };
    }
    return out;
  };
  const fields = (nodes: readonly FieldDefinitionNode[] | undefined): GraphQLFieldConfigMap<unknown, unknown> => {
    const out: GraphQLFieldConfigMap<unknown, unknown> = Object.create(null);
    for (const f of nodes ?? []) {
      out[f.name.value] = { type: typeOf(f.type) as GraphQLOutputType, description: flat(f.description?.value), args: args(f.arguments), deprecationReason: deprecation(f),
        extensions: NO_EXTENSIONS };
    }
    return out;
  };
  // The thunks below hold the definition's number, not its syntax tree: a type whose fields are
  // never asked for (most of those a query reaches only by name) would otherwise keep its whole
  // tree, and its fields are read again when they are.
  const buildType = (i: number): GraphQLNamedType => {
    const def = node(i) as TypeDefinitionNode;
    const name = flat(def.name.value), description = flat(def.description?.value);
    switch (def.kind) {
      case Kind.OBJECT_TYPE_DEFINITION: {
        const interfaces = (def.interfaces ?? []).map((x) => x.name.value);
        return new GraphQLObjectType({ name, description, ...shared, fields: () => fields((node(i) as ObjectTypeDefinitionNode).fields),
          interfaces: () => interfaces.map((x) => named(x) as never) });
      }
      case Kind.INPUT_OBJECT_TYPE_DEFINITION:
        return new GraphQLInputObjectType({ name, description, ...shared, isOneOf: Boolean(getDirectiveValues(GraphQLOneOfDirective, def)),
          fields: () => args((node(i) as InputObjectTypeDefinitionNode).fields) as GraphQLInputFieldConfigMap });
      case Kind.ENUM_TYPE_DEFINITION:
        return new GraphQLEnumType({ name, description, ...shared,
          values: Object.fromEntries((def.values ?? []).map((v: EnumValueDefinitionNode) => [v.name.value,
            { description: flat(v.description?.value), deprecationReason: deprecation(v), extensions: NO_EXTENSIONS }])) });
      case Kind.SCALAR_TYPE_DEFINITION:
        return new GraphQLScalarType({ name, description, ...shared, specifiedByURL: getDirectiveValues(GraphQLSpecifiedByDirective, def)?.['url'] as string | undefined });
      case Kind.UNION_TYPE_DEFINITION: {
        const members = (def.types ?? []).map((t) => t.name.value);
        return new GraphQLUnionType({ name, description, ...shared, types: () => members.map((t) => named(t) as never) });
      }
      default:
        // Interfaces make the index eager (lazySchema's first line): none reach here.
        throw new Error(`assertion failed: no lazy build for ${def.kind}`);
    }
  };

  // An object type of thousands of fields (query_root): its field map is a view whose fields are
  // read from the SDL and built when looked up, so a query reaches the types of its root fields
  // only. Listing it (introspection, a misspelt field's suggestions) builds them all.
  const buildLarge = (i: number): GraphQLNamedType => {
    const { head: text, members } = membersOf(source, i);
    const head = objectHead(text);
    if (head === null) {
      weight += rangeOf(index, i)[1] - rangeOf(index, i)[0];
      return buildType(i);
    }
    weight += text.length;
    const name = flat(head.name.value);
    const field = (f: string): GraphQLField<unknown, unknown> | undefined => {
      const at = members.get(f);
      if (at === undefined) return undefined;
      weight += at[1] - at[0];
      const def = parse(`type ${name} { ${source.read(at[0], at[1]).toString('utf8')} }`, { noLocation: true }).definitions[0] as ObjectTypeDefinitionNode;
      return new GraphQLObjectType({ name, fields: fields(def.fields) }).getFields()[f];
    };
    const built = new Map<string, GraphQLField<unknown, unknown>>();
    const get = (f: string): GraphQLField<unknown, unknown> | undefined => {
      let got = built.get(f);
      if (got === undefined && (got = field(f)) !== undefined) built.set(f, got);
      return got;
    };
    const view = new Proxy(Object.create(null) as GraphQLFieldMap<unknown, unknown>, {
      get: (_t, f) => (typeof f === 'string' ? get(f) : undefined),
      has: (_t, f) => typeof f === 'string' && members.has(f),
      ownKeys: () => [...members.keys()],
      getOwnPropertyDescriptor: (_t, f) => {
        const value = typeof f === 'string' ? get(f) : undefined;
        return value === undefined ? undefined : { value, writable: false, enumerable: true, configurable: true };
      },
    });
    const type = new GraphQLObjectType({ name, description: flat(head.description?.value), ...shared, fields: {},
      interfaces: () => (head.interfaces ?? []).map((x) => named(x.name.value) as never) });
    // graphql-js would copy a field map handed to it (building every field): the view is set as
    // the built map instead (GraphQLObjectType keeps it in `_fields` once its thunk has run).
    (type as unknown as { _fields: GraphQLFieldMap<unknown, unknown> })._fields = view;
    return type;
  };

  const custom = index.directives.map((i) => {
    const d = node(i) as DirectiveDefinitionNode;
    return new GraphQLDirective({ name: flat(d.name.value), description: flat(d.description?.value), extensions: NO_EXTENSIONS, isRepeatable: d.repeatable,
      locations: d.locations.map((l) => l.value as DirectiveLocation), args: args(d.arguments) });
  });
  const directives = directivesOf(custom);
  // The roots: the schema definition's, else the types named Query, Mutation, Subscription.
  const roots: { [op: string]: string | undefined } = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' };
  if (index.schema >= 0) {
    for (const k of Object.keys(roots)) roots[k] = undefined;
    for (const op of (node(index.schema) as SchemaDefinitionNode).operationTypes) roots[op.operation] = op.type.name.value;
  }
  const root = (op: string): GraphQLObjectType | undefined => {
    const name = roots[op];
    return name !== undefined && index.types.has(name) ? named(name) as GraphQLObjectType : undefined;
  };
  // Only the introspection types are collected here; the roots are set after, unwalked.
  const schema = new GraphQLSchema({ directives, assumeValid: true });
  const internal = schema as unknown as { _queryType?: GraphQLObjectType; _mutationType?: GraphQLObjectType; _subscriptionType?: GraphQLObjectType; _typeMap: { [name: string]: GraphQLNamedType } };
  internal._queryType = root('query');
  internal._mutationType = root('mutation');
  internal._subscriptionType = root('subscription');

  // The whole map, as buildSchema orders it: every definition in SDL order handed to GraphQLSchema.
  let whole: { [name: string]: GraphQLNamedType } | null = null;
  const all = (): { [name: string]: GraphQLNamedType } => {
    if (whole) return whole;
    const types = [...index.types.keys()].map(named);
    const full = new GraphQLSchema({ query: internal._queryType, mutation: internal._mutationType, subscription: internal._subscriptionType,
      types, directives, assumeValid: true });
    whole = full.getTypeMap() as { [name: string]: GraphQLNamedType };
    weight = index.bytes;
    return whole;
  };
  const own = internal._typeMap;
  const getType = (name: string): GraphQLNamedType | undefined => {
    if (whole) return whole[name];
    if (own[name] !== undefined) return own[name];
    return known(name) ? named(name) : undefined;
  };
  // The map validation reads (KnownTypeNames looks names up in it; only a misspelt name, for
  // its suggestions, or introspection lists it): a look-up builds one type, a listing all.
  const map = new Proxy(Object.create(null) as { [name: string]: GraphQLNamedType }, {
    get: (_t, name) => (typeof name === 'string' ? getType(name) : undefined),
    has: (_t, name) => typeof name === 'string' && getType(name) !== undefined,
    ownKeys: () => Object.keys(all()),
    getOwnPropertyDescriptor: (_t, name) => {
      const value = typeof name === 'string' ? getType(name) : undefined;
      return value === undefined ? undefined : { value, writable: false, enumerable: true, configurable: true };
    },
  });
  Object.assign(schema, { getTypeMap: () => map, getType });
  weights.set(schema, () => weight);
  return schema;
}
