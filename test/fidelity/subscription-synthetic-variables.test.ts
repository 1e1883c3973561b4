// Explaining a subscription lists the values of its cohort as Hasura's cohort variables hold them:
// every column value the request gives, from a variable or written in the query, is a synthetic
// variable in statement order, its text as PostgreSQL reads it (a list as PostgreSQL prints an
// array, {1,2,3}); session values stay under session, and query is left empty (Hasura's
// resolveMultiplexedValue in Execute/Subscription/Plan.hs; tests-py test_subscriptions.py
// TestSubscriptionMultiplexingPostgres test_simple_variables_are_parameterized expects ['1'],
// test_array_variables_are_parameterized ['{1,2,3}']). Kiln listed none and echoed the request's
// variables under query. Lists are now passed to the multiplexed statement quoted only where
// PostgreSQL quotes them, so the live answers are checked with awkward text values too.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

let server: ServedDatabase;

beforeAll(async () => {
  server = await serveDatabase('fidsynth', `CREATE TABLE article (id int PRIMARY KEY, user_id int, title text NOT NULL);
INSERT INTO article VALUES (1, 1, 'a b'), (2, 1, 'say "hi"'), (3, 2, 'NULL'), (4, 2, ''), (5, 2, 'back\\slash'), (6, 2, '{x,y}');`, {
    track: ['article'],
    metadata: [{ type: 'pg_create_select_permission', args: { table: 'article', role: 'user', permission: { columns: ['id', 'title'], filter: { user_id: { _eq: 'X-Svc-User-Id' } } } } }],
  });
});
afterAll(() => server?.close());

const explain = async (query: string, variables: Record<string, unknown>, user: Record<string, string> = {}) =>
  (await server.post('/v1/graphql/explain', { query: { query, variables }, user })).body.variables;

describe('explain of a subscription: variables.synthetic', () => {
  it('lists a scalar variable, a list variable and a literal as PostgreSQL reads them', async () => {
    expect(await explain('subscription ($id: Int!) { article(where: {id: {_eq: $id}}) { title } }', { id: 1 }))
      .toEqual({ synthetic: ['1'], query: {}, session: {} });
    expect(await explain('subscription ($ids: [Int!]) { article(where: {id: {_in: $ids}}) { title } }', { ids: [1, 2, 3] }))
      .toEqual({ synthetic: ['{1,2,3}'], query: {}, session: {} });
    expect(await explain('subscription { article(where: {title: {_in: ["a b", "c"]}, id: {_gt: 0}}) { id } }', {}))
      .toEqual({ synthetic: ['{"a b",c}', '0'], query: {}, session: {} });
  });

  it('keeps session values apart', async () => {
    expect(await explain('subscription ($t: String!) { article(where: {title: {_eq: $t}}) { id } }', { t: 'x' }, { 'x-svc-role': 'user', 'x-svc-user-id': '2' }))
      .toEqual({ synthetic: ['x'], query: {}, session: { 'x-svc-user-id': '2' } });
  });
});

describe('a live query with a list of awkward text values', () => {
  it('answers the rows whose titles are in the list', async () => {
    const c = await Client.open(`${server.url.replace('http', 'ws')}/v1/graphql`, 'graphql-ws');
    await c.init({});
    const titles = ['a b', 'say "hi"', 'NULL', '', 'back\\slash', '{x,y}'];
    c.send({ type: 'start', id: '1', payload: {
      query: 'subscription ($t: [String!]) { article(where: {title: {_in: $t}}, order_by: {id: asc}) { id } }', variables: { t: titles },
    } });
    const m = await c.next((x) => x.id === '1');
    expect(m.payload).toEqual({ data: { article: [1, 2, 3, 4, 5, 6].map((id) => ({ id })) } });
    c.close();
  });
});
