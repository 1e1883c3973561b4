// JWT claims_map as Hasura's CI configures it (test_jwt_claims_map.py): JSON paths written
// `$.['https://myapp.com/jwt/claims'].user.id` (a dot before a bracket), a list as the default of
// x-svc-allowed-roles, and "JWT claim from claims_map, <name> not found" when a path finds nothing.
// Hasura: Data/Parser/JSONPath.hs (parseJSONPath), Server/Auth/JWT.hs (JWTCustomClaimsMap,
// parseClaimsMap).
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticator, parseJwtConfig, type JwtAuthenticator } from '../../runtime/auth/index.js';
import { parseJsonPath } from '../../runtime/auth/jwt/json-path.js';
import { authFixture, gqlError, type AuthFixture, type Served } from '../auth/helpers.js';

const KEY = 'a-very-long-hmac-secret-of-at-least-32-chars';
const MYAPP = 'https://myapp.com/jwt/claims';
const AUTHORS = '{ author(order_by: {id: asc}) { id name } }';
const at = (p: string): string => `$.['${MYAPP}'].${p}`;

let fx: AuthFixture;
const authenticators: JwtAuthenticator[] = [];

async function serveMap(claimsMap: Record<string, unknown>): Promise<Served> {
  const a = await createJwtAuthenticator([parseJwtConfig({ type: 'HS256', key: KEY, claims_map: claimsMap })]);
  authenticators.push(a);
  return fx.serve({ adminSecret: 'adm1n', authenticators: [a] });
}

async function token(inner: Record<string, unknown>): Promise<Record<string, string>> {
  const t = await new SignJWT({ sub: 'x', [MYAPP]: inner }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + 300).sign(new TextEncoder().encode(KEY));
  return { authorization: `Bearer ${t}` };
}

beforeAll(async () => { fx = await authFixture('fidclaimsmap'); });
afterAll(async () => {
  for (const a of authenticators) a.close();
  await fx?.close();
});

describe('JSON paths of claims_map and claims_namespace_path', () => {
  it('reads a dot before a bracket, a path without `$`, and `$` alone, as Hasura parses them', () => {
    expect(parseJsonPath(`$.['${MYAPP}'].user.id`)).toEqual([MYAPP, 'user', 'id']);
    expect(parseJsonPath("$.svc['claims%'][0]")).toEqual(['svc', 'claims%', 0]);
    expect(parseJsonPath('svc.claims')).toEqual(['svc', 'claims']);
    expect(parseJsonPath('$["a b"].c-d')).toEqual(['a b', 'c-d']);
    expect(parseJsonPath('$')).toEqual([]);
  });

  it('refuses what Hasura refuses: an empty path, two dots, a key starting with a digit', () => {
    for (const bad of ['', '$.', '$..a', '$.1a', "$.a['b"]) expect(() => parseJsonPath(bad)).toThrow(/invalid JSON path/);
  });
});

describe('claims_map with paths', () => {
  let plain: Served;
  let withDefaults: Served;
  beforeAll(async () => {
    plain = await serveMap({ 'x-svc-user-id': { path: at('user.id') }, 'x-svc-allowed-roles': { path: at('role.allowed') },
      'x-svc-default-role': { path: at('role.default') } });
    withDefaults = await serveMap({ 'x-svc-user-id': { path: at('user.id'), default: '2' },
      'x-svc-allowed-roles': { path: at('role.allowed'), default: ['user', 'editor'] }, 'x-svc-default-role': { path: at('role.default'), default: 'user' } });
  });

  it('builds the session from the paths', async () => {
    expect(await plain.gql(AUTHORS, await token({ user: { id: '1' }, role: { allowed: ['user'], default: 'user' } })))
      .toEqual({ data: { author: [{ id: 1, name: 'Alice' }] } });
  });

  it('says which claim was not found, in Hasura\'s words', async () => {
    expect(await plain.gql(AUTHORS, await token({ role: { allowed: ['user'], default: 'user' } })))
      .toEqual(gqlError('JWT claim from claims_map, x-svc-user-id not found', 'jwt-invalid-claims'));
    expect(await plain.gql(AUTHORS, await token({ user: { id: '1' }, role: { default: 'user' } })))
      .toEqual(gqlError('JWT claim does not contain x-svc-allowed-roles', 'jwt-missing-role-claims'));
  });

  it('uses the defaults, a list of roles for x-svc-allowed-roles', async () => {
    expect(await withDefaults.gql(AUTHORS, await token({}))).toEqual({ data: { author: [{ id: 2, name: 'Bob' }] } });
    expect((await withDefaults.gql(AUTHORS, { ...(await token({ user: { id: '1' } })), 'x-svc-role': 'editor' })).data.author).toHaveLength(3);
  });
});

describe('claims_map configuration', () => {
  const refused = (claimsMap: Record<string, unknown>): string => {
    try {
      parseJwtConfig({ type: 'HS256', key: KEY, claims_map: claimsMap });
    } catch (e) {
      return (e as Error).message;
    }
    return 'accepted';
  };

  it('needs x-svc-allowed-roles and x-svc-default-role, the roles as a list', () => {
    expect(refused({ 'x-svc-default-role': 'user' })).toMatch(/x-svc-allowed-roles is expected but not found/);
    expect(refused({ 'x-svc-allowed-roles': ['user'] })).toMatch(/x-svc-default-role is expected but not found/);
    expect(refused({ 'x-svc-allowed-roles': 'user', 'x-svc-default-role': 'user' })).toMatch(/x-svc-allowed-roles/);
    expect(refused({ 'x-svc-allowed-roles': { path: '$.r', default: 'user' }, 'x-svc-default-role': 'user' })).toMatch(/default/);
    expect(refused({ 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': { path: '$.d', default: ['user'] } })).toMatch(/default/);
    expect(refused({ 'x-svc-allowed-roles': { path: '$.r', default: ['user'] }, 'x-svc-default-role': 'user' })).toBe('accepted');
  });
});
