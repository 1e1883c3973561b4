// A remote schema permission's document checked against the remote's schema as Hasura checks it
// (RQL/DDL/RemoteSchema/Permission.hs, `validateRemoteSchema`): every type, field, argument,
// enum value and union member the role's document declares must exist upstream with the same
// kind and type; a field keeps every non-nullable argument of the remote's; an object may not
// implement an interface of the document the remote's object does not. The reasons are Hasura's
// words, in its order (duplicate type names, schema definitions, scalars, enums, interfaces,
// unions, input objects, objects; within a kind, the document's order). A check that needs the
// upstream counterpart is skipped when that is missing; every other check still runs, so all the
// reasons are given at once, as Hasura's validation collects them.

import {
  astFromValue, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isScalarType, isUnionType, Kind, print,
  type ConstDirectiveNode, type ConstValueNode, type DefinitionNode, type DocumentNode, type FieldDefinitionNode, type GraphQLArgument,
  type GraphQLField, type GraphQLInputField, type GraphQLSchema, type InputValueDefinitionNode, type TypeNode,
} from 'graphql';

const BUILT_IN_SCALARS = new Set(['ID', 'Int', 'Float', 'Boolean', 'String']);

const dq = (s: string): string => JSON.stringify(s);

/** Hasura's `englishList "and"`: `"a"`, `"a" and "b"`, `"a", "b" and "c"`. */
function englishList(names: readonly string[]): string {
  const quoted = names.map(dq);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]!}`;
}

function duplicates(names: readonly string[]): string[] {
  return [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
}

const isNonNull = (t: TypeNode): boolean => t.kind === Kind.NON_NULL_TYPE;

type Directed = { readonly directives?: readonly ConstDirectiveNode[] | undefined };

/**
 * The directives of one definition: the remote's introspection carries no directives applied to
 * definitions, so any directive other than `@preset` is one the remote does not have; `@preset`
 * only on arguments and input fields, at most once.
 */
function checkDirectives(node: Directed, presetAllowed: boolean, parent: string, parentName: string, out: string[]): void {
  const dirs = node.directives ?? [];
  const others = dirs.filter((d) => d.name.value !== 'preset');
  const dups = duplicates(others.map((d) => d.name.value));
  if (dups.length > 0) {
    out.push(`duplicate directives: ${englishList(dups)}found in the ${dq(parent)} ${dq(parentName)}`);
    return;
  }
  for (const d of others) out.push(`${dq('Directive')}: ${dq(d.name.value)} does not exist in the upstream remote schema`);
  const presets = dirs.filter((d) => d.name.value === 'preset');
  if (presets.length > 1) out.push(`found multiple preset directives at ${dq(parent)} ${dq(parentName)}`);
  else if (presets.length === 1 && !presetAllowed) out.push('Preset directives can be defined only on INPUT_FIELD_DEFINITION or ARGUMENT_DEFINITION');
}

function printedDefault(v: GraphQLArgument | GraphQLInputField): string | null {
  if (v.defaultValue === undefined) return null;
  const ast = astFromValue(v.defaultValue, v.type);
  return ast ? print(ast) : null;
}

/** A field's (or an input object's) arguments against the remote's: Hasura's `validateArguments`. */
function checkArguments(provided: readonly InputValueDefinitionNode[], upstream: readonly (GraphQLArgument | GraphQLInputField)[],
  parentName: string, types: PresetTypes, out: string[]): void {
  const dups = duplicates(provided.map((a) => a.name.value));
  if (dups.length > 0) out.push(`duplicate arguments: ${englishList(dups)}found in the field: ${dq(parentName)}`);
  const givenNonNull = new Set(provided.filter((a) => isNonNull(a.type)).map((a) => a.name.value));
  const missing = upstream.filter((a) => a.type.toString().endsWith('!') && !givenNonNull.has(a.name)).map((a) => a.name);
  if (missing.length > 0) out.push(`field: ${dq(parentName)} expects the following non nullable arguments to be present: ${englishList(missing)}`);
  for (const a of provided) {
    const up = upstream.find((x) => x.name === a.name.value);
    if (!up) { out.push(`input argument ${dq(a.name.value)} does not exist in the input object:${dq(parentName)}`); continue; }
    checkDirectives(a, true, 'Input object argument', parentName, out);
    const given = print(a.type);
    // Hasura names the document's type as the expected one here (its argument order).
    if (given !== up.type.toString()) out.push(`expected type of ${dq(a.name.value)}(${dq('Input object argument')}) to be ${given} but recieved ${up.type.toString()}`);
    const mine = a.defaultValue ? print(a.defaultValue) : null;
    const theirs = printedDefault(up);
    if (mine !== theirs) {
      out.push(`expected default value of input value: ${dq(a.name.value)}of input object ${dq(parentName)} to be ${theirs ?? 'null'} but recieved ${mine ?? 'null'}`);
    }
    const preset = (a.directives ?? []).filter((d) => d.name.value === 'preset');
    if (preset.length === 1) presetDirective(preset[0]!, a.type, a.name.value, types, out);
  }
}

// Hasura stops at the first problem of a preset (`refute` in parsePresetDirective): the reasons
// found so far and this one are all it reports.
class PresetRefused extends Error {}

// The input types a preset may name: the role's document with the built-in scalars added, as
// Hasura's resolveRoleBasedRemoteSchema reads them (lookupInputType).
type PresetTypes = ReadonlyMap<string, PresetType>;
type PresetType = { readonly kind: 'scalar' } | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'input'; readonly fields: readonly InputValueDefinitionNode[] };

function presetTypesOf(doc: DocumentNode): PresetTypes {
  const out = new Map<string, PresetType>();
  for (const d of doc.definitions) {
    if (d.kind === Kind.SCALAR_TYPE_DEFINITION) out.set(d.name.value, { kind: 'scalar' });
    else if (d.kind === Kind.ENUM_TYPE_DEFINITION) out.set(d.name.value, { kind: 'enum', values: (d.values ?? []).map((v) => v.name.value) });
    else if (d.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) out.set(d.name.value, { kind: 'input', fields: d.fields ?? [] });
  }
  for (const b of BUILT_IN_SCALARS) if (!out.has(b)) out.set(b, { kind: 'scalar' });
  return out;
}

const isSessionVariable = (s: string): boolean => s.toLowerCase().startsWith('x-svc-');

// Hasura's parsePresetDirective: a `value` argument, `static` a Boolean when given.
function presetDirective(d: ConstDirectiveNode, type: TypeNode, argName: string, types: PresetTypes, out: string[]): void {
  const refuse = (why: string): never => { out.push(why); throw new PresetRefused(why); };
  const args = d.arguments ?? [];
  if (args.length === 0) refuse('no arguments found in the preset directive');
  const value = args.find((x) => x.name.value === 'value')?.value;
  if (!value) return refuse(`preset argument "value" not found at ${dq(argName)}`);
  const stat = args.find((x) => x.name.value === 'static')?.value;
  if (stat && stat.kind !== Kind.BOOLEAN) refuse('expected preset static value to be a Boolean value');
  presetValue(type, argName, stat?.kind === Kind.BOOLEAN && stat.value, value, types, refuse);
}

// Hasura's parsePresetValue: the preset must be a value of the argument's type, read against the
// role's document; a session variable stands for a scalar or an enum, never for a list.
function presetValue(type: TypeNode, argName: string, isStatic: boolean, value: ConstValueNode, types: PresetTypes, refuse: (why: string) => never): void {
  if (type.kind === Kind.NON_NULL_TYPE) { presetValue(type.type, argName, isStatic, value, types, refuse); return; }
  if (type.kind === Kind.LIST_TYPE) {
    if (value.kind === Kind.LIST) { for (const v of value.values) presetValue(type.type, argName, isStatic, v, types, refuse); return; }
    if (value.kind === Kind.STRING && isSessionVariable(value.value)) {
      refuse(`illegal preset value at ${dq(argName)}. Session arguments can only be set for singleton values`);
    }
    presetValue(type.type, argName, isStatic, value, types, refuse);
    return;
  }
  const name = type.name.value;
  const t = types.get(name);
  const shown = dq(print(value));
  if (!t) return refuse(`expected ${dq(name)} to be an input type, but it's an output type`);
  if (t.kind === 'scalar') {
    if (value.kind === Kind.ENUM || value.kind === Kind.LIST || value.kind === Kind.OBJECT) refuse(`expected preset value ${shown} of type ${dq(name)} to be a scalar value`);
    return;
  }
  if (t.kind === 'enum') {
    if (value.kind === Kind.ENUM) {
      if (!t.values.includes(value.value)) refuse(`${dq(value.value)} not found in the enum: ${dq(name)}`);
      return;
    }
    if (value.kind === Kind.STRING && isSessionVariable(value.value)) return;
    refuse(`expected preset value ${shown} of type ${dq(name)} to be an enum value`);
  }
  if (t.kind === 'input') {
    if (value.kind !== Kind.OBJECT) return refuse(`expected preset value ${shown} of type ${dq(name)} to be an input object value`);
    for (const f of value.fields) {
      const def = t.fields.find((x) => x.name.value === f.name.value);
      if (!def) return refuse(`${dq(f.name.value)} does not exist in the input object ${dq(name)}`);
      presetValue(def.type, f.name.value, isStatic, f.value, types, refuse);
    }
  }
}

function checkFields(provided: readonly FieldDefinitionNode[], upstream: Record<string, GraphQLField<unknown, unknown>>,
  kind: 'Object' | 'Interface', parentName: string, types: PresetTypes, out: string[]): void {
  const dups = duplicates(provided.map((f) => f.name.value));
  if (dups.length > 0) { out.push(`duplicate fields: ${englishList(dups)}found in the ${dq(kind)} ${dq(parentName)}`); return; }
  for (const f of provided) {
    const up = upstream[f.name.value];
    if (!up) { out.push(`field ${dq(f.name.value)} does not exist in the ${dq(kind)}: ${dq(parentName)}`); continue; }
    checkDirectives(f, false, `${kind} field`, parentName, out);
    const given = print(f.type);
    if (given !== up.type.toString()) out.push(`expected type of ${dq(f.name.value)}(${dq(`${kind} field`)}) to be ${up.type.toString()} but recieved ${given}`);
    checkArguments(f.arguments ?? [], up.args, f.name.value, types, out);
  }
}

/** Hasura's reasons why the role's document is not a subset of the remote's schema (none: it is). */
export function roleSchemaReasons(doc: DocumentNode, remote: GraphQLSchema): string[] {
  const out: string[] = [];
  try {
    checkDocument(doc, remote, presetTypesOf(doc), out);
  } catch (e) {
    if (!(e instanceof PresetRefused)) throw e;
  }
  return out;
}

function checkDocument(doc: DocumentNode, remote: GraphQLSchema, types: PresetTypes, out: string[]): void {
  const defs = doc.definitions;
  const of = <K extends DefinitionNode['kind']>(kind: K): Extract<DefinitionNode, { kind: K }>[] =>
    defs.filter((d): d is Extract<DefinitionNode, { kind: K }> => d.kind === kind);
  const typeDefs = defs.filter((d): d is Extract<DefinitionNode, { name: unknown }> & { name: { value: string } } =>
    'name' in d && d.kind !== Kind.DIRECTIVE_DEFINITION && d.name !== undefined);
  const dupTypes = duplicates(typeDefs.map((d) => d.name.value));
  if (dupTypes.length > 0) out.push(`duplicate type names found: ${englishList(dupTypes)}`);
  if (of(Kind.SCHEMA_DEFINITION).length > 1) out.push('multiple schema definitions found');

  for (const s of of(Kind.SCALAR_TYPE_DEFINITION)) {
    if (BUILT_IN_SCALARS.has(s.name.value)) continue;
    const up = remote.getType(s.name.value);
    if (!up || !isScalarType(up)) { out.push(`scalar ${dq(s.name.value)} does not exist in the upstream remote schema`); continue; }
    checkDirectives(s, false, 'Scalar', s.name.value, out);
  }
  for (const e of of(Kind.ENUM_TYPE_DEFINITION)) {
    const up = remote.getType(e.name.value);
    if (!up || !isEnumType(up)) { out.push(`${dq('Enum')}: ${dq(e.name.value)} does not exist in the upstream remote schema`); continue; }
    checkDirectives(e, false, 'Enum', e.name.value, out);
    const values = (e.values ?? []).map((v) => v.name.value);
    const dups = duplicates(values);
    if (dups.length > 0) { out.push(`duplicate enum values: ${englishList(dups)} found in the ${dq(e.name.value)} enum`); continue; }
    const unknown = values.filter((v) => !up.getValue(v));
    if (unknown.length > 0) {
      out.push(`enum ${dq(e.name.value)} contains the following enum values that do not exist in the corresponding upstream remote enum: ${englishList(unknown)}`);
    }
  }
  for (const i of of(Kind.INTERFACE_TYPE_DEFINITION)) {
    const up = remote.getType(i.name.value);
    if (!up || !isInterfaceType(up)) { out.push(`${dq('Interface')}: ${dq(i.name.value)} does not exist in the upstream remote schema`); continue; }
    checkDirectives(i, false, 'Interface', i.name.value, out);
    checkFields(i.fields ?? [], up.getFields(), 'Interface', i.name.value, types, out);
  }
  for (const u of of(Kind.UNION_TYPE_DEFINITION)) {
    const up = remote.getType(u.name.value);
    if (!up || !isUnionType(up)) { out.push(`${dq('Union')}: ${dq(u.name.value)} does not exist in the upstream remote schema`); continue; }
    checkDirectives(u, false, 'Union', u.name.value, out);
    const members = new Set(up.getTypes().map((t) => t.name));
    const unknown = (u.types ?? []).map((t) => t.name.value).filter((n) => !members.has(n));
    if (unknown.length > 0) {
      out.push(`union ${dq(u.name.value)} contains members which do not exist in the members of the remote schema union :${englishList(unknown)}`);
    }
  }
  for (const o of of(Kind.INPUT_OBJECT_TYPE_DEFINITION)) {
    const up = remote.getType(o.name.value);
    if (!up || !isInputObjectType(up)) { out.push(`${dq('Input object')}: ${dq(o.name.value)} does not exist in the upstream remote schema`); continue; }
    checkDirectives(o, false, 'Input object', o.name.value, out);
    checkArguments(o.fields ?? [], Object.values(up.getFields()), o.name.value, types, out);
  }
  const declaredInterfaces = new Set(of(Kind.INTERFACE_TYPE_DEFINITION).map((i) => i.name.value));
  for (const o of of(Kind.OBJECT_TYPE_DEFINITION)) {
    const up = remote.getType(o.name.value);
    if (!up || !isObjectType(up)) { out.push(`${dq('Object')}: ${dq(o.name.value)} does not exist in the upstream remote schema`); continue; }
    checkDirectives(o, false, 'Object', o.name.value, out);
    const theirs = new Set(up.getInterfaces().map((i) => i.name));
    const custom = (o.interfaces ?? []).map((i) => i.name.value).filter((n) => !theirs.has(n) && declaredInterfaces.has(n));
    if (custom.length > 0) {
      out.push(`custom interfaces are not supported. Object${dq(o.name.value)} implements the following custom interfaces: ${englishList(custom)}`);
    }
    checkFields(o.fields ?? [], up.getFields(), 'Object', o.name.value, types, out);
  }
}

/** Hasura's message for the reasons (`showErrors` of `resolveRoleBasedRemoteSchema`). */
export function roleSchemaMessage(reasons: readonly string[]): string {
  const why = reasons.length === 1 ? `because ${reasons[0]!}` : `for the following reasons:\n${reasons.map((r) => ` • ${r}\n`).join('')}`;
  return `validation for the given role-based schema failed ${why}`;
}
