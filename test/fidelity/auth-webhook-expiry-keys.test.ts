// The keys of an auth webhook's answer that make it reusable are read as Hasura reads them: the
// answer is a map of text to text and Hasura looks up exactly "Cache-Control" and "Expires"
// (Server/Auth/WebHook.hs timeFromCacheControl, timeFromExpires), so another spelling is an
// ordinary key: the answer is not cached and the hook is asked again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookAuthenticator } from '../../runtime/auth/index.js';
import { authFixture, json, startHttpServer, type AuthFixture, type Served, type TestHttpServer } from '../auth/helpers.js';

const AUTHORS = '{ author(order_by: {id: asc}) { id name } }';
const later = (): string => new Date(Date.now() + 3_600_000).toUTCString();
const ANSWERS: Record<string, () => Record<string, string>> = {
  exact: () => ({ 'X-Svc-Role': 'user', 'X-Svc-User-Id': '1', 'Cache-Control': 'max-age=600' }),
  lower: () => ({ 'X-Svc-Role': 'user', 'X-Svc-User-Id': '1', 'cache-control': 'max-age=600' }),
  expires: () => ({ 'X-Svc-Role': 'user', 'X-Svc-User-Id': '1', Expires: later() }),
  upper: () => ({ 'X-Svc-Role': 'user', 'X-Svc-User-Id': '1', EXPIRES: later() }),
};

let fx: AuthFixture;
let hook: TestHttpServer;
let srv: Served;
beforeAll(async () => {
  fx = await authFixture('fidhookkeys');
  hook = await startHttpServer((req, _body, res) => json(res, 200, ANSWERS[(req.headers.authorization ?? '').slice('Bearer '.length)]!()));
  srv = await fx.serve({ adminSecret: 'adm1n', authenticators: [createWebhookAuthenticator({ url: `${hook.url}/auth`, mode: 'GET' })] });
});
afterAll(async () => {
  await fx?.close();
  await hook?.close();
});

async function hookCalls(token: string): Promise<number> {
  hook.requests.length = 0;
  for (let i = 0; i < 3; i++) expect(await srv.gql(AUTHORS, { authorization: `Bearer ${token}` })).toEqual({ data: { author: [{ id: 1, name: 'Alice' }] } });
  return hook.requests.length;
}

describe('an auth webhook answer with an expiry', () => {
  it('is reused when it spells Cache-Control or Expires as Hasura looks them up', async () => {
    expect(await hookCalls('exact')).toBe(1);
    expect(await hookCalls('expires')).toBe(1);
  });

  it('is asked again when the key is spelled otherwise', async () => {
    expect(await hookCalls('lower')).toBe(3);
    expect(await hookCalls('upper')).toBe(3);
  });
});
