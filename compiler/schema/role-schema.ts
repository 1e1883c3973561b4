// One GraphQL schema per role, as Hasura v2 generates it for that role's permissions. Types
// are listed sorted by name so the printed SDL is stable; the runtime loads that SDL with
// graphql's buildSchema.

import { GraphQLSchema, isIntrospectionType, printSchema, type GraphQLNamedType } from 'graphql';
import type { BundleModel } from '../../runtime/bundle/index.js';
import { createContext } from './context.js';
import { mutationRoot } from './mutation-root.js';
import { queryRoot, subscriptionRoot } from './root.js';

/** The schema `role` sees. */
export function buildRoleSchema(model: BundleModel, role: string): GraphQLSchema {
  const ctx = createContext(model, role);
  const query = queryRoot(ctx);
  const subscription = subscriptionRoot(ctx);
  const mutation = mutationRoot(ctx);
  const reachable = new GraphQLSchema({ query, mutation, subscription });
  const types = Object.values(reachable.getTypeMap())
    .filter((t: GraphQLNamedType) => !isIntrospectionType(t))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return new GraphQLSchema({ query, mutation, subscription, types });
}

/** Every role's schema, keyed by role (model.roles order, which is sorted). */
export function buildRoleSchemas(model: BundleModel): { [role: string]: GraphQLSchema } {
  const out: { [role: string]: GraphQLSchema } = {};
  for (const role of model.roles) out[role] = buildRoleSchema(model, role);
  return out;
}

/** The schema as SDL text, ending with a newline; `buildSchema` of it gives the same schema. */
export function printRoleSchema(schema: GraphQLSchema): string {
  return `${printSchema(schema)}\n`;
}
