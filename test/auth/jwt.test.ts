// JWT mode through a real socket: tokens signed here (HS256, RS256 with an X509 certificate,
// Ed25519, ES256), every error case of reference/auth.md §2 answered in Hasura's shape, over an
// Engine on a real PostgreSQL database.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticator, parseJwtConfig, type JwtAuthenticator } from '../../runtime/auth/index.js';
import { authFixture, gqlError, type AuthFixture, type Served } from './helpers.js';

const NS = 'https://svc.io/jwt/claims';
const SECRET = 'a-very-long-hmac-secret-of-at-least-32-chars';
const ADMIN = 'adm1n';
const AUTHORS = '{ author(order_by: {id: asc}) { id name } }';

const baseClaims = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  'x-svc-allowed-roles': ['user', 'editor'], 'x-svc-default-role': 'user', 'x-svc-user-id': '1', ...extra,
});

interface SignOpts {
  readonly alg?: string;
  readonly key?: KeyObject | Uint8Array;
  readonly expIn?: number;
  readonly nbfIn?: number;
  readonly aud?: string | string[];
  readonly iss?: string;
  readonly kid?: string;
}

const secretBytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const now = (): number => Math.floor(Date.now() / 1000);

async function sign(payload: Record<string, unknown>, o: SignOpts = {}): Promise<string> {
  let jwt = new SignJWT(payload).setProtectedHeader({ alg: o.alg ?? 'HS256', ...(o.kid ? { kid: o.kid } : {}) }).setIssuedAt()
    .setExpirationTime(now() + (o.expIn ?? 300));
  if (o.nbfIn !== undefined) jwt = jwt.setNotBefore(now() + o.nbfIn);
  if (o.aud !== undefined) jwt = jwt.setAudience(o.aud);
  if (o.iss !== undefined) jwt = jwt.setIssuer(o.iss);
  return jwt.sign(o.key ?? secretBytes(SECRET));
}

const hsToken = (claims: Record<string, unknown> = baseClaims(), o: SignOpts = {}): Promise<string> => sign({ sub: 'u1', [NS]: claims }, o);
const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

let fx: AuthFixture;
let hs: Served;
let hsAnon: Served;
const authenticators: JwtAuthenticator[] = [];

async function jwtServer(config: Record<string, unknown> | Record<string, unknown>[], extra: Record<string, unknown> = {}): Promise<Served> {
  const list = Array.isArray(config) ? config : [config];
  const a = await createJwtAuthenticator(list.map((c) => parseJwtConfig(c)));
  authenticators.push(a);
  return fx.serve({ adminSecret: ADMIN, authenticators: [a], ...extra });
}

beforeAll(async () => {
  fx = await authFixture('authjwt');
  const hsConfig = { type: 'HS256', key: SECRET, audience: ['app-1', 'app-2'], issuer: 'https://issuer.test' };
  hs = await jwtServer(hsConfig);
  hsAnon = await jwtServer(hsConfig, { unauthorizedRole: 'anonymous' });
});
afterAll(async () => {
  for (const a of authenticators) a.close();
  await fx?.close();
});

describe('HS256 tokens', () => {
  it('runs the request as the default role with the x-svc-* claims as session variables', async () => {
    expect(await hs.gql(AUTHORS, bearer(await hsToken()))).toEqual({ data: { author: [{ id: 1, name: 'Alice' }] } });
    expect(await hs.gql(AUTHORS, bearer(await hsToken(baseClaims({ 'X-Svc-User-Id': '2', 'x-svc-user-id': undefined })))))
      .toEqual({ data: { author: [{ id: 2, name: 'Bob' }] } });
  });

  it('takes the role from X-Svc-Role when it is an allowed role', async () => {
    const body = await hs.gql(AUTHORS, { ...bearer(await hsToken()), 'X-Svc-Role': 'editor' });
    expect(body.data.author).toHaveLength(3);
  });

  it('refuses a requested role outside the allowed roles (J5), and a default role outside them', async () => {
    const denied = gqlError('Your requested role is not in allowed roles', 'access-denied');
    expect(await hs.gql(AUTHORS, { ...bearer(await hsToken()), 'X-Svc-Role': 'admin' })).toEqual(denied);
    expect(await hs.gql(AUTHORS, bearer(await hsToken(baseClaims({ 'x-svc-default-role': 'boss' }))))).toEqual(denied);
  });

  it('answers an expired token with J1: 200 on /v1/graphql, 400 on /v1alpha1/graphql and on /v1/metadata', async () => {
    const token = await hsToken(baseClaims(), { expIn: -60 });
    const msg = 'Could not verify JWT: JWTExpired';
    expect(await hs.post({ query: AUTHORS }, bearer(token))).toMatchObject({ status: 200, body: gqlError(msg, 'invalid-jwt') });
    expect(await hs.post({ query: AUTHORS }, bearer(token), '/v1alpha1/graphql')).toMatchObject({ status: 400, body: gqlError(msg, 'invalid-jwt') });
    expect(await hs.post({ type: 'export_metadata', args: {} }, bearer(token), '/v1/metadata'))
      .toMatchObject({ status: 400, body: { path: '$', error: msg, code: 'invalid-jwt' } });
  });

  it('refuses a token that is not yet valid', async () => {
    expect(await hs.gql(AUTHORS, bearer(await hsToken(baseClaims(), { nbfIn: 120 }))))
      .toEqual(gqlError('Could not verify JWT: JWTNotYetValid', 'invalid-jwt'));
  });

  it('checks aud against the audience list (J3); a token with a listed audience passes', async () => {
    expect(await hs.gql(AUTHORS, bearer(await hsToken(baseClaims(), { aud: 'other-app' }))))
      .toEqual(gqlError('Could not verify JWT: JWTNotInAudience', 'invalid-jwt'));
    expect((await hs.gql(AUTHORS, bearer(await hsToken(baseClaims(), { aud: ['x', 'app-2'] })))).data.author).toHaveLength(1);
  });

  it('checks iss against the issuer (J4); a token without iss matches', async () => {
    expect(await hs.gql(AUTHORS, bearer(await hsToken(baseClaims(), { iss: 'https://evil.test' }))))
      .toEqual(gqlError('Could not verify JWT: JWTNotInIssuer', 'invalid-jwt'));
    expect((await hs.gql(AUTHORS, bearer(await hsToken(baseClaims(), { iss: 'https://issuer.test' })))).data.author).toHaveLength(1);
  });

  it('refuses a token signed with another key (J2)', async () => {
    const forged = await hsToken(baseClaims(), { key: secretBytes('another-secret-that-is-long-enough-too!') });
    expect(await hs.gql(AUTHORS, bearer(forged))).toEqual(gqlError('Could not verify JWT: JWSError JWSInvalidSignature', 'invalid-jwt'));
    // A tampered payload under the original signature.
    const [h, , s] = (await hsToken()).split('.');
    const payload = Buffer.from(JSON.stringify({ [NS]: baseClaims({ 'x-svc-user-id': '3' }), exp: now() + 60 })).toString('base64url');
    expect(await hs.gql(AUTHORS, bearer(`${h}.${payload}.${s}`))).toEqual(gqlError('Could not verify JWT: JWSError JWSInvalidSignature', 'invalid-jwt'));
  });

  it('reports missing or malformed role claims (J6, J7, J8) and a missing namespace (J9)', async () => {
    const { 'x-svc-allowed-roles': _a, ...noAllowed } = baseClaims();
    const { 'x-svc-default-role': _d, ...noDefault } = baseClaims();
    expect(await hs.gql(AUTHORS, bearer(await hsToken(noAllowed))))
      .toEqual(gqlError('JWT claim does not contain x-svc-allowed-roles', 'jwt-missing-role-claims'));
    expect(await hs.gql(AUTHORS, bearer(await hsToken(noDefault))))
      .toEqual(gqlError('JWT claim does not contain x-svc-default-role', 'jwt-missing-role-claims'));
    expect(await hs.gql(AUTHORS, bearer(await hsToken(baseClaims({ 'x-svc-allowed-roles': 'user' })))))
      .toEqual(gqlError('invalid x-svc-allowed-roles; should be a list of roles: parsing [] failed, expected Array, but encountered String', 'jwt-invalid-claims'));
    expect(await hs.gql(AUTHORS, bearer(await sign({ sub: 'x', 'https://other/claims': baseClaims() }))))
      .toEqual(gqlError(`claims key: '${NS}' not found`, 'jwt-invalid-claims'));
    expect(await hs.gql(AUTHORS, bearer(await sign({ [NS]: 'not an object' }))))
      .toEqual(gqlError('expecting a json object when claims_format is json', 'jwt-invalid-claims'));
  });

  it('answers a malformed Authorization header (J10), a non-JWT (J11) and a missing token (J0)', async () => {
    const malformed = gqlError('Malformed Authorization header', 'invalid-headers');
    expect(await hs.gql(AUTHORS, { authorization: 'Basic dXNlcjpwdw==' })).toEqual(malformed);
    expect(await hs.gql(AUTHORS, { authorization: 'Bearer' })).toEqual(malformed);
    expect(await hs.gql(AUTHORS, { authorization: 'Bearer a b' })).toEqual(malformed);
    expect(await hs.gql(AUTHORS, { authorization: 'Bearer not-a-jwt' }))
      .toEqual(gqlError('Could not verify JWT: JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 1)', 'invalid-jwt'));
    const garbled = await hs.gql(AUTHORS, { authorization: 'Bearer abc.def.ghi' });
    expect(garbled.errors[0].extensions.code).toBe('invalid-jwt');
    expect(garbled.errors[0].message).toMatch(/^Could not verify JWT: JWSError \(CompactDecodeError /);
    expect(await hs.gql(AUTHORS)).toEqual(gqlError("Missing 'Authorization' or 'Cookie' header in JWT authentication mode", 'invalid-headers'));
    expect((await hs.post({ query: AUTHORS }, {}, '/v1/query')).status).toBe(400);
  });

  it('uses the unauthorized role only when no token is sent', async () => {
    expect(await hsAnon.gql('{ author(order_by: {name: asc}) { name } }')).toEqual({ data: { author: [{ name: 'Alice' }, { name: 'Bob' }, { name: 'Carol' }] } });
    expect(await hsAnon.gql(AUTHORS, bearer(await hsToken(baseClaims(), { expIn: -60 })))).toEqual(gqlError('Could not verify JWT: JWTExpired', 'invalid-jwt'));
  });

  it('lets a correct admin secret take precedence over any token, and refuses a wrong one', async () => {
    const body = await hs.gql(AUTHORS, { 'x-svc-admin-secret': ADMIN, authorization: 'Bearer garbage' });
    expect(body.data.author).toHaveLength(3);
    expect(await hs.gql(AUTHORS, { 'x-svc-admin-secret': 'wrong', ...bearer(await hsToken()) }))
      .toEqual(gqlError('invalid x-svc-admin-secret/x-svc-access-key', 'access-denied'));
  });
});

describe('asymmetric keys', () => {
  let dir: string;
  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'kiln-jwt-')); });
  afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

  it('verifies RS256 tokens with the public key of an X509 certificate, and refuses other keys', async () => {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem'),
      '-subj', '/CN=kiln-test', '-days', '1'], { stdio: 'ignore' });
    const { createPrivateKey } = await import('node:crypto');
    const privateKey = createPrivateKey(readFileSync(join(dir, 'k.pem'), 'utf8'));
    const srv = await jwtServer({ type: 'RS256', key: readFileSync(join(dir, 'c.pem'), 'utf8') });
    expect(await srv.gql(AUTHORS, bearer(await hsToken(baseClaims(), { alg: 'RS256', key: privateKey })))).toEqual({ data: { author: [{ id: 1, name: 'Alice' }] } });
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect(await srv.gql(AUTHORS, bearer(await hsToken(baseClaims(), { alg: 'RS256', key: other }))))
      .toEqual(gqlError('Could not verify JWT: JWSError JWSInvalidSignature', 'invalid-jwt'));
    // Algorithm confusion: an HMAC token "signed" with the public key text fails the RSA key's check.
    const confused = await hsToken(baseClaims(), { alg: 'HS256', key: secretBytes(readFileSync(join(dir, 'c.pem'), 'utf8')) });
    expect(await srv.gql(AUTHORS, bearer(confused))).toEqual(gqlError('Could not verify JWT: JWSError JWSInvalidSignature', 'invalid-jwt'));
  });

  it('verifies RS512 tokens with a PEM public key', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const srv = await jwtServer({ type: 'RS512', key: publicKey.export({ type: 'spki', format: 'pem' }) as string });
    expect((await srv.gql(AUTHORS, bearer(await hsToken(baseClaims(), { alg: 'RS512', key: privateKey })))).data.author).toHaveLength(1);
  });

  it('verifies Ed25519 tokens (alg EdDSA) and ES256 tokens', async () => {
    const ed = generateKeyPairSync('ed25519');
    const edSrv = await jwtServer({ type: 'Ed25519', key: ed.publicKey.export({ type: 'spki', format: 'pem' }) as string });
    expect(await edSrv.gql(AUTHORS, bearer(await hsToken(baseClaims(), { alg: 'EdDSA', key: ed.privateKey })))).toEqual({ data: { author: [{ id: 1, name: 'Alice' }] } });
    const otherEd = generateKeyPairSync('ed25519').privateKey;
    expect((await edSrv.gql(AUTHORS, bearer(await hsToken(baseClaims(), { alg: 'EdDSA', key: otherEd })))).errors[0].message)
      .toBe('Could not verify JWT: JWSError JWSInvalidSignature');
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const ecSrv = await jwtServer({ type: 'ES256', key: ec.publicKey.export({ type: 'spki', format: 'pem' }) as string });
    expect((await ecSrv.gql(AUTHORS, bearer(await hsToken(baseClaims(), { alg: 'ES256', key: ec.privateKey })))).data.author).toHaveLength(1);
  });
});

describe('where the claims are', () => {
  it('reads claims_namespace_path, nested with a bracketed key, or the payload root', async () => {
    const nested = await jwtServer({ type: 'HS256', key: SECRET, claims_namespace_path: "$.svc['claims%']" });
    expect((await nested.gql(AUTHORS, bearer(await sign({ svc: { 'claims%': baseClaims({ 'x-svc-user-id': '3' }) } })))).data)
      .toEqual({ author: [{ id: 3, name: 'Carol' }] });
    expect(await nested.gql(AUTHORS, bearer(await sign({ svc: {} }))))
      .toEqual(gqlError("claims not found at claims_namespace_path: '$.svc['claims%']'", 'jwt-invalid-claims'));
    const root = await jwtServer({ type: 'HS256', key: SECRET, claims_namespace_path: '$' });
    expect((await root.gql(AUTHORS, bearer(await sign(baseClaims({ 'x-svc-user-id': '2' }))))).data).toEqual({ author: [{ id: 2, name: 'Bob' }] });
  });

  it('reads a custom claims_namespace, and stringified_json claims', async () => {
    const custom = await jwtServer({ type: 'HS256', key: SECRET, claims_namespace: 'myapp', claims_format: 'stringified_json' });
    const token = await sign({ myapp: JSON.stringify(baseClaims({ 'x-svc-user-id': '2' })) });
    expect((await custom.gql(AUTHORS, bearer(token))).data).toEqual({ author: [{ id: 2, name: 'Bob' }] });
    expect(await custom.gql(AUTHORS, bearer(await sign({ myapp: '{not json' }))))
      .toEqual(gqlError("expecting stringified json at: 'claims_namespace myapp', but found: {not json", 'jwt-invalid-claims'));
    expect(await custom.gql(AUTHORS, bearer(await sign({ myapp: baseClaims() }))))
      .toEqual(gqlError('expecting a string when claims_format is stringified_json', 'jwt-invalid-claims'));
  });

  it('builds the session from claims_map: literals, paths, defaults, allowed roles from an array', async () => {
    const mapped = await jwtServer({
      type: 'HS256', key: SECRET,
      claims_map: {
        'x-svc-allowed-roles': { path: '$.user.roles' },
        'x-svc-default-role': { path: '$.user.role', default: 'user' },
        'x-svc-user-id': { path: '$.user.id' },
        'x-svc-org-id': '0b9b4f5e-6a3f-4a8e-9d1e-1c2b3a4d5e6f',
      },
    });
    expect((await mapped.gql(AUTHORS, bearer(await sign({ user: { roles: ['user', 'org'], id: '2' } }))))).toEqual({ data: { author: [{ id: 2, name: 'Bob' }] } });
    expect((await mapped.gql(AUTHORS, { ...bearer(await sign({ user: { roles: ['user', 'org'], id: '2' } })), 'x-svc-role': 'org' })))
      .toEqual({ data: { author: [{ id: 1, name: 'Alice' }] } });
    expect(await mapped.gql(AUTHORS, bearer(await sign({ user: { id: '2' } }))))
      .toEqual(gqlError('JWT claim does not contain x-svc-allowed-roles', 'jwt-missing-role-claims'));
    expect(await mapped.gql(AUTHORS, bearer(await sign({ user: { roles: ['user'] } }))))
      .toEqual(gqlError('JWT claim from claims_map, x-svc-user-id not found', 'jwt-invalid-claims'));
    expect(await mapped.gql(AUTHORS, bearer(await sign({ user: { roles: ['user'], id: 2 } }))))
      .toEqual(gqlError("invalid x-svc-user-id from claims_map path '$.user.id': parsing Text failed, expected String, but encountered Number", 'jwt-invalid-claims'));
  });

  it('reads the token from a cookie or a custom header when `header` says so', async () => {
    const cookie = await jwtServer({ type: 'HS256', key: SECRET, header: { type: 'Cookie', name: 'svc_jwt' } });
    expect((await cookie.gql(AUTHORS, { cookie: `theme=dark; svc_jwt=${await hsToken()}` })).data.author).toEqual([{ id: 1, name: 'Alice' }]);
    expect(await cookie.gql(AUTHORS, bearer(await hsToken())))
      .toEqual(gqlError("Missing 'Authorization' or 'Cookie' header in JWT authentication mode", 'invalid-headers'));
    const custom = await jwtServer({ type: 'HS256', key: SECRET, header: { type: 'CustomHeader', name: 'X-Token' } });
    expect((await custom.gql(AUTHORS, { 'x-token': await hsToken() })).data.author).toEqual([{ id: 1, name: 'Alice' }]);
  });

  it('accepts a recently expired or not-quite-valid token within allowed_skew', async () => {
    const skewed = await jwtServer({ type: 'HS256', key: SECRET, allowed_skew: 60 });
    expect((await skewed.gql(AUTHORS, bearer(await hsToken(baseClaims(), { expIn: -20 })))).data.author).toHaveLength(1);
    expect((await skewed.gql(AUTHORS, bearer(await hsToken(baseClaims(), { nbfIn: 20 })))).data.author).toHaveLength(1);
    expect((await skewed.gql(AUTHORS, bearer(await hsToken(baseClaims(), { expIn: -90 })))).errors[0].message).toBe('Could not verify JWT: JWTExpired');
  });

  it('accepts tokens of any of several secrets (SVC_GRAPHQL_JWT_SECRETS)', async () => {
    const other = 'second-provider-secret-which-is-long-enough';
    const multi = await jwtServer([
      { type: 'HS256', key: SECRET, issuer: 'one' },
      { type: 'HS256', key: other, issuer: 'two' },
    ]);
    expect((await multi.gql(AUTHORS, bearer(await hsToken(baseClaims(), { iss: 'one' })))).data.author).toHaveLength(1);
    expect((await multi.gql(AUTHORS, bearer(await hsToken(baseClaims(), { iss: 'two', key: secretBytes(other) })))).data.author).toHaveLength(1);
    expect((await multi.gql(AUTHORS, bearer(await hsToken(baseClaims(), { key: secretBytes('neither-of-the-two-secrets-is-this-one!') })))).errors[0].message)
      .toBe('Could not verify JWT: JWSError JWSInvalidSignature');
  });
});

describe('the session a token gives', () => {
  it('holds every x-svc-* claim lower-cased, non-strings JSON-encoded, the role claims left out', async () => {
    const a = await createJwtAuthenticator([parseJwtConfig({ type: 'HS256', key: SECRET })]);
    authenticators.push(a);
    const token = await hsToken(baseClaims({ 'X-Svc-Org-Id': 'o1', 'x-svc-ids': [1, 2], 'x-svc-flag': true, other: 'ignored' }));
    const session = await a.authenticate({ headers: { authorization: `Bearer ${token}`, 'x-svc-extra': 'from-header' } });
    expect(session).toEqual({
      role: 'user', isAdmin: false,
      variables: { 'x-svc-role': 'user', 'x-svc-user-id': '1', 'x-svc-org-id': 'o1', 'x-svc-ids': '[1,2]', 'x-svc-flag': 'true' },
    });
  });
});
