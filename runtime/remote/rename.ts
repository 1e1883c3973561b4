// Writing a client's document in the remote's names (customized remotes): type conditions and
// variable types get the remote's type names, renamed fields the remote's field name with the
// client's name as alias, so the answer comes back under the keys the client asked for.

import {
  buildASTSchema, getNamedType, isCompositeType, Kind, visit, type DocumentNode, type FieldNode, type GraphQLCompositeType,
  type FragmentDefinitionNode, type GraphQLSchema, type SelectionSetNode, type VariableDefinitionNode,
} from 'graphql';
import type { RemoteView } from './view.js';

const clientSchemas = new WeakMap<RemoteView, GraphQLSchema>();

/** The remote's schema in client names, rooted at `query_root`/`mutation_root` (built once per view). */
export function clientSchemaOf(view: RemoteView): GraphQLSchema {
  let s = clientSchemas.get(view);
  if (!s) {
    const root = (name: string, fields: RemoteView['roots']['query']) => ({
      kind: Kind.OBJECT_TYPE_DEFINITION, name: { kind: Kind.NAME, value: name }, fields,
    } as const);
    const defs = [...view.types, root('query_root', view.roots.query), ...(view.roots.mutation.length ? [root('mutation_root', view.roots.mutation)] : [])];
    const schemaDef = { kind: Kind.SCHEMA_DEFINITION, operationTypes: [
      { kind: Kind.OPERATION_TYPE_DEFINITION, operation: 'query', type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: 'query_root' } } },
      ...(view.roots.mutation.length ? [{ kind: Kind.OPERATION_TYPE_DEFINITION, operation: 'mutation', type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: 'mutation_root' } } }] : []),
    ] } as const;
    s = buildASTSchema({ kind: Kind.DOCUMENT, definitions: [schemaDef as never, ...defs] }, { assumeValidSDL: true });
    clientSchemas.set(view, s);
  }
  return s;
}

/** `doc` (its one operation on the remote's root fields, its fragments) in the remote's names. */
export function toRemoteNames(doc: DocumentNode, view: RemoteView): DocumentNode {
  if (view.renaming.identity) return doc;
  const { rewrite, rootType, rest } = renamer(view);
  return visit(doc, {
    OperationDefinition: (o) => {
      const root = rootType(o.operation);
      return { ...o, selectionSet: rewrite(o.selectionSet, root.type, root.remote) };
    },
    ...rest,
  });
}

/**
 * A remote relationship's call in the remote's names: its operation's fields follow the
 * relationship's `remote_field` path (already in the remote's names, `depth` steps under an alias),
 * and the client's selection at the end of it, on the remote type `leafType`, is renamed (with its
 * fragments and variable types) as `toRemoteNames` renames a root field's.
 */
export function relationshipToRemoteNames(doc: DocumentNode, depth: number, leafType: string | null, view: RemoteView): DocumentNode {
  if (view.renaming.identity || leafType === null) return doc;
  const { rewrite, typed, rest } = renamer(view);
  const client = view.renaming.typeToClient(leafType);
  const down = (f: FieldNode, level: number): FieldNode => {
    if (!f.selectionSet) return f;
    if (level === depth) return { ...f, selectionSet: rewrite(f.selectionSet, typed(client), client) };
    return { ...f, selectionSet: { ...f.selectionSet, selections: f.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? down(s, level + 1) : s)) } };
  };
  return visit(doc, {
    OperationDefinition: (o) => ({ ...o, selectionSet: { ...o.selectionSet, selections: o.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? down(s, 1) : s)) } }),
    ...rest,
  });
}

/** `__typename` values (under these answer keys) written back in the client's type names. */
export function typenamesToClient(v: unknown, keys: ReadonlySet<string>, view: RemoteView): unknown {
  if (view.renaming.identity) return v;
  const fix = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(fix);
    if (x === null || typeof x !== 'object') return x;
    return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, keys.has(k) && typeof y === 'string' ? view.renaming.typeToClient(y) : fix(y)]));
  };
  return fix(v);
}

// The parts of a renaming: selections, the roots, fragments and variable types.
function renamer(view: RemoteView) {
  const schema = clientSchemaOf(view);
  const r = view.renaming;
  const typed = (name: string): GraphQLCompositeType | null => {
    const t = schema.getType(name);
    return t && isCompositeType(t) ? t : null;
  };
  const rewrite = (set: SelectionSetNode, parent: GraphQLCompositeType | null, remoteParent: string | null): SelectionSetNode => ({
    ...set,
    selections: set.selections.map((s) => {
      if (s.kind === Kind.FRAGMENT_SPREAD) return s;
      if (s.kind === Kind.INLINE_FRAGMENT) {
        const cond = s.typeCondition ? typed(s.typeCondition.name.value) : parent;
        return { ...s, typeCondition: s.typeCondition ? { ...s.typeCondition, name: { ...s.typeCondition.name, value: r.typeToRemote(s.typeCondition.name.value) } } : undefined,
          // The parent is named in client names (fieldToRemote reads the client's type name).
          selectionSet: rewrite(s.selectionSet, cond, s.typeCondition ? s.typeCondition.name.value : remoteParent) };
      }
      return field(s, parent, remoteParent);
    }),
  });
  const field = (f: FieldNode, parent: GraphQLCompositeType | null, remoteParent: string | null): FieldNode => {
    const name = f.name.value;
    if (name.startsWith('__') || !parent || !('getFields' in parent)) return f;
    const def = parent.getFields()[name];
    // Root fields are renamed as fields of the remote's query or mutation type.
    const remoteName = r.fieldToRemote(remoteParent ?? parent.name, name);
    const named = def ? getNamedType(def.type) : null;
    const next = named && isCompositeType(named) && f.selectionSet ? rewrite(f.selectionSet, named, named.name) : f.selectionSet;
    if (remoteName === name) return next === f.selectionSet ? f : { ...f, selectionSet: next };
    return { ...f, alias: f.alias ?? { kind: Kind.NAME, value: name }, name: { ...f.name, value: remoteName }, selectionSet: next };
  };
  const rootType = (op: string): { type: GraphQLCompositeType | null; remote: string | null } => {
    const remote = op === 'mutation' ? view.schema.getMutationType()?.name : view.schema.getQueryType()?.name;
    // With a namespace, the document's root fields are those of the namespace field's type.
    const t = view.def.customization?.rootFieldsNamespace && remote ? typed(r.typeToClient(remote))
      : (op === 'mutation' ? schema.getMutationType() : schema.getQueryType()) ?? null;
    return { type: t, remote: remote ? r.typeToClient(remote) : null };
  };
  const rest = {
    FragmentDefinition: (d: FragmentDefinitionNode): FragmentDefinitionNode => {
      const t = typed(d.typeCondition.name.value);
      return { ...d, typeCondition: { ...d.typeCondition, name: { ...d.typeCondition.name, value: r.typeToRemote(d.typeCondition.name.value) } },
        selectionSet: rewrite(d.selectionSet, t, t?.name ?? null) };
    },
    VariableDefinition: (v: VariableDefinitionNode): VariableDefinitionNode => visit(v, { NamedType: (n) => ({ ...n, name: { ...n.name, value: r.typeToRemote(n.name.value) } }) }),
  };
  return { rewrite, typed, rootType, rest };
}
