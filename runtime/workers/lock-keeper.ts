// Keeps the claims of a live instance fresh. A claimed event carries the time it was claimed, and
// a claim older than the lock timeout counts as abandoned (its instance died) so another instance
// takes the event. A live instance renews its claims every third of that timeout, so the timeout
// can be short (a crashed instance's events come back within about a minute) while a slow webhook
// call, however long its timeout_sec, is never started twice.

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
