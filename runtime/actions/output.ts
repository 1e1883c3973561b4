// A handler's 2xx answer checked against the action's output type and cut to the client's
// selection (reference/actions.md §3): fields not asked are dropped, nested custom objects are
// read from the JSON, `__typename` answered, and relationship fields to tables are left as
// requests for one SQL statement (relationships.ts). Wording of the checks is Hasura v2's.

import { Kind, parseType, type TypeNode } from 'graphql';
import type { CustomObjectModel, CustomRelationshipModel, Json } from '../bundle/index.js';
import { collectFields, type FieldSel, type PlanContext } from '../graphql/index.js';
import { ActionFailure } from './failure.js';

/** A relationship field to fill: the object it goes in, under `key`, from the table rows matching `values`. */
export interface PendingRelationship {
  readonly target: { [k: string]: Json };
  readonly key: string;
  readonly relationship: CustomRelationshipModel;
  readonly field: FieldSel;
  /** Column name -> the object's value of the mapped field. */
  readonly values: readonly (readonly [string, Json])[];
}

/** What shaping reads: the custom object and enum types, the planning context (fragments, variables), the failure details. */
export interface ShapeContext {
  readonly objects: ReadonlyMap<string, CustomObjectModel>;
  /** Each custom enum's values. */
  readonly enums: ReadonlyMap<string, ReadonlySet<string>>;
  /** Null when there is no selection (`checkAnswer`): only the answer's shape is checked. */
  readonly plan: PlanContext | null;
  /** The `internal` of a failure (request and response). */
  readonly internal: Json;
  readonly pending: PendingRelationship[];
  /**
   * A field the answer leaves out reads null (Hasura reads an asynchronous output with
   * relationships through jsonb_to_recordset). Otherwise it is left out of the output, as
   * Hasura's makeActionResponseNoRelations builds it (test_actions.py test_query_action_recursive_output).
   */
  readonly missingAsNull?: boolean;
}

/** The selected output of one action field (`field` is the root field, `type` its output type text). */
export function shapeOutput(value: Json, type: string, field: FieldSel, ctx: ShapeContext): Json {
  return shape(value, parseType(type), field, ctx, true);
}

/**
 * A 2xx answer checked against the output type with nothing selected, as Hasura's `callWebhook`
 * checks it (`validateResponse`) before an asynchronous call is stored: the answer's kind (null,
 * list, object, built-in scalar) and the non-null fields of its objects. Throws the ActionFailure.
 */
export function checkAnswer(value: Json, type: string, action: string, ctx: Pick<ShapeContext, 'objects' | 'enums' | 'internal'>): void {
  const field: FieldSel = { key: action, name: action, node: { kind: Kind.FIELD, name: { kind: Kind.NAME, value: action } } };
  shape(value, parseType(type), field, { ...ctx, plan: null, pending: [] }, true);
}

// The GraphQL built-in scalars a value must fit (database and custom scalars take any JSON, as the
// columns of those types do). Int is GraphQL's: a whole number of 32 bits.
const BUILT_IN: { readonly [name: string]: (v: Json) => boolean } = {
  Int: (v) => typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647,
  Float: (v) => typeof v === 'number',
  String: (v) => typeof v === 'string',
  Boolean: (v) => typeof v === 'boolean',
  ID: (v) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)),
};

// What a JSON value is, in the words of Hasura's checks ("got scalar String", "got object", "got array").
function jsonKind(v: Json): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string': return 'scalar String';
    case 'number': return 'scalar Number';
    case 'boolean': return 'scalar Boolean';
    default: return 'object';
  }
}

// Hasura's sentence (callWebhook, March 2022) for an answer of the wrong kind as a whole: an array
// where no list is due, an object where a list or a built-in scalar is.
const CHECK_TYPE = (kind: 'array' | 'object'): string => `got ${kind} for the action webhook response, might want to check the action return type defined!`;

function typeText(node: TypeNode): string {
  switch (node.kind) {
    case Kind.NON_NULL_TYPE: return `${typeText(node.type)}!`;
    case Kind.LIST_TYPE: return `[${typeText(node.type)}]`;
    case Kind.NAMED_TYPE: return node.name.value;
  }
}

// Hasura's sentence for a value of the wrong shape, naming the field below the top of the answer.
function mismatch(value: Json, expected: string, field: FieldSel, top: boolean, ctx: ShapeContext): ActionFailure {
  const where = top ? 'the action webhook response' : `field ${JSON.stringify(field.name)} of the action webhook response`;
  return new ActionFailure(`got ${jsonKind(value)} for ${where}, expecting ${expected}`, 'unexpected', ctx.internal);
}

function shape(value: Json | undefined, type: TypeNode, field: FieldSel, ctx: ShapeContext, top: boolean): Json {
  if (type.kind === Kind.NON_NULL_TYPE) {
    if (value === null || value === undefined) {
      throw new ActionFailure(top ? 'got null for the action webhook response' : `expecting not null value for field ${JSON.stringify(field.name)}`, 'unexpected', ctx.internal);
    }
    return shape(value, type.type, field, ctx, top);
  }
  if (value === null || value === undefined) return null;
  if (type.kind === Kind.LIST_TYPE) {
    if (!Array.isArray(value)) {
      if (!top) throw new ActionFailure(`expecting array for field ${JSON.stringify(field.name)}`, 'unexpected', ctx.internal);
      if (typeof value === 'object') throw new ActionFailure(CHECK_TYPE('object'), 'unexpected', ctx.internal);
      throw mismatch(value, typeText(type), field, top, ctx);
    }
    return value.map((v) => shape(v, type.type, field, ctx, top));
  }
  const name = type.name.value;
  const object = ctx.objects.get(name);
  if (!object) {
    // The answer as a whole: an array, or an object where a built-in scalar is due, is "got ...,
    // might want to check the action return type defined!" (Hasura's callWebhook of March 2022).
    if (top && Array.isArray(value)) throw new ActionFailure(CHECK_TYPE('array'), 'unexpected', ctx.internal);
    if (top && typeof value === 'object' && name in BUILT_IN && name !== 'ID') throw new ActionFailure(CHECK_TYPE('object'), 'unexpected', ctx.internal);
    const fits = BUILT_IN[name];
    if (fits && !fits(value)) throw mismatch(value, name, field, top, ctx);
    const values = ctx.enums.get(name);
    if (values && !(typeof value === 'string' && values.has(value))) {
      const where = top ? 'the action webhook response' : `field ${JSON.stringify(field.name)} of the action webhook response`;
      throw new ActionFailure(`got ${typeof value === 'string' ? JSON.stringify(value) : jsonKind(value)} for ${where}, expecting a value of enum ${name}`, 'unexpected', ctx.internal);
    }
    return value;
  }
  if (Array.isArray(value)) {
    if (top) throw new ActionFailure(CHECK_TYPE('array'), 'unexpected', ctx.internal);
    throw mismatch(value, typeText(type), field, top, ctx);
  }
  if (typeof value !== 'object') throw mismatch(value, typeText(type), field, top, ctx);
  return shapeObject(value, object, field, ctx);
}

function shapeObject(value: { readonly [k: string]: Json }, object: CustomObjectModel, field: FieldSel, ctx: ShapeContext): Json {
  // Every non-null field of the type must be there, asked or not (Hasura's validateResponseObject).
  for (const f of object.fields) {
    if (f.type.endsWith('!') && (value[f.name] === undefined || value[f.name] === null)) {
      throw new ActionFailure(f.name in value ? `expecting not null value for field ${JSON.stringify(f.name)}` : `field ${JSON.stringify(f.name)} expected in webhook response, but not found`,
        'unexpected', ctx.internal);
    }
  }
  const out: { [k: string]: Json } = {};
  for (const sub of ctx.plan ? collectFields(field.node.selectionSet, object.name, ctx.plan) : []) {
    if (sub.name === '__typename') { out[sub.key] = object.name; continue; }
    const f = object.fields.find((x) => x.name === sub.name);
    if (f) {
      if (value[sub.name] === undefined && !ctx.missingAsNull && !f.type.endsWith('!')) continue;
      out[sub.key] = shape(value[sub.name], parseType(f.type), sub, ctx, false);
      continue;
    }
    const rel = object.relationships.find((r) => r.name === sub.name || (r.kind === 'array' && `${r.name}_aggregate` === sub.name));
    if (!rel) throw new ActionFailure(`field ${JSON.stringify(sub.name)} not found in type: '${object.name}'`, 'validation-failed');
    out[sub.key] = rel.kind === 'array' && rel.name === sub.name ? [] : null;
    ctx.pending.push({ target: out, key: sub.key, relationship: rel, field: sub, values: rel.mapping.map(([from, column]) => [column, value[from] ?? null]) });
  }
  return out;
}
