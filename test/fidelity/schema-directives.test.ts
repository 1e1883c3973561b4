// The directives of a role's schema are Hasura's (Parser/Directives.hs, directivesInfo): @include
// and @skip with Hasura's descriptions and an undescribed `if`, and @cached on queries with `ttl`
// (Int!, 60) and `refresh` (Boolean!, false), whose arguments are parsed and which the open-source
// server answers without a cache. graphql-js's type-system directives are neither listed nor
// usable in a document.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, metadataOf, table } from '../integration/setup.js';

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('fiddirectives', 'CREATE TABLE harbour (id serial PRIMARY KEY, berth text); INSERT INTO harbour (berth) VALUES (\'north\');');
  kiln = await startKiln({ metadata: metadataOf([table('harbour', {
    select_permissions: [{ role: 'pilot', permission: { columns: ['berth'], filter: {} } }],
  })]), databaseUrl: db.url });
});
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const err = (message: string, path: string): unknown => ({ message, path, code: 'validation-failed' });
const IF = [{ name: 'if', description: null, type: { kind: 'NON_NULL', ofType: { name: 'Boolean' } }, defaultValue: null }];

describe('the directives of the schema', () => {
  it('lists include, skip and cached, in Hasura\'s words, for admin and for a role', async () => {
    const query = '{ __schema { directives { name description locations args { name description type { kind ofType { name } } defaultValue } } } }';
    const expected = [
      { name: 'include', description: 'whether this query should be included', locations: ['FIELD', 'FRAGMENT_SPREAD', 'INLINE_FRAGMENT'], args: IF },
      { name: 'skip', description: 'whether this query should be skipped', locations: ['FIELD', 'FRAGMENT_SPREAD', 'INLINE_FRAGMENT'], args: IF },
      { name: 'cached', description: 'whether this query should be cached (Hasura Cloud only)', locations: ['QUERY'], args: [
        { name: 'ttl', description: 'measured in seconds', type: { kind: 'NON_NULL', ofType: { name: 'Int' } }, defaultValue: '60' },
        { name: 'refresh', description: 'refresh the cache entry', type: { kind: 'NON_NULL', ofType: { name: 'Boolean' } }, defaultValue: 'false' }] },
    ];
    expect(dataOf(await kiln.gql(query))).toEqual({ __schema: { directives: expected } });
    expect(dataOf(await kiln.gql(query, null, { 'x-svc-role': 'pilot' }))).toEqual({ __schema: { directives: expected } });
  });

  it('answers a query under @cached, its arguments parsed', async () => {
    expect(dataOf(await kiln.gql('query Berths @cached(ttl: 30, refresh: true) { harbour { berth } }'))).toEqual({ harbour: [{ berth: 'north' }] });
    expect(dataOf(await kiln.gql('query ($t: Int!) @cached(ttl: $t) { harbour { berth } }', { t: 5 }, { 'x-svc-role': 'pilot' }))).toEqual({ harbour: [{ berth: 'north' }] });
    expect(errorOf(await kiln.gql('query @cached(ttl: "soon") { harbour { id } }'))).toEqual(err('expected a 32-bit integer for type "Int", but found a string', '$.cached.args.ttl'));
    expect(errorOf(await kiln.gql('query @cached(ttl: 5, scope: "all") { harbour { id } }'))).toEqual(err('"cached" has no argument named "scope"', '$.cached'));
    // A variable of an operation's directive is resolved with the selection set's.
    expect(errorOf(await kiln.gql('query @cached(ttl: $later) { harbour { id } }'))).toEqual(err('unbound variable "later"', '$'));
  });

  it('allows @cached on queries only, and knows no type-system directive in a document', async () => {
    expect(errorOf(await kiln.gql('mutation @cached { __typename }'))).toEqual(err('directive "cached" is not allowed on a mutation', '$'));
    expect(errorOf(await kiln.gql('{ harbour { berth @cached } }'))).toEqual(err('directive "cached" is not allowed on a field', '$.selectionSet.harbour.selectionSet'));
    expect(errorOf(await kiln.gql('{ harbour { berth @deprecated } }'))).toEqual(err('directive "deprecated" is not defined in the schema', '$.selectionSet.harbour.selectionSet'));
  });
});
