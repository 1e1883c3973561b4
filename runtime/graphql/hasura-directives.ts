// The directives a role's schema offers, as Hasura's Parser/Directives.hs defines them
// (directivesInfo): @include and @skip with Hasura's descriptions, and @cached on queries (its
// arguments parsed, the directive itself answered without a cache, as Hasura's open-source
// server does). graphql-js's type-system directives (@deprecated, @specifiedBy, @oneOf) are not
// offered: a document may not use them, and introspection does not list them.

import { DirectiveLocation, GraphQLBoolean, GraphQLDirective, GraphQLInt, GraphQLNonNull } from 'graphql';

const IF = { if: { type: new GraphQLNonNull(GraphQLBoolean) } };
const INCLUSION = [DirectiveLocation.FIELD, DirectiveLocation.FRAGMENT_SPREAD, DirectiveLocation.INLINE_FRAGMENT];

const HASURA_DIRECTIVES: readonly GraphQLDirective[] = [
  new GraphQLDirective({ name: 'include', description: 'whether this query should be included', locations: INCLUSION, args: IF }),
  new GraphQLDirective({ name: 'skip', description: 'whether this query should be skipped', locations: INCLUSION, args: IF }),
  new GraphQLDirective({
    name: 'cached', description: 'whether this query should be cached (Hasura Cloud only)', locations: [DirectiveLocation.QUERY],
    args: {
      ttl: { type: new GraphQLNonNull(GraphQLInt), description: 'measured in seconds', defaultValue: 60 },
      refresh: { type: new GraphQLNonNull(GraphQLBoolean), description: 'refresh the cache entry', defaultValue: false },
    },
  }),
];

/**
 * Directives Hasura accepts without advertising them (Parser/Directives.hs, dAdvertised False):
 * `@_multiple_top_level_fields` lets a subscription select several root fields, a testing tool of
 * Hasura's (Execute.hs); introspection does not list it.
 */
export const MULTIPLE_ROOT_FIELDS = '_multiple_top_level_fields';
const HIDDEN_DIRECTIVES: readonly GraphQLDirective[] = [
  new GraphQLDirective({ name: MULTIPLE_ROOT_FIELDS, description: 'INTERNAL TESTING TOOL DO NOT USE', locations: [DirectiveLocation.SUBSCRIPTION] }),
];

/** A directive Hasura accepts in documents but does not list in the schema, by name. */
export function hiddenDirective(name: string): GraphQLDirective | undefined {
  return HIDDEN_DIRECTIVES.find((d) => d.name === name);
}

/** A role schema's directives: those its SDL defines (a remote schema's), then Hasura's. */
export function hasuraDirectives(custom: readonly GraphQLDirective[]): GraphQLDirective[] {
  return [...custom, ...HASURA_DIRECTIVES.filter((h) => custom.every((d) => d.name !== h.name))];
}
