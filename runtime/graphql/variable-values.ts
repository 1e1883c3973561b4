// The variables of a request, read as Hasura reads them (Execute/Resolve.hs, then each value
// parsed at its use site): a value sent for a variable the operation does not use is refused, a
// missing non-null one too; each value must fit the declared type, in the words and at the path
// of its first use. What passes is coerced (defaults applied) for planning.

import {
  GraphQLInt, Kind, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, typeFromAST, valueFromAST,
  type GraphQLInputType, type GraphQLSchema, type VariableDefinitionNode,
} from 'graphql';
import { ApiError } from '../errors/index.js';
import { parseLiteral } from './validate.js';
import { bigIntJsonProblem, describeJson, enumValuesListed, jsonScalarMismatch, nullError, nullIsColumnWords, ownScalarField, ownScalarPath, refusesNull, type Path } from './validate-words.js';

/** Where each variable is used first, and which variables the operation uses at all. */
export interface VariableUse {
  readonly usages: ReadonlyMap<string, readonly (string | number)[]>;
  readonly used: ReadonlySet<string>;
  /** Variables whose first use is a GraphQL scalar of Hasura's own (a directive's `if`), not a column. */
  readonly builtIns?: ReadonlySet<string>;
}

// Arguments Hasura parses with its own GraphQL scalars rather than a column's parser.
const BUILT_IN_ARGS = new Set(['limit', 'offset', 'distinct', 'distinct_on', 'order_by', 'batch_size', 'cursor', 'path']);

/** Refuses values sent for variables the operation never uses (Hasura's "unexpected variables"). */
export function checkUnexpectedVariables(sent: { readonly [k: string]: unknown } | null | undefined, use: VariableUse): void {
  if (!sent) return;
  const extra = Object.keys(sent).filter((k) => !use.used.has(k));
  if (extra.length) throw new ApiError('validation-failed', `unexpected variables in variableValues: ${extra.join(', ')}`, 400, []);
}

/**
 * Checks each sent value against its declared type and coerces the lot: the sent values as they
 * are (JSON already has the shape planning reads), defaults for those not sent.
 */
export function coerceVariables(schema: GraphQLSchema, defs: readonly VariableDefinitionNode[], sent: { readonly [k: string]: unknown },
  use: VariableUse): { [k: string]: unknown } {
  const out: { [k: string]: unknown } = {};
  for (const def of defs) {
    const { name, type, path, column, own } = declared(schema, def, use);
    if (Object.hasOwn(sent, name)) {
      if (type && isOffsetPlace(path, type)) checkBigInt(sent[name], path);
      else if (type) checkJson(sent[name], type, path, column, own);
      out[name] = type ? coerceJson(sent[name], type) : sent[name];
    } else if (def.defaultValue !== undefined && type) {
      // Hasura puts the default in unchecked; the place that reads it refuses what does not fit
      // (Execute/Resolve.hs buildVariable), so a bad default is reported there, in its words.
      parseLiteral(def.defaultValue, type, path, column, own);
      out[name] = valueFromAST(def.defaultValue, type);
    }
  }
  return out;
}

/** The variables of a request when `quickVariables` can vouch for them, else undefined (the full check decides). */
export type QuickVariables = (sent: unknown) => { [k: string]: unknown } | undefined;

// Values GraphQL's own scalars take whatever the place (jsonScalarMismatch takes these, and more
// at a column's place: text for a number, which the quick check leaves to the full one).
const QUICK_SCALARS: Readonly<Record<string, (v: unknown) => boolean>> = {
  Int: (v) => typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647,
  Float: (v) => typeof v === 'number',
  String: (v) => typeof v === 'string',
  Boolean: (v) => typeof v === 'boolean',
};

/**
 * A check that only ever accepts, made once per prepared operation and schema: every variable of
 * a GraphQL scalar type (Int, Float, String, Boolean), none with a default, used as a limit or an
 * offset, or left unused. A request that sends each of them, nothing else, and a non-null value
 * its scalar takes as it is, is answered by it with what `coerceVariables` would return; for any
 * other request it answers undefined and the full check runs, with its order and words for every
 * refusal. Null when the operation has a variable of another kind. On bench Q7 (two Int
 * variables) the full check cost 8 µs of the server's time per request, this one well under 1.
 */
export function quickVariables(schema: GraphQLSchema, defs: readonly VariableDefinitionNode[], use: VariableUse,
  limits: ReadonlyMap<string, unknown>): QuickVariables | null {
  const checks: { readonly name: string; readonly ok: (v: unknown) => boolean }[] = [];
  for (const def of defs) {
    if (def.defaultValue !== undefined) return null;
    const { name, type, path } = declared(schema, def, use);
    if (type === undefined || !use.used.has(name) || limits.has(name) || isOffsetPlace(path, type)) return null;
    const named = isNonNullType(type) ? type.ofType : type;
    const ok = isScalarType(named) && Object.hasOwn(QUICK_SCALARS, named.name) ? QUICK_SCALARS[named.name] : undefined;
    if (ok === undefined) return null;
    checks.push({ name, ok });
  }
  const names = new Set(checks.map((c) => c.name));
  if (checks.length === 0 || names.size !== checks.length) return null;
  return (sent) => {
    if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return undefined;
    let count = 0;
    for (const key in sent) {
      if (!names.has(key)) return undefined;
      count += 1;
    }
    if (count !== checks.length) return undefined;
    const out: { [k: string]: unknown } = {};
    for (const { name, ok } of checks) {
      const v = (sent as Record<string, unknown>)[name];
      if (!ok(v)) return undefined;
      out[name] = v;
    }
    return out;
  };
}

/** What a variable's definition says, read once per definition and schema (a cached plan's requests share them). */
interface Declared {
  readonly schema: GraphQLSchema;
  /** The prepared operation's use sites it was read from (the VariableUse object itself is made per request). */
  readonly usages: VariableUse['usages'];
  readonly builtIns: VariableUse['builtIns'];
  readonly name: string;
  readonly type: GraphQLInputType | undefined;
  /** Where its value is reported: its first use, or `variableValues.<name>`. */
  readonly path: Path;
  readonly column: boolean;
  /** Its first use is an operand GraphQL's own scalars read (validate-words.ts ownScalarPath). */
  readonly own: boolean;
}

const declaredOf = new WeakMap<VariableDefinitionNode, Declared>();

function declared(schema: GraphQLSchema, def: VariableDefinitionNode, use: VariableUse): Declared {
  const known = declaredOf.get(def);
  if (known && known.schema === schema && known.usages === use.usages && known.builtIns === use.builtIns) return known;
  const name = def.variable.name.value;
  // Frozen: every request of the plan reports its errors at this one array.
  const path = Object.freeze([...(use.usages.get(name) ?? ['variableValues', name])]) as Path;
  const own = ownScalarPath(path);
  const made: Declared = { schema, usages: use.usages, builtIns: use.builtIns, name, type: typeFromAST(schema, def.type) as GraphQLInputType | undefined, path,
    column: isColumnPlace(path) && !use.builtIns?.has(name) && !own, own };
  declaredOf.set(def, made);
  return made;
}

// GraphQL's input coercion of a checked value: a single value where a list is expected becomes a
// list of one, at any depth; everything else is kept as sent.
function coerceJson(v: unknown, type: GraphQLInputType): unknown {
  if (v === null || v === undefined) return v;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return (Array.isArray(v) ? v : [v]).map((x) => coerceJson(x, inner.ofType));
  if (isInputObjectType(inner) && typeof v === 'object' && !Array.isArray(v)) {
    const fields = inner.getFields();
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, fields[k] ? coerceJson(x, fields[k].type) : x]));
  }
  return v;
}

// A value at `path` is a column's unless it is one of the built-in arguments itself.
function isColumnPlace(path: Path): boolean {
  const i = path.lastIndexOf('args');
  return !(i >= 0 && i === path.length - 2 && BUILT_IN_ARGS.has(String(path[i + 1])));
}

// A variable whose first use is a table select's `offset`: Hasura's bigInt parser reads its value
// (validate-words.ts bigIntProblem), so a number past 32 bits or a string of digits is taken.
function isOffsetPlace(path: Path, type: GraphQLInputType): boolean {
  return path.length >= 2 && path[path.length - 2] === 'args' && path[path.length - 1] === 'offset'
    && (isNonNullType(type) ? type.ofType : type) === GraphQLInt;
}

function checkBigInt(v: unknown, path: Path): void {
  if (v === null) return;
  const problem = bigIntJsonProblem(v);
  if (problem) throw new ApiError(problem.code, problem.message, 400, path);
}

/** One JSON value against a type, as Hasura's parsers read a variable's value (`own`: as validate.ts's parseLiteral). */
export function checkJson(v: unknown, type: GraphQLInputType, path: Path, column: boolean, own = false): void {
  if (v === null || v === undefined) {
    if (!isNonNullType(type)) return;
    throw nullError(type.ofType, path, column);
  }
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (Array.isArray(v)) v.forEach((x, i) => checkJson(x, inner.ofType, [...path, i], column, own));
    else checkJson(v, inner.ofType, [...path, 0], column, own);
    return;
  }
  if (isInputObjectType(inner)) {
    if (typeof v !== 'object' || Array.isArray(v)) {
      throw new ApiError('validation-failed', `expected an object for type "${inner.name}", but found ${describeJson(v)}`, 400, path);
    }
    const fields = inner.getFields();
    const obj = v as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(key)) {
        throw new ApiError('validation-failed', `variable value contains object with key "${key}", which is not a legal GraphQL name`, 400, path);
      }
      if (!fields[key]) throw new ApiError('validation-failed', `field "${key}" not found in type: '${inner.name}'`, 400, [...path, key]);
    }
    for (const [name, def] of Object.entries(fields)) {
      if (!Object.hasOwn(obj, name)) {
        if (isNonNullType(def.type) && def.defaultValue === undefined) throw new ApiError('validation-failed', `missing required field "${name}"`, 400, [...path, name]);
        continue;
      }
      const ownHere = own || ownScalarField(fields, name);
      if (obj[name] === null && refusesNull(inner, name)) throw nullError(def.type, [...path, name], !ownHere || nullIsColumnWords(inner));
      checkJson(obj[name], def.type, [...path, name], !ownHere, ownHere);
    }
    return;
  }
  if (isEnumType(inner)) {
    if (typeof v !== 'string') throw new ApiError('validation-failed', `expected an enum value for type "${inner.name}", but found ${describeJson(v)}`, 400, path);
    if (!inner.getValue(v)) {
      const names = inner.getValues().map((x) => x.name);
      throw new ApiError('validation-failed', `expected one of the values ${enumValuesListed(inner.name, names)} for type "${inner.name}", but found "${v}"`, 400, path);
    }
    return;
  }
  const problem = jsonScalarMismatch(inner.name, v, column);
  if (problem) throw new ApiError(problem.code, problem.message, 400, path);
}

/** Whether a declared variable type is non-null without a default (its value must be sent). */
export function isRequired(def: VariableDefinitionNode): boolean {
  return def.type.kind === Kind.NON_NULL_TYPE && def.defaultValue === undefined;
}
