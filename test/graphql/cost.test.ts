import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationCost, NestingExceeded } from '../../runtime/graphql/cost.js';
import { measureOperation, queryCapsFromEnv, DEFAULT_QUERY_CAPS } from '../../runtime/graphql/limits.js';
import { ApiError } from '../../runtime/errors/index.js';

const costOf = (text: string, maxNesting = 100) => {
  const doc = parse(text);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  return operationCost(doc, op, maxNesting);
};

/** Fragments that double at each level: `levels` of them make 2^levels copies of the first. */
export function fragmentBomb(levels: number): string {
  let s = 'fragment F0 on author { id }\n';
  for (let i = 1; i <= levels; i++) s += `fragment F${i} on author { ...F${i - 1} a${i}: articles { author { ...F${i - 1} } } }\n`;
  return `query { author { ...F${levels} } }\n${s}`;
}

describe('the cost of an operation', () => {
  it("counts Hasura's nodes (fields with a selection set) and depth, and every field", () => {
    // Hasura's own example: 3 nodes (author, articles, homepage_entries).
    const c = costOf('{ author { name articles { id title } } homepage_entries { article_id } }');
    expect(c).toEqual({ fields: 7, nodes: 3, depth: 2, nesting: 3, introspects: false });
  });

  it('expands fragments and inline fragments where they are spread (inline fragments add no depth)', () => {
    const c = costOf('{ a: author { ...F } b: author { ... on author { ...F } } } fragment F on author { id articles { id } }');
    expect(c).toMatchObject({ fields: 8, nodes: 4, depth: 2 });
  });

  it('measures a 29-level fragment bomb in linear time, without expanding it', () => {
    const text = fragmentBomb(29);
    expect(text.length).toBeLessThan(3000);
    const start = performance.now();
    const c = costOf(text);
    expect(performance.now() - start).toBeLessThan(50);
    // F(n) has 2·F(n-1) + 2 fields: F0 = 1, so F29 = 3·2^29 - 2; plus `author` itself.
    expect(c.fields).toBe(3 * 2 ** 29 - 2 + 1);
    expect(c.nodes).toBe(2 ** 30 - 1);
    expect(c.depth).toBe(59);
  });

  it('leaves out selections that literal @skip(if: true) / @include(if: false) drop, and counts those a variable decides', () => {
    expect(costOf('{ author { id @skip(if: true) name @include(if: false) } }').fields).toBe(1);
    expect(costOf('query ($v: Boolean!) { author { id @skip(if: $v) name @include(if: $v) } }').fields).toBe(3);
    expect(costOf('{ author { ...F @skip(if: true) } } fragment F on author { id name }').fields).toBe(1);
  });

  it('keeps introspection out of nodes and depth but flags it and counts its fields', () => {
    const c = costOf('{ __schema { types { name fields { name } } } author { id } }');
    expect(c).toMatchObject({ nodes: 1, depth: 1, introspects: true, fields: 7 });
    expect(costOf('{ author { __typename } }').introspects).toBe(false);
    expect(costOf('{ ...Q } fragment Q on query_root { __type(name: "x") { name } }').introspects).toBe(true);
  });

  it('counts an unknown fragment and a fragment cycle as nothing (validation reports them)', () => {
    expect(costOf('{ author { ...Missing id } }').fields).toBe(2);
    expect(costOf('{ author { ...A } } fragment A on author { id ...B } fragment B on author { name ...A }').fields).toBe(3);
  });

  it('stops as soon as the nesting passes the bound, also through fragments and chains of spreads', () => {
    const deep = (n: number): string => `{ ${'a { '.repeat(n)}id${' }'.repeat(n)} }`;
    expect(costOf(deep(10), 10).nesting).toBe(11);
    expect(() => costOf(deep(500), 50)).toThrow(NestingExceeded);
    const viaFragments = `{ a { ...F1 } } ${Array.from({ length: 60 }, (_, i) => `fragment F${i + 1} on t { b { ...F${i + 2} } }`).join(' ')} fragment F61 on t { id }`;
    expect(() => costOf(viaFragments, 50)).toThrow(NestingExceeded);
    const chain = `{ a { ...F1 } } ${Array.from({ length: 5000 }, (_, i) => `fragment F${i + 1} on t { ...F${i + 2} }`).join(' ')} fragment F5001 on t { id }`;
    expect(() => costOf(chain, 50)).toThrow(NestingExceeded);
  });
});

describe("the server's caps", () => {
  const measure = (text: string, caps = DEFAULT_QUERY_CAPS): unknown => {
    const doc = parse(text);
    try {
      return measureOperation(doc, doc.definitions[0] as OperationDefinitionNode, caps);
    } catch (e) {
      return e instanceof ApiError ? { code: e.code, message: e.message } : e;
    }
  };

  it('refuses an operation over a cap with validation-failed, and lets one at the cap through', () => {
    expect(measure(`{ ${Array.from({ length: 1001 }, (_, i) => `a${i}: author { id }`).join(' ')} }`)).toEqual({
      code: 'validation-failed', message: 'the query has 1001 selections once its fragments are expanded; the server allows 1000' });
    expect(measure(`{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: author { id }`).join(' ')} }`)).toMatchObject({ nodes: 1000 });
    expect(measure(`{ author { ${Array.from({ length: 10_000 }, (_, i) => `a${i}: id`).join(' ')} } }`)).toEqual({
      code: 'validation-failed', message: 'the query has 10001 fields once its fragments are expanded; the server allows 10000' });
    expect(measure(`{ ${'a { '.repeat(60)}id${' }'.repeat(60)} }`)).toEqual({
      code: 'validation-failed', message: 'the query nests fields more than 50 deep; the server allows 50' });
    // The 29-level bomb nests 60 deep; 20 levels stay under the depth cap and expand to 3·2^20 fields.
    expect(measure(fragmentBomb(29))).toEqual({ code: 'validation-failed', message: 'the query nests fields more than 50 deep; the server allows 50' });
    expect(measure(fragmentBomb(20))).toEqual({ code: 'validation-failed', message: `the query has ${3 * 2 ** 20 - 1} fields once its fragments are expanded; the server allows 10000` });
  });

  it('reads the caps from SVC_GRAPHQL_MAX_QUERY_*, and refuses a value that is not a positive integer', () => {
    expect(queryCapsFromEnv({})).toEqual(DEFAULT_QUERY_CAPS);
    expect(queryCapsFromEnv({ SVC_GRAPHQL_MAX_QUERY_NODES: '20', SVC_GRAPHQL_MAX_QUERY_DEPTH: ' 7 ', SVC_GRAPHQL_MAX_QUERY_FIELDS: '' }))
      .toEqual({ maxFields: 10_000, maxNodes: 20, maxDepth: 7 });
    for (const bad of ['0', '-1', '1.5', 'abc', '99999999999999999999']) {
      expect(() => queryCapsFromEnv({ SVC_GRAPHQL_MAX_QUERY_DEPTH: bad })).toThrow(/^SVC_GRAPHQL_MAX_QUERY_DEPTH must be a positive integer/);
    }
  });
});
