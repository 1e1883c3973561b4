// A subscription is parsed as Hasura v2 (March 2022) parses it: with the query parser ("Parse as
// query to check correctness", Execute.hs getResolvedExecPlan), so a root field it does not know
// is "not found in type: 'query_root'"; then buildSubscriptionPlan refuses every raw root field,
// __typename, __schema and __type alike: 400 not-supported "Introspection not supported over
// subscriptions". Kiln named subscription_root, and answered introspection in a subscription with
// a fixed result (its __type always null). tests-py runs query cases through
// validate.py's subscription transport (subscription + @_multiple_top_level_fields).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

let server: ServedDatabase;
let c: Client;

beforeAll(async () => {
  server = await serveDatabase('fidsubasquery', "CREATE TABLE t (id serial PRIMARY KEY); INSERT INTO t DEFAULT VALUES;", { track: ['t'] });
  c = await Client.open(`${server.url.replace('http', 'ws')}/v1/graphql`, 'graphql-ws');
  await c.init({});
});
afterAll(async () => {
  c?.close();
  await server?.close();
});

const first = (query: string): Promise<unknown> => c.firstAnswer(query);

describe('a subscription read by the query parser', () => {
  it('reports an unknown root field against query_root', async () => {
    expect(await first('subscription { random { id } }')).toEqual({ type: 'error', payload: { errors: [
      { message: 'field "random" not found in type: \'query_root\'', extensions: { path: '$.selectionSet.random', code: 'validation-failed' } }] } });
  });

  it('refuses introspection and __typename at its root, alone or beside a table', async () => {
    const refused = { type: 'error', payload: { errors: [
      { message: 'Introspection not supported over subscriptions', extensions: { path: '$', code: 'not-supported' } }] } };
    expect(await first('subscription { __type(name: "t") { kind } }')).toEqual(refused);
    expect(await first('subscription { __schema { queryType { name } } }')).toEqual(refused);
    expect(await first('subscription { __typename }')).toEqual(refused);
    expect(await first('subscription @_multiple_top_level_fields { __typename t { id } }')).toEqual(refused);
  });

  it('still answers a table subscription, __typename inside it included', async () => {
    expect(await first('subscription { t { id __typename } }')).toEqual({ type: 'data', payload: { data: { t: [{ id: 1, __typename: 't' }] } } });
  });
});
