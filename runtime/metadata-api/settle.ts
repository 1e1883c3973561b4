// After a change, and once at start, every extension brings the databases in line with the
// document (event triggers' capture triggers, cron triggers' events).

import type { Json } from '../bundle/index.js';
import type { ApiContext } from './context.js';
import type { SettleContext } from './contract.js';
import type { Work } from './state.js';

/** Every extension settles the changed document, inside the change. */
export async function settleChange(cx: ApiContext, work: Work, before: Json): Promise<void> {
  const ctx: SettleContext = {
    before, after: work.metadata, compiled: work.compiled, catalog: work.tx,
    runnerOf: (source) => cx.sources.runnerOf(work, source), recreateEventTriggers: work.recreateEventTriggers,
    schemaChanged: work.schemaChanged === true,
  };
  for (const x of cx.opts.extensions ?? []) await x.settle?.(ctx);
}

/** At start: what the stored document asks for (database triggers, cron events) is checked once; a failure is logged. */
export async function settleAtStart(cx: ApiContext): Promise<void> {
  const xs = (cx.opts.extensions ?? []).filter((x) => x.settle);
  if (xs.length === 0) return;
  const s = cx.served();
  try {
    await cx.opts.catalog.transaction(async (tx) => {
      const ctx: SettleContext = {
        before: null, after: s.metadata, compiled: s.compiled, catalog: tx, recreateEventTriggers: false,
        runnerOf: (source) => {
          const d = cx.sources.driverOf(s.drivers, source);
          return d === cx.opts.catalog ? tx : d;
        },
      };
      for (const x of xs) await x.settle!(ctx);
    });
  } catch (e) {
    cx.opts.log?.(`warning: could not bring the databases in line with the metadata at start: ${e instanceof Error ? e.message : String(e)}`);
  }
}
