// Stitching remote schemas into a role's schema text: their root fields join query_root and
// mutation_root, their other types are added. A remote whose root field or type clashes with
// what is there already is left out and reported in Hasura's words.

import {
  Kind, parse, print, type DefinitionNode, type DocumentNode, type FieldDefinitionNode, type ObjectTypeDefinitionNode,
  type OperationTypeDefinitionNode, type SchemaDefinitionNode, type TypeDefinitionNode,
} from 'graphql';
import type { RemoteView } from './view.js';

/** A remote left out of the schema, and why. */
export type StitchConflict =
  | { readonly kind: 'type'; readonly remote: string; readonly reason: string }
  /** Root fields already taken: Hasura finds them while building the root type (`found duplicate fields ...`). */
  | { readonly kind: 'root'; readonly remote: string; readonly fields: readonly { readonly name: string; readonly mutation: boolean }[] };

const PLACEHOLDER = 'no_queries_available';

function rootNames(doc: DocumentNode): { query: string; mutation: string; schema: SchemaDefinitionNode | undefined } {
  const schema = doc.definitions.find((d): d is SchemaDefinitionNode => d.kind === Kind.SCHEMA_DEFINITION);
  const of = (op: 'query' | 'mutation', dflt: string): string => schema?.operationTypes.find((o) => o.operation === op)?.type.name.value ?? dflt;
  return { query: of('query', schema ? 'query_root' : 'Query'), mutation: of('mutation', schema ? 'mutation_root' : 'Mutation'), schema };
}

/** The schema text with the remotes stitched in, and the remotes that clash. */
export function stitchSdl(base: string, views: readonly RemoteView[]): { sdl: string; conflicts: StitchConflict[] } {
  if (views.length === 0) return { sdl: base, conflicts: [] };
  const doc = parse(base, { noLocation: true });
  const roots = rootNames(doc);
  const types = new Map<string, TypeDefinitionNode>();
  const others: DefinitionNode[] = [];
  for (const d of doc.definitions) {
    if (d.kind === Kind.SCHEMA_DEFINITION) continue;
    if ('name' in d && d.name && d.kind !== Kind.DIRECTIVE_DEFINITION && d.kind.endsWith('Definition') && !d.kind.endsWith('Extension')) types.set(d.name.value, d as TypeDefinitionNode);
    else others.push(d);
  }
  const rootFields = { query: objectFields(types.get(roots.query)), mutation: objectFields(types.get(roots.mutation)) };
  const conflicts: StitchConflict[] = [];
  let added = { query: 0, mutation: 0 };
  for (const v of views) {
    const clashingTypes = v.types.filter((t) => {
      const have = types.get(t.name.value);
      return have !== undefined && print(stripDescriptions(have)) !== print(stripDescriptions(t));
    }).map((t) => t.name.value);
    if (clashingTypes.length > 0) {
      conflicts.push({ kind: 'type', remote: v.def.name, reason: `types: [ ${clashingTypes.join(', ')} ] have mismatch with current graphql schema. HINT: Types must be same.` });
      continue;
    }
    const clashingFields = [
      ...v.roots.query.filter((f) => rootFields.query.has(f.name.value) && f.name.value !== PLACEHOLDER).map((f) => ({ name: f.name.value, mutation: false })),
      ...v.roots.mutation.filter((f) => rootFields.mutation.has(f.name.value)).map((f) => ({ name: f.name.value, mutation: true }))];
    if (clashingFields.length > 0) {
      conflicts.push({ kind: 'root', remote: v.def.name, fields: clashingFields });
      continue;
    }
    for (const t of v.types) types.set(t.name.value, t);
    for (const f of v.roots.query) rootFields.query.set(f.name.value, f);
    for (const f of v.roots.mutation) rootFields.mutation.set(f.name.value, f);
    added = { query: added.query + v.roots.query.length, mutation: added.mutation + v.roots.mutation.length };
  }
  if (added.query > 0 && rootFields.query.size > 1) rootFields.query.delete(PLACEHOLDER);
  types.set(roots.query, rootObject(roots.query, types.get(roots.query), rootFields.query));
  if (rootFields.mutation.size > 0) types.set(roots.mutation, rootObject(roots.mutation, types.get(roots.mutation), rootFields.mutation));
  const operationTypes: OperationTypeDefinitionNode[] = [...(roots.schema?.operationTypes ?? [opType('query', roots.query)])];
  if (rootFields.mutation.size > 0 && !operationTypes.some((o) => o.operation === 'mutation')) operationTypes.push(opType('mutation', roots.mutation));
  const schemaDef: SchemaDefinitionNode = { kind: Kind.SCHEMA_DEFINITION, operationTypes };
  const out: DocumentNode = { kind: Kind.DOCUMENT, definitions: [schemaDef, ...others, ...types.values()] };
  return { sdl: print(out), conflicts };
}

function objectFields(t: TypeDefinitionNode | undefined): Map<string, FieldDefinitionNode> {
  const m = new Map<string, FieldDefinitionNode>();
  if (t?.kind === Kind.OBJECT_TYPE_DEFINITION) for (const f of t.fields ?? []) m.set(f.name.value, f);
  return m;
}

function rootObject(name: string, was: TypeDefinitionNode | undefined, fields: Map<string, FieldDefinitionNode>): ObjectTypeDefinitionNode {
  const base = was?.kind === Kind.OBJECT_TYPE_DEFINITION ? was : { kind: Kind.OBJECT_TYPE_DEFINITION, name: { kind: Kind.NAME, value: name } } as const;
  return { ...base, fields: [...fields.values()] };
}

function opType(operation: 'query' | 'mutation', name: string): OperationTypeDefinitionNode {
  return { kind: Kind.OPERATION_TYPE_DEFINITION, operation: operation as OperationTypeDefinitionNode['operation'], type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: name } } };
}

function stripDescriptions<T extends TypeDefinitionNode>(t: T): T {
  const fields = 'fields' in t && t.fields ? { fields: (t.fields as readonly { description?: unknown }[]).map((f) => ({ ...f, description: undefined })) } : {};
  const values = 'values' in t && t.values ? { values: t.values.map((f) => ({ ...f, description: undefined })) } : {};
  return { ...t, description: undefined, ...fields, ...values } as T;
}
