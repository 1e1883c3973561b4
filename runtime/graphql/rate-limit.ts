// Hasura's rate_limit: at most `max_reqs_per_min` GraphQL operations per minute for each role
// (and each value of its unique parameters: the client IP or some session variables), counted in
// a sliding window of one minute. The window is approximated the usual way with two fixed
// minutes: the previous minute's count weighted by how much of it the window still covers, plus
// the current minute's. Counts live in this process (Hasura keeps them in Redis): behind a load
// balancer each instance counts what it serves.

import type { BundleModel, Session } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { apiLimitsFor, limitFor } from './limits.js';

const MINUTE = 60_000;

interface Window {
  start: number;
  current: number;
  previous: number;
}

/** Who sent a request, as far as limits care. */
export interface ClientInfo {
  /** The peer address of the connection (null when unknown). */
  readonly ip: string | null;
}

/** Counts operations per key; shared across engines so that a metadata change does not reset the counts. */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private calls = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Counts `operations` operations of the session against the role's rate limit; throws 429
   * `too-many-requests` (counting nothing) when they would go over it.
   */
  take(model: BundleModel, session: Session, client: ClientInfo, operations: number): void {
    const limits = apiLimitsFor(model, session.role);
    const rate = limits ? limitFor(limits.rate, session.role) : undefined;
    if (!rate) return;
    const unique = rate.uniqueParams;
    const values = unique === null ? [] : unique.kind === 'ip' ? [client.ip ?? ''] : unique.variables.map((v) => session.variables[v] ?? '');
    const key = JSON.stringify([session.role, ...values]);
    const now = this.now();
    const w = this.window(key, now);
    const covered = 1 - (now - w.start) / MINUTE;
    const used = w.previous * covered + w.current;
    if (used + operations > rate.maxReqsPerMin) throw new ApiError('too-many-requests', 'Too many requests', 429, []);
    w.current += operations;
    if (++this.calls % 1000 === 0) this.prune(now);
  }

  private window(key: string, now: number): Window {
    const start = now - (now % MINUTE);
    let w = this.windows.get(key);
    if (!w) {
      w = { start, current: 0, previous: 0 };
      this.windows.set(key, w);
    } else if (w.start !== start) {
      // One minute on: the current count becomes the previous one; more than one: both are old.
      w.previous = start - w.start === MINUTE ? w.current : 0;
      w.current = 0;
      w.start = start;
    }
    return w;
  }

  // Keys idle for two minutes count nothing any more.
  private prune(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= 2 * MINUTE) this.windows.delete(key);
  }
}
