// A remote schema as the engine's clients see it: its root fields (to be added to query_root and
// mutation_root) and its other types, with the names customization gives them, and the way back
// from those names to the remote's own.

import {
  Kind, parse, printSchema, type DefinitionNode, type FieldDefinitionNode, type GraphQLSchema, type TypeDefinitionNode,
} from 'graphql';
import type { RemoteDefinition } from './definition.js';
import { customizeTypes, type Renaming } from './customize.js';
import type { Presets } from './presets.js';

/** One remote schema, stitched: what it adds to the schema and how to name things back. */
export interface RemoteView {
  readonly def: RemoteDefinition;
  /** The remote's own schema (what calls are validated against, in its names). */
  readonly schema: GraphQLSchema;
  /** Every type but the roots, in client names. */
  readonly types: readonly TypeDefinitionNode[];
  /** Root fields in client names; with a namespace, the one namespace field. */
  readonly roots: { readonly query: readonly FieldDefinitionNode[]; readonly mutation: readonly FieldDefinitionNode[] };
  readonly renaming: Renaming;
  /** With remote schema permissions: the role's `@preset`s, filled in when calling. */
  readonly presets?: Presets;
}

const isTypeDef = (d: DefinitionNode): d is TypeDefinitionNode =>
  d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.INTERFACE_TYPE_DEFINITION || d.kind === Kind.UNION_TYPE_DEFINITION
  || d.kind === Kind.ENUM_TYPE_DEFINITION || d.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION || d.kind === Kind.SCALAR_TYPE_DEFINITION;

/** The client's view of a remote schema (`schema` in the remote's names, or a role's restriction of it). */
export function remoteView(def: RemoteDefinition, schema: GraphQLSchema, presets?: Presets): RemoteView {
  const view = remoteViewOf(def, schema);
  return presets && (presets.args.size > 0 || presets.inputFields.size > 0) ? { ...view, presets } : view;
}

function remoteViewOf(def: RemoteDefinition, schema: GraphQLSchema): RemoteView {
  const queryName = schema.getQueryType()?.name ?? null;
  const mutationName = schema.getMutationType()?.name ?? null;
  const subscriptionName = schema.getSubscriptionType()?.name ?? null;
  const doc = parse(printSchema(schema), { noLocation: true });
  const all = doc.definitions.filter(isTypeDef);
  const { types, renaming } = customizeTypes(all, def.customization, { query: queryName, mutation: mutationName });
  const rootNames = new Set([queryName, mutationName, subscriptionName].filter((n): n is string => n !== null).map((n) => renaming.typeToClient(n)));
  const fieldsOf = (name: string | null): readonly FieldDefinitionNode[] => {
    if (name === null) return [];
    const t = types.find((x) => x.name.value === renaming.typeToClient(name));
    return t && t.kind === Kind.OBJECT_TYPE_DEFINITION ? t.fields ?? [] : [];
  };
  const ns = def.customization?.rootFieldsNamespace ?? null;
  if (ns === null) {
    return { def, schema, types: types.filter((t) => !rootNames.has(t.name.value)), roots: { query: fieldsOf(queryName), mutation: fieldsOf(mutationName) }, renaming };
  }
  // With a namespace the root types stay, as the types of the one namespace field.
  const field = (type: string | null): FieldDefinitionNode[] => (type === null ? [] : [{
    kind: Kind.FIELD_DEFINITION, name: { kind: Kind.NAME, value: ns },
    type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: renaming.typeToClient(type) } },
  }]);
  const subscription = subscriptionName === null ? null : renaming.typeToClient(subscriptionName);
  return { def, schema, types: types.filter((t) => t.name.value !== subscription), roots: { query: field(queryName), mutation: field(mutationName) }, renaming };
}
