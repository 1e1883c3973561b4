// Remote schema customization (reference/remote.md §1): type names get the prefix and suffix (or
// their mapping), except the root types, built-in scalars and `__*` types, which change only by
// mapping; field names get their parent type's prefix, suffix or mapping (mapping wins). The
// renaming is kept both ways: calls go out in the remote's names, answers come back in the client's.

import { Kind, visit, type TypeDefinitionNode } from 'graphql';
import type { NameAffixes, RemoteCustomization } from './definition.js';

/** The names customization changed, both ways. */
export interface Renaming {
  readonly identity: boolean;
  typeToClient(remote: string): string;
  typeToRemote(client: string): string;
  /** A field's remote name from its client name and its parent's client type name. */
  fieldToRemote(clientParent: string, clientField: string): string;
}

const BUILT_IN = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);

const IDENTITY: Renaming = { identity: true, typeToClient: (n) => n, typeToRemote: (n) => n, fieldToRemote: (_p, f) => f };

function affixed(name: string, a: NameAffixes | null | undefined, affixAllowed: boolean): string {
  if (!a) return name;
  const mapped = a.mapping[name];
  if (mapped !== undefined) return mapped;
  return affixAllowed ? `${a.prefix}${name}${a.suffix}` : name;
}

/** The types renamed as `c` says (the types are printed from the remote schema). */
export function customizeTypes(types: readonly TypeDefinitionNode[], c: RemoteCustomization | null,
  roots: { readonly query: string | null; readonly mutation: string | null }): { types: readonly TypeDefinitionNode[]; renaming: Renaming } {
  if (!c || (c.typeNames === null && Object.keys(c.fieldNames).length === 0 && c.rootFieldsNamespace === null)) return { types, renaming: IDENTITY };
  const rootSet = new Set([roots.query, roots.mutation].filter((n): n is string => n !== null));
  const affixes = c.typeNames !== null && (c.typeNames.prefix !== '' || c.typeNames.suffix !== '');
  const toClient = new Map<string, string>();
  for (const t of types) {
    const n = t.name.value;
    const plain = !BUILT_IN.has(n) && !n.startsWith('__') && (!rootSet.has(n) || c.rootFieldsNamespace !== null);
    // With a namespace, a root type neither mapped nor affixed is named after it: <namespace><Root>
    // (Hasura's getCustomizer: the mapping, then prefix and suffix, then the namespace's default).
    const namespaced = c.rootFieldsNamespace !== null && rootSet.has(n) && c.typeNames?.mapping[n] === undefined && !affixes;
    toClient.set(n, namespaced ? `${c.rootFieldsNamespace}${n}` : affixed(n, c.typeNames, plain));
  }
  // A built-in scalar is printed nowhere, yet a mapping renames it too (Hasura's getCustomizer
  // applies the mapping to every type): it becomes a scalar of the new name.
  const builtIns: TypeDefinitionNode[] = [];
  for (const n of BUILT_IN) {
    const to = c.typeNames?.mapping[n];
    if (to === undefined || to === n || !usesType(types, n)) continue;
    toClient.set(n, to);
    builtIns.push({ kind: Kind.SCALAR_TYPE_DEFINITION, name: { kind: Kind.NAME, value: n } });
  }
  const toRemote = new Map([...toClient].map(([r, cl]) => [cl, r]));
  const fieldsBack = new Map<string, Map<string, string>>();
  const renamed = [...types, ...builtIns].map((t) => {
    const parent = t.name.value;
    const fa = c.fieldNames[parent];
    const back = new Map<string, string>();
    fieldsBack.set(toClient.get(parent) ?? parent, back);
    return visit(t, {
      NamedType: (node) => {
        const to = toClient.get(node.name.value);
        return to === undefined || to === node.name.value ? undefined : { ...node, name: { ...node.name, value: to } };
      },
      ObjectTypeDefinition: (node) => ({ ...node, name: { ...node.name, value: toClient.get(node.name.value) ?? node.name.value } }),
      InterfaceTypeDefinition: (node) => ({ ...node, name: { ...node.name, value: toClient.get(node.name.value) ?? node.name.value } }),
      UnionTypeDefinition: (node) => ({ ...node, name: { ...node.name, value: toClient.get(node.name.value) ?? node.name.value } }),
      EnumTypeDefinition: (node) => ({ ...node, name: { ...node.name, value: toClient.get(node.name.value) ?? node.name.value } }),
      InputObjectTypeDefinition: (node) => ({ ...node, name: { ...node.name, value: toClient.get(node.name.value) ?? node.name.value } }),
      ScalarTypeDefinition: (node) => ({ ...node, name: { ...node.name, value: toClient.get(node.name.value) ?? node.name.value } }),
      FieldDefinition: (node) => {
        if (!fa || (t.kind !== Kind.OBJECT_TYPE_DEFINITION && t.kind !== Kind.INTERFACE_TYPE_DEFINITION)) return undefined;
        const to = affixed(node.name.value, fa, !node.name.value.startsWith('__'));
        back.set(to, node.name.value);
        return to === node.name.value ? undefined : { ...node, name: { ...node.name, value: to } };
      },
    });
  });
  return {
    types: renamed,
    renaming: {
      identity: false,
      typeToClient: (n) => toClient.get(n) ?? n,
      typeToRemote: (n) => toRemote.get(n) ?? n,
      fieldToRemote: (p, f) => fieldsBack.get(p)?.get(f) ?? f,
    },
  };
}

// Whether a type of `types` names `name` (a field's, an argument's or an input field's type).
function usesType(types: readonly TypeDefinitionNode[], name: string): boolean {
  let found = false;
  for (const t of types) visit(t, { NamedType: (node) => { if (node.name.value === name) found = true; } });
  return found;
}
