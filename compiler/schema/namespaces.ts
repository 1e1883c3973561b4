// Root fields of a source with `customization.root_fields.namespace` sit inside one field named
// after the namespace (Hasura v2 source customization): the model keys them `<namespace>.<field>`,
// and each root type gets one object-typed field per namespace, `<ns>_query` on query_root and
// subscription_root, `<ns>_mutation_frontend` on mutation_root (type-name prefix and suffix applied).

import { GraphQLNonNull, GraphQLObjectType, type GraphQLFieldConfig } from 'graphql';
import { named, sortByKey, type SchemaContext } from './context.js';

/** The fields of a root type with namespaced fields gathered into their namespace's field. */
export function withNamespaces<F extends GraphQLFieldConfig<unknown, unknown>>(ctx: SchemaContext, fields: readonly (readonly [string, F])[],
  root: 'query' | 'mutation'): [string, F][] {
  const top: [string, F][] = [];
  const grouped = new Map<string, [string, F][]>();
  for (const [key, field] of fields) {
    const dot = key.indexOf('.');
    if (dot < 0) { top.push([key, field]); continue; }
    const ns = key.slice(0, dot);
    grouped.set(ns, [...(grouped.get(ns) ?? []), [key.slice(dot + 1), field]]);
  }
  for (const [ns, inner] of grouped) {
    const source = ctx.model.sources.find((s) => s.namespace?.field === ns);
    if (!source?.namespace) continue;
    const typeName = root === 'query' ? source.namespace.queryType : source.namespace.mutationType;
    const type = named(ctx, typeName, () => new GraphQLObjectType({ name: typeName, fields: sortByKey(inner) }));
    top.push([ns, { type: new GraphQLNonNull(type) } as F]);
  }
  return top;
}
