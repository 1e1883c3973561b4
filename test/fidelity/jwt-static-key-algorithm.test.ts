// The algorithms a fixed JWT key verifies, as Hasura's: `type` only says how to read `key`
// (Server/Auth/JWT.hs parseKey, JWT/Internal.hs: an HMAC secret or an RSA/Ed25519 public key, no
// `alg` on the JWK), so a token of any algorithm of that key's family verifies, and a token of
// another family fails its check: with every signature required to verify, that is
// JWSInvalidSignature (hs-jose Crypto/JOSE/JWS.hs verifyJWSWithPayload, AllValidated). Hasura's
// test_jwt.py test_jwt_invalid_signature signs HS256 with an RSA key's text against RS512 and Ed25519.
import { createSecretKey, generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticator, parseJwtConfig, type JwtAuthenticator } from '../../runtime/auth/index.js';
import { authFixture, gqlError, type AuthFixture, type Served } from '../auth/helpers.js';

const NS = 'https://svc.io/jwt/claims';
const AUTHORS = '{ author(order_by: {id: asc}) { id name } }';
const claims = { sub: 'x', [NS]: { 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 'user', 'x-svc-user-id': '1' } };
const exp = (): number => Math.floor(Date.now() / 1000) + 300;

let fx: AuthFixture;
const authenticators: JwtAuthenticator[] = [];
async function serveKey(config: Record<string, unknown>): Promise<Served> {
  const a = await createJwtAuthenticator([parseJwtConfig(config)]);
  authenticators.push(a);
  return fx.serve({ adminSecret: 'adm1n', authenticators: [a] });
}

beforeAll(async () => { fx = await authFixture('fidjwtalg'); });
afterAll(async () => {
  for (const a of authenticators) a.close();
  await fx?.close();
});

describe('a token whose algorithm does not fit the configured key', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ed = generateKeyPairSync('ed25519');
  const otherPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
  const hmacWithPem = (): Promise<string> =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setExpirationTime(exp()).sign(createSecretKey(Buffer.from(otherPem)));
  const invalid = gqlError('Could not verify JWT: JWSError JWSInvalidSignature', 'invalid-jwt');

  it('is an invalid signature for an RS512 key, which verifies every RSA algorithm', async () => {
    const srv = await serveKey({ type: 'RS512', key: rsa.publicKey.export({ type: 'spki', format: 'pem' }) });
    expect(await srv.gql(AUTHORS, { authorization: `Bearer ${await hmacWithPem()}` })).toEqual(invalid);
    for (const alg of ['RS512', 'RS256', 'PS384']) {
      const t = await new SignJWT(claims).setProtectedHeader({ alg }).setExpirationTime(exp()).sign(rsa.privateKey);
      expect(await srv.gql(AUTHORS, { authorization: `Bearer ${t}` })).toEqual({ data: { author: [{ id: 1, name: 'Alice' }] } });
    }
  });

  it('is an invalid signature for an Ed25519 key, and for an HMAC key which verifies every HMAC algorithm', async () => {
    const edSrv = await serveKey({ type: 'Ed25519', key: ed.publicKey.export({ type: 'spki', format: 'pem' }) });
    expect(await edSrv.gql(AUTHORS, { authorization: `Bearer ${await hmacWithPem()}` })).toEqual(invalid);
    const secret = 'a-very-long-hmac-secret-of-at-least-32-chars';
    const hsSrv = await serveKey({ type: 'HS256', key: secret });
    const rsToken = await new SignJWT(claims).setProtectedHeader({ alg: 'RS512' }).setExpirationTime(exp()).sign(rsa.privateKey);
    expect(await hsSrv.gql(AUTHORS, { authorization: `Bearer ${rsToken}` })).toEqual(invalid);
    const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).setExpirationTime(exp()).sign(new TextEncoder().encode(secret));
    expect(await hsSrv.gql(AUTHORS, { authorization: `Bearer ${hs512}` })).toEqual({ data: { author: [{ id: 1, name: 'Alice' }] } });
  });

  it('has no signature to check when its algorithm is none', async () => {
    const srv = await serveKey({ type: 'RS512', key: rsa.publicKey.export({ type: 'spki', format: 'pem' }) });
    const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, exp: exp() })}.`;
    expect(await srv.gql(AUTHORS, { authorization: `Bearer ${unsigned}` })).toEqual(gqlError('Could not verify JWT: JWSError JWSNoSignatures', 'invalid-jwt'));
  });
});
