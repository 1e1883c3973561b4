// The delivery workers of `kiln serve` in catalog mode: event triggers on each source database,
// cron and one-off scheduled events on the metadata database. They read what is served at every
// fetch, so a metadata change (here or on another instance) is followed without a restart.

import type { Driver } from '../../runtime/drivers/index.js';
import type { MetadataApi } from '../../runtime/metadata-api/index.js';
import {
  HttpPool, startEventWorkers, startScheduledWorkers, workerSettingsFromEnv, type WorkerSettings,
} from '../../runtime/workers/index.js';

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
export function startDeliveryWorkers(o: WorkerFlags, api: MetadataApi, catalog: Driver, version: string,
  log: (line: string) => void): { stop(): Promise<void> } {
  const settings = settingsOf(o);
  const pool = new HttpPool(settings.httpPoolSize, `svc-graphql-engine/${version}`);
  const events = startEventWorkers({ current: () => api.current, pool, settings, log });
  const scheduled = startScheduledWorkers({ catalog, metadata: () => api.current.metadata, pool, settings, log });
  log(`event workers: running (event triggers, cron triggers, scheduled events; http pool ${settings.httpPoolSize}, `
    + `fetch batch ${settings.fetchBatchSize}, fetch interval ${settings.fetchIntervalMs} ms)`);
  return {
    async stop() {
      await Promise.all([events.stop(), scheduled.stop()]);
      await pool.close();
    },
  };
}
