import { describe, expect, it } from 'vitest';
import type { BundleModel } from '../../runtime/bundle/index.js';
import { RateLimiter } from '../../runtime/graphql/rate-limit.js';

const model = (max: number, uniqueParams: unknown = null) =>
  ({ apiLimits: { disabled: false, rate: { global: { maxReqsPerMin: max, uniqueParams }, perRole: {} } } }) as unknown as BundleModel;
const user = { role: 'user', variables: { 'x-svc-user-id': '7' }, isAdmin: false };
const noClient = { ip: null };

describe('the rate limiter', () => {
  it('admits max_reqs_per_min operations in a minute and refuses the next with 429, counting nothing refused', () => {
    let now = 60_000 * 10;
    const rl = new RateLimiter(() => now);
    const m = model(3);
    rl.take(m, user, noClient, 2);
    expect(() => rl.take(m, user, noClient, 2)).toThrow(expect.objectContaining({ code: 'too-many-requests', status: 429, message: 'Too many requests' }));
    rl.take(m, user, noClient, 1);
    expect(() => rl.take(m, user, noClient, 1)).toThrow();
    now += 1000;
    expect(() => rl.take(m, user, noClient, 1)).toThrow();
  });

  it("slides: the previous minute counts for the part of it the window still covers", () => {
    let now = 60_000 * 10;
    const rl = new RateLimiter(() => now);
    const m = model(4);
    for (let i = 0; i < 4; i++) rl.take(m, user, noClient, 1);
    // 15 s into the next minute the window still covers 3/4 of the last one: 3 of 4 used.
    now = 60_000 * 11 + 15_000;
    rl.take(m, user, noClient, 1);
    expect(() => rl.take(m, user, noClient, 1)).toThrow();
    // 45 s in: 1/4 of the last minute (1) plus this minute's 1.
    now = 60_000 * 11 + 45_000;
    rl.take(m, user, noClient, 2);
    expect(() => rl.take(m, user, noClient, 1)).toThrow();
    // Two minutes on, nothing is left of either.
    now = 60_000 * 13 + 1;
    rl.take(m, user, noClient, 4);
  });

  it('keys by role and the unique parameters; admin and unlimited roles are never counted', () => {
    const rl = new RateLimiter(() => 0);
    const byIp = model(1, { kind: 'ip' } as never);
    rl.take(byIp, user, { ip: '10.0.0.1' }, 1);
    rl.take(byIp, user, { ip: '10.0.0.2' }, 1);
    rl.take(byIp, { ...user, role: 'editor' }, { ip: '10.0.0.1' }, 1);
    expect(() => rl.take(byIp, user, { ip: '10.0.0.1' }, 1)).toThrow();
    const bySession = model(1, { kind: 'session', variables: ['x-svc-user-id'] } as never);
    rl.take(bySession, { ...user, variables: { 'x-svc-user-id': '1' } }, noClient, 1);
    rl.take(bySession, { ...user, variables: { 'x-svc-user-id': '2' } }, noClient, 1);
    for (let i = 0; i < 5; i++) rl.take(bySession, { role: 'admin', variables: {}, isAdmin: true }, noClient, 1);
    for (let i = 0; i < 5; i++) rl.take({ apiLimits: { disabled: true, rate: { global: { maxReqsPerMin: 0, uniqueParams: null }, perRole: {} } } } as unknown as BundleModel, user, noClient, 1);
  });
});
