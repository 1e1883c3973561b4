// claims_format stringified_json: a claims value that is not a JSON object in a string is refused
// naming the setting and its value, in Hasura's words (Server/Auth/JWT.hs parseObjectFromString:
// "expecting stringified json at: 'claims_namespace <ns>' ..." / "'claims_namespace_path <path>'").
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticator, parseJwtConfig, type JwtAuthenticator } from '../../runtime/auth/index.js';
import { authFixture, gqlError, type AuthFixture, type Served } from '../auth/helpers.js';

const KEY = 'a-very-long-hmac-secret-of-at-least-32-chars';
const AUTHORS = '{ author(order_by: {id: asc}) { id name } }';
const CLAIMS = JSON.stringify({ 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 'user', 'x-svc-user-id': '1' });

let fx: AuthFixture;
const authenticators: JwtAuthenticator[] = [];
async function serve(config: Record<string, unknown>): Promise<Served> {
  const a = await createJwtAuthenticator([parseJwtConfig({ type: 'HS256', key: KEY, claims_format: 'stringified_json', ...config })]);
  authenticators.push(a);
  return fx.serve({ adminSecret: 'adm1n', authenticators: [a] });
}
const bearer = async (payload: Record<string, unknown>): Promise<Record<string, string>> => ({
  authorization: `Bearer ${await new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(Date.now() / 1000) + 300)
    .sign(new TextEncoder().encode(KEY))}`,
});

beforeAll(async () => { fx = await authFixture('fidstrclaims'); });
afterAll(async () => {
  for (const a of authenticators) a.close();
  await fx?.close();
});

describe('stringified claims that do not decode', () => {
  it('name the claims namespace', async () => {
    const srv = await serve({});
    expect((await srv.gql(AUTHORS, await bearer({ 'https://svc.io/jwt/claims': CLAIMS }))).data.author).toEqual([{ id: 1, name: 'Alice' }]);
    expect(await srv.gql(AUTHORS, await bearer({ 'https://svc.io/jwt/claims': '[1' })))
      .toEqual(gqlError("expecting stringified json at: 'claims_namespace https://svc.io/jwt/claims', but found: [1", 'jwt-invalid-claims'));
  });

  it('name the claims namespace path', async () => {
    const srv = await serve({ claims_namespace_path: '$.app.claims' });
    expect((await srv.gql(AUTHORS, await bearer({ app: { claims: CLAIMS } }))).data.author).toEqual([{ id: 1, name: 'Alice' }]);
    expect(await srv.gql(AUTHORS, await bearer({ app: { claims: '"just text"' } })))
      .toEqual(gqlError("expecting stringified json at: 'claims_namespace_path $.app.claims', but found: \"just text\"", 'jwt-invalid-claims'));
  });
});
