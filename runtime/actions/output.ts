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

/** What shaping reads: the custom object types, the planning context (fragments, variables), the failure details. */
export interface ShapeContext {
  readonly objects: ReadonlyMap<string, CustomObjectModel>;
  readonly plan: PlanContext;
  /** The `internal` of a failure (request and response). */
  readonly internal: Json;
  readonly pending: PendingRelationship[];
}

/** The selected output of one action field (`field` is the root field, `type` its output type text). */
export function shapeOutput(value: Json, type: string, field: FieldSel, ctx: ShapeContext): Json {
  return shape(value, parseType(type), field, ctx, true);
}

// The GraphQL built-in scalars a value must fit (database and custom scalars take any JSON, as the
// columns of those types do).
const BUILT_IN: { readonly [name: string]: (v: Json) => boolean } = {
  Int: (v) => typeof v === 'number' && Number.isInteger(v),
  Float: (v) => typeof v === 'number',
  String: (v) => typeof v === 'string',
  Boolean: (v) => typeof v === 'boolean',
  ID: (v) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)),
};

function jsonKind(v: Json): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string': return 'String';
    case 'number': return 'Number';
    case 'boolean': return 'Boolean';
    default: return 'object';
  }
}

function typeText(node: TypeNode): string {
  switch (node.kind) {
    case Kind.NON_NULL_TYPE: return `${typeText(node.type)}!`;
    case Kind.LIST_TYPE: return `[${typeText(node.type)}]`;
    case Kind.NAMED_TYPE: return node.name.value;
  }
}

function shape(value: Json | undefined, type: TypeNode, field: FieldSel, ctx: ShapeContext, top: boolean): Json {
  if (type.kind === Kind.NON_NULL_TYPE) {
    if (value === null || value === undefined) throw new ActionFailure(`expecting not null value for field ${JSON.stringify(field.name)}`, 'unexpected', ctx.internal);
    return shape(value, type.type, field, ctx, top);
  }
  if (value === null || value === undefined) return null;
  if (type.kind === Kind.LIST_TYPE) {
    if (!Array.isArray(value)) throw new ActionFailure(top ? 'expecting array for the action webhook response' : `expecting array for field ${JSON.stringify(field.name)}`, 'unexpected', ctx.internal);
    return value.map((v) => shape(v, type.type, field, ctx, top));
  }
  const object = ctx.objects.get(type.name.value);
  if (!object) {
    const fits = BUILT_IN[type.name.value];
    if (fits && !fits(value)) throw new ActionFailure(`got scalar ${jsonKind(value)} for the action webhook response, expecting ${type.name.value}`, 'unexpected', ctx.internal);
    return value;
  }
  if (Array.isArray(value)) throw new ActionFailure('expecting object for action webhook response but got array', 'unexpected', ctx.internal);
  if (typeof value !== 'object') {
    throw new ActionFailure(`got scalar ${jsonKind(value)} for the action webhook response, expecting ${typeText(type)}`, 'unexpected', ctx.internal);
  }
  return shapeObject(value, object, field, ctx);
}

function shapeObject(value: { readonly [k: string]: Json }, object: CustomObjectModel, field: FieldSel, ctx: ShapeContext): Json {
  const out: { [k: string]: Json } = {};
  for (const sub of collectFields(field.node.selectionSet, object.name, ctx.plan)) {
    if (sub.name === '__typename') { out[sub.key] = object.name; continue; }
    const f = object.fields.find((x) => x.name === sub.name);
    if (f) {
      const type = parseType(f.type);
      if (!(sub.name in value) && type.kind === Kind.NON_NULL_TYPE) {
        throw new ActionFailure(`field ${JSON.stringify(sub.name)} expected in webhook response, but not found`, 'unexpected', { webhook_response: value });
      }
      out[sub.key] = shape(value[sub.name], type, sub, ctx, false);
      continue;
    }
    const rel = object.relationships.find((r) => r.name === sub.name);
    if (!rel) throw new ActionFailure(`field ${JSON.stringify(sub.name)} not found in type: '${object.name}'`, 'validation-failed');
    out[sub.key] = rel.kind === 'array' ? [] : null;
    ctx.pending.push({ target: out, key: sub.key, relationship: rel, field: sub, values: rel.mapping.map(([from, column]) => [column, value[from] ?? null]) });
  }
  return out;
}
