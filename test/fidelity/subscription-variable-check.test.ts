// A subscription's values are read as their types when it starts, before it joins a cohort, as
// Hasura's pgDBSubscriptionPlan validates its query and synthetic variables (validateVariables:
// "an invalid value for a variable for one instance of the subscription will take down the entire
// multiplexed query"); a value the database refuses is the start's error, data-exception with
// PostgreSQL's words. Kiln let the subscriber in: while no row matched PostgreSQL never read the
// value, and once one did the shared statement failed for every subscriber of it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

let server: ServedDatabase;

beforeAll(async () => {
  server = await serveDatabase('fidsubvals', 'CREATE TABLE item (id serial PRIMARY KEY, code uuid NOT NULL DEFAULT gen_random_uuid());', { track: ['item'] });
});
afterAll(() => server?.close());

const QUERY = 'subscription ($c: uuid!) { item(where: {code: {_neq: $c}}, order_by: {id: asc}) { id } }';

describe('a subscription whose variable the database cannot read', () => {
  it('is refused when it starts, and the subscribers of the same statement keep their results', async () => {
    const c = await Client.open(`${server.url.replace('http', 'ws')}/v1/graphql`, 'graphql-ws');
    await c.init({});
    c.send({ type: 'start', id: 'bad', payload: { query: QUERY, variables: { c: 'not-a-uuid' } } });
    expect(await c.next((m) => m.id === 'bad')).toEqual({ type: 'error', id: 'bad', payload: { errors: [
      { message: 'invalid input syntax for type uuid: "not-a-uuid"', extensions: { path: '$', code: 'data-exception' } }] } });
    c.send({ type: 'start', id: 'good', payload: { query: QUERY, variables: { c: '00000000-0000-0000-0000-000000000000' } } });
    expect((await c.next((m) => m.id === 'good')).payload).toEqual({ data: { item: [] } });
    await server.db.exec('INSERT INTO item DEFAULT VALUES');
    expect((await c.next((m) => m.id === 'good' && m.type === 'data', 5000)).payload).toEqual({ data: { item: [{ id: 1 }] } });
    expect(c.results('bad')).toEqual([]);
    c.close();
  });
});
