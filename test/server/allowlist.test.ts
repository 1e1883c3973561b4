// The allow-list (reference/endpoints.md "Allow-list") over a real socket: with it on, a non-admin
// role runs only documents of an allow-listed collection whose scope includes it (global, or a
// list of roles), compared with formatting and `__typename` ignored; admin is never checked; it
// holds for REST endpoints and WebSocket operations too. With it off, nothing is checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { Client } from '../subscriptions/helpers.js';
import { as, gql, Q, SETUP, startStored, type StoredKiln } from './stored-helpers.js';

const NOT_ALLOWED = { errors: [{ message: 'query is not allowed', extensions: { path: '$', code: 'validation-failed' } }] };
const READER = as('reader');
const USER1 = as('user', { 'x-svc-user-id': '1' });
const AD_HOC = 'query { author(order_by: {id: desc}) { name } }';

let db: TestDatabase;
let on: StoredKiln;
let off: StoredKiln;

beforeAll(async () => {
  db = await createTestDatabase('allowlist', SETUP);
  on = await startStored({ databaseUrl: db.url, allowlist: true });
  off = await startStored({ databaseUrl: db.url, allowlist: false });
});

afterAll(async () => {
  await on?.close();
  await off?.close();
  await db?.drop();
});

describe('allow-list on', () => {
  it('runs a query of a global collection for any role', async () => {
    expect((await gql(on.url, Q.authors, USER1)).body).toEqual({ data: { author: [{ id: 1, name: 'ann' }] } });
    expect((await gql(on.url, Q.authors, READER)).body).toEqual({ data: { author: [{ id: 1, name: 'ann' }, { id: 3, name: 'cyd' }] } });
  });

  it('refuses a query in no allow-listed collection with Hasura\'s error, HTTP 200', async () => {
    const r = await gql(on.url, AD_HOC, READER);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(NOT_ALLOWED);
  });

  it('answers the legacy endpoint with status 400', async () => {
    const res = await fetch(`${on.url}/v1alpha1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...READER },
      body: JSON.stringify({ query: AD_HOC }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(NOT_ALLOWED);
  });

  it('never checks admin', async () => {
    expect((await gql(on.url, AD_HOC, as('admin'))).body).toEqual({ data: { author: [{ name: 'cyd' }, { name: 'bob' }, { name: 'ann' }] } });
  });

  it('ignores whitespace, commas, comments and __typename fields', async () => {
    const reformatted = '# the same query\nquery Authors{author(order_by:{id:asc}){id,name}}';
    expect((await gql(on.url, reformatted, READER)).body).toEqual({ data: { author: [{ id: 1, name: 'ann' }, { id: 3, name: 'cyd' }] } });
    const typename = 'query Authors { author(order_by: {id: asc}) { __typename id name } }';
    expect((await gql(on.url, typename, READER)).body).toEqual({
      data: { author: [{ __typename: 'author', id: 1, name: 'ann' }, { __typename: 'author', id: 3, name: 'cyd' }] },
    });
    // A different argument value is a different query.
    expect((await gql(on.url, 'query Authors { author(order_by: {id: desc}) { id name } }', READER)).body).toEqual(NOT_ALLOWED);
  });

  it('runs a role-scoped collection\'s query only for the roles listed (and admin)', async () => {
    expect((await gql(on.url, Q.readerNames, READER)).body).toEqual({ data: { author: [{ name: 'ann' }, { name: 'cyd' }] } });
    expect((await gql(on.url, Q.readerNames, USER1)).body).toEqual(NOT_ALLOWED);
    expect((await gql(on.url, Q.readerNames, as('admin'))).body.data.author).toHaveLength(3);
  });

  it('refuses a query whose collection exists but is not in the allow-list', async () => {
    expect((await gql(on.url, Q.unlisted, READER)).body).toEqual(NOT_ALLOWED);
  });

  it('checks each element of a batch on its own', async () => {
    const res = await fetch(`${on.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...USER1 },
      body: JSON.stringify([{ query: Q.authors }, { query: AD_HOC }]) });
    expect(await res.json()).toEqual([{ data: { author: [{ id: 1, name: 'ann' }] } }, NOT_ALLOWED]);
  });

  it('refuses a REST endpoint whose query is not allow-listed for the role, and runs one that is', async () => {
    const refused = await fetch(`${on.url}/api/rest/unlisted`, { headers: READER });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ path: '$', error: 'query is not allowed', code: 'validation-failed' });
    const admitted = await fetch(`${on.url}/api/rest/authors`, { headers: READER });
    expect(await admitted.json()).toEqual({ author: [{ id: 1, name: 'ann' }, { id: 3, name: 'cyd' }] });
  });

  it('holds over WebSocket: an allow-listed subscription streams, another is refused', async () => {
    const c = await Client.open(on.wsUrl, 'graphql-transport-ws');
    try {
      await c.init(READER);
      c.send({ type: 'subscribe', id: 'ok', payload: { query: Q.live } });
      expect(await c.next((m) => m.id === 'ok')).toEqual({ type: 'next', id: 'ok', payload: { data: { author: [{ name: 'ann' }, { name: 'cyd' }] } } });
      c.send({ type: 'subscribe', id: 'no', payload: { query: 'subscription { author { id } }' } });
      expect(await c.next((m) => m.id === 'no')).toEqual({ type: 'error', id: 'no', payload: NOT_ALLOWED.errors });
      // A stream runs a rewrite of the document; the allow-list judges the document as sent.
      c.send({ type: 'subscribe', id: 's', payload: { query: Q.stream } });
      expect(await c.next((m) => m.id === 's')).toEqual({ type: 'next', id: 's', payload: { data: { author_stream: [{ id: 1, name: 'ann' }] } } });
      c.send({ type: 'subscribe', id: 's2', payload: { query: 'subscription { author_stream(batch_size: 5, cursor: {initial_value: {id: 0}}) { id } }' } });
      expect(await c.next((m) => m.id === 's2')).toEqual({ type: 'error', id: 's2', payload: NOT_ALLOWED.errors });
      c.send({ type: 'subscribe', id: 'q', payload: { query: AD_HOC } });
      expect(await c.next((m) => m.id === 'q')).toEqual({ type: 'error', id: 'q', payload: NOT_ALLOWED.errors });
    } finally {
      c.close();
    }
  });
});

describe('allow-list off', () => {
  it('runs any query the role\'s permissions allow', async () => {
    expect((await gql(off.url, AD_HOC, READER)).body).toEqual({ data: { author: [{ name: 'cyd' }, { name: 'ann' }] } });
    expect((await gql(off.url, Q.readerNames, USER1)).body).toEqual({ data: { author: [{ name: 'ann' }] } });
    expect(await (await fetch(`${off.url}/api/rest/unlisted`, { headers: READER })).json()).toEqual({ author: [{ id: 1 }, { id: 3 }] });
  });
});
