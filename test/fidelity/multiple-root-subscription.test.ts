// `@_multiple_top_level_fields` on a subscription: Hasura accepts this directive without listing it
// in the schema (Parser/Directives.hs multipleRootFieldsDirective, advertised False) and then lets
// the subscription select several root fields (Execute.hs getResolvedExecPlan); all of them must
// come from one source ("all fields of a subscription must be from the same source") and sit under
// one namespace at most (buildSubscriptionPlan; "subscriptions must select one top level field").
// tests-py's validate.py runs every `transport=subscription` case by turning `query {` into
// `subscription @_multiple_top_level_fields {` (test_subscriptions TestSubscriptionBasic::
// test_negative[subscription], test_graphql_queries classes); TestSubscriptionCustomizedSourceCommon
// ::test_double_alias refuses two aliases of a namespace.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

let server: ServedDatabase;

beforeAll(async () => {
  server = await serveDatabase('fidmultiroot', "CREATE TABLE kite (id int PRIMARY KEY, colour text); INSERT INTO kite VALUES (1, 'red'); CREATE TABLE reel (id int PRIMARY KEY); INSERT INTO reel VALUES (7);", {
    track: ['kite', 'reel'],
  });
  await server.ok('/v1/metadata', { type: 'pg_add_source', args: { name: 'two', configuration: { connection_info: { database_url: server.db.url } }, customization: { root_fields: { namespace: 'two' } } } });
  await server.ok('/v1/metadata', { type: 'pg_track_table', args: { source: 'two', table: 'kite' } });
});
afterAll(() => server?.close());

async function first(query: string): Promise<unknown> {
  const c = await Client.open(`${server.url.replace('http', 'ws')}/v1/graphql`, 'graphql-ws');
  await c.init({});
  c.send({ id: '1', type: 'start', payload: { query } });
  const m = await c.next((x) => x.id === '1');
  c.close();
  return { type: m.type, payload: m.payload };
}

const ONE_FIELD = { extensions: { path: '$', code: 'validation-failed' }, message: 'subscriptions must select one top level field' };

describe('@_multiple_top_level_fields', () => {
  it('lets a subscription select several root fields of one source', async () => {
    expect(await first('subscription @_multiple_top_level_fields { kite { colour } reel { id } }'))
      .toEqual({ type: 'data', payload: { data: { kite: [{ colour: 'red' }], reel: [{ id: 7 }] } } });
    expect(await first('subscription { kite { colour } reel { id } }')).toEqual({ type: 'error', payload: { errors: [ONE_FIELD] } });
  });

  it('is accepted on subscriptions only and not listed by introspection', async () => {
    expect(await server.gql('query @_multiple_top_level_fields { kite { id } }')).toEqual({
      errors: [{ extensions: { path: '$', code: 'validation-failed' }, message: 'directive "_multiple_top_level_fields" is not allowed on a query' }],
    });
    const names = (await server.gql('{ __schema { directives { name } } }')).data.__schema.directives.map((d: { name: string }) => d.name);
    expect(names).not.toContain('_multiple_top_level_fields');
  });

  it('refuses root fields of two sources, or under two namespaces', async () => {
    expect(await first('subscription @_multiple_top_level_fields { kite { id } two { kite { id } } }')).toMatchObject({ type: 'error' });
    expect(await first('subscription @_multiple_top_level_fields { a: two { kite { id } } b: two { kite { id } } }'))
      .toEqual({ type: 'error', payload: { errors: [ONE_FIELD] } });
    expect(await first('subscription @_multiple_top_level_fields { a: two { kite { colour } } }'))
      .toEqual({ type: 'data', payload: { data: { a: { kite: [{ colour: 'red' }] } } } });
  });
});
