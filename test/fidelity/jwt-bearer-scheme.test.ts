// The Authorization header of JWT mode as Hasura reads it (Server/Auth/JWT.hs): the value split
// into words must be exactly ["Bearer", token], so another spelling of the scheme ("bearer",
// "BEARER") is a "Malformed Authorization header" (invalid-headers), while extra white space
// around the words is no matter.
import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticator, parseJwtConfig, type JwtAuthenticator } from '../../runtime/auth/index.js';
import { authFixture, gqlError, type AuthFixture, type Served } from '../auth/helpers.js';

const SECRET = 'a-very-long-hmac-secret-of-at-least-32-chars';
const AUTHORS = '{ author(order_by: {id: asc}) { id name } }';

let fx: AuthFixture;
let jwt: JwtAuthenticator;
let srv: Served;
let token: string;
beforeAll(async () => {
  fx = await authFixture('fidjwtbearer');
  jwt = await createJwtAuthenticator([parseJwtConfig({ type: 'HS256', key: SECRET })]);
  srv = await fx.serve({ adminSecret: 'adm1n', authenticators: [jwt] });
  token = await new SignJWT({ 'https://svc.io/jwt/claims': { 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 'user', 'x-svc-user-id': '1' } })
    .setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(Date.now() / 1000) + 300).sign(createSecretKey(Buffer.from(SECRET)));
});
afterAll(async () => {
  jwt?.close();
  await fx?.close();
});

describe('the Authorization scheme in JWT mode', () => {
  it('must be spelled "Bearer"', async () => {
    for (const scheme of ['bearer', 'BEARER']) {
      expect(await srv.gql(AUTHORS, { authorization: `${scheme} ${token}` })).toEqual(gqlError('Malformed Authorization header', 'invalid-headers'));
    }
  });

  it('may have white space around the words', async () => {
    expect(await srv.gql(AUTHORS, { authorization: `  Bearer   ${token} ` })).toEqual({ data: { author: [{ id: 1, name: 'Alice' }] } });
  });
});
