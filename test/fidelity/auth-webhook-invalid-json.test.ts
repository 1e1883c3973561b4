// An auth webhook's 200 answer that is no JSON is refused in Hasura's words: a 500 with
// "Invalid response from authorization hook: " and aeson's eitherDecode message
// (Server/Auth/WebHook.hs mkUserInfoFromResp), not the JSON parser's own text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookAuthenticator } from '../../runtime/auth/index.js';
import { authFixture, gqlError, startHttpServer, type AuthFixture, type Served, type TestHttpServer } from '../auth/helpers.js';

const AUTHORS = '{ author(order_by: {id: asc}) { id name } }';
const BODIES: Record<string, string> = { text: 'hello', empty: '', cut: '{"X-Svc-Role": "us', trailing: '{"X-Svc-Role": "user"} x' };

let fx: AuthFixture;
let hook: TestHttpServer;
let srv: Served;
beforeAll(async () => {
  fx = await authFixture('fidhookjson');
  hook = await startHttpServer((req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(BODIES[(req.headers.authorization ?? '').slice('Bearer '.length)] ?? '{}');
  });
  srv = await fx.serve({ adminSecret: 'adm1n', authenticators: [createWebhookAuthenticator({ url: `${hook.url}/auth`, mode: 'GET' })] });
});
afterAll(async () => {
  await fx?.close();
  await hook?.close();
});

const ask = (token: string): Promise<unknown> => srv.gql(AUTHORS, { authorization: `Bearer ${token}` });
const refused = (detail: string): unknown => gqlError(`Invalid response from authorization hook: ${detail}`, 'unexpected');

describe('a webhook answer that is no JSON', () => {
  it('is reported with aeson\'s eitherDecode message', async () => {
    expect(await ask('text')).toEqual(refused("Error in $: Failed reading: not a valid json value at 'hello'"));
    expect(await ask('empty')).toEqual(refused('Error in $: not enough input'));
    expect(await ask('cut')).toEqual(refused('Error in $: not enough input'));
    expect(await ask('trailing')).toEqual(refused('Error in $: endOfInput'));
  });
});
