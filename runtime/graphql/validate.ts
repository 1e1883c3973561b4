// GraphQL validation as Hasura's parser does it, in its words and with its JSON paths, instead of
// graphql-js's rules: unused variables and fragments are allowed; variables and fragments are
// resolved first (Hasura's Execute/Resolve.hs and Execute/Inline.hs), then each literal is parsed
// against the type of its place (Parser/Internal/{Input,Scalars,TypeChecking}.hs, and the column
// parser of Backends/Postgres/Schema for values of columns). Variable values are checked per
// request by runtime/graphql/variable-values.ts with the same rules.

import {
  GraphQLInt, Kind, TypeMetaFieldDef, getNamedType, isEnumType, isInputObjectType, isInterfaceType, isLeafType, isListType, isNonNullType, isObjectType, print,
  type DirectiveNode, type DocumentNode, type GraphQLArgument, type FieldNode, type FragmentDefinitionNode, type GraphQLInputType, type GraphQLObjectType,
  type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode, type ValueNode,
} from 'graphql';
import { ApiError } from '../errors/index.js';
import { argumentRefusesNull, bigIntProblem, describeLiteral, englishList, enumValuesListed, nullError, nullIsColumnWords, ownScalarArgument, ownScalarField, refusesNull, scalarMismatch, type Path } from './validate-words.js';

/**
 * Variables and fragments resolved as Hasura resolves them, before the selection is parsed:
 * duplicate definitions, a variable used but not declared, a spread of an unknown fragment, and
 * fragment cycles (with the path of the spread that closes the cycle).
 */
export function resolveDefinitions(document: DocumentNode, operation: OperationDefinitionNode): void {
  const seenVars = new Set<string>();
  for (const d of operation.variableDefinitions ?? []) {
    const name = d.variable.name.value;
    if (seenVars.has(name)) throw new ApiError('parse-failed', `multiple definitions for variable "${name}"`, 400, []);
    seenVars.add(name);
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) {
    if (d.kind !== Kind.FRAGMENT_DEFINITION) continue;
    if (fragments.has(d.name.value)) throw new ApiError('parse-failed', `multiple definitions for fragment "${d.name.value}"`, 400, []);
    fragments.set(d.name.value, d);
  }
  // Variables are resolved before fragments are inlined: an unbound one anywhere in the operation
  // (fragments it spreads included) is reported first, at `$`.
  for (const name of operationVariables(operation, fragments)) {
    if (!seenVars.has(name)) throw new ApiError('validation-failed', `unbound variable "${name}"`, 400, []);
  }
  inlineSet(operation.selectionSet, fragments, [], [], new Set());
}

/**
 * The variables an operation uses: in its directives (`query @cached(ttl: $t)`, resolved with the
 * selection set as Hasura's resolveVariables does) and in its selection set.
 */
export function operationVariables(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): string[] {
  const own = (operation.directives ?? []).flatMap((d) => (d.arguments ?? []).flatMap((a) => variablesIn(a.value)));
  return [...own, ...usedVariables(operation.selectionSet, fragments, new Set())];
}

function variablesIn(v: ValueNode): string[] {
  if (v.kind === Kind.VARIABLE) return [v.name.value];
  if (v.kind === Kind.LIST) return v.values.flatMap(variablesIn);
  if (v.kind === Kind.OBJECT) return v.fields.flatMap((f) => variablesIn(f.value));
  return [];
}

/** The variables a selection set uses, through the fragments it spreads (each fragment once). */
export function usedVariables(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, done: Set<string>): string[] {
  const out: string[] = [];
  const values = (v: ValueNode): void => {
    if (v.kind === Kind.VARIABLE) out.push(v.name.value);
    else if (v.kind === Kind.LIST) v.values.forEach(values);
    else if (v.kind === Kind.OBJECT) v.fields.forEach((f) => values(f.value));
  };
  for (const sel of set.selections) {
    for (const d of sel.directives ?? []) for (const a of d.arguments ?? []) values(a.value);
    if (sel.kind === Kind.FIELD) {
      for (const a of sel.arguments ?? []) values(a.value);
      if (sel.selectionSet) out.push(...usedVariables(sel.selectionSet, fragments, done));
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      out.push(...usedVariables(sel.selectionSet, fragments, done));
    } else if (!done.has(sel.name.value)) {
      done.add(sel.name.value);
      const f = fragments.get(sel.name.value);
      if (f) out.push(...usedVariables(f.selectionSet, fragments, done));
    }
  }
  return out;
}

// Hasura inlines fragments depth first, keeping the stack of fragments being inlined: a spread of
// one already on the stack is a cycle, named from that fragment on.
function inlineSet(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, path: Path, stack: string[], done: Set<string>): void {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.selectionSet) inlineSet(sel.selectionSet, fragments, [...path, 'selectionSet', sel.name.value], stack, done);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      inlineSet(sel.selectionSet, fragments, path, stack, done);
    } else {
      const name = sel.name.value;
      const here = [...path, 'selectionSet'];
      if (done.has(name)) continue;
      const at = stack.indexOf(name);
      if (at >= 0) {
        const cycle = [name, ...stack.slice(0, at).reverse()];
        throw new ApiError('validation-failed', `the fragment definition(s) ${englishList('and', cycle.map((c) => `"${c}"`))} form a cycle`, 400, here);
      }
      const def = fragments.get(name);
      if (!def) throw new ApiError('validation-failed', `reference to undefined fragment "${name}"`, 400, here);
      inlineSet(def.selectionSet, fragments, [...here, name], [name, ...stack], done);
      done.add(name);
    }
  }
}

// What one parse walk reads.
interface Walk {
  readonly schema: GraphQLSchema;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  // Fragments already parsed: the type condition fixes a fragment's type, so its parse is the same
  // wherever it is spread; each is walked once (every spread is exponential for issue 15's bomb).
  readonly parsed: Set<string>;
}

/**
 * The selection and its literals parsed against the role's schema: selection sets where they
 * belong, required arguments and input fields present, and every literal of the right kind for
 * its type. Unknown fields, arguments and directives and variable types are checked beforehand
 * (check.ts); variables' values are checked per request.
 */
export function parseSelection(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): void {
  const root = operation.operation === 'query' ? schema.getQueryType()
    : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  if (!root) return;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  parseSet(operation.selectionSet, root, { schema, fragments, parsed: new Set() }, ['selectionSet'], new Set());
}

function parseSet(set: SelectionSetNode, type: GraphQLObjectType, walk: Walk, path: Path, seen: ReadonlySet<string>): void {
  mergeFields(flatten(set, type, walk, seen), path);
  for (const sel of set.selections) {
    if (sel.kind === Kind.INLINE_FRAGMENT) {
      const cond = sel.typeCondition?.name.value;
      if (!cond || cond === type.name) parseSet(sel.selectionSet, type, walk, path, seen);
      continue;
    }
    if (sel.kind === Kind.FRAGMENT_SPREAD) {
      const frag = walk.fragments.get(sel.name.value);
      if (frag && !seen.has(frag.name.value) && frag.typeCondition.name.value === type.name && !walk.parsed.has(frag.name.value)) {
        walk.parsed.add(frag.name.value);
        parseSet(frag.selectionSet, type, walk, path, new Set([...seen, frag.name.value]));
      }
      continue;
    }
    const name = sel.name.value;
    if (name.startsWith('__')) {
      // The introspection fields are parsed by Hasura's parsers too (Schema/Introspect.hs): the
      // name of `__type` is read by its String parser, with its words and path.
      if (name === '__type' && type === walk.schema.getQueryType()) parseArguments(sel, TypeMetaFieldDef.args, [...path, name]);
      continue;
    }
    const field = type.getFields()[name];
    if (!field) continue;
    // Hasura keys the path by the field's name, not its alias (Parser/Internal/Parser.hs).
    const here = [...path, name];
    const named = getNamedType(field.type);
    if (isLeafType(named) && sel.selectionSet) {
      throw new ApiError('validation-failed', 'unexpected subselection set for non-object field', 400, here);
    }
    parseArguments(sel, field.args, here, (arg) => argumentRefusesNull(type, field, arg));
    if (isObjectType(named)) {
      if (!sel.selectionSet) throw new ApiError('validation-failed', `missing selection set for "${named.name}"`, 400, [...here, 'selectionSet']);
      parseSet(sel.selectionSet, named, walk, [...here, 'selectionSet'], seen);
    }
    // An interface's selection is parsed for each of its object types (Hasura's selectionSetInterface).
    if (isInterfaceType(named)) {
      if (!sel.selectionSet) throw new ApiError('validation-failed', `missing selection set for "${named.name}"`, 400, [...here, 'selectionSet']);
      for (const t of walk.schema.getPossibleTypes(named)) parseSet(sel.selectionSet, t, walk, [...here, 'selectionSet'], seen);
    }
  }
}

/**
 * A field's arguments: the required ones present, each literal parsed against its type, and no
 * null where the argument's parser takes none (`refusesNull`, though the argument is nullable).
 */
function parseArguments(sel: FieldNode, args: readonly GraphQLArgument[], here: Path, refusesNullArg: (arg: string) => boolean = () => false): void {
  const given = new Map((sel.arguments ?? []).map((a) => [a.name.value, a.value]));
  for (const arg of args) {
    const argPath = [...here, 'args', arg.name];
    const value = given.get(arg.name);
    if (value === undefined) {
      if (isNonNullType(arg.type) && arg.defaultValue === undefined) throw new ApiError('validation-failed', `missing required field "${arg.name}"`, 400, argPath);
      continue;
    }
    const own = ownScalarArgument(arg.name);
    if (value.kind === Kind.NULL && refusesNullArg(arg.name)) throw nullError(arg.type, argPath, false);
    if (isSelectOffset(arg) && value.kind !== Kind.VARIABLE && value.kind !== Kind.NULL) {
      const problem = bigIntProblem(value);
      if (problem) throw new ApiError(problem.code, problem.message, 400, argPath);
      continue;
    }
    parseLiteral(value, arg.type, argPath, !BUILT_IN_ARGS.has(arg.name) && !own, own);
  }
}

// The fields of a selection set with its fragments (those on this type) flattened and the fields
// that @skip/@include literally leave out dropped (Parser/Collect.hs flattenSelectionSet).
function flatten(set: SelectionSetNode, type: GraphQLObjectType, walk: Walk, seen: ReadonlySet<string>): FieldNode[] {
  const out: FieldNode[] = [];
  for (const sel of set.selections) {
    if (excluded(sel.directives)) continue;
    if (sel.kind === Kind.FIELD) out.push(sel);
    else if (sel.kind === Kind.INLINE_FRAGMENT) {
      if (!sel.typeCondition || sel.typeCondition.name.value === type.name) out.push(...flatten(sel.selectionSet, type, walk, seen));
    } else {
      const frag = walk.fragments.get(sel.name.value);
      if (frag && !seen.has(frag.name.value) && frag.typeCondition.name.value === type.name) {
        out.push(...flatten(frag.selectionSet, type, walk, new Set([...seen, frag.name.value])));
      }
    }
  }
  return out;
}

function excluded(directives: readonly DirectiveNode[] | undefined): boolean {
  for (const d of directives ?? []) {
    const arg = d.arguments?.find((a) => a.name.value === 'if')?.value;
    if (arg?.kind !== Kind.BOOLEAN) continue;
    if ((d.name.value === 'skip' && arg.value) || (d.name.value === 'include' && !arg.value)) return true;
  }
  return false;
}

// Fields with the same response name must be the same field with the same arguments (Hasura's
// mergeFields, reported at the selection set).
function mergeFields(fields: readonly FieldNode[], path: Path): void {
  const byKey = new Map<string, FieldNode>();
  for (const f of fields) {
    const key = f.alias?.value ?? f.name.value;
    const old = byKey.get(key);
    if (!old) { byKey.set(key, f); continue; }
    if (old.name.value !== f.name.value) {
      throw new ApiError('validation-failed', `selection of both "${old.name.value}" and "${f.name.value}" specify the same response name, "${key}"`, 400, path);
    }
    if (argumentsText(old) !== argumentsText(f)) {
      throw new ApiError('validation-failed', `inconsistent arguments between multiple selections of field "${old.name.value}"`, 400, path);
    }
  }
}

// A field's arguments as comparable text: order does not matter (Hasura keeps them in a map).
function argumentsText(f: FieldNode): string {
  return (f.arguments ?? []).map((a) => `${a.name.value}:${print(a.value)}`).sort().join(',');
}

/** A table select's `offset`: an Int in the schema, read by Hasura's 64-bit `bigInt` parser. */
export function isSelectOffset(arg: { readonly name: string; readonly type: GraphQLInputType }): boolean {
  return arg.name === 'offset' && arg.type === GraphQLInt;
}

// Arguments Hasura parses with its own GraphQL scalars rather than a column's parser.
const BUILT_IN_ARGS = new Set(['limit', 'offset', 'distinct', 'distinct_on', 'order_by', 'batch_size', 'cursor', 'path']);

/**
 * One literal against the type of its place, as Hasura's parsers read it. `column` says whether
 * a scalar here is a column's value (parsed as PostgreSQL reads JSON: a string passes to the
 * database, which parses it) or one of GraphQL's own scalars; `own` that everything under this
 * place is read by GraphQL's own scalars (a jsonb update operator's keys, indexes and paths).
 */
export function parseLiteral(value: ValueNode, type: GraphQLInputType, path: Path, column: boolean, own = false): void {
  if (value.kind === Kind.VARIABLE) return;
  if (value.kind === Kind.NULL) {
    if (!isNonNullType(type)) return;
    throw nullError(type.ofType, path, column);
  }
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (value.kind === Kind.LIST) value.values.forEach((v, i) => parseLiteral(v, inner.ofType, [...path, i], column, own));
    // A single value where a list is expected is a list of one (GraphQL input coercion).
    else parseLiteral(value, inner.ofType, [...path, 0], column, own);
    return;
  }
  if (isInputObjectType(inner)) {
    if (value.kind !== Kind.OBJECT) throw new ApiError('validation-failed', `expected an object for type "${inner.name}", but found ${describeLiteral(value)}`, 400, path);
    const given = new Map(value.fields.map((f) => [f.name.value, f.value]));
    const fields = inner.getFields();
    // The document's literals were checked for unknown fields already (check.ts); a variable's default was not.
    for (const name of given.keys()) {
      if (!Object.hasOwn(fields, name)) throw new ApiError('validation-failed', `field "${name}" not found in type: '${inner.name}'`, 400, [...path, name]);
    }
    for (const [name, def] of Object.entries(fields)) {
      const v = given.get(name);
      if (v === undefined) {
        if (isNonNullType(def.type) && def.defaultValue === undefined) throw new ApiError('validation-failed', `missing required field "${name}"`, 400, [...path, name]);
        continue;
      }
      const ownHere = own || ownScalarField(fields, name);
      if (v.kind === Kind.NULL && refusesNull(inner, name)) throw nullError(def.type, [...path, name], !ownHere || nullIsColumnWords(inner));
      parseLiteral(v, def.type, [...path, name], !ownHere, ownHere);
    }
    return;
  }
  if (isEnumType(inner)) {
    if (value.kind !== Kind.ENUM) throw new ApiError('validation-failed', `expected an enum value for type "${inner.name}", but found ${describeLiteral(value)}`, 400, path);
    if (!inner.getValue(value.value)) {
      const names = inner.getValues().map((v) => v.name);
      throw new ApiError('validation-failed', `expected one of the values ${enumValuesListed(inner.name, names)} for type "${inner.name}", but found "${value.value}"`, 400, path);
    }
    return;
  }
  const problem = scalarMismatch(inner.name, value, column);
  if (problem) throw new ApiError(problem.code, problem.message, 400, path);
}

