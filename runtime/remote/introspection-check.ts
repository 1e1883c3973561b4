// The checks Hasura makes of a remote's interfaces and unions while it builds the remote's parsers
// (GraphQL/Schema/Remote.hs: remoteSchemaObject, remoteSchemaInterface, remoteSchemaUnion): walked
// from the root types as Hasura walks them, depth first, each type once; the first problem is the
// reason the remote schema is refused, in Hasura's words. graphql-js's buildClientSchema would
// otherwise accept most of these or refuse them in its own words.

/** A type reference of an introspection answer. */
interface TypeRef { readonly kind: string; readonly name: string | null; readonly ofType?: TypeRef | null }
interface InputValue { readonly name: string; readonly type: TypeRef }
interface Field { readonly name: string; readonly args?: readonly InputValue[]; readonly type: TypeRef }
interface FullType {
  readonly kind: string;
  readonly name: string;
  readonly fields?: readonly Field[] | null;
  readonly inputFields?: readonly InputValue[] | null;
  readonly interfaces?: readonly TypeRef[] | null;
  readonly possibleTypes?: readonly TypeRef[] | null;
}
interface Schema {
  readonly queryType?: { readonly name: string } | null;
  readonly mutationType?: { readonly name: string } | null;
  readonly subscriptionType?: { readonly name: string } | null;
  readonly types?: readonly FullType[];
}

import { customizationProblem } from './customization-check.js';
import type { RemoteCustomization } from './definition.js';

class Refused extends Error {}
const sq = (s: string): string => `'${s}'`;
const dq = (s: string): string => `"${s}"`;

/**
 * Hasura's reason for refusing the remote's `__schema` with this customization, or null: in
 * Hasura's order, the decoding, the customization (customization-check.ts), then the interfaces
 * and unions.
 */
export function introspectionProblem(schema: unknown, customization: RemoteCustomization | null): string | null {
  const s = schema as Schema | null;
  if (s === null || typeof s !== 'object' || !Array.isArray(s.types)) return null;
  const unnamed = unnamedMember(s.types);
  if (unnamed) return unnamed;
  const customized = customizationProblem(s, customization);
  if (customized) return customized;
  const byName = new Map(s.types.map((t) => [t.name, t]));
  const seen = new Set<string>();
  try {
    for (const root of [s.queryType, s.mutationType, s.subscriptionType]) {
      const t = root ? byName.get(root.name) : undefined;
      if (t) walk(t, byName, seen);
    }
  } catch (e) {
    if (e instanceof Refused) return e.message;
    throw e;
  }
  return null;
}

// Hasura decodes a member type as a name: a wrapped type (no name) fails the decoding, worded as
// aeson words it with the JSON path inside __schema.
function unnamedMember(types: readonly FullType[]): string | null {
  for (const [i, t] of types.entries()) {
    for (const [j, p] of (t.possibleTypes ?? []).entries()) {
      if (p.name === null || p.name === undefined) {
        return `Error in $.types[${i}].possibleTypes[${j}].name: parsing Name failed, expected String, but encountered Null`;
      }
    }
  }
  return null;
}

function named(ref: TypeRef): string {
  let r: TypeRef = ref;
  while (r.ofType) r = r.ofType;
  return r.name ?? '';
}

function show(ref: TypeRef): string {
  if (ref.kind === 'NON_NULL') return `${show(ref.ofType as TypeRef)}!`;
  if (ref.kind === 'LIST') return `[${show(ref.ofType as TypeRef)}]`;
  return ref.name ?? '';
}

function walk(t: FullType, byName: Map<string, FullType>, seen: Set<string>): void {
  if (seen.has(t.name)) return;
  seen.add(t.name);
  const visitField = (f: Field): void => {
    for (const a of f.args ?? []) visitName(named(a.type), byName, seen);
    visitName(named(f.type), byName, seen);
  };
  switch (t.kind) {
    case 'OBJECT': {
      const fields = t.fields ?? [];
      fields.forEach(visitField);
      const ifaces = (t.interfaces ?? []).map((i) => {
        const found = byName.get(i.name ?? '');
        if (!found || found.kind !== 'INTERFACE') throw new Refused(`Could not find interface ${sq(i.name ?? '')} implemented by Object type ${sq(t.name)}`);
        return found;
      });
      for (const i of ifaces) walk(i, byName, seen);
      for (const i of ifaces) implementsFields(t, i, byName);
      return;
    }
    case 'INTERFACE': {
      const fields = t.fields ?? [];
      fields.forEach(visitField);
      for (const p of t.possibleTypes ?? []) walk(member(t.name, p.name ?? '', byName), byName, seen);
      if (fields.length === 0) throw new Refused(`List of fields cannot be empty for interface ${sq(t.name)}`);
      return;
    }
    case 'UNION': {
      const members = (t.possibleTypes ?? []).map((p) => member(t.name, p.name ?? '', byName));
      for (const m of members) walk(m, byName, seen);
      if (members.length === 0) throw new Refused(`List of member types cannot be empty for union type ${sq(t.name)}`);
      return;
    }
    case 'INPUT_OBJECT':
      for (const f of t.inputFields ?? []) visitName(named(f.type), byName, seen);
      return;
    default:
      return;
  }
}

function visitName(name: string, byName: Map<string, FullType>, seen: Set<string>): void {
  const t = byName.get(name);
  if (t) walk(t, byName, seen);
}

// Hasura words a missing or non-object member of an interface's possible types as a union's.
function member(parent: string, name: string, byName: Map<string, FullType>): FullType {
  const t = byName.get(name);
  if (t && t.kind === 'OBJECT') return t;
  if (t && t.kind === 'INTERFACE') throw new Refused(`Union type ${sq(parent)} can only include object types. It cannot include ${sq(name)}`);
  throw new Refused(`Could not find type ${sq(name)}, which is defined as a member type of Union ${sq(parent)}`);
}

function implementsFields(obj: FullType, iface: FullType, byName: Map<string, FullType>): void {
  const own = new Map((obj.fields ?? []).map((f) => [f.name, f]));
  for (const want of iface.fields ?? []) {
    const f = own.get(want.name);
    const at = `${sq(iface.name)}.${dq(want.name)}`;
    if (!f) throw new Refused(`Interface field ${at} expected, but ${sq(obj.name)} does not provide it`);
    if (!subType(f.type, want.type, byName)) {
      throw new Refused(`The type of Object field ${sq(obj.name)}.${dq(f.name)} (${show(f.type)}) is not the same type/sub type of Interface field ${at} (${show(want.type)})`);
    }
    const args = new Map((f.args ?? []).map((a) => [a.name, a]));
    for (const wantArg of want.args ?? []) {
      const a = args.get(wantArg.name);
      if (!a) throw new Refused(`Interface field argument ${at}(${dq(wantArg.name)}:) required, but Object field ${sq(obj.name)}.${dq(f.name)} does not provide it`);
      if (show(a.type) !== show(wantArg.type)) {
        throw new Refused(`Interface field argument ${at}(${dq(wantArg.name)}:) expects type ${show(wantArg.type)}, but ${sq(obj.name)}.${dq(f.name)}(${dq(wantArg.name)}:) has type ${show(a.type)}`);
      }
    }
    const ifaceArgs = new Set((want.args ?? []).map((a) => a.name));
    for (const a of f.args ?? []) {
      if (!ifaceArgs.has(a.name) && a.type.kind === 'NON_NULL') {
        throw new Refused(`Object field argument ${sq(obj.name)}.${dq(f.name)}(${dq(a.name)}:) is of required type ${show(a.type)}, but is not provided by Interface field ${at}`);
      }
    }
  }
}

// Hasura's validateSubType: lists match lists whatever their nullability; a non-null named type
// may stand for a nullable one; otherwise the nullability is the same and the named types are the
// same, or an object stands for an interface it is a possible type of, or for any union.
function subType(x: TypeRef, y: TypeRef, byName: Map<string, FullType>): boolean {
  const nx = x.kind === 'NON_NULL';
  const ny = y.kind === 'NON_NULL';
  const bx = nx ? (x.ofType as TypeRef) : x;
  const by = ny ? (y.ofType as TypeRef) : y;
  if (bx.kind === 'LIST' && by.kind === 'LIST') return subType(bx.ofType as TypeRef, by.ofType as TypeRef, byName);
  if (bx.kind === 'LIST' || by.kind === 'LIST') return false;
  if (nx !== ny && !(nx && !ny)) return false;
  const tx = byName.get(bx.name ?? '');
  const ty = byName.get(by.name ?? '');
  if (!tx || !ty) return false;
  if (tx === ty) return true;
  if (tx.kind === 'OBJECT' && ty.kind === 'INTERFACE') return (ty.possibleTypes ?? []).some((p) => p.name === tx.name);
  return tx.kind === 'OBJECT' && ty.kind === 'UNION';
}
