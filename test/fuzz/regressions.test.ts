// The bugs the query fuzzer found, pinned as plain cases on the blog fixture (the fuzzer's seeds
// move whenever its generator changes; these do not).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { FIXTURES, fixtureMetadata, fixtureSql } from './fixtures.js';

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  const blog = FIXTURES.find((f) => f.name === 'blog')!;
  db = await createTestDatabase('fuzz_regress', await fixtureSql(blog));
  kiln = await startKiln({ metadata: await fixtureMetadata(blog), databaseUrl: db.url });
});
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

async function data(query: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body = await kiln.gql(query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

const ids = (rows: unknown): unknown[] => (rows as { id: unknown }[]).map((r) => r.id);

describe('list operators', () => {
  it('a single literal where a list is expected is a list of one (_in: 3 is _in: [3])', async () => {
    const d = await data('{ a: article(where: {id: {_in: 3}}) { id } b: article(where: {id: {_nin: 1}}, order_by: {id: asc}) { id } }');
    expect(ids(d.a)).toEqual([3]);
    expect(ids(d.b)).toEqual([2, 3, 4]);
  });

  it('_in and _nin on an array column take arrays and array literals, inline or in a variable', async () => {
    const d = await data(`query($t: [_text!]) {
      a: article(where: {tags: {_in: [["computing"], "{c,books}"]}}, order_by: {id: asc}) { id }
      b: article(where: {tags: {_nin: [["computing"]]}}, order_by: {id: asc}) { id }
      c: article(where: {tags: {_in: $t}}) { id }
      d: article(where: {tags: {_in: []}}) { id } }`, { t: [['c', 'books']] });
    expect([ids(d.a), ids(d.b), ids(d.c), ids(d.d)]).toEqual([[2, 3], [1, 3, 4], [3], []]);
  });

  it('_in and _nin on a jsonb column compare whole JSON values (objects, arrays, strings)', async () => {
    const d = await data(`query($p: [jsonb!]) {
      a: author(where: {profile: {_in: [{city: "Murray Hill"}, [], "x"]}}) { id }
      b: author(where: {profile: {_in: $p}}) { id }
      c: author(where: {profile: {_nin: $p}}) { id } }`, { p: [{ city: 'London', langs: ['en', 'fr'] }, 'London', []] });
    expect([ids(d.a), ids(d.b), ids(d.c)]).toEqual([[2], [1], [2]]);
  });
});

describe('distinct_on', () => {
  it('matches the leading order_by columns in any order, as Hasura checks them', async () => {
    const d = await data('{ article(distinct_on: [status, author_id], order_by: [{author_id: asc}, {status: asc}, {id: desc}]) { id } }');
    expect(ids(d.article)).toEqual([2, 1, 3, 4]);
    const body = await kiln.gql('{ article(distinct_on: [status], order_by: [{id: asc}]) { id } }');
    expect(body.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(body.errors?.[0]?.message).toBe('"distinct_on" columns must match initial "order_by" columns');
  });

  it('keeps computed fields and relationships of the rows it picks (their JSON is built after the pick)', async () => {
    const d = await data(`{ author(distinct_on: [is_public], order_by: [{is_public: desc}, {id: asc}]) {
        id full_label articles(order_by: {id: asc}) { id } }
      author_aggregate(distinct_on: [is_public], order_by: [{is_public: asc}, {full_label: desc}]) { aggregate { count } nodes { full_label } } }`);
    expect(d.author).toEqual([
      { id: 1, full_label: 'Ada <ada@example.com>', articles: [{ id: 1 }, { id: 2 }] },
      { id: 3, full_label: 'Claude <claude@example.com>', articles: [{ id: 4 }] },
    ]);
    expect(d.author_aggregate).toEqual({ aggregate: { count: 2 }, nodes: [{ full_label: 'Claude <claude@example.com>' }, { full_label: 'Brian <brian@example.com>' }] });
  });
});
