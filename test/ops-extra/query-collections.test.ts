import { describe, expect, it } from 'vitest';
import { apply, doc, failure, run } from './helpers.js';

const coll = {
  name: 'collection_1', comment: 'First query collection',
  definition: { queries: [{ name: 'query_1', query: 'query { user { id name } }' }] },
};

describe('query collections', () => {
  it('creates a collection as a rebuild checked for new inconsistencies (Hasura: withNewInconsistentObjsCheck)', () => {
    const out = run(doc(), 'create_query_collection', coll);
    expect(out.metadata?.query_collections).toEqual([coll]);
    expect(out.effect).toEqual({ kind: 'rebuild' });
  });

  it('refuses an existing name and duplicate query names', () => {
    const md = apply(doc(), 'create_query_collection', coll);
    expect(failure(md, 'create_query_collection', coll)).toEqual({
      path: '$.args.name', error: 'query collection with name "collection_1" already exists', code: 'already-exists' });
    const dup = { name: 'c2', definition: { queries: [{ name: 'a', query: '{ x }' }, { name: 'a', query: '{ y }' }] } };
    expect(failure(md, 'create_query_collection', dup)).toEqual({
      path: '$.args.definition.queries', error: 'found duplicate query names "a"', code: 'not-supported' });
  });

  it('rejects GraphQL that does not parse, with the path of the query', () => {
    const bad = { name: 'c', definition: { queries: [{ name: 'a', query: 'query {' }] } };
    expect(failure(doc(), 'create_query_collection', bad)).toEqual({
      path: '$.args.definition.queries[0].query', error: 'not a valid graphql query', code: 'parse-failed' });
    expect(failure(doc(), 'create_query_collection', bad, 'query').path).toBe('$.definition.queries[0].query');
  });

  it('reports an empty name relative to args on /v1/query', () => {
    expect(failure(doc(), 'create_query_collection', { ...coll, name: '' }, 'query')).toEqual({
      path: '$.name', error: 'empty string not allowed', code: 'parse-failed' });
    expect(failure(doc(), 'create_query_collection', { name: 'x' })).toEqual({
      path: '$.args', error: "the key 'definition' was not present", code: 'parse-failed' });
  });

  it('adds and drops single queries', () => {
    let md = apply(doc(), 'create_query_collection', coll);
    md = apply(md, 'add_query_to_collection', { collection_name: 'collection_1', query_name: 'query_2', query: '{ user { id } }' }, 'query');
    expect((md.query_collections?.[0] as { definition: { queries: unknown[] } }).definition.queries).toHaveLength(2);
    expect(failure(md, 'add_query_to_collection', { collection_name: 'collection_1', query_name: 'query_1', query: '{ a }' }, 'query')).toEqual({
      path: '$.args', error: 'query with name "query_1" already exists in collection "collection_1"', code: 'already-exists' });
    expect(failure(md, 'add_query_to_collection', { collection_name: 'nope', query_name: 'q', query: '{ a }' })).toEqual({
      path: '$.args', error: 'query collection with name "nope" does not exist', code: 'not-exists' });
    md = apply(md, 'drop_query_from_collection', { collection_name: 'collection_1', query_name: 'query_1' });
    expect((md.query_collections?.[0] as { definition: { queries: { name: string }[] } }).definition.queries.map((q) => q.name)).toEqual(['query_2']);
    expect(failure(md, 'drop_query_from_collection', { collection_name: 'collection_1', query_name: 'query_1' })).toEqual({
      path: '$.args', error: 'query with name "query_1" not found in collection "collection_1"', code: 'not-found' });
  });

  it('renames a collection and the references to it', () => {
    let md = apply(doc(), 'create_query_collection', coll);
    md = apply(md, 'add_collection_to_allowlist', { collection: 'collection_1' });
    md = apply(md, 'create_rest_endpoint', { name: 'e', url: 'e', methods: ['GET'], definition: { query: { collection_name: 'collection_1', query_name: 'query_1' } } });
    md = apply(md, 'rename_query_collection', { name: 'collection_1', new_name: 'renamed' });
    expect(md.query_collections?.map((c) => (c as { name: string }).name)).toEqual(['renamed']);
    expect(md.allowlist).toEqual([{ collection: 'renamed', scope: { global: true } }]);
    expect(JSON.stringify(md.rest_endpoints)).toContain('"collection_name":"renamed"');
    const two = apply(md, 'create_query_collection', { ...coll, name: 'other' });
    expect(failure(two, 'rename_query_collection', { name: 'renamed', new_name: 'other' })).toEqual({
      path: '$.args.new_name', error: 'query collection with name "other" already exists', code: 'already-exists' });
    expect(failure(two, 'rename_query_collection', { name: 'ghost', new_name: 'x' }).code).toBe('not-exists');
  });

  it('drops a collection; one in the allow-list only with cascade', () => {
    let md = apply(doc(), 'create_query_collection', coll);
    expect(failure(md, 'drop_query_collection', { collection: 'collection_1' })).toEqual({
      path: '$.args', error: "the key 'cascade' was not present", code: 'parse-failed' });
    md = apply(md, 'add_collection_to_allowlist', { collection: 'collection_1' });
    expect(failure(md, 'drop_query_collection', { collection: 'collection_1', cascade: false })).toEqual({
      path: '$.args.collection',
      error: 'query collection with name "collection_1" is present in the allowlist; cannot proceed to drop. please use cascade to confirm you wish to drop it from the allowlist as well',
      code: 'dependency-error' });
    const out = run(md, 'drop_query_collection', { collection: 'collection_1', cascade: true });
    expect(out.metadata?.query_collections).toBeUndefined();
    expect(out.metadata?.allowlist).toBeUndefined();
    expect(out.effect).toEqual({ kind: 'drop', cascade: true });
    expect(failure(doc(), 'drop_query_collection', { collection: 'x', cascade: true })).toEqual({
      path: '$.args.collection', error: 'query collection with name "x" does not exist', code: 'not-exists' });
  });
});

describe('on a real document', () => {
  it('adds a collection to chinook without touching its sources', async () => {
    const { chinook } = await import('./helpers.js');
    const md = chinook();
    const next = apply(md, 'create_query_collection', coll);
    expect(next.sources).toBe(md.sources);
    expect(next.query_collections).toEqual([coll]);
  });
});
