// jwk_url: a real JWK server on 127.0.0.1 that rotates keys and answers with each cache header
// variant of spec part A 5.2; the refresh schedule is read back from the key set, and rotation
// is checked end to end through a Kiln server (a rotated-out key stops working after the refresh).
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { exportJWK, SignJWT, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticator, jwkRefreshDelay, parseJwtConfig, RemoteJwkSet, type JwtAuthenticator } from '../../runtime/auth/index.js';
import { authFixture, gqlError, json, startHttpServer, type AuthFixture, type TestHttpServer } from './helpers.js';

const NS = 'https://svc.io/jwt/claims';
const AUTHORS = '{ author(order_by: {id: asc}) { id } }';
const CLAIMS = { [NS]: { 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 'user', 'x-svc-user-id': '1' } };

interface Pair { readonly kid: string; readonly privateKey: KeyObject; readonly jwk: JWK }

async function pair(kid: string): Promise<Pair> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

const sign = (p: Pair, withKid = true): Promise<string> =>
  new SignJWT(CLAIMS).setProtectedHeader({ alg: 'RS256', ...(withKid ? { kid: p.kid } : {}) }).setExpirationTime('5m').sign(p.privateKey);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, ms = 4000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(50);
  }
}

let a: Pair;
let b: Pair;
let jwks: TestHttpServer;
const state: { keys: JWK[]; headers: Record<string, string>; status: number } = { keys: [], headers: {}, status: 200 };
const opened: { close(): void }[] = [];
const sets: RemoteJwkSet[] = [];

beforeAll(async () => {
  a = await pair('key-a');
  b = await pair('key-b');
  jwks = await startHttpServer((_req, _body, res) => {
    if (state.status !== 200) return json(res, state.status, { error: 'down' });
    json(res, 200, { keys: state.keys }, state.headers);
  });
});
afterAll(async () => {
  for (const o of opened) o.close();
  await jwks?.close();
});

async function open(headers: Record<string, string>): Promise<RemoteJwkSet> {
  state.keys = [a.jwk];
  state.headers = headers;
  const set = await RemoteJwkSet.open({ url: jwks.url });
  sets.push(set);
  return set;
}

const httpDate = (ms: number): string => new Date(ms).toUTCString();

describe('the refresh schedule read from the JWK response', () => {
  afterEach(() => { for (const s of sets.splice(0)) s.close(); });

  it('at startup: revalidate directives every second, max-age / s-maxage, Expires only without Cache-Control, else never', async () => {
    expect((await open({ 'cache-control': 'no-cache' })).nextRefreshMs).toBe(1000);
    expect((await open({ 'cache-control': 'no-store' })).nextRefreshMs).toBe(1000);
    expect((await open({ 'cache-control': 'public, must-revalidate, max-age=600' })).nextRefreshMs).toBe(1000);
    expect((await open({ 'cache-control': 'public, max-age=120' })).nextRefreshMs).toBe(120_000);
    expect((await open({ 'cache-control': 's-maxage=90' })).nextRefreshMs).toBe(90_000);
    expect((await open({ 'cache-control': 'max-age=0' })).nextRefreshMs).toBe(1000);
    const expires = (await open({ expires: httpDate(Date.now() + 3_600_000) })).nextRefreshMs!;
    expect(expires).toBeGreaterThan(3_590_000);
    expect(expires).toBeLessThanOrEqual(3_600_000);
    expect((await open({ expires: httpDate(Date.now() - 60_000) })).nextRefreshMs).toBe(1000);
    // Expires is ignored when Cache-Control is present; nothing that parses: never refreshed.
    expect((await open({ 'cache-control': 'public', expires: httpDate(Date.now() + 60_000) })).nextRefreshMs).toBeNull();
    expect((await open({})).nextRefreshMs).toBeNull();
    expect((await open({ expires: 'tomorrow' })).nextRefreshMs).toBeNull();
  });

  it('on later cycles: only max-age / s-maxage then Expires; nothing (not even no-cache) sleeps a minute', async () => {
    const set = await open({ 'cache-control': 'max-age=300' });
    const after = async (headers: Record<string, string>): Promise<number | null> => {
      state.headers = headers;
      await set.refreshNow();
      return set.nextRefreshMs;
    };
    expect(await after({ 'cache-control': 'max-age=45' })).toBe(45_000);
    expect(await after({ 'cache-control': 's-maxage=2' })).toBe(2000);
    expect(await after({ 'cache-control': 'no-cache' })).toBe(60_000);
    expect(await after({})).toBe(60_000);
    const exp = (await after({ expires: httpDate(Date.now() + 30_000) }))!;
    expect(exp).toBeGreaterThan(28_000);
    expect(exp).toBeLessThanOrEqual(30_000);
    // A failing refresh keeps the keys and retries in a minute.
    state.status = 500;
    try {
      expect(await after({ 'cache-control': 'max-age=5' })).toBe(60_000);
    } finally {
      state.status = 200;
    }
  });

  it('is the pure rule the key set applies', () => {
    const now = Date.parse('2024-01-01T00:00:00Z');
    expect(jwkRefreshDelay({ cacheControl: 'no-cache', expires: null }, 'startup', now)).toBe(1000);
    expect(jwkRefreshDelay({ cacheControl: 'no-cache', expires: null }, 'refresh', now)).toBe(60_000);
    expect(jwkRefreshDelay({ cacheControl: null, expires: 'Mon, 01 Jan 2024 00:00:10 GMT' }, 'refresh', now)).toBe(10_000);
    expect(jwkRefreshDelay({ cacheControl: null, expires: 'Mon, 01 Jan 2024 00:00:00 GMT' }, 'startup', now)).toBe(1000);
    expect(jwkRefreshDelay({ cacheControl: 'max-age=abc', expires: null }, 'startup', now)).toBeNull();
  });

  it('refetches a second after a no-cache startup, for real', async () => {
    const set = await open({ 'cache-control': 'no-cache' });
    const before = jwks.requests.length;
    await until(() => set.fetches >= 1, 3000);
    expect(jwks.requests.length).toBe(before + 1);
    // The refresh cycle sees no max-age: a minute until the next one.
    expect(set.nextRefreshMs).toBe(60_000);
  });

  it('refuses to start when the first fetch fails', async () => {
    state.status = 503;
    try {
      await expect(createJwtAuthenticator([parseJwtConfig({ jwk_url: jwks.url })])).rejects.toMatchObject({ code: 'invalid-configuration' });
    } finally {
      state.status = 200;
    }
    await expect(createJwtAuthenticator([parseJwtConfig({ jwk_url: 'http://127.0.0.1:1/jwks' })])).rejects.toThrow(/cannot fetch the JWK set/);
  });
});

describe('key rotation through a server', () => {
  let fx: AuthFixture;
  let auth: JwtAuthenticator;
  let url: string;
  beforeAll(async () => {
    fx = await authFixture('authjwk');
    state.keys = [a.jwk];
    state.headers = { 'cache-control': 'max-age=1' };
    auth = await createJwtAuthenticator([parseJwtConfig({ jwk_url: jwks.url })]);
    opened.push(auth);
    url = (await fx.serve({ adminSecret: 'x', authenticators: [auth] })).url;
  });
  afterAll(async () => { await fx?.close(); });

  const gql = async (token: string): Promise<unknown> => {
    const res = await fetch(`${url}/v1/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ query: AUTHORS }) });
    return res.json();
  };
  const ok = { data: { author: [{ id: 1 }] } };

  it('accepts the published key, then the new one, and stops accepting a rotated-out key after the refresh', async () => {
    const set = auth.verifiers[0]!.jwkSet!;
    const tokenA = await sign(a);
    const tokenB = await sign(b);
    expect(await gql(tokenA)).toEqual(ok);
    expect(await gql(tokenA)).toEqual(ok); // now from the verified-token cache
    expect(await gql(tokenB)).toEqual(gqlError('Could not verify JWT: JWSError NoUsableKeys', 'invalid-jwt'));

    // Overlap: both keys published.
    state.keys = [a.jwk, b.jwk];
    let seen = set.fetches;
    await until(() => set.fetches > seen);
    expect(await gql(tokenA)).toEqual(ok);
    expect(await gql(tokenB)).toEqual(ok);
    // A token without kid matches both keys of the set: the one whose signature checks wins.
    expect(await gql(await sign(b, false))).toEqual(ok);

    // Key A rotated out: the cached verification of tokenA no longer counts.
    state.keys = [b.jwk];
    seen = set.fetches;
    await until(() => set.fetches > seen);
    expect(await gql(tokenA)).toEqual(gqlError('Could not verify JWT: JWSError NoUsableKeys', 'invalid-jwt'));
    expect(await gql(tokenB)).toEqual(ok);
  });
});
