// Explaining a subscription lists, under variables.session, only the session variables the live
// query reads: Hasura filters the session through filterVariablesFromQuery before it builds the
// cohort (Execute/LiveQuery/Plan.hs), so an extraneous x-svc-* header, and x-svc-role itself, are
// left out; a function taking the whole session keeps them all. tests-py test_subscriptions
// TestSubscriptionMultiplexing::test_extraneous_session_variables_are_discarded_from_query.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

let server: ServedDatabase;

beforeAll(async () => {
  server = await serveDatabase('fidexplsess', `CREATE TABLE memo (id int PRIMARY KEY, public bool NOT NULL, owner int);
INSERT INTO memo VALUES (1, true, 1), (2, false, 2);
CREATE FUNCTION mine(hasura_session json) RETURNS SETOF memo AS $$ SELECT * FROM memo WHERE owner = (hasura_session ->> 'x-svc-user-id')::int $$ LANGUAGE sql STABLE;`, {
    track: ['memo'],
    metadata: [
      { type: 'pg_create_select_permission', args: { table: 'memo', role: 'public', permission: { columns: ['id'], filter: { public: { _eq: true } } } } },
      { type: 'pg_create_select_permission', args: { table: 'memo', role: 'user', permission: { columns: ['id'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } } },
      { type: 'pg_track_function', args: { function: 'mine', configuration: { session_argument: 'hasura_session' } } },
    ],
  });
});
afterAll(() => server?.close());

const explain = async (query: string, user: Record<string, string>) =>
  (await server.post('/v1/graphql/explain', { query: { query, variables: {} }, user })).body.variables.session;

describe('explain of a subscription: variables.session', () => {
  it('keeps only the session variables the query reads', async () => {
    expect(await explain('subscription { memo { id } }', { 'X-Svc-Role': 'public', 'X-Svc-User-Id': '1' })).toEqual({});
    expect(await explain('subscription { memo { id } }', { 'X-Svc-Role': 'user', 'X-Svc-User-Id': '1', 'X-Svc-Allowed-Ids': '{1,3,4}' }))
      .toEqual({ 'x-svc-user-id': '1' });
  });

  it('keeps every session variable for a function taking the whole session', async () => {
    expect(await explain('subscription { mine { id } }', { 'X-Svc-Role': 'admin', 'X-Svc-User-Id': '1', 'X-Svc-Other': 'x' }))
      .toEqual({ 'x-svc-role': 'admin', 'x-svc-user-id': '1', 'x-svc-other': 'x' });
  });
});
