// Query collections are checked against the admin schema; an invalid query is an inconsistent
// object worded as Hasura words it, naming the REST endpoints that serve it.

import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { collectionUse, validateCollections } from '../../compiler/schema/index.js';

const admin = buildSchema('type query_root { author: [author!]! }  type author { id: Int! name: String }  schema { query: query_root }');

describe('query collection validation', () => {
  const md = {
    query_collections: [{ name: 'c1', definition: { queries: [
      { name: 'ok', query: 'query { author { id name } }' },
      { name: 'gone', query: 'query { temp_table { col1 } }' },
      { name: 'bad_field', query: 'query { author { nope } }' },
      { name: 'cached', query: 'query @cached(ttl: 5) { author { id } }' },
      { name: 'syntax', query: 'query {' },
    ] } }],
    allowlist: [{ collection: 'c1' }],
    rest_endpoints: [{ name: 'temp_rest', definition: { query: { collection_name: 'c1', query_name: 'gone' } } }],
  };

  it('reads collections, the allow-list and the endpoints from the document', () => {
    const use = collectionUse(md);
    expect(use.collections[0]!.queries.map((q) => q.name)).toEqual(['ok', 'gone', 'bad_field', 'cached', 'syntax']);
    expect([...use.allowlisted]).toEqual(['c1']);
    expect(use.endpoints).toEqual([{ name: 'temp_rest', collection: 'c1', query: 'gone' }]);
  });

  it('reports each invalid query once, and accepts @cached', () => {
    const issues = validateCollections(collectionUse(md), admin);
    expect(issues.map((i) => i.name)).toEqual(['query_collections gone in c1', 'query_collections bad_field in c1', 'query_collections syntax in c1']);
    expect(issues[0]).toEqual({
      type: 'query_collections', name: 'query_collections gone in c1', definition: { name: 'gone', query: 'query { temp_table { col1 } }' },
      reason: 'Inconsistent object: In query collection "c1" the query "gone" is invalid with the following error(s): "Couldn\'t find field temp_table in root field query_root". This query is being used in the following REST endpoint(s): "temp_rest"',
    });
    expect(issues[1]!.reason).toContain('Cannot query field \\"nope\\" on type \\"author\\"');
    expect(issues[1]!.reason).not.toContain('REST endpoint');
  });
});
