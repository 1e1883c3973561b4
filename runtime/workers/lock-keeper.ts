// Keeps the claims of a live instance fresh. A claimed event carries the time it was claimed, and
// a claim older than the lock timeout counts as abandoned (its instance died) so another instance
// takes the event. A live instance renews its claims every third of that timeout, so the timeout
// can be short (a crashed instance's events come back within about a minute) while a slow webhook
// call, however long its timeout_sec, is never started twice.

import { randomUUID } from 'node:crypto';

type Runner = { query(text: string, params?: readonly unknown[]): Promise<unknown> };

export class LockKeeper {
  private readonly held = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private renewing: Promise<void> = Promise.resolve();

  /**
   * `renew` runs with the held ids (as `$1`, a text array) and whatever `extra()` adds; it must
   * touch only rows still claimed, so renewing a claim that was just released changes nothing.
   */
  constructor(
    private readonly db: Runner,
    private readonly renew: string,
    lockTimeoutSec: number,
    private readonly log: (line: string) => void,
    private readonly extra: () => readonly unknown[] = () => [],
  ) {
    this.timer = setInterval(() => { this.renewing = this.renewNow(); }, Math.max(250, (lockTimeoutSec * 1000) / 3));
    this.timer.unref();
  }

  hold(id: string): void {
    this.held.add(id);
  }

  /** The event's outcome is decided: its claim is released or ends with it. */
  release(id: string): void {
    this.held.delete(id);
  }

  get size(): number {
    return this.held.size;
  }

  private async renewNow(): Promise<void> {
    if (this.held.size === 0) return;
    try {
      await this.db.query(this.renew, [[...this.held], ...this.extra()]);
    } catch (e) {
      // The next round tries again; a claim only lapses after three missed rounds.
      this.log(`could not renew ${this.held.size} event claim(s): ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.renewing;
  }
}

/**
 * The claims whose fetch failed. A claim statement that fails may still have committed (the
 * connection dropped after the commit, before its answer came back): its events are then locked
 * by this instance, which never learnt their ids, and would wait a whole lock timeout. Each fetch
 * carries a fresh token in the rows it claims (`claim_id`); the token of a failed fetch is kept
 * here and, before the next fetch, `release` puts back whatever still carries it. A token matches
 * only rows that fetch claimed and nobody has taken since, so releasing is always safe.
 */
export class UnsettledClaims {
  private tokens: string[] = [];

  /** `release` runs with the tokens as `$1` (a text array). */
  constructor(private readonly db: Runner, private readonly release: string) {}

  /** Runs a claim with a new token, passed to `claim`; when it fails, the token is kept to settle. */
  async claim<T>(claim: (token: string) => Promise<T>): Promise<T> {
    const token = randomUUID();
    try {
      return await claim(token);
    } catch (e) {
      this.tokens.push(token);
      throw e;
    }
  }

  /** Puts back what failed claims may have taken; throws (keeping the tokens) when the database cannot be reached. */
  async settle(): Promise<void> {
    if (this.tokens.length === 0) return;
    const tokens = this.tokens;
    await this.db.query(this.release, [tokens]);
    this.tokens = this.tokens.filter((t) => !tokens.includes(t));
  }

  get pending(): number {
    return this.tokens.length;
  }
}
