// Auth webhook mode through a real socket: a real hook server on 127.0.0.1 in GET and POST mode,
// the request contract (forwarded headers; {headers, request}), the response contract (session
// variables, 401 denies, anything else a 500), caching per Cache-Control / Expires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookAuthenticator, sessionResponseHeaders } from '../../runtime/auth/index.js';
import { authFixture, gqlError, json, startHttpServer, type AuthFixture, type Served, type TestHttpServer } from './helpers.js';

const AUTHORS = '{ author(order_by: {id: asc}) { id name } }';
const ADMIN = 'hook-admin';

let fx: AuthFixture;
let hook: TestHttpServer;
let getSrv: Served;
let postSrv: Served;

function answer(auth: string | undefined): { status: number; body: unknown; headers?: Record<string, string | string[]> } {
  switch (auth) {
    case undefined: return { status: 200, body: { 'X-Svc-Role': 'anonymous' } };
    case 'Bearer user-1': return { status: 200, body: { 'X-Svc-Role': 'user', 'X-Svc-User-Id': '1' } };
    case 'Bearer user-2': return { status: 200, body: { 'x-svc-role': 'user', 'x-svc-user-id': '2', 'Other-Key': 'dropped' } };
    case 'Bearer cached': return { status: 200, body: { 'X-Svc-Role': 'user', 'X-Svc-User-Id': '3', 'Cache-Control': 'max-age=600' } };
    case 'Bearer expires': return { status: 200, body: { 'X-Svc-Role': 'user', 'X-Svc-User-Id': '2', Expires: new Date(Date.now() + 3_600_000).toUTCString() } };
    case 'Bearer editor': return { status: 200, body: { 'X-Svc-Role': 'editor' } };
    case 'Bearer deny': return { status: 401, body: { message: 'no' } };
    case 'Bearer broken': return { status: 500, body: { message: 'oops' } };
    case 'Bearer norole': return { status: 200, body: { 'X-Svc-User-Id': '1' } };
    case 'Bearer numeric': return { status: 200, body: { 'X-Svc-Role': 'user', 'X-Svc-User-Id': 1 } };
    case 'Bearer cookie': return { status: 200, body: { 'X-Svc-Role': 'user', 'X-Svc-User-Id': '1' }, headers: { 'set-cookie': ['sid=abc; HttpOnly', 'seen=1'] } };
    default: return { status: 401, body: {} };
  }
}

beforeAll(async () => {
  fx = await authFixture('authhook');
  hook = await startHttpServer((req, body, res) => {
    let auth = req.headers.authorization;
    if (req.method === 'POST') auth = (JSON.parse(body) as { headers: Record<string, string> }).headers['authorization'];
    if (auth === 'Bearer notjson') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello');
      return;
    }
    const a = answer(auth);
    json(res, a.status, a.body, a.headers);
  });
  getSrv = await fx.serve({ adminSecret: ADMIN, authenticators: [createWebhookAuthenticator({ url: `${hook.url}/auth`, mode: 'GET' })] });
  postSrv = await fx.serve({ adminSecret: ADMIN, authenticators: [createWebhookAuthenticator({ url: `${hook.url}/auth`, mode: 'POST' })] });
});
afterAll(async () => {
  await fx?.close();
  await hook?.close();
});

const bearer = (t: string): Record<string, string> => ({ authorization: `Bearer ${t}` });

describe('GET mode', () => {
  it('forwards the client headers except the usual ones, and runs as the role the hook names', async () => {
    hook.requests.length = 0;
    expect(await getSrv.gql(AUTHORS, { ...bearer('user-1'), 'X-Custom': 'c1', 'x-svc-role': 'user', 'user-agent': 'ua', accept: 'application/json' }))
      .toEqual({ data: { author: [{ id: 1, name: 'Alice' }] } });
    expect(hook.requests).toHaveLength(1);
    const sent = hook.requests[0]!;
    expect(sent.method).toBe('GET');
    expect(sent.url).toBe('/auth');
    expect(sent.body).toBe('');
    expect(sent.headers['authorization']).toBe('Bearer user-1');
    expect(sent.headers['x-custom']).toBe('c1');
    expect(sent.headers['x-svc-role']).toBe('user');
    expect(sent.headers['content-type']).toBeUndefined();
    expect(sent.headers['content-length']).toBeUndefined();
    expect(sent.headers['user-agent']).not.toBe('ua');
    expect(sent.headers['accept']).not.toBe('application/json');
  });

  it('takes session variables case-insensitively and ignores other keys', async () => {
    expect(await getSrv.gql(AUTHORS, bearer('user-2'))).toEqual({ data: { author: [{ id: 2, name: 'Bob' }] } });
    expect((await getSrv.gql(AUTHORS, bearer('editor'))).data.author).toHaveLength(3);
  });

  it('gives public access when the hook answers the anonymous role', async () => {
    expect(await getSrv.gql('{ author(order_by: {name: asc}) { name } }')).toEqual({ data: { author: [{ name: 'Alice' }, { name: 'Bob' }, { name: 'Carol' }] } });
  });

  it('denies on 401, and answers any other status, a non-JSON body or a non-string value with a 500', async () => {
    expect(await getSrv.gql(AUTHORS, bearer('deny'))).toEqual(gqlError('Authentication hook unauthorized this request', 'access-denied'));
    expect(await getSrv.post({ query: AUTHORS }, bearer('deny'), '/v1alpha1/graphql')).toMatchObject({ status: 401 });
    expect(await getSrv.post({ type: 'export_metadata', args: {} }, bearer('deny'), '/v1/metadata'))
      .toMatchObject({ status: 401, body: { path: '$', error: 'Authentication hook unauthorized this request', code: 'access-denied' } });
    expect(await getSrv.gql(AUTHORS, bearer('broken'))).toEqual(gqlError('Invalid response from authorization hook', 'unexpected'));
    expect(await getSrv.post({ type: 'export_metadata', args: {} }, bearer('broken'), '/v1/metadata'))
      .toMatchObject({ status: 500, body: { path: '$', error: 'Invalid response from authorization hook', code: 'unexpected' } });
    const notJson = await getSrv.gql(AUTHORS, bearer('notjson'));
    expect(notJson.errors[0].extensions.code).toBe('unexpected');
    expect(notJson.errors[0].message).toMatch(/^Invalid response from authorization hook: /);
    expect(await getSrv.gql(AUTHORS, bearer('numeric')))
      .toEqual(gqlError("Invalid response from authorization hook: Error in $['X-Svc-User-Id']: parsing Text failed, expected String, but encountered Number", 'unexpected'));
  });

  it('requires X-Svc-Role in the answer', async () => {
    expect(await getSrv.gql(AUTHORS, bearer('norole'))).toEqual(gqlError('x-svc-role not found in session variables', 'invalid-params'));
  });

  it('lets a correct admin secret bypass the hook', async () => {
    hook.requests.length = 0;
    expect((await getSrv.gql(AUTHORS, { 'x-svc-admin-secret': ADMIN, ...bearer('deny') })).data.author).toHaveLength(3);
    expect(hook.requests).toHaveLength(0);
  });

  it('reuses an answer until its Cache-Control max-age or Expires; answers without them are not cached', async () => {
    hook.requests.length = 0;
    for (let i = 0; i < 3; i++) expect(await getSrv.gql(AUTHORS, bearer('cached'))).toEqual({ data: { author: [{ id: 3, name: 'Carol' }] } });
    expect(hook.requests).toHaveLength(1);
    // Other headers are another cache entry.
    await getSrv.gql(AUTHORS, { ...bearer('cached'), 'x-trace': '1' });
    expect(hook.requests).toHaveLength(2);
    for (let i = 0; i < 3; i++) expect((await getSrv.gql(AUTHORS, bearer('expires'))).data.author).toEqual([{ id: 2, name: 'Bob' }]);
    expect(hook.requests).toHaveLength(3);
    for (let i = 0; i < 3; i++) await getSrv.gql(AUTHORS, bearer('user-1'));
    expect(hook.requests).toHaveLength(6);
  });

  it('fails with a 500 when the hook cannot be reached', async () => {
    const down = await fx.serve({ adminSecret: ADMIN, authenticators: [createWebhookAuthenticator({ url: 'http://127.0.0.1:1/auth' })] });
    expect(await down.gql(AUTHORS, bearer('user-1'))).toEqual(gqlError('webhook authentication request failed', 'unexpected'));
  });
});

describe('POST mode', () => {
  it('posts {headers, request} with every client header and the GraphQL request', async () => {
    hook.requests.length = 0;
    const body = { query: 'query Q($n: String) { author(where: {name: {_eq: $n}}) { id } }', variables: { n: 'Alice' }, operationName: 'Q' };
    const res = await postSrv.post(body, { ...bearer('user-1'), 'X-Custom': 'c1', 'user-agent': 'ua' });
    expect(res.body).toEqual({ data: { author: [{ id: 1 }] } });
    const sent = hook.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(sent.body) as { headers: Record<string, string>; request: unknown };
    expect(payload.request).toEqual(body);
    // Names as the client wrote them (Hasura's hdrsToText): fetch sends `X-Custom` as given.
    expect(payload.headers).toMatchObject({ authorization: 'Bearer user-1', 'X-Custom': 'c1', 'user-agent': 'ua', 'content-type': 'application/json' });
  });

  it('sends `request: null` when the client body is not JSON (Hasura always sends the key)', async () => {
    hook.requests.length = 0;
    const res = await fetch(`${postSrv.url}/v1/graphql`, { method: 'POST', headers: bearer('user-1'), body: 'not json' });
    expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('invalid-json');
    expect(JSON.parse(hook.requests[0]!.body)).toMatchObject({ request: null });
  });

  it('caches per headers and request', async () => {
    hook.requests.length = 0;
    await postSrv.gql(AUTHORS, bearer('cached'));
    await postSrv.gql(AUTHORS, bearer('cached'));
    expect(hook.requests).toHaveLength(1);
    await postSrv.gql('{ author { id } }', bearer('cached'));
    expect(hook.requests).toHaveLength(2);
  });
});

describe('the webhook authenticator', () => {
  it("passes the hook's Set-Cookie headers on to the client through the server", async () => {
    const res = await fetch(`${getSrv.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer('cookie') }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual(['sid=abc; HttpOnly', 'seen=1']);
  });

  it('keeps the Set-Cookie headers of the hook for the client response', async () => {
    const a = createWebhookAuthenticator({ url: `${hook.url}/auth`, mode: 'GET' });
    const session = await a.authenticate({ headers: { authorization: 'Bearer cookie' } });
    expect(session).toEqual({ role: 'user', variables: { 'x-svc-role': 'user', 'x-svc-user-id': '1' }, isAdmin: false });
    expect(sessionResponseHeaders(session)).toEqual({ 'set-cookie': ['sid=abc; HttpOnly', 'seen=1'] });
    expect(sessionResponseHeaders(await a.authenticate({ headers: { authorization: 'Bearer user-1' } }))).toEqual({});
  });
});
