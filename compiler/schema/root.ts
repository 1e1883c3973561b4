// Root types from the model's root-field lists. Each RootField kind has one builder; the
// mutation builders (insert/update/delete) slot into `rootBuilders` beside the select ones.

import { GraphQLNonNull, GraphQLObjectType, GraphQLString } from 'graphql';
import type { RootField } from '../../runtime/bundle/index.js';
import { sortByKey, type SchemaContext } from './context.js';
import { selectRootBuilders, type RootFieldBuilder, type RootFieldConfig } from './select-root.js';
import { streamRootFields } from './stream-root.js';
import { withNamespaces } from './namespaces.js';

const rootBuilders: { readonly [K in RootField['kind']]: RootFieldBuilder<K> } = {
  ...selectRootBuilders,
};

function buildRootField(ctx: SchemaContext, field: RootField): RootFieldConfig | null {
  const build = rootBuilders[field.kind] as RootFieldBuilder<RootField['kind']>;
  return build(ctx, field);
}

/** The fields of a root type, sorted by name as Hasura's introspection lists them; namespaced ones inside their namespace's field. */
export function rootFields(ctx: SchemaContext, fields: { readonly [name: string]: RootField }): { [name: string]: RootFieldConfig } {
  const built: [string, RootFieldConfig][] = [];
  for (const [name, field] of Object.entries(fields)) {
    const config = buildRootField(ctx, field);
    if (config) built.push([name, config]);
  }
  return sortByKey(withNamespaces(ctx, built, 'query'));
}

// Hasura keeps query_root valid for a role that may query nothing with one placeholder field.
const noQueriesDescription = 'There are no queries available to the current role, either because there are no sources '
  + "or remote schemas configured, or because the current role doesn't have the proper permissions.";

/** `query_root`: never empty (the `no_queries_available` placeholder stands in); `extra`: fields besides the tables' (actions). */
export function queryRoot(ctx: SchemaContext, extra: readonly [string, RootFieldConfig][] = []): GraphQLObjectType {
  const fields = sortByKey([...Object.entries(rootFields(ctx, ctx.model.roots[ctx.role]?.query ?? {})), ...extra]);
  if (Object.keys(fields).length === 0) {
    fields['no_queries_available'] = { type: new GraphQLNonNull(GraphQLString), description: noQueriesDescription };
  }
  return new GraphQLObjectType({ name: 'query_root', fields });
}

/** `subscription_root`, or undefined when the role has no subscription field (the type is then absent). */
export function subscriptionRoot(ctx: SchemaContext, extra: readonly [string, RootFieldConfig][] = []): GraphQLObjectType | undefined {
  const live = rootFields(ctx, ctx.model.roots[ctx.role]?.subscription ?? {});
  const fields = sortByKey([...Object.entries(live), ...streamRootFields(ctx, ctx.model.roots[ctx.role]?.stream ?? {}), ...extra]);
  if (Object.keys(fields).length === 0) return undefined;
  return new GraphQLObjectType({ name: 'subscription_root', fields });
}
