import {
  DirectiveLocation, GraphQLInt, Kind, SchemaMetaFieldDef, TypeMetaFieldDef, getNamedType, isInputObjectType, isInterfaceType, isListType, isNonNullType, isObjectType, isUnionType, isTypeSubTypeOf, print, typeFromAST,
  type DirectiveNode, type FragmentDefinitionNode, type GraphQLDirective, type GraphQLInputType, type GraphQLSchema, type OperationDefinitionNode,
  type SelectionSetNode, type GraphQLObjectType, type GraphQLInterfaceType, type GraphQLUnionType, type StringValueNode, type ValueNode, type VariableDefinitionNode,
} from 'graphql';
import { ApiError } from '../errors/index.js';
import { hiddenDirective } from './hasura-directives.js';
import { isSelectOffset, parseLiteral } from './validate.js';
import { argumentRefusesNull, isBigIntDigits, ownScalarField, refusesNull } from './validate-words.js';

type Path = (string | number)[];
/** A type with a selection set. */
type Composite = GraphQLObjectType | GraphQLInterfaceType | GraphQLUnionType;

/** Where each variable is first used: its request path (for errors about its value). */
export type VariableUsages = ReadonlyMap<string, readonly (string | number)[]>;

/** What the checks learned about the variables: first use sites, and those that are a `limit`. */
export interface VariableSites {
  readonly usages: VariableUsages;
  readonly limits: VariableUsages;
  /** `offset: "1"` literals: Hasura reads an integer written as a string there; the engine turns them into Int literals. */
  readonly stringOffsets: ReadonlySet<StringValueNode>;
  /** Variables first used as a directive's argument: read by GraphQL's own scalars, not a column's parser. */
  readonly builtIns: ReadonlySet<string>;
  /** Variables used where an explicit null is refused (validate-words.ts refusesNull): their first such place. */
  readonly nullRefused: ReadonlyMap<string, NullRefusedSite>;
}

/** A place that takes no null: its path, its type (nullable), and whether a column's parser reads it. */
export interface NullRefusedSite {
  readonly path: readonly (string | number)[];
  readonly type: GraphQLInputType;
  readonly column: boolean;
}

// What the walk reads: the schema, the operation's variables, and the usages found so far.
interface Walk {
  readonly schema: GraphQLSchema;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly variables: ReadonlyMap<string, VariableDefinitionNode>;
  readonly usages: Map<string, Path>;
  readonly limits: Map<string, Path>;
  readonly stringOffsets: Set<StringValueNode>;
  readonly builtIns: Set<string>;
  readonly nullRefused: Map<string, NullRefusedSite>;
  // Fragments already checked: a fragment's checks do not depend on where it is spread (its type
  // condition fixes the type), so each is walked once; walking every spread is exponential in the
  // number of fragments when they spread each other twice (issue 15's fragment bomb).
  readonly checked: Set<string>;
  // The root a subscription's fields are reported against: Hasura parses a subscription with its
  // query parser ("Parse as query to check correctness", Execute.hs getResolvedExecPlan), so a
  // root field it does not know is "not found in type: 'query_root'".
  readonly rootShown: { readonly type: GraphQLObjectType; readonly name: string } | null;
}

/**
 * The validation errors Hasura words its own way, with a JSON path into the request: unknown
 * fields, unknown arguments, unknown input fields and misplaced directives. Everything else is
 * left to graphql-js.
 */
export function hasuraChecks(schema: GraphQLSchema, op: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): VariableSites {
  const root = op.operation === 'query' ? schema.getQueryType() : op.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  if (!root) {
    const what = op.operation === 'mutation' ? 'mutations' : 'subscriptions';
    throw new ApiError('validation-failed', `no ${what} exist`, 400, []);
  }
  const variables = new Map((op.variableDefinitions ?? []).map((d) => [d.variable.name.value, d]));
  const queryRoot = schema.getQueryType();
  const rootShown = op.operation === 'subscription' && queryRoot ? { type: root, name: queryRoot.name } : null;
  const walk: Walk = { schema, fragments, variables, usages: new Map(), limits: new Map(), stringOffsets: new Set(), builtIns: new Set(), nullRefused: new Map(), checked: new Set(), rootShown };
  const opLocation = op.operation === 'query' ? DirectiveLocation.QUERY
    : op.operation === 'mutation' ? DirectiveLocation.MUTATION : DirectiveLocation.SUBSCRIPTION;
  checkDirectives(op.directives, opLocation, walk, []);
  checkSet(op.selectionSet, root, walk, ['selectionSet'], new Set());
  return { usages: walk.usages, limits: walk.limits, stringOffsets: walk.stringOffsets, builtIns: walk.builtIns, nullRefused: walk.nullRefused };
}

const LOCATION_WORDS: { readonly [l: string]: string } = {
  [DirectiveLocation.QUERY]: 'a query', [DirectiveLocation.MUTATION]: 'a mutation', [DirectiveLocation.SUBSCRIPTION]: 'a subscription',
  [DirectiveLocation.FIELD]: 'a field', [DirectiveLocation.FRAGMENT_DEFINITION]: 'a fragment definition',
  [DirectiveLocation.FRAGMENT_SPREAD]: 'a fragment spread', [DirectiveLocation.INLINE_FRAGMENT]: 'an inline fragment',
};

// Hasura's directive checks, reported at the selection set holding the directive (`$` for the
// operation): unknown, wrong place, its arguments, then repeated (corpus: graphql_query/basic
// wrong_directive_err; Hasura: Parser/Directives.hs, parseDirectives).
function checkDirectives(directives: readonly DirectiveNode[] | undefined, location: DirectiveLocation, walk: Walk, path: Path): void {
  if (!directives?.length) return;
  for (const d of directives) {
    const def = walk.schema.getDirective(d.name.value) ?? hiddenDirective(d.name.value);
    if (!def) throw new ApiError('validation-failed', `directive "${d.name.value}" is not defined in the schema`, 400, path);
    if (!def.locations.includes(location)) {
      throw new ApiError('validation-failed', `directive "${d.name.value}" is not allowed on ${LOCATION_WORDS[location] ?? location}`, 400, path);
    }
    checkDirectiveArguments(d, def, walk, [...path, d.name.value]);
  }
  const names = directives.map((d) => d.name.value);
  const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (repeated.length) throw new ApiError('validation-failed', `the following directives are used more than once: ${repeated.join(', ')}`, 400, path);
}

// A directive's arguments are parsed as a field's are (Hasura's mkDirective, under the path
// `<directive>.args.<argument>`): an argument it does not take is refused at the directive, a
// required one must be given, a literal must fit its type (`@include(if: "yes")` is an error, not
// a false condition) and a variable must be declared with a type that fits.
function checkDirectiveArguments(d: DirectiveNode, def: GraphQLDirective, walk: Walk, here: Path): void {
  for (const arg of d.arguments ?? []) {
    if (!def.args.some((a) => a.name === arg.name.value)) {
      throw new ApiError('validation-failed', `"${d.name.value}" has no argument named "${arg.name.value}"`, 400, here);
    }
  }
  for (const a of def.args) {
    const argPath = [...here, 'args', a.name];
    const given = d.arguments?.find((x) => x.name.value === a.name)?.value;
    if (given === undefined) {
      if (isNonNullType(a.type) && a.defaultValue === undefined) throw new ApiError('validation-failed', `missing required field "${a.name}"`, 400, argPath);
      continue;
    }
    if (given.kind === Kind.VARIABLE) {
      const first = !walk.usages.has(given.name.value);
      checkVariable(given.name.value, a.type, argPath, walk);
      if (first) walk.builtIns.add(given.name.value);
    } else parseLiteral(given, a.type, argPath, false);
  }
}

// The type a fragment's selections are checked against, seen from `type`: its own selections, an
// object's fragment on one of its interfaces (Hasura collects it into the object), an abstract
// type's fragment on one of its possible types or on an abstract type sharing them; none when the
// condition names no such type (Hasura's collectFields passes over it).
function fragmentType(cond: string | undefined, type: Composite, schema: GraphQLSchema): Composite | null {
  if (cond === undefined || cond === type.name) return type;
  const t = schema.getType(cond);
  if (!t || !(isObjectType(t) || isInterfaceType(t) || isUnionType(t))) return null;
  if (isObjectType(type)) return isInterfaceType(t) && type.getInterfaces().includes(t) ? type : null;
  if (isObjectType(t)) return schema.isSubType(type, t) ? t : null;
  return schema.getPossibleTypes(type).some((o) => schema.isSubType(t, o)) ? t : null;
}

function checkSet(set: SelectionSetNode, type: Composite, walk: Walk, path: Path, seen: Set<string>): void {
  for (const sel of set.selections) {
    checkDirectives(sel.directives, sel.kind === Kind.FIELD ? DirectiveLocation.FIELD
      : sel.kind === Kind.INLINE_FRAGMENT ? DirectiveLocation.INLINE_FRAGMENT : DirectiveLocation.FRAGMENT_SPREAD, walk, path);
    if (sel.kind === Kind.INLINE_FRAGMENT) {
      const t = fragmentType(sel.typeCondition?.name.value, type, walk.schema);
      if (t) checkSet(sel.selectionSet, t, walk, path, seen);
      continue;
    }
    if (sel.kind === Kind.FRAGMENT_SPREAD) {
      const frag = walk.fragments.get(sel.name.value);
      const t = frag ? fragmentType(frag.typeCondition.name.value, type, walk.schema) : null;
      const key = frag && t ? `${frag.name.value} ${t.name}` : '';
      if (frag && t && !seen.has(frag.name.value) && !walk.checked.has(key)) {
        walk.checked.add(key);
        // A fragment definition's own directives are dropped unread, as Hasura's inliner does
        // (Execute/Inline.hs: they do not apply to the fields of its selection set).
        checkSet(frag.selectionSet, t, walk, path, new Set([...seen, frag.name.value]));
      }
      continue;
    }
    const name = sel.name.value;
    if (name === '__typename' || name === '__schema' || name === '__type') {
      // `__schema` and `__type` are fields of the query root built by Hasura's parsers
      // (Schema/Introspect.hs), which refuse an argument they do not take; `__typename` is
      // answered before its arguments are looked at (Parser/Internal/Parser.hs).
      if (name === '__typename') continue;
      const meta = name === '__schema' ? SchemaMetaFieldDef : TypeMetaFieldDef;
      const unknown = (sel.arguments ?? []).find((a) => !meta.args.some((d) => d.name === a.name.value));
      if (unknown) throw new ApiError('validation-failed', `"${name}" has no argument named "${unknown.name.value}"`, 400, [...path, name]);
      continue;
    }
    const field = isUnionType(type) ? undefined : type.getFields()[name];
    // Hasura keys the path by the field's name, not its alias (Parser/Internal/Parser.hs).
    const here = [...path, name];
    const shown = walk.rootShown?.type === type ? walk.rootShown.name : type.name;
    if (!field) throw new ApiError('validation-failed', `field "${name}" not found in type: '${shown}'`, 400, here);
    for (const arg of sel.arguments ?? []) {
      const def = field.args.find((a) => a.name === arg.name.value);
      // Hasura reports an unknown argument at the field, not under `args` (corpus: agg_perm).
      if (!def) throw new ApiError('validation-failed', `"${name}" has no argument named "${arg.name.value}"`, 400, here);
      const argPath = [...here, 'args', arg.name.value];
      if (arg.name.value === 'limit' && def.type === GraphQLInt) {
        if (arg.value.kind === Kind.VARIABLE) walk.limits.set(arg.value.name.value, argPath);
        else checkLimit(arg.value, argPath);
      }
      if (arg.value.kind === Kind.VARIABLE && !walk.nullRefused.has(arg.value.name.value) && argumentRefusesNull(type, field, def.name)) {
        walk.nullRefused.set(arg.value.name.value, { path: argPath, type: def.type, column: false });
      }
      // Hasura's bigInt reads digits only: "-1" is refused (validate.ts).
      if (isSelectOffset(def) && arg.value.kind === Kind.STRING && isBigIntDigits(arg.value.value)) {
        walk.stringOffsets.add(arg.value);
      }
      checkValue(arg.value, def.type, argPath, walk);
    }
    const named = getNamedType(field.type);
    // An interface's or a union's selections are checked too: the fields beside its fragments
    // against the abstract type, each fragment's against the type it names (tests-py
    // remote_schemas/validation/field_validation.yaml, field_prefix_validation.yaml).
    if (sel.selectionSet && (isObjectType(named) || isInterfaceType(named) || isUnionType(named))) {
      checkSet(sel.selectionSet, named, walk, [...here, 'selectionSet'], seen);
    }
  }
}

// Hasura parses `limit` as a non-negative 32-bit integer, with its own wording (corpus: graphql_query/limits).
export function checkLimit(value: ValueNode, path: Path): void {
  if (value.kind === Kind.NULL) return;
  if (value.kind === Kind.INT && Number(value.value) >= 0 && Number(value.value) <= 2147483647) return;
  const found: { readonly [k: string]: string } = { IntValue: 'an integer', FloatValue: 'a float', StringValue: 'a string',
    BooleanValue: 'a boolean', EnumValue: 'an enum value', ListValue: 'a list', ObjectValue: 'an object' };
  throw new ApiError('validation-failed', `expected a non-negative 32-bit integer for type "Int", but found ${found[value.kind]}`, 400, path);
}

/** The same rule for a variable's value at a `limit`. */
export function checkLimitValue(v: unknown, path: readonly (string | number)[]): void {
  if (v === null || v === undefined || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 2147483647)) return;
  throw new ApiError('validation-failed', `expected a non-negative 32-bit integer for type "Int", but found ${describeJson(v)}`, 400, [...path]);
}

// How Hasura names a JSON value in a type mismatch (variables arrive as JSON, not GraphQL literals).
function describeJson(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  const kinds: { readonly [k: string]: string } = { boolean: 'a boolean', string: 'a string', number: 'a number' };
  return kinds[typeof v] ?? 'an object';
}

const BUILT_IN: { readonly [name: string]: readonly [string, (v: unknown) => boolean] } = {
  Int: ['a 32-bit integer', (v) => Number.isInteger(v) && (v as number) >= -2147483648 && (v as number) <= 2147483647],
  Float: ['a float', (v) => typeof v === 'number'],
  String: ['a string', (v) => typeof v === 'string'],
  Boolean: ['a boolean', (v) => typeof v === 'boolean'],
};

/**
 * A variable of a built-in scalar type (or a list of one) whose JSON value does not fit, in
 * Hasura's words at the variable's use site: `expected a 32-bit integer for type "Int", but found
 * a string`. Input objects and custom scalars are left to graphql-js.
 */
export function checkScalarVariable(def: VariableDefinitionNode, v: unknown, path: readonly (string | number)[]): void {
  let type = def.type;
  let listed = false;
  for (;;) {
    if (type.kind === Kind.NON_NULL_TYPE) type = type.type;
    else if (type.kind === Kind.LIST_TYPE) { type = type.type; listed = true; } else break;
  }
  const rule = BUILT_IN[type.name.value];
  if (!rule || v === null || v === undefined) return;
  const items = listed && Array.isArray(v) ? v.flat(Infinity) : [v];
  const bad = items.find((x) => x !== null && !rule[1](x));
  if (bad !== undefined) {
    throw new ApiError('validation-failed', `expected ${rule[0]} for type "${type.name.value}", but found ${describeJson(bad)}`, 400, [...path]);
  }
}

// A variable must be declared with a type that fits where it is used (non-null fits nullable),
// reported as Hasura words it at the use site (corpus: graphql_validation/variable_type_mismatch).
function checkVariable(name: string, type: GraphQLInputType, path: Path, walk: Walk): void {
  const def = walk.variables.get(name);
  if (!def) return;
  if (!walk.usages.has(name)) walk.usages.set(name, path);
  const declared = typeFromAST(walk.schema, def.type);
  // A type the schema does not know (`geometry` with no such column) fits nowhere (corpus: variable_type_mismatch).
  if (!declared) {
    throw new ApiError('validation-failed', `variable "${name}" is declared as ${print(def.type)}, but used where ${String(type)} is expected`, 400, path);
  }
  const defaulted = def.defaultValue !== undefined && def.defaultValue.kind !== Kind.NULL;
  const fits = isTypeSubTypeOf(walk.schema, declared, type)
    || (defaulted && isNonNullType(type) && isTypeSubTypeOf(walk.schema, declared, type.ofType));
  if (!fits) {
    throw new ApiError('validation-failed', `variable "${name}" is declared as ${print(def.type)}, but used where ${String(type)} is expected`, 400, path);
  }
}

function checkValue(value: ValueNode, type: GraphQLInputType, path: Path, walk: Walk): void {
  if (value.kind === Kind.VARIABLE) { checkVariable(value.name.value, type, path, walk); return; }
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (value.kind === Kind.LIST) value.values.forEach((v, i) => checkValue(v, inner.ofType, [...path, i], walk));
    // A single value where a list is expected is a list of one: Hasura's paths index it (`objects[0]`).
    else checkValue(value, inner.ofType, [...path, 0], walk);
    return;
  }
  if (!isInputObjectType(inner) || value.kind !== Kind.OBJECT) return;
  const fields = inner.getFields();
  for (const f of value.fields) {
    const def = fields[f.name.value];
    if (!def) throw new ApiError('validation-failed', `field "${f.name.value}" not found in type: '${inner.name}'`, 400, [...path, f.name.value]);
    if (f.value.kind === Kind.VARIABLE && !walk.nullRefused.has(f.value.name.value) && refusesNull(inner, f.name.value)) {
      walk.nullRefused.set(f.value.name.value, { path: [...path, f.name.value], type: def.type, column: !ownScalarField(fields, f.name.value) });
    }
    checkValue(f.value, def.type, [...path, f.name.value], walk);
  }
}
