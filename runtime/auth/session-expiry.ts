// When a session stops being valid: a JWT's `exp` (plus the allowed skew), or the Expires /
// Cache-Control of an auth webhook's answer. Long-lived connections (WebSocket) close then
// (reference/auth.md); a request-scoped session never outlives its request anyway.

import type { Session } from '../bundle/index.js';

const expiries = new WeakMap<Session, number>();

/** Records that `session` expires at `atMs` (epoch milliseconds). */
export function markSessionExpiry(session: Session, atMs: number): void {
  expiries.set(session, atMs);
}

/** When the session expires (epoch milliseconds), or null when it does not. */
export function sessionExpiresAt(session: Session): number | null {
  return expiries.get(session) ?? null;
}
