// One GraphQL schema per role, as Hasura v2 generates it for that role's permissions. Types
// are listed sorted by name so the printed SDL is stable; the runtime loads that SDL with
// graphql's buildSchema.

import { GraphQLSchema, isIntrospectionType, printSchema, type GraphQLNamedType } from 'graphql';
import type { BundleModel } from '../../runtime/bundle/index.js';
import { actionRootFields, actionsOf } from './action-fields.js';
import { createContext } from './context.js';
import { mutationRoot } from './mutation-root.js';
import { queryRoot, subscriptionRoot } from './root.js';

/** The schema `role` sees. */
export function buildRoleSchema(model: BundleModel, role: string): GraphQLSchema {
  const ctx = createContext(model, role);
  const query = queryRoot(ctx, actionRootFields(ctx, 'query'));
  const subscription = subscriptionRoot(ctx, actionRootFields(ctx, 'subscription'));
  const mutation = mutationRoot(ctx, actionRootFields(ctx, 'mutation'));
  const reachable = new GraphQLSchema({ query, mutation, subscription });
  const types = Object.values(reachable.getTypeMap())
    .filter((t: GraphQLNamedType) => !isIntrospectionType(t))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return new GraphQLSchema({ query, mutation, subscription, types });
}

/**
 * Every role's schema, keyed by role (model.roles order, which is sorted). Roles whose schemas
 * must be the same share one object: on a large schema most roles differ only in row filters
 * and limits, and one schema of 1,000 tables takes seconds and hundreds of megabytes to build.
 */
export function buildRoleSchemas(model: BundleModel): { [role: string]: GraphQLSchema } {
  const out: { [role: string]: GraphQLSchema } = {};
  const built = new Map<string, GraphQLSchema>();
  for (const role of model.roles) {
    const key = schemaInputs(model, role);
    let schema = built.get(key);
    if (!schema) built.set(key, (schema = buildRoleSchema(model, role)));
    out[role] = schema;
  }
  return out;
}

/**
 * Everything of a role's permissions its schema is built from (createContext and the roots read
 * these): its roots, and its permissions without row filters, checks and limits, which no type
 * shows. Two roles of one model with equal inputs see the same schema.
 */
export function schemaInputs(model: BundleModel, role: string): string {
  const select = Object.entries(model.select[role] ?? {}).map(([t, p]) => [t, p.columns, p.computedFields, p.allowAggregations]);
  const writes = Object.entries(model.mutations?.[role] ?? {}).map(([t, p]) => [t,
    p.insert ? [p.insert.columns, p.insert.set, p.insert.backendOnly] : null,
    p.update ? [p.update.columns, p.update.set, p.update.backendOnly] : null,
    p.delete ? [p.delete.backendOnly] : null]);
  const actions = model.actions ? createContextActions(model, role) : null;
  return JSON.stringify([model.roots[role] ?? null, select, writes, actions]);
}

// The actions a role sees (their names: the custom types are the same for every role).
function createContextActions(model: BundleModel, role: string): readonly string[] {
  return actionsOf({ model, role }).map((a) => a.name);
}

/** The schema as SDL text, ending with a newline; `buildSchema` of it gives the same schema. */
export function printRoleSchema(schema: GraphQLSchema): string {
  return `${printSchema(schema)}\n`;
}

/** Each role's SDL; roles sharing a schema object share its text (printed once). */
export function printSchemas(roles: readonly string[], schemas: { readonly [role: string]: GraphQLSchema }): { [role: string]: string } {
  const printed = new Map<GraphQLSchema, string>();
  const out: { [role: string]: string } = {};
  for (const role of roles) {
    const schema = schemas[role]!;
    let text = printed.get(schema);
    if (text === undefined) printed.set(schema, (text = printRoleSchema(schema)));
    out[role] = text;
  }
  return out;
}
