// The session of a request decided from its headers without awaiting anything (no admin secret
// configured, or one sent), and request headers used as Node gives them when they are normalized
// already. Both are on every request's path; the slower forms stay for what they cover.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../runtime/errors/index.js';
import { normalizeHeaders, resolveSession, sessionAtOnce, type Authenticator } from '../../runtime/auth/index.js';

describe('normalizeHeaders', () => {
  it('gives back lower-case, single-valued headers as they are', () => {
    const headers = { host: 'h', 'x-svc-role': 'user', 'x-svc-user-id': '3' };
    expect(normalizeHeaders(headers)).toBe(headers);
  });

  it('lower-cases names and joins repeated values into a new object otherwise, made once per object', () => {
    const mixed = { Host: 'h', 'X-Svc-Role': 'user' };
    const out = normalizeHeaders(mixed);
    expect(out).not.toBe(mixed);
    expect(out).toEqual({ host: 'h', 'x-svc-role': 'user' });
    expect(normalizeHeaders(mixed)).toBe(out);
    const repeated = { accept: ['a', 'b'], 'x-svc-role': 'user' };
    expect(normalizeHeaders(repeated)).toEqual({ accept: 'a, b', 'x-svc-role': 'user' });
    expect(normalizeHeaders({ host: 'h', gone: undefined })).toEqual({ host: 'h' });
  });
});

describe('sessionAtOnce', () => {
  const never: Authenticator = {
    kind: 'never',
    authenticate: () => { throw new Error('an authenticator was asked'); },
  };

  it('decides the session with no secret configured: admin or the asked role, with the x-svc- headers', () => {
    expect(sessionAtOnce({ 'x-svc-user-id': '4' }, {})).toEqual({ role: 'admin', variables: { 'x-svc-user-id': '4', 'x-svc-role': 'admin' }, isAdmin: true });
    expect(sessionAtOnce({ 'X-Svc-Role': 'user', Other: 'o' }, {})).toEqual({ role: 'user', variables: { 'x-svc-role': 'user' }, isAdmin: false });
  });

  it('decides it when a secret is sent, without the secret among the variables, and refuses a wrong one', () => {
    const opts = { adminSecret: 's3cret', authenticators: [never] };
    expect(sessionAtOnce({ 'x-svc-admin-secret': 's3cret', 'x-svc-role': 'user' }, opts))
      .toEqual({ role: 'user', variables: { 'x-svc-role': 'user' }, isAdmin: false });
    expect(sessionAtOnce({ 'x-svc-access-key': 'rotated' }, { adminSecrets: ['old', 'rotated'] })?.role).toBe('admin');
    let refused: unknown;
    try {
      sessionAtOnce({ 'x-svc-admin-secret': 'wrong' }, opts);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('access-denied');
  });

  it('leaves a request without a secret to the authenticators and the unauthorized role', async () => {
    const opts = { adminSecret: 's3cret', unauthorizedRole: 'anonymous' };
    expect(sessionAtOnce({ 'x-svc-role': 'user' }, opts)).toBeUndefined();
    expect(await resolveSession({ 'x-svc-role': 'user' }, opts)).toEqual({ role: 'anonymous', variables: { 'x-svc-role': 'anonymous' }, isAdmin: false });
    await expect(resolveSession({}, { adminSecret: 's3cret' })).rejects.toMatchObject({ code: 'access-denied' });
  });
});
