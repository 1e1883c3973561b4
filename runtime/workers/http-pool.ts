// The webhook calls of every worker share one bound (SVC_GRAPHQL_EVENTS_HTTP_POOL_SIZE) and one
// connection pool, as Hasura's events HTTP pool does: a burst on one source cannot starve the
// others of connections beyond the bound, and polling pauses while every slot is taken.

import { Agent } from 'undici';
import type { Tracing } from '../tracing/index.js';

/**
 * A counting semaphore. A release wakes every waiter and each checks again: the waiters are the
 * fetch loops (one per source and one for scheduled events), so there are only a few.
 */
export class Slots {
  private used = 0;
  private waiters: (() => void)[] = [];

  constructor(readonly size: number) {}

  get free(): number {
    return this.size - this.used;
  }

  /** Takes a slot, waiting for one (or until `abort`: then false and nothing taken). */
  async acquire(abort?: AbortSignal): Promise<boolean> {
    await this.untilFree(abort);
    if (this.used >= this.size) return false;
    this.used += 1;
    return true;
  }

  release(): void {
    this.used -= 1;
    const woken = this.waiters;
    this.waiters = [];
    for (const w of woken) w();
  }

  /** Resolves once a slot is free (without taking it), or when `abort` is set. */
  async untilFree(abort?: AbortSignal): Promise<void> {
    while (this.used >= this.size && !abort?.aborted) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          abort?.removeEventListener('abort', done);
          resolve();
        };
        this.waiters.push(done);
        abort?.addEventListener('abort', done, { once: true });
      });
    }
  }
}

/** The shared HTTP side of the workers: slots, connections, and how the engine names itself. */
export class HttpPool {
  readonly slots: Slots;
  readonly dispatcher: Agent;
  /** The instance's tracing: while it exports, each call is a span and carries its traceparent. */
  tracing: Tracing | null = null;

  constructor(size: number, readonly userAgent: string) {
    this.slots = new Slots(size);
    this.dispatcher = new Agent({ connections: size, keepAliveTimeout: 10_000 });
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
