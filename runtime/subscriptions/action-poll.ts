// A subscription to an asynchronous action's result (`subscription { <action>(id:) {...} }`,
// reference/actions.md §4): not a multiplexed SQL statement but the engine's answer read again
// every interval and pushed when it changed, so the client sees the output when it arrives.

import type { GraphQLRequest, Session } from '../bundle/index.js';

// What polling needs of an operation's context and sink (operation.ts passes its own; typed here
// structurally so the two files do not import each other).
interface PollContext {
  readonly engine: () => { execute(req: GraphQLRequest, session: Session): Promise<string> };
  readonly session: Session;
}
interface PollSink {
  next(payload: string): void;
  replan(): void;
}

/** How often an action result subscription reads the result again (Hasura's live-query default). */
export const ACTION_POLL_MS = 1000;

/** Polls the engine's answer to `req` until stopped; sends each answer that differs from the last. */
export function pollActionResult(ctx: PollContext, req: GraphQLRequest, sink: PollSink, lastSent?: string, intervalMs = ACTION_POLL_MS): { stop(): void } {
  const engine = ctx.engine();
  let last = lastSent;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const tick = async (): Promise<void> => {
    if (stopped) return;
    if (ctx.engine() !== engine) { sink.replan(); return; }
    try {
      const text = await engine.execute(req, ctx.session);
      if (!stopped && text !== last) { last = text; sink.next(text); }
    } catch {
      // A failed read is tried again at the next interval.
    }
    if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
  };
  void tick();
  return { stop: () => { stopped = true; if (timer) clearTimeout(timer); } };
}
