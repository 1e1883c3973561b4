// The delivery workers of `kiln serve`: event triggers on each source database, cron and one-off
// scheduled events on the metadata database. They read what is served at every fetch, so a
// metadata change (here or on another instance) is followed without a restart. A served bundle
// has no metadata API to install capture triggers and make cron events: `prepareBundleEvents`
// does that once at start.

import type { BundleModel, Json } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import type { ServerMetrics } from '../server/index.js';
import type { Tracing } from '../tracing/index.js';
import {
  eventTriggersOf, HttpPool, scheduledEventExtension, startEventWorkers, startScheduledWorkers, syncEventTriggers, workerSettingsFromEnv,
  type ServedSources, type WorkerSettings,
} from '../workers/index.js';

/** The flags of the workers; unset ones come from the SVC_GRAPHQL_* environment. */
export interface WorkerFlags {
  readonly eventsHttpPoolSize?: number;
  readonly eventsFetchBatchSize?: number;
  readonly eventsFetchInterval?: number;
}

function settingsOf(o: WorkerFlags): WorkerSettings {
  const env = workerSettingsFromEnv(process.env);
  const pick = (v: number | undefined, min: number, dflt: number): number => (v !== undefined && Number.isFinite(v) && v >= min ? v : dflt);
  return {
    ...env,
    httpPoolSize: Math.floor(pick(o.eventsHttpPoolSize, 1, env.httpPoolSize)),
    fetchBatchSize: Math.floor(pick(o.eventsFetchBatchSize, 1, env.fetchBatchSize)),
    fetchIntervalMs: pick(o.eventsFetchInterval, 0, env.fetchIntervalMs),
  };
}

/** Starts the workers; `stop` stops claiming, lets calls in flight finish (within the grace period) and puts back the rest. */
export function startDeliveryWorkers(o: WorkerFlags, current: () => ServedSources, catalog: Driver, version: string,
  log: (line: string) => void, metrics?: ServerMetrics, tracing?: Tracing): { stop(): Promise<void> } {
  const settings = settingsOf(o);
  const pool = new HttpPool(settings.httpPoolSize, `svc-graphql-engine/${version}`);
  pool.tracing = tracing ?? null;
  const events = startEventWorkers({ current, pool, settings, log, ...(metrics ? { observe: metrics.eventOutcome } : {}) });
  metrics?.feed({ eventsInFlight: () => events.inFlight() });
  const scheduled = startScheduledWorkers({ catalog, metadata: () => current().metadata, pool, settings, log });
  log(`event workers: running (event triggers, cron triggers, scheduled events; http pool ${settings.httpPoolSize}, `
    + `fetch batch ${settings.fetchBatchSize}, fetch interval ${settings.fetchIntervalMs} ms)`);
  return {
    async stop() {
      await Promise.all([events.stop(), scheduled.stop()]);
      await pool.close();
    },
  };
}

/**
 * A served bundle's event definitions brought into the databases: each source's capture triggers
 * are written as the bundle defines them (so a redeployed bundle's changes take effect), and each
 * cron trigger gets its next events. Run once at start. Nothing is dropped: a bundle does not know
 * what an earlier one installed (drop the `svc_catalog.notify_svc_*` triggers of a removed one).
 */
export async function prepareBundleEvents(events: Json, model: BundleModel, drivers: ReadonlyMap<string, Driver>, catalog: Driver,
  log: (line: string) => void): Promise<void> {
  const withTriggers = new Set(eventTriggersOf(events).map((t) => t.source));
  for (const [source, driver] of drivers) {
    if (!withTriggers.has(source)) continue;
    const report = await syncEventTriggers(driver, { source, before: null, after: events, model, recreate: true });
    if (report.created.length > 0) log(`event triggers: installed ${report.created.join(', ')} on source ${source}`);
  }
  await catalog.transaction((tx) => scheduledEventExtension({ log }).settle!({
    before: null, after: events, compiled: { model, sdl: {}, inconsistencies: [] }, catalog: tx, recreateEventTriggers: false,
    runnerOf: (source) => {
      const d = drivers.get(source);
      if (!d) throw new Error(`assertion failed: no driver for source ${source}`);
      return d;
    },
  }));
}
