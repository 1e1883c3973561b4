// A remote schema's customization checked against its introspection as Hasura checks it before
// building the remote's parsers (GraphQL/RemoteServer.hs validateSchemaCustomizations): an
// interface's fields must be renamed as each of its possible types renames them, and no two types,
// nor two fields of one object or interface, may end up with the same name. The first problem is
// the reason the remote schema is refused, in Hasura's words.

import type { NameAffixes, RemoteCustomization } from './definition.js';

interface RawField { readonly name: string }
interface RawType {
  readonly kind: string;
  readonly name: string;
  readonly fields?: readonly RawField[] | null;
  readonly possibleTypes?: readonly { readonly name: string | null }[] | null;
}
interface RawSchema {
  readonly queryType?: { readonly name: string } | null;
  readonly mutationType?: { readonly name: string } | null;
  readonly subscriptionType?: { readonly name: string } | null;
  readonly types?: readonly RawType[];
}

const BUILT_IN = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);
const dq = (s: string): string => `"${s}"`;
const dqList = (names: readonly string[]): string => names.map(dq).join(', ');

function affixed(name: string, a: NameAffixes): string {
  return a.mapping[name] ?? `${a.prefix}${name}${a.suffix}`;
}

function duplicates(names: readonly string[]): string[] {
  return [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
}

/** Hasura's reason for refusing `customization` of the remote whose `__schema` this is, or null. */
export function customizationProblem(schema: unknown, c: RemoteCustomization | null): string | null {
  const s = schema as RawSchema | null;
  if (!c || s === null || typeof s !== 'object' || !Array.isArray(s.types)) return null;
  const roots = new Set([s.queryType?.name, s.mutationType?.name, s.subscriptionType?.name].filter((n): n is string => typeof n === 'string'));
  // Root types keep their names unless there is a namespace, built-in scalars and `__` types
  // unless mapped (Hasura's getCustomizer).
  const typeName = (n: string): string => {
    const t = c.typeNames;
    if (t === null) return n;
    const mapped = t.mapping[n];
    if (mapped !== undefined) return mapped;
    const protectedName = n.startsWith('__') || BUILT_IN.has(n) || (c.rootFieldsNamespace === null && roots.has(n));
    return protectedName ? n : `${t.prefix}${n}${t.suffix}`;
  };
  const fieldName = (parent: string, f: string): string => {
    const a = c.fieldNames[parent];
    return a ? affixed(f, a) : f;
  };
  for (const t of s.types) {
    if (t.kind !== 'INTERFACE') continue;
    for (const p of t.possibleTypes ?? []) {
      for (const f of t.fields ?? []) {
        const mine = fieldName(t.name, f.name);
        const theirs = fieldName(p.name ?? '', f.name);
        if (mine !== theirs) {
          return `Remote schema customization inconsistency: field name mapping for field ${dq(f.name)} of interface ${dq(t.name)} is inconsistent `
            + `with mapping for type ${dq(p.name ?? '')}. Interface field name maps to ${dq(mine)}. Type field name maps to ${dq(theirs)}.`;
        }
      }
    }
  }
  const typeDups = duplicates(s.types.map((t) => typeName(t.name)));
  if (typeDups.length > 0) return `Type name mappings are not distinct; the following types appear more than once: ${dqList(typeDups)}`;
  for (const t of s.types) {
    if (t.kind !== 'INTERFACE' && t.kind !== 'OBJECT') continue;
    const dups = duplicates((t.fields ?? []).map((f: RawField) => fieldName(t.name, f.name)));
    if (dups.length > 0) {
      const kind = t.kind === 'INTERFACE' ? 'interface' : 'object';
      return `Field name mappings for ${kind} type ${dq(t.name)} are not distinct; the following fields appear more than once: ${dqList(dups)}`;
    }
  }
  return null;
}
