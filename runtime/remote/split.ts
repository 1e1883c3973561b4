// Splitting an operation between the tables and the remote schemas: its root fields (through
// root-level fragments) go to the SQL planner or to the remote that owns them. Each remote gets
// one document with its fields, and only the variables and fragments those fields use, written
// back in the remote's own names.

import {
  Kind, print, visit, type DirectiveNode, type DocumentNode, type FieldNode, type FragmentDefinitionNode,
  type OperationDefinitionNode, type SelectionNode, type SelectionSetNode,
} from 'graphql';
import type { HttpStep } from '../sql/index.js';
import { applyPresets, type WithPresets } from './presets.js';
import { toRemoteNames } from './rename.js';
import { stripSchemaJoins, type SchemaJoin, type SchemaJoinSite } from './schema-joins.js';
import type { RemoteView } from './view.js';

/** The remote part of an operation: one call, the response keys it answers. */
export interface RemotePart {
  readonly view: RemoteView;
  readonly step: HttpStep;
  readonly keys: readonly string[];
  /** The variables the call sends. */
  readonly variables: readonly string[];
  /** Client type names to write back into `__typename` values (customized remotes). */
  readonly renamesTypenames: boolean;
  /** The response keys `__typename` is asked under in this call (aliases included). */
  readonly typenameKeys: ReadonlySet<string>;
  /**
   * With `root_fields_namespace`: each namespace field asked (its key), the type name its
   * `__typename` answers, and its sub-fields' keys with the alias each was sent under (null: `__typename`).
   */
  readonly namespaces?: readonly NamespaceAsk[];
  /** The role's presets in this call (remote schema permissions). */
  readonly presets?: WithPresets;
  /** Relationships from the remote's types to tables asked in this call, joined once it answers. */
  readonly joins?: readonly SchemaJoinSite[];
  /** Nothing to ask the remote (namespace fields asking only `__typename`): no call is made. */
  readonly noCall?: boolean;
}

/** One namespace field of a request, rebuilt from the remote's root fields. */
export interface NamespaceAsk {
  readonly key: string;
  readonly typeName: string;
  readonly fields: readonly (readonly [key: string, alias: string | null])[];
}

/** An operation split: the part the SQL planner runs (null: none), the remote calls, the keys in order. */
export interface SplitOperation {
  readonly local: OperationDefinitionNode | null;
  readonly remotes: readonly RemotePart[];
  readonly keys: readonly string[];
}

/** Which remote owns a root field of this operation type (undefined: a table's or the engine's). */
export type RootOwner = (operation: 'query' | 'mutation', field: string) => RemoteView | undefined;

/** Splits `operation`; null when no root field belongs to a remote. */
export function splitOperation(document: DocumentNode, operation: OperationDefinitionNode, owner: RootOwner,
  joinsFor: (view: RemoteView) => readonly SchemaJoin[] = () => []): SplitOperation | null {
  if (operation.operation === 'subscription') return null;
  const op = operation.operation;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const fields = flatten(operation.selectionSet, fragments, [], new Set());
  if (!fields.some((f) => owner(op, f.name.value))) return null;
  const keys: string[] = [];
  const local: FieldNode[] = [];
  const byRemote = new Map<string, { view: RemoteView; fields: FieldNode[]; keys: string[] }>();
  for (const f of fields) {
    const key = f.alias?.value ?? f.name.value;
    if (!keys.includes(key)) keys.push(key);
    const view = owner(op, f.name.value);
    if (!view) {
      local.push(f);
      continue;
    }
    const part = byRemote.get(view.def.name) ?? { view, fields: [], keys: [] };
    byRemote.set(view.def.name, part);
    part.fields.push(f);
    if (!part.keys.includes(key)) part.keys.push(key);
  }
  const remotes = [...byRemote.values()].map((p) => remotePart(p.view, p.fields, p.keys, operation, fragments, joinsFor(p.view)));
  const localOp = local.length === 0 ? null : { ...operation, selectionSet: { kind: Kind.SELECTION_SET, selections: local } as SelectionSetNode };
  return { local: localOp, remotes, keys };
}

// Root fields through root-level fragments, each carrying the directives of the fragments it came through.
function flatten(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, directives: readonly DirectiveNode[],
  seen: ReadonlySet<string>): FieldNode[] {
  const out: FieldNode[] = [];
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      out.push(directives.length === 0 ? s : { ...s, directives: [...(s.directives ?? []), ...directives] });
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      out.push(...flatten(s.selectionSet, fragments, [...directives, ...(s.directives ?? [])], seen));
    } else {
      const frag = fragments.get(s.name.value);
      if (!frag || seen.has(s.name.value)) continue;
      out.push(...flatten(frag.selectionSet, fragments, [...directives, ...(s.directives ?? [])], new Set([...seen, s.name.value])));
    }
  }
  return out;
}

// A namespace field's sub-fields become the remote's root fields, aliased `<key>__<sub key>` so that
// several namespace fields of one request do not clash.
function unwrapNamespaces(view: RemoteView, fields: readonly FieldNode[], fragments: ReadonlyMap<string, FragmentDefinitionNode>, mutation: boolean):
  { fields: FieldNode[]; namespaces: NamespaceAsk[] } {
  const root = (mutation ? view.roots.mutation : view.roots.query)[0];
  const typeName = root?.type.kind === Kind.NAMED_TYPE ? root.type.name.value : '';
  const out: FieldNode[] = [];
  const namespaces: NamespaceAsk[] = [];
  for (const f of fields) {
    const key = f.alias?.value ?? f.name.value;
    const subs = f.selectionSet ? flatten(f.selectionSet, fragments, f.directives ?? [], new Set()) : [];
    const asked: [string, string | null][] = [];
    for (const s of subs) {
      const sk = s.alias?.value ?? s.name.value;
      if (s.name.value === '__typename') { asked.push([sk, null]); continue; }
      const alias = `${key}__${sk}`;
      if (!asked.some(([k]) => k === sk)) asked.push([sk, alias]);
      out.push({ ...s, alias: { kind: Kind.NAME, value: alias } });
    }
    const ns = namespaces.find((n) => n.key === key);
    if (ns) (ns.fields as [string, string | null][]).push(...asked.filter(([k]) => !ns.fields.some(([x]) => x === k)));
    else namespaces.push({ key, typeName, fields: asked });
  }
  return { fields: out, namespaces };
}

function remotePart(view: RemoteView, asked: readonly FieldNode[], keys: readonly string[], operation: OperationDefinitionNode,
  allFragments: ReadonlyMap<string, FragmentDefinitionNode>, joins: readonly SchemaJoin[]): RemotePart {
  const mutation = operation.operation === 'mutation';
  const namespaced = view.def.customization?.rootFieldsNamespace ? unwrapNamespaces(view, asked, allFragments, mutation) : null;
  // Relationships to tables are not the remote's: taken out, their join fields asked instead.
  const remoteRoot = (mutation ? view.schema.getMutationType() : view.schema.getQueryType())?.name ?? null;
  const root = namespaced ? (remoteRoot === null ? null : view.renaming.typeToClient(remoteRoot)) : mutation ? 'mutation_root' : 'query_root';
  const stripped = stripSchemaJoins(view, joins, namespaced ? namespaced.fields : asked, root, allFragments);
  const fields = stripped.fields;
  const fragments = stripped.fragments;
  const usedFragments = new Set<string>();
  const usedVariables = new Set<string>();
  const typenameKeys = new Set<string>(['__typename']);
  const walk = (nodes: readonly SelectionNode[] | readonly FieldNode[]): void => {
    for (const n of nodes) {
      visit(n, {
        Field: (f) => { if (f.name.value === '__typename') typenameKeys.add(f.alias?.value ?? f.name.value); },
        Variable: (v) => { usedVariables.add(v.name.value); },
        FragmentSpread: (s) => {
          if (usedFragments.has(s.name.value)) return;
          usedFragments.add(s.name.value);
          const f = fragments.get(s.name.value);
          if (f) walk(f.selectionSet.selections);
        },
      });
    }
  };
  walk(fields);
  const op: OperationDefinitionNode = {
    ...operation,
    variableDefinitions: (operation.variableDefinitions ?? []).filter((d) => usedVariables.has(d.variable.name.value)),
    selectionSet: { kind: Kind.SELECTION_SET, selections: fields },
  };
  const doc: DocumentNode = { kind: Kind.DOCUMENT, definitions: [op, ...[...usedFragments].flatMap((n) => fragments.get(n) ?? [])] };
  const named = toRemoteNames(doc, view);
  const presets = view.presets ? applyPresets(named, view.schema, view.presets) : null;
  const remoteDoc = presets ? presets.doc : named;
  const variables = [...usedVariables].filter((n) => op.variableDefinitions!.some((d) => d.variable.name.value === n)).sort();
  const step: HttpStep = {
    kind: 'http', id: `remote:${view.def.name}`, target: { kind: 'remote_schema', name: view.def.name }, body: print(remoteDoc),
    variables: Object.fromEntries([
      ...variables.map((n) => [n, { kind: 'variable', name: n, path: ['variableValues', n] }] as const),
      ...[...presets?.sessionVariables ?? []].map(([n, s]) => [n, { kind: 'session', name: s }] as const),
    ]),
  };
  return { view, step, keys, variables, renamesTypenames: !view.renaming.identity, typenameKeys, ...(namespaced ? { namespaces: namespaced.namespaces } : {}),
    ...(presets ? { presets } : {}), ...(stripped.sites.length > 0 ? { joins: stripped.sites } : {}), ...(fields.length === 0 ? { noCall: true } : {}) };
}
