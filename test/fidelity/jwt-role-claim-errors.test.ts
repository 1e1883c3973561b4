// A role claim that is no role name, in Hasura's words (Server/Auth/JWT.hs): a role is a RoleName,
// a NonEmptyText read `withText "String"` (Data/Text/NonEmpty.hs), so aeson says "parsing String
// failed, expected String, but encountered <kind>", or "empty string not allowed" for "". The
// hint before it names the claim's reading: "should be a list of roles" for the allowed roles,
// "should be a single role name" for a namespace's default role (parseHasuraClaims) and "should
// be a role" for one read through claims_map (parseDefaultRoleClaim).
import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticator, parseJwtConfig, type JwtAuthenticator } from '../../runtime/auth/index.js';
import { authFixture, gqlError, type AuthFixture, type Served } from '../auth/helpers.js';

const NS = 'https://svc.io/jwt/claims';
const SECRET = 'a-very-long-hmac-secret-of-at-least-32-chars';
const AUTHORS = '{ author(order_by: {id: asc}) { id name } }';

let fx: AuthFixture;
const authenticators: JwtAuthenticator[] = [];
async function serve(config: Record<string, unknown>): Promise<Served> {
  const a = await createJwtAuthenticator([parseJwtConfig({ type: 'HS256', key: SECRET, ...config })]);
  authenticators.push(a);
  return fx.serve({ adminSecret: 'adm1n', authenticators: [a] });
}
const token = (claims: Record<string, unknown>): Promise<string> => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' })
  .setExpirationTime(Math.floor(Date.now() / 1000) + 300).sign(createSecretKey(Buffer.from(SECRET)));
const invalid = (message: string): unknown => gqlError(message, 'jwt-invalid-claims');

beforeAll(async () => { fx = await authFixture('fidjwtrole'); });
afterAll(async () => {
  for (const a of authenticators) a.close();
  await fx?.close();
});

describe('role claims that are no role names', () => {
  it('are refused with aeson\'s words for a NonEmptyText, in the namespace', async () => {
    const srv = await serve({});
    const ask = async (roles: Record<string, unknown>): Promise<unknown> => srv.gql(AUTHORS, { authorization: `Bearer ${await token({ [NS]: roles })}` });
    expect(await ask({ 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 5 }))
      .toEqual(invalid('invalid x-svc-default-role; should be a single role name: parsing String failed, expected String, but encountered Number'));
    expect(await ask({ 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': '' }))
      .toEqual(invalid('invalid x-svc-default-role; should be a single role name: empty string not allowed'));
    expect(await ask({ 'x-svc-allowed-roles': ['user', true], 'x-svc-default-role': 'user' }))
      .toEqual(invalid('invalid x-svc-allowed-roles; should be a list of roles: parsing String failed, expected String, but encountered Boolean'));
    expect(await ask({ 'x-svc-allowed-roles': ['user', ''], 'x-svc-default-role': 'user' }))
      .toEqual(invalid('invalid x-svc-allowed-roles; should be a list of roles: empty string not allowed'));
    expect(await ask({ 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 'user', 'x-svc-user-id': '1' })).toEqual({ data: { author: [{ id: 1, name: 'Alice' }] } });
  });

  it('name the default role "a role" when claims_map reads it', async () => {
    const srv = await serve({ claims_map: { 'x-svc-allowed-roles': { path: '$.roles' }, 'x-svc-default-role': { path: '$.role' } } });
    const t = await token({ roles: ['user'], role: ['user'] });
    expect(await srv.gql(AUTHORS, { authorization: `Bearer ${t}` }))
      .toEqual(invalid('invalid x-svc-default-role; should be a role: parsing String failed, expected String, but encountered Array'));
  });
});
