import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSecretMatches, resolveSession, type Authenticator } from '../../runtime/auth/index.js';
import { ApiError } from '../../runtime/errors/index.js';
import { echoed, post, start, type Running } from './helpers.js';

const query = { query: '{ a }' };
const A1 = 'x-svc-admin-secret/x-svc-access-key required, but not found';
const A2 = 'invalid x-svc-admin-secret/x-svc-access-key';

describe('without an admin secret', () => {
  let srv: Running;
  beforeAll(async () => { srv = await start(); });
  afterAll(async () => { await srv.close(); });

  it('treats every request as admin', async () => {
    const { session } = await echoed(await post(srv.url('/v1/graphql'), query));
    expect(session).toEqual({ role: 'admin', variables: { 'x-svc-role': 'admin' }, isAdmin: true });
  });

  it('takes the role from X-Svc-Role and every x-svc-* header as a session variable', async () => {
    const { session } = await echoed(await post(srv.url('/v1/graphql'), query, {
      'X-Svc-Role': 'user', 'X-Svc-User-Id': '42', 'X-Svc-Allowed-Ids': '{1,2}', 'X-Other': 'ignored',
    }));
    expect(session).toEqual({
      role: 'user',
      variables: { 'x-svc-role': 'user', 'x-svc-user-id': '42', 'x-svc-allowed-ids': '{1,2}' },
      isAdmin: false,
    });
  });
});

describe('with an admin secret', () => {
  let srv: Running;
  let anon: Running;
  beforeAll(async () => {
    srv = await start({ adminSecret: 's3cret' });
    anon = await start({ adminSecret: 's3cret', unauthorizedRole: 'anonymous' });
  });
  afterAll(async () => { await srv.close(); await anon.close(); });

  it('grants admin for the right secret and keeps the secret out of the session', async () => {
    const { session } = await echoed(await post(srv.url('/v1/graphql'), query, { 'X-Svc-Admin-Secret': 's3cret' }));
    expect(session).toEqual({ role: 'admin', variables: { 'x-svc-role': 'admin' }, isAdmin: true });
  });

  it('accepts the deprecated x-svc-access-key header', async () => {
    const { session } = await echoed(await post(srv.url('/v1/graphql'), query, { 'x-svc-access-key': 's3cret' }));
    expect(session.isAdmin).toBe(true);
  });

  it('lets an admin pick another role with its session variables', async () => {
    const { session } = await echoed(await post(srv.url('/v1/graphql'), query, {
      'x-svc-admin-secret': 's3cret', 'x-svc-role': 'editor', 'x-svc-user-id': '7',
    }));
    expect(session).toEqual({ role: 'editor', variables: { 'x-svc-role': 'editor', 'x-svc-user-id': '7' }, isAdmin: false });
  });

  it('denies a wrong secret with HTTP 200 on /v1/graphql and 401 on /v1alpha1/graphql', async () => {
    for (const [path, status] of [['/v1/graphql', 200], ['/v1alpha1/graphql', 401]] as const) {
      const res = await post(srv.url(path), query, { 'x-svc-admin-secret': 's3cret!' });
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ errors: [{ message: A2, extensions: { path: '$', code: 'access-denied' } }] });
    }
  });

  it('denies a missing secret when there is no unauthorized role', async () => {
    const res = await post(srv.url('/v1/graphql'), query, { 'x-svc-role': 'user' });
    expect(await res.json()).toEqual({ errors: [{ message: A1, extensions: { path: '$', code: 'access-denied' } }] });
  });

  it('reports the auth error before a malformed body', async () => {
    const res = await post(srv.url('/v1/graphql'), 'not json');
    expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('access-denied');
  });

  it('uses the unauthorized role, with no other session variables, when no secret is sent', async () => {
    const { session } = await echoed(await post(anon.url('/v1/graphql'), query, { 'x-svc-user-id': '1', 'x-svc-role': 'admin' }));
    expect(session).toEqual({ role: 'anonymous', variables: { 'x-svc-role': 'anonymous' }, isAdmin: false });
  });

  it('still denies a wrong secret when an unauthorized role is set', async () => {
    const res = await post(anon.url('/v1/graphql'), query, { 'x-svc-admin-secret': 'nope' });
    expect(await res.json()).toEqual({ errors: [{ message: A2, extensions: { path: '$', code: 'access-denied' } }] });
  });

  it('answers management paths with 401 in the {path, error, code} shape', async () => {
    const res = await post(srv.url('/v1/metadata'), { type: 'export_metadata', args: {} });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ path: '$', error: A1, code: 'access-denied' });
  });
});

describe('resolveSession', () => {
  it('compares secrets by digest, so any length is fine, and accepts any of several', () => {
    expect(adminSecretMatches('a', ['a'])).toBe(true);
    expect(adminSecretMatches('a', ['ab'])).toBe(false);
    expect(adminSecretMatches('', ['x'])).toBe(false);
    expect(adminSecretMatches('new', ['old', 'new'])).toBe(true);
  });

  it('asks authenticators in order before the unauthorized role, and lets them deny', async () => {
    const calls: string[] = [];
    const pass: Authenticator = { kind: 'pass', authenticate: async () => { calls.push('pass'); return null; } };
    const jwt: Authenticator = {
      kind: 'jwt',
      authenticate: async ({ headers }) => {
        calls.push('jwt');
        if (headers.authorization === 'Bearer bad') throw new ApiError('invalid-jwt', 'Could not verify JWT: JWTExpired');
        return headers.authorization ? { role: 'user', variables: { 'x-svc-role': 'user' }, isAdmin: false } : null;
      },
    };
    const opts = { adminSecret: 'k', unauthorizedRole: 'anon', authenticators: [pass, jwt] };
    expect((await resolveSession({ Authorization: 'Bearer good' }, opts)).role).toBe('user');
    expect(calls).toEqual(['pass', 'jwt']);
    expect((await resolveSession({}, opts)).role).toBe('anon');
    await expect(resolveSession({ authorization: 'Bearer bad' }, opts)).rejects.toMatchObject({ code: 'invalid-jwt' });
    // The admin secret bypasses the authenticators.
    calls.length = 0;
    expect((await resolveSession({ 'x-svc-admin-secret': 'k', authorization: 'Bearer bad' }, opts)).isAdmin).toBe(true);
    expect(calls).toEqual([]);
  });
});
