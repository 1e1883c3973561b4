// JWT secret validation (refused at start with a clear message), JSON paths, the verified-token
// cache, and the `kiln serve` wiring of --jwt-secret / --auth-hook / SVC_GRAPHQL_*.
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverAuth } from '../../runtime/index.js';
import { DEFAULT_CLAIMS_NAMESPACE, JwtVerifier, parseJwtConfig, parseJwtConfigList, type JwtAuthenticator } from '../../runtime/auth/index.js';
import { parseJsonPath, readJsonPath } from '../../runtime/auth/jwt/index.js';

const K32 = 'k'.repeat(32);

describe('JWT secret validation', () => {
  const refused = (cfg: unknown): string => {
    try {
      parseJwtConfig(cfg);
    } catch (e) {
      expect((e as { code?: string }).code).toBe('invalid-configuration');
      return (e as Error).message;
    }
    throw new Error('accepted');
  };

  it('refuses an HMAC key shorter than the hash (32 characters for HS256)', () => {
    expect(refused({ type: 'HS256', key: 'short-secret' }))
      .toBe('JWT secret: the HS256 key must be at least 32 characters long (it has 12): a shorter HMAC key is too weak for the algorithm');
    expect(refused({ type: 'HS384', key: 'x'.repeat(47) })).toMatch(/HS384 key must be at least 48 characters/);
    expect(refused({ type: 'HS512', key: 'x'.repeat(63) })).toMatch(/HS512 key must be at least 64 characters/);
    expect(parseJwtConfig({ type: 'HS256', key: K32 }).key).toEqual({ kind: 'static', type: 'HS256', key: K32 });
  });

  it('needs type with key, or jwk_url, and a known type', () => {
    expect(refused({})).toMatch(/either "key" \(with "type"\) or "jwk_url" must be present/);
    expect(refused({ key: K32 })).toMatch(/"type" is required together with "key"/);
    expect(refused({ type: 'HS256', key: K32, jwk_url: 'http://x/' })).toMatch(/not both/);
    expect(refused({ type: 'PS256', key: K32 })).toMatch(/"type" must be one of HS256, HS384, HS512, RS256, RS384, RS512, Ed25519/);
    expect(refused({ jwk_url: 'not a url' })).toMatch(/"jwk_url" is not a URL/);
    expect(refused('{"type": ')).toMatch(/^JWT secret: not valid JSON/);
    expect(refused([])).toBe('JWT secret: expected a JSON object');
  });

  it('refuses claims_namespace with claims_namespace_path, bad paths, formats, audiences, skews and headers', () => {
    const base = { type: 'HS256', key: K32 };
    expect(refused({ ...base, claims_namespace: 'a', claims_namespace_path: '$.a' })).toMatch(/at most one of "claims_namespace" and "claims_namespace_path"/);
    expect(refused({ ...base, claims_namespace_path: '$..b' })).toMatch(/invalid JSON path "\$\.\.b"/);
    expect(refused({ ...base, claims_format: 'xml' })).toMatch(/"claims_format" must be "json" or "stringified_json"/);
    expect(refused({ ...base, audience: 5 })).toMatch(/"audience" must be a string or a list of strings/);
    expect(refused({ ...base, allowed_skew: -1 })).toMatch(/"allowed_skew" must be a non-negative integer/);
    expect(refused({ ...base, header: { type: 'Cookie' } })).toMatch(/"header" of type Cookie needs a "name"/);
    expect(refused({ ...base, header: { type: 'Query' } })).toMatch(/"header"."type" must be Authorization, Cookie or CustomHeader/);
    expect(refused({ ...base, claims_map: { 'x-svc-user-id': 5 } })).toMatch(/must be a string literal or \{"path"/);
    expect(refused({ ...base, claims_map: { 'x-svc-user-id': ['a'] } })).toMatch(/must be a string literal or \{"path"/);
    expect(refused({ ...base, claims_map: { 'x-svc-allowed-roles': 'a', 'x-svc-default-role': 'a' } })).toMatch(/must be a list of roles or \{"path"/);
  });

  it('checks that an asymmetric key is PEM and fits its type', async () => {
    expect(() => parseJwtConfig({ type: 'RS256', key: 'not a pem' })).not.toThrow();
    const { JwtVerifier: V } = await import('../../runtime/auth/index.js');
    await expect(V.create(parseJwtConfig({ type: 'RS256', key: 'not a pem' }))).rejects.toThrow(/"key" is not a PEM public key or X509 certificate/);
    const ed = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string;
    await expect(V.create(parseJwtConfig({ type: 'RS256', key: ed }))).rejects.toThrow('JWT secret: "key" is a ed25519 key, which does not fit "type" RS256');
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    await expect(V.create(parseJwtConfig({ type: 'ES256', key: p384 }))).rejects.toThrow(/ec \(secp384r1\) key, which does not fit "type" ES256/);
  });

  it('fills the defaults: claims namespace, json format, Authorization header, no audience, issuer or skew', () => {
    expect(parseJwtConfig(`{"type": "HS256", "key": "${K32}"}`)).toEqual({
      key: { kind: 'static', type: 'HS256', key: K32 },
      claims: { kind: 'namespace', namespace: DEFAULT_CLAIMS_NAMESPACE },
      format: 'json', audience: null, issuer: null, allowedSkew: 0, location: { kind: 'authorization' },
    });
    expect(DEFAULT_CLAIMS_NAMESPACE).toBe('https://svc.io/jwt/claims');
    expect(parseJwtConfig({ type: 'HS256', key: K32, audience: 'a', claims_namespace: 'x', claims_map: { 'x-svc-allowed-roles': ['u'], 'x-svc-default-role': 'u' } }).claims.kind).toBe('map');
  });

  it('reads a list of secrets', () => {
    expect(parseJwtConfigList(JSON.stringify([{ type: 'HS256', key: K32 }, { jwk_url: 'https://example.test/jwks' }])).map((c) => c.key.kind)).toEqual(['static', 'jwk-url']);
    expect(() => parseJwtConfigList('{}')).toThrow('JWT secrets: expected a JSON list of JWT secrets');
    expect(() => parseJwtConfigList('[{"type": "HS256", "key": "x"}]')).toThrow(/^JWT secrets\[0\]: the HS256 key must be at least 32/);
  });
});

describe('JSON paths', () => {
  it('parses dotted names, quoted keys and indexes', () => {
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('$.a.b_c')).toEqual(['a', 'b_c']);
    expect(parseJsonPath("$.a['b%'][\"c d\"][2]")).toEqual(['a', 'b%', 'c d', 2]);
    expect(() => parseJsonPath('$.')).toThrow(/expected a key name/);
    expect(() => parseJsonPath("$['a")).toThrow(/unterminated bracket/);
    expect(() => parseJsonPath('$[x]')).toThrow(/expected a quoted key or an index/);
    expect(readJsonPath({ a: { 'b%': [0, { c: 'v' }] } }, ['a', 'b%', 1, 'c'])).toBe('v');
    expect(readJsonPath({ a: 1 }, ['a', 'b'])).toBeUndefined();
    expect(readJsonPath({ a: {} }, ['a', 'toString'])).toBeUndefined();
  });
});

describe('the verified-token cache', () => {
  afterEach(() => { vi.useRealTimers(); });
  const secret = new TextEncoder().encode(K32);
  const claims = { 'https://svc.io/jwt/claims': { 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 'user' } };

  it('verifies a token once and keeps it until it expires (allowed_skew included)', async () => {
    const verifier = await JwtVerifier.create(parseJwtConfig({ type: 'HS256', key: K32, allowed_skew: 5 }));
    const exp = Math.floor(Date.now() / 1000) + 60;
    const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(secret);
    const first = await verifier.verify(token);
    expect(await verifier.verify(token)).toBe(first); // the same object: no second verification
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((exp + 4) * 1000);
    expect(await verifier.verify(token)).toBe(first);
    vi.setSystemTime((exp + 6) * 1000);
    await expect(verifier.verify(token)).rejects.toMatchObject({ code: 'invalid-jwt', message: 'Could not verify JWT: JWTExpired' });
  });

  it('does not cache a token that fails', async () => {
    const verifier = await JwtVerifier.create(parseJwtConfig({ type: 'HS256', key: K32 }));
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1m').sign(secret);
    await expect(verifier.verify(token)).rejects.toMatchObject({ code: 'jwt-invalid-claims' });
    await expect(verifier.verify(token)).rejects.toMatchObject({ code: 'jwt-invalid-claims' });
  });
});

describe('kiln serve wiring (serverAuth)', () => {
  const log = (): void => undefined;
  const jwtSecret = JSON.stringify({ type: 'HS256', key: K32 });
  const refusal = async (p: Promise<unknown>): Promise<string> => {
    try {
      await p;
    } catch (e) {
      expect((e as { exitCode?: number }).exitCode).toBe(2);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };

  it('refuses JWT or webhook mode without an admin secret, and both at once', async () => {
    expect(await refusal(serverAuth({ jwtSecret }, log, {}))).toBe('--jwt-secret (SVC_GRAPHQL_JWT_SECRET) requires --admin-secret (SVC_GRAPHQL_ADMIN_SECRET) to be set');
    expect(await refusal(serverAuth({ authHook: 'http://127.0.0.1:9/h' }, log, {}))).toBe('--auth-hook (SVC_GRAPHQL_AUTH_HOOK) requires --admin-secret (SVC_GRAPHQL_ADMIN_SECRET) to be set');
    expect(await refusal(serverAuth({ adminSecret: 's', jwtSecret, authHook: 'http://127.0.0.1:9/h' }, log, {})))
      .toBe('JWT mode and the auth webhook cannot be enabled at the same time');
  });

  it('refuses a short HS256 key at start with the reason', async () => {
    expect(await refusal(serverAuth({ adminSecret: 's', jwtSecret: '{"type":"HS256","key":"too-short"}' }, log, {})))
      .toBe('JWT secret (--jwt-secret / SVC_GRAPHQL_JWT_SECRET): the HS256 key must be at least 32 characters long (it has 9): a shorter HMAC key is too weak for the algorithm');
    expect(await refusal(serverAuth({ adminSecret: 's', authHook: 'http://127.0.0.1:9/h', authHookMode: 'PUT' }, log, {}))).toBe('auth hook mode must be GET or POST; got "PUT"');
  });

  it('builds JWT mode from --jwt-secret and SVC_GRAPHQL_JWT_SECRETS, admin secrets from SVC_GRAPHQL_ADMIN_SECRETS', async () => {
    const other = JSON.stringify([{ type: 'HS512', key: 'z'.repeat(64) }]);
    const auth = await serverAuth({ jwtSecret }, log, { SVC_GRAPHQL_ADMIN_SECRETS: '["old","new"]', SVC_GRAPHQL_JWT_SECRETS: other });
    expect(auth.adminSecrets).toEqual(['old', 'new']);
    expect(auth.authenticators.map((a) => a.kind)).toEqual(['jwt']);
    expect((auth.authenticators[0] as JwtAuthenticator).verifiers.map((v) => v.config.key.kind === 'static' && v.config.key.type)).toEqual(['HS256', 'HS512']);
    expect(await refusal(serverAuth({}, log, { SVC_GRAPHQL_ADMIN_SECRETS: 'old' }))).toBe('SVC_GRAPHQL_ADMIN_SECRETS must be a JSON list of strings');
  });

  it('builds webhook mode with the mode from the flag or SVC_GRAPHQL_AUTH_HOOK_MODE', async () => {
    const auth = await serverAuth({ adminSecret: 's', authHook: 'http://127.0.0.1:9/h' }, log, { SVC_GRAPHQL_AUTH_HOOK_MODE: 'post' });
    expect(auth.authenticators.map((a) => a.kind)).toEqual(['webhook']);
    expect((await serverAuth({}, log, {})).authenticators).toEqual([]);
  });
});
