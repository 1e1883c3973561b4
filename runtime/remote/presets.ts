// `@preset` in a remote schema permission (part A 2.7 rules 3–4): an argument or input object
// field with a preset is hidden from the role and filled in when the remote is called — a literal,
// or (a string starting `x-svc-`, unless `static: true`) the session variable of that name.

import {
  Kind, isEnumType, print, visit, type ArgumentNode, type DocumentNode, type FieldNode, type GraphQLSchema, type ObjectFieldNode,
  type SelectionSetNode, type ValueNode, type VariableDefinitionNode,
} from 'graphql';
import type { Session } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';

/** One preset: a literal, or a session variable (lower case) of the given GraphQL type. */
export interface Preset {
  readonly value: ValueNode;
  readonly session: string | null;
  /** The argument's or input field's type as printed in the permission (`String!`). */
  readonly type: string;
}

/** The presets of a role's permission: arguments by `Type.field`, input fields by input type. */
export interface Presets {
  readonly args: ReadonlyMap<string, ReadonlyMap<string, Preset>>;
  readonly inputFields: ReadonlyMap<string, ReadonlyMap<string, Preset>>;
}

function presetOf(node: { readonly directives?: readonly { name: { value: string }; arguments?: readonly ArgumentNode[] }[]; readonly type: Parameters<typeof print>[0] }): Preset | null {
  const d = node.directives?.find((x) => x.name.value === 'preset');
  if (!d) return null;
  const value = d.arguments?.find((a) => a.name.value === 'value')?.value ?? { kind: Kind.NULL };
  const isStatic = d.arguments?.find((a) => a.name.value === 'static')?.value;
  const literal = isStatic?.kind === Kind.BOOLEAN && isStatic.value;
  const session = !literal && value.kind === Kind.STRING && value.value.toLowerCase().startsWith('x-svc-') ? value.value.toLowerCase() : null;
  return { value, session, type: print(node.type) };
}

/** The permission document without its preset arguments and input fields, and the presets taken out. */
export function takePresets(doc: DocumentNode): { doc: DocumentNode; presets: Presets } {
  const args = new Map<string, Map<string, Preset>>();
  const inputFields = new Map<string, Map<string, Preset>>();
  const stripped = visit(doc, {
    ObjectTypeDefinition: (t) => ({ ...t, fields: t.fields?.map((f) => {
      const kept = (f.arguments ?? []).filter((a) => {
        const p = presetOf(a);
        if (!p) return true;
        const key = `${t.name.value}.${f.name.value}`;
        args.set(key, new Map([...(args.get(key) ?? []), [a.name.value, p]]));
        return false;
      });
      return { ...f, arguments: kept };
    }) }),
    InputObjectTypeDefinition: (t) => ({ ...t, fields: t.fields?.filter((f) => {
      const p = presetOf(f);
      if (!p) return true;
      inputFields.set(t.name.value, new Map([...(inputFields.get(t.name.value) ?? []), [f.name.value, p]]));
      return false;
    }) }),
  });
  return { doc: stripped, presets: { args, inputFields } };
}

/** A remote call's document with the presets filled in; session values travel as variables. */
export interface WithPresets {
  readonly doc: DocumentNode;
  /** Variables added for session presets: name → session variable. */
  readonly sessionVariables: ReadonlyMap<string, string>;
  /** Variables added for session presets: name → the argument's or field's type as printed (`Int!`). */
  readonly sessionTypes: ReadonlyMap<string, string>;
  /** Client variables whose input objects take preset fields at call time: name → input type. */
  readonly mergeVariables: ReadonlyMap<string, string>;
}

/**
 * Fills the presets into a document written in the remote's names; `schema` is the role's
 * (restricted) schema. `bound`: arguments a remote relationship binds, by `Parent.field` (remote
 * names), whose given value stays.
 */
export function applyPresets(doc: DocumentNode, schema: GraphQLSchema, presets: Presets,
  bound: ReadonlyMap<string, ReadonlySet<string>> = new Map()): WithPresets {
  const sessionVariables = new Map<string, string>();
  const sessionTypes = new Map<string, string>();
  const mergeVariables = new Map<string, string>();
  const extraDefs: VariableDefinitionNode[] = [];
  const valueOf = (p: Preset): ValueNode => {
    if (p.session === null) return p.value;
    let name = [...sessionVariables].find(([, s]) => s === p.session)?.[0];
    if (!name) {
      name = `kiln_preset_${sessionVariables.size}`;
      sessionVariables.set(name, p.session);
      sessionTypes.set(name, p.type);
      const type = parseType(p.type);
      extraDefs.push({ kind: Kind.VARIABLE_DEFINITION, variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: name } }, type });
    }
    return { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: name } };
  };
  // An input value of input type `type` with its preset fields merged (literal objects; variables at call time).
  const merge = (v: ValueNode, type: string): ValueNode => {
    const fields = presets.inputFields.get(type);
    if (v.kind === Kind.VARIABLE) {
      if (hasPresets(type)) mergeVariables.set(v.name.value, type);
      return v;
    }
    if (v.kind === Kind.LIST) return { ...v, values: v.values.map((x) => merge(x, type)) };
    if (v.kind !== Kind.OBJECT) return v;
    const t = schema.getType(type);
    const inner = t && 'getFields' in t ? t.getFields() as Record<string, { type: unknown }> : {};
    const given: ObjectFieldNode[] = v.fields.map((f) => ({ ...f, value: merge(f.value, namedOf(inner[f.name.value]?.type)) }));
    const added: ObjectFieldNode[] = [...(fields ?? [])].filter(([n]) => !v.fields.some((f) => f.name.value === n))
      .map(([n, p]) => ({ kind: Kind.OBJECT_FIELD, name: { kind: Kind.NAME, value: n }, value: valueOf(p) }));
    return { ...v, fields: [...given, ...added] };
  };
  const hasPresets = (type: string, seen = new Set<string>()): boolean => {
    if (presets.inputFields.has(type)) return true;
    if (seen.has(type)) return false;
    seen.add(type);
    const t = schema.getType(type);
    return t !== undefined && 'getFields' in t && Object.values(t.getFields() as Record<string, { type: unknown }>).some((f) => hasPresets(namedOf(f.type), seen));
  };
  const rewrite = (set: SelectionSetNode | undefined, parent: string | null): SelectionSetNode | undefined => {
    if (!set || parent === null) return set;
    return { ...set, selections: set.selections.map((s) => {
      if (s.kind === Kind.FRAGMENT_SPREAD) return s;
      if (s.kind === Kind.INLINE_FRAGMENT) return { ...s, selectionSet: rewrite(s.selectionSet, s.typeCondition?.name.value ?? parent)! };
      return field(s, parent);
    }) };
  };
  const field = (f: FieldNode, parent: string): FieldNode => {
    const t = schema.getType(parent);
    const def = t && 'getFields' in t ? (t.getFields() as Record<string, { type: unknown; args?: readonly { name: string; type: unknown }[] }>)[f.name.value] : undefined;
    const keep = bound.get(`${parent}.${f.name.value}`);
    // A preset wins over any value given for it, but for an argument a remote relationship binds:
    // that value comes from the parent row (tests-py derive_remote_relationship_with_joining_field_containing_preset.yaml).
    const own = [...presets.args.get(`${parent}.${f.name.value}`) ?? []].filter(([n]) => !(keep?.has(n) && (f.arguments ?? []).some((a) => a.name.value === n)));
    const preset = new Set(own.map(([n]) => n));
    const args: ArgumentNode[] = (f.arguments ?? []).filter((a) => !preset.has(a.name.value))
      .map((a) => ({ ...a, value: merge(a.value, namedOf(def?.args?.find((x) => x.name === a.name.value)?.type)) }));
    for (const [n, p] of own) args.push({ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: n }, value: valueOf(p) });
    return { ...f, arguments: args, ...(f.selectionSet ? { selectionSet: rewrite(f.selectionSet, def ? namedOf(def.type) : null)! } : {}) };
  };
  const out = visit(doc, {
    OperationDefinition: (o) => {
      const root = o.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
      return { ...o, selectionSet: rewrite(o.selectionSet, root?.name ?? null)! };
    },
    FragmentDefinition: (d) => ({ ...d, selectionSet: rewrite(d.selectionSet, d.typeCondition.name.value)! }),
  });
  const withDefs = extraDefs.length === 0 ? out : visit(out, {
    OperationDefinition: (o) => ({ ...o, variableDefinitions: [...(o.variableDefinitions ?? []), ...extraDefs] }),
  });
  return { doc: withDefs, sessionVariables, sessionTypes, mergeVariables };
}

function namedOf(t: unknown): string {
  let x = t as { ofType?: unknown; name?: string } | undefined;
  while (x && x.ofType) x = x.ofType as typeof x;
  return x?.name ?? '';
}

function parseType(text: string): VariableDefinitionNode['type'] {
  const m = /^\[(.*)\](!?)$/.exec(text);
  if (m) {
    const list = { kind: Kind.LIST_TYPE, type: parseType(m[1]!) } as const;
    return m[2] ? { kind: Kind.NON_NULL_TYPE, type: list } : list;
  }
  if (text.endsWith('!')) return { kind: Kind.NON_NULL_TYPE, type: parseType(text.slice(0, -1)) as never };
  return { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: text } };
}

/** The values of a call's preset variables, and its client variables with preset input fields merged in. */
export function presetValues(w: WithPresets, schema: GraphQLSchema, presets: Presets, values: { readonly [k: string]: unknown }, session: Session): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  const fromSession = (name: string, type: string): unknown => sessionValue(name, session.variables[name] ?? (name === 'x-svc-role' ? session.role : null), type, schema);
  for (const [name, sessionVar] of w.sessionVariables) out[name] = fromSession(sessionVar, w.sessionTypes.get(name) ?? 'String');
  const literal = (p: Preset): unknown => (p.session !== null ? fromSession(p.session, p.type) : valueFromLiteral(p.value));
  const mergeValue = (v: unknown, type: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => mergeValue(x, type));
    if (v === null || typeof v !== 'object') return v;
    const t = schema.getType(type);
    const fields = t && 'getFields' in t ? t.getFields() as Record<string, { type: unknown }> : {};
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = mergeValue(x, namedOf(fields[k]?.type));
    for (const [k, p] of presets.inputFields.get(type) ?? []) o[k] = literal(p);
    return o;
  };
  for (const [name, type] of w.mergeVariables) if (name in out) out[name] = mergeValue(out[name], type);
  return out;
}

/**
 * A session variable's text as a value of the preset's type, as Hasura's resolveRemoteVariable
 * reads it (GraphQL/Execute/Remote.hs): a session variable the request lacks is an error, and so is
 * text that spells no value of an `Int`, `Float`, `Boolean` or enum argument; other types take the
 * text.
 */
export function sessionValue(name: string, raw: string | null, type: string, schema?: GraphQLSchema): unknown {
  if (raw === null) throw new ApiError('not-found', `${JSON.stringify(name)} session variable expected, but not found`, 400, []);
  const named = type.replace(/[[\]!]/g, '');
  const refused = (what: string): ApiError => new ApiError('coercion-error', `${JSON.stringify(raw)} cannot be coerced into ${what}`, 400, []);
  switch (named) {
    case 'Int': if (!/^\s*-?\d+\s*$/.test(raw)) throw refused('an Int value'); return Number(raw.trim());
    case 'Float': if (!/^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(raw)) throw refused('a Float value'); return Number(raw.trim());
    case 'Boolean': if (raw !== 'true' && raw !== 'false') throw refused('a Boolean value'); return raw === 'true';
    default: {
      const t = schema?.getType(named);
      if (!t || !isEnumType(t)) return raw;
      if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(raw)) throw new ApiError('coercion-error', `${JSON.stringify(raw)} is not a valid GraphQL name`, 400, []);
      if (!t.getValues().some((v) => v.name === raw)) throw new ApiError('coercion-error', `${JSON.stringify(raw)} is not one of the valid enum values`, 400, []);
      return raw;
    }
  }
}

function valueFromLiteral(v: ValueNode): unknown {
  switch (v.kind) {
    case Kind.NULL: return null;
    case Kind.INT: return Number(v.value);
    case Kind.FLOAT: return Number(v.value);
    case Kind.STRING: case Kind.ENUM: return v.value;
    case Kind.BOOLEAN: return v.value;
    case Kind.LIST: return v.values.map(valueFromLiteral);
    case Kind.OBJECT: return Object.fromEntries(v.fields.map((f) => [f.name.value, valueFromLiteral(f.value)]));
    default: return null;
  }
}
