import { describe, expect, it } from 'vitest';
import type { Metadata } from '../../compiler/metadata/index.js';
import { apply, doc, failure, run } from './helpers.js';

const queries = [
  { name: 'simple_query', query: 'query { test_table { first_name last_name } }' },
  { name: 'query_with_arg', query: 'query ($first_name:String!) { test_table(where: {first_name: { _eq: $first_name } }) { first_name last_name } }' },
  { name: 'simple_subscription', query: 'subscription { test_table { first_name last_name } }' },
];
const ref = (query_name: string) => ({ query: { collection_name: 'test_collection', query_name } });

function setup(): Metadata {
  let md = apply(doc(), 'create_query_collection', { name: 'test_collection', definition: { queries } }, 'query');
  md = apply(md, 'create_rest_endpoint', { url: 'simple', name: 'simple', methods: ['GET'], definition: ref('simple_query') }, 'query');
  md = apply(md, 'create_rest_endpoint', { url: 'with_arg', name: 'with_arg', methods: ['GET', 'POST'], definition: ref('query_with_arg') }, 'query');
  return apply(md, 'create_rest_endpoint', { url: 'with_template/:first_name', name: 'with_template', methods: ['GET'], definition: ref('query_with_arg') }, 'query');
}

const endpoint = (name: string, url: string, query = 'simple_query') => ({ url, name, methods: ['GET'], definition: ref(query) });

describe('REST endpoints', () => {
  it('stores an endpoint and names it as Hasura does', () => {
    const out = run(doc({ query_collections: [{ name: 'test_collection', definition: { queries } }] }), 'create_rest_endpoint', endpoint('simple', 'simple'));
    expect(out.metadata?.rest_endpoints).toEqual([{ name: 'simple', url: 'simple', methods: ['GET'], definition: ref('simple_query'), comment: null }]);
    expect(out.effect).toEqual({ kind: 'create', object: { type: 'rest_endpoint', name: 'rest_endpoint simple' } });
  });

  it('rejects an empty url at $.url on /v1/query', () => {
    expect(failure(setup(), 'create_rest_endpoint', endpoint('empty', ''), 'query')).toEqual({
      path: '$.url', error: 'empty string not allowed', code: 'parse-failed' });
  });

  it('rejects bad methods', () => {
    expect(failure(setup(), 'create_rest_endpoint', { ...endpoint('m', 'm'), methods: [] }).path).toBe('$.args.methods');
    expect(failure(setup(), 'create_rest_endpoint', { ...endpoint('m', 'm'), methods: ['get'] })).toEqual({
      path: '$.args.methods[0]', error: 'Method get not supported.', code: 'parse-failed' });
  });

  it('refuses a name in use and drops by name', () => {
    expect(failure(setup(), 'create_rest_endpoint', endpoint('simple', 'other'))).toEqual({
      path: '$.args', error: 'Endpoint with name: simple already exists', code: 'already-exists' });
    const md = apply(setup(), 'drop_rest_endpoint', { name: 'simple' });
    expect(md.rest_endpoints?.map((e) => (e as { name: string }).name)).toEqual(['with_arg', 'with_template']);
    expect(failure(md, 'drop_rest_endpoint', { name: 'simple' })).toEqual({
      path: '$.args', error: 'endpoint with name: simple does not exist', code: 'not-exists' });
  });

  for (const [url, reason] of [
    ['foo/:id/bar/:id', 'Duplicate variables found in endpoint path: foo/:id/bar/:id'],
    ['foo/:/bar', 'Empty segments or unnamed variables are not allowed: foo/:/bar'],
    ['foo//bar', 'Empty segments or unnamed variables are not allowed: foo//bar'],
    ['foo/', 'Empty segments or unnamed variables are not allowed: foo/'],
  ] as const) {
    it(`rejects the template ${url} as an inconsistent endpoint`, () => {
      const args = endpoint('foo', url);
      expect(failure(setup(), 'create_rest_endpoint', args, 'query')).toEqual({
        path: '$.args', error: reason, code: 'invalid-configuration',
        internal: [{ definition: { ...args, comment: null }, reason, name: 'rest_endpoint foo', type: 'rest_endpoint' }],
      });
    });
  }

  it('rejects a subscription and a missing query', () => {
    expect(failure(setup(), 'create_rest_endpoint', endpoint('foo', 'foo/bar/subscribe', 'simple_subscription')).error)
      .toBe('Inconsistent object: in endpoint foo: query with name simple_subscription is a subscription');
    expect(failure(setup(), 'create_rest_endpoint', endpoint('foo', 'foo', 'nope')).error)
      .toBe('Inconsistent object: in endpoint foo: query with name nope does not exist within collection test_collection');
  });

  it('rejects a template that overlaps others on a shared method', () => {
    const body = failure(setup(), 'create_rest_endpoint', endpoint('conflicting', ':conflicting'), 'query');
    expect(body.error).toBe('Ambiguous URL paths: :conflicting, simple, with_arg');
    expect(body.code).toBe('invalid-configuration');
    const internal = body.internal as { reason: string; conflicts: { name: string; definition: { query: string } }[] }[];
    expect(internal[0]?.conflicts.map((c) => c.name)).toEqual(['conflicting', 'simple', 'with_arg']);
    expect(internal[0]?.conflicts[0]?.definition.query).toBe(queries[0]?.query);
    // A different method, or a different number of segments, does not clash.
    expect(run(setup(), 'create_rest_endpoint', { ...endpoint('p', ':x'), methods: ['PUT'] }).metadata).not.toBeNull();
    expect(run(setup(), 'create_rest_endpoint', endpoint('t', 'with_template/fixed/more')).metadata).not.toBeNull();
  });
});
