// Relationships from a remote schema's object types (`create_remote_schema_remote_relationship`)
// to tables (`to_source`) or to another remote's field (`to_remote_schema`): the field is not the
// remote's, so a call leaves it out and asks instead for the type's join fields under reserved
// aliases; once the remote has answered, every object carrying them is a row to join, and one
// query of the target table (as the role), or one call of the other remote, answers them all.

import { isObjectType, Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLCompositeType, type SelectionNode, type SelectionSetNode } from 'graphql';
import type { Json, TableId } from '../bundle/index.js';
import { clientSchemaOf } from './rename.js';
import type { RemoteView } from './view.js';

/** A relationship of a remote's type, checked against the remote and the model: to a table, or to another remote's field. */
export type SchemaJoin = SchemaJoinToTable | SchemaJoinToRemote;

interface SchemaJoinBase {
  readonly remote: string;
  /** The type's name in the remote's own names. */
  readonly typeName: string;
  readonly name: string;
}

export interface SchemaJoinToTable extends SchemaJoinBase {
  readonly kind: 'source';
  readonly target: TableId;
  readonly cardinality: 'object' | 'array';
  /** The type's field (remote name) -> the table's column. */
  readonly mapping: readonly (readonly [string, string])[];
}

export interface SchemaJoinToRemote extends SchemaJoinBase {
  readonly kind: 'remote_schema';
  /** The remote schema called. */
  readonly remoteSchema: string;
  /** The type's fields (remote names) whose values the call's `$field` arguments take. */
  readonly lhsFields: readonly string[];
  readonly remoteField: Json;
}

/** The fields of the remote's type a join reads, in order (the `<prefix><i>` aliases follow it). */
export function joinFieldsOf(j: SchemaJoin): readonly string[] {
  return j.kind === 'source' ? j.mapping.map(([f]) => f) : j.lhsFields;
}

/** One place a request asks a schema relationship: the answer's objects with `<prefix><i>` keys are its rows. */
export interface SchemaJoinSite {
  readonly prefix: string;
  readonly join: SchemaJoin;
  /** The client's field (its arguments and selection, in the table's names). */
  readonly node: FieldNode;
  /** The response key the joined value goes under. */
  readonly key: string;
}

/**
 * The fields and fragments of a call with the relationship fields taken out and their join fields
 * asked under `kiln__rj<n>_<i>`; `root` is the client type the fields are selected on.
 */
export function stripSchemaJoins(view: RemoteView, joins: readonly SchemaJoin[], fields: readonly FieldNode[], root: string | null,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>): { fields: FieldNode[]; fragments: Map<string, FragmentDefinitionNode>; sites: SchemaJoinSite[] } {
  if (joins.length === 0) return { fields: [...fields], fragments: new Map(fragments), sites: [] };
  const st = stripper(view, joins);
  const out = fields.flatMap((f) => st.field(f, st.typed(root)));
  return { fields: out, fragments: st.fragments(fragments), sites: st.sites };
}

/** The same for a selection on the remote type `remoteType` (a table's relationship to the remote asks it). */
export function stripSchemaJoinsIn(view: RemoteView, joins: readonly SchemaJoin[], set: SelectionSetNode, remoteType: string,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>): { set: SelectionSetNode; fragments: Map<string, FragmentDefinitionNode>; sites: SchemaJoinSite[] } {
  if (joins.length === 0) return { set, fragments: new Map(fragments), sites: [] };
  const st = stripper(view, joins);
  const out = st.set(set, st.typed(view.renaming.typeToClient(remoteType)));
  return { set: out, fragments: st.fragments(fragments), sites: st.sites };
}

function stripper(view: RemoteView, joins: readonly SchemaJoin[]) {
  const sites: SchemaJoinSite[] = [];
  const schema = clientSchemaOf(view);
  const r = view.renaming;
  const byType = new Map<string, SchemaJoin[]>();
  for (const j of joins) byType.set(r.typeToClient(j.typeName), [...(byType.get(r.typeToClient(j.typeName)) ?? []), j]);
  const typed = (name: string | null): GraphQLCompositeType | null => {
    const t = name === null ? undefined : schema.getType(name);
    return t && 'getFields' in t ? t as GraphQLCompositeType : t && t.astNode?.kind === Kind.UNION_TYPE_DEFINITION ? t as GraphQLCompositeType : null;
  };
  const clientField = (type: string, remoteField: string): string => {
    const t = schema.getType(type);
    const names = t && isObjectType(t) ? Object.keys(t.getFields()) : [];
    return names.find((n) => r.fieldToRemote(type, n) === remoteField) ?? remoteField;
  };
  const field = (f: FieldNode, parent: GraphQLCompositeType | null): FieldNode[] => {
    const join = parent ? byType.get(parent.name)?.find((j) => j.name === f.name.value) : undefined;
    if (join) {
      const prefix = `kiln__rj${sites.length}_`;
      sites.push({ prefix, join, node: f, key: f.alias?.value ?? f.name.value });
      return joinFieldsOf(join).map((remoteField, i) => ({ kind: Kind.FIELD, alias: { kind: Kind.NAME, value: `${prefix}${i}` },
        name: { kind: Kind.NAME, value: clientField(parent!.name, remoteField) } }));
    }
    if (!f.selectionSet || !parent || !('getFields' in parent)) return [f];
    const def = (parent.getFields() as Record<string, { type: unknown } | undefined>)[f.name.value];
    return [{ ...f, selectionSet: set(f.selectionSet, typed(namedOf(def?.type))) }];
  };
  const set = (s: SelectionSetNode, parent: GraphQLCompositeType | null): SelectionSetNode => ({
    ...s,
    selections: s.selections.flatMap((x): SelectionNode[] => {
      if (x.kind === Kind.FIELD) return field(x, parent);
      if (x.kind === Kind.INLINE_FRAGMENT) return [{ ...x, selectionSet: set(x.selectionSet, x.typeCondition ? typed(x.typeCondition.name.value) : parent) }];
      return [x];
    }),
  });
  const fragmentsOf = (fragments: ReadonlyMap<string, FragmentDefinitionNode>): Map<string, FragmentDefinitionNode> =>
    new Map([...fragments].map(([n, d]) => [n, { ...d, selectionSet: set(d.selectionSet, typed(d.typeCondition.name.value)) }]));
  return { sites, typed, field, set, fragments: fragmentsOf };
}

function namedOf(t: unknown): string | null {
  let x = t as { ofType?: unknown; name?: string } | undefined;
  while (x && x.ofType) x = x.ofType as typeof x;
  return x?.name ?? null;
}
