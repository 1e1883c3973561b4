// The body Kiln POSTs to the auth webhook, as Hasura's (Server/Auth/WebHook.hs,
// userInfoFromAuthHook): `headers` holds the client's headers with their names as the client
// wrote them (`hdrsToText`, the original case: Hasura's test webhook looks up `Authorization`),
// and `request` is always there, null when the body is no GraphQL request (test_webhook_request_context.py
// test_query_invalid reads it) or the endpoint is not a GraphQL one.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startHttpServer, type TestHttpServer } from '../auth/helpers.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

let hook: TestHttpServer;
let served: ServedDatabase;
const bodies: any[] = [];

beforeAll(async () => {
  hook = await startHttpServer((_req, body, res) => {
    bodies.push(JSON.parse(body));
    json(res, 200, { 'X-Svc-Role': 'user', 'X-Svc-User-Id': '1' });
  });
  served = await serveDatabase('fidhookbody', 'CREATE TABLE author (id int PRIMARY KEY, name text);', {
    adminSecret: 'adm1n', authHook: `${hook.url}/`, authHookMode: 'POST', track: ['author'],
    metadata: [{ type: 'pg_create_select_permission', args: { table: 'author', role: 'user', permission: { columns: ['id'], filter: {} } } }],
  });
});
afterAll(async () => {
  await served?.close();
  await hook?.close();
});

/** POSTs with node:http, which sends header names as written. */
function rawPost(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const u = new URL(served.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path, method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the auth webhook in POST mode', () => {
  it('is sent the GraphQL request, and null for a body that is not one', async () => {
    bodies.length = 0;
    const q = { query: 'query mine { author { id } }', operationName: 'mine' };
    expect((await rawPost('/v1/graphql', JSON.stringify(q), {})).status).toBe(200);
    expect(bodies[0].request).toEqual(q);
    bodies.length = 0;
    const answer = await rawPost('/v1/graphql', '"invalid-query"', { 'auth-user-id': '1' });
    expect(answer.status).toBe(200);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toHaveProperty('request', null);
    expect(bodies[0].headers['auth-user-id']).toBe('1');
    bodies.length = 0;
    await rawPost('/v1/graphql', '{not json', {});
    expect(bodies[0]).toHaveProperty('request', null);
  });

  it('is sent the header names as the client wrote them, over HTTP and in connection_init', async () => {
    bodies.length = 0;
    await rawPost('/v1/graphql', JSON.stringify({ query: '{ author { id } }' }), { Authorization: 'Bearer abc', 'X-Custom-Thing': 'yes' });
    expect(bodies[0].headers).toMatchObject({ Authorization: 'Bearer abc', 'X-Custom-Thing': 'yes' });
    expect(bodies[0].headers).not.toHaveProperty('authorization');
    bodies.length = 0;
    const c = await Client.open(`${served.url.replace('http', 'ws')}/v1/graphql`, 'graphql-ws');
    await c.init({ Authorization: 'Bearer from-init', 'X-Svc-Client': 'ws' });
    c.close();
    expect(bodies[0].headers).toMatchObject({ Authorization: 'Bearer from-init', 'X-Svc-Client': 'ws' });
    expect(bodies[0].headers).not.toHaveProperty('authorization');
    expect(bodies[0]).toHaveProperty('request', null);
  });
});
