// Subscriptions to asynchronous action results (`subscription { <action>(id:) {...} }`,
// reference/actions.md §4): not a multiplexed SQL statement but the engine's answer read again every
// interval and pushed when it changed, so the client sees the output when it arrives. All of a
// service's such subscriptions are polled together, on one timer: their reads of the action log
// are made in the same turn of the event loop, where the action executor reads them all in one
// statement (runtime/actions CallReader), so N subscribers cost one query per interval, not N.

import type { GraphQLRequest, Session } from '../bundle/index.js';

type PollEngine = { execute(req: GraphQLRequest, session: Session): Promise<string> };

// What polling needs of an operation's context and sink (operation.ts passes its own; typed here
// structurally so the two files do not import each other). `multiplexer` is the service's: the
// subscriptions of one service share a timer.
interface PollContext {
  readonly engine: () => PollEngine;
  readonly session: Session;
  readonly multiplexer: object;
}
interface PollSink {
  next(payload: string): void;
  replan(): void;
}

/** How often action result subscriptions read the results again (Hasura's live-query default). */
export const ACTION_POLL_MS = 1000;

interface Member {
  readonly ctx: PollContext;
  readonly engine: PollEngine;
  readonly req: GraphQLRequest;
  readonly sink: PollSink;
  last: string | undefined;
  stopped: boolean;
}

/** The action result subscriptions of one service, polled on one timer. */
class PollGroup {
  private readonly members = new Set<Member>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(private readonly intervalMs: number) {}

  add(m: Member): void {
    this.members.add(m);
    this.schedule();
  }

  remove(m: Member): void {
    this.members.delete(m);
    if (this.members.size === 0 && this.timer) { clearTimeout(this.timer); this.timer = null; }
  }

  private schedule(): void {
    if (this.timer || this.running || this.members.size === 0) return;
    this.timer = setTimeout(() => { this.timer = null; void this.tick(); }, this.intervalMs);
  }

  // Every member's answer, asked in the same turn (so their log reads are one statement).
  private async tick(): Promise<void> {
    this.running = true;
    try {
      await Promise.all([...this.members].map((m) => poll(m, this)));
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}

async function poll(m: Member, group: PollGroup): Promise<void> {
  if (m.stopped) return;
  if (m.ctx.engine() !== m.engine) { m.stopped = true; group.remove(m); m.sink.replan(); return; }
  try {
    const text = await m.engine.execute(m.req, m.ctx.session);
    if (!m.stopped && text !== m.last) { m.last = text; m.sink.next(text); }
  } catch {
    // A failed read is tried again at the next interval.
  }
}

const groups = new WeakMap<object, PollGroup>();

/** Polls the engine's answer to `req` until stopped; sends each answer that differs from the last. */
export function pollActionResult(ctx: PollContext, req: GraphQLRequest, sink: PollSink, lastSent?: string, intervalMs = ACTION_POLL_MS): { stop(): void } {
  let group = groups.get(ctx.multiplexer);
  if (!group) groups.set(ctx.multiplexer, group = new PollGroup(intervalMs));
  const m: Member = { ctx, engine: ctx.engine(), req, sink, last: lastSent, stopped: false };
  const g = group;
  // The first answer at once; then with the others, every interval.
  void poll(m, g).then(() => { if (!m.stopped) g.add(m); });
  return { stop: () => { m.stopped = true; g.remove(m); } };
}
