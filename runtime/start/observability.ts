// What a served instance counts and logs: one metrics registry shared by its server and its
// workers, the log settings of SVC_GRAPHQL_LOG_LEVEL and SVC_GRAPHQL_ENABLED_LOG_TYPES, the
// metrics secret, and the query-log wrapper of the drivers the engine is given.

import type { Driver } from '../drivers/index.js';
import { logSettingsFromEnv, queryLogDrivers, ServerMetrics, type LogSettings } from '../server/index.js';
import { Tracing, tracedDrivers } from '../tracing/index.js';
import { StartError } from './start-error.js';
import { KILN_VERSION } from './version.js';

/** The observability parts of one served instance. */
export interface Observability {
  readonly metrics: ServerMetrics;
  readonly logging: LogSettings;
  readonly metricsSecret: string | null;
  /** The driver the engine runs a source on: logs its statements when query-log is on, else the driver itself. */
  readonly engineDriver: (d: Driver) => Driver;
  /** Traces export (set_opentelemetry_config): configured from each model served. */
  readonly tracing: Tracing;
  /**
   * The drivers of an engine built now: engineDriver's, and while tracing is on their statements
   * are spans too (asked again for each new engine, so turning tracing off drops the wrapper).
   */
  engineDrivers(): (d: Driver, source: string) => Driver;
}

/**
 * Reads the settings; a bad SVC_GRAPHQL_LOG_LEVEL is refused (exit 2) before anything starts. Says
 * so when /v1/metrics is open to anyone, or has a secret but is not enabled.
 */
export function observability(enabledApis: readonly string[] | undefined, log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env): Observability {
  let logging: LogSettings;
  try {
    logging = logSettingsFromEnv(env);
  } catch (e) {
    throw new StartError((e as Error).message, 2);
  }
  const secret = env.SVC_GRAPHQL_METRICS_SECRET;
  const metricsOn = (enabledApis ?? []).some((a) => a.trim().toLowerCase() === 'metrics');
  if (metricsOn && !secret) log('warning: /v1/metrics is enabled without SVC_GRAPHQL_METRICS_SECRET: anyone who reaches the port can read it');
  if (!metricsOn && secret) log('note: SVC_GRAPHQL_METRICS_SECRET is set but `metrics` is not in the enabled APIs, so /v1/metrics is off');
  const engineDriver = queryLogDrivers(logging);
  const tracing = new Tracing(KILN_VERSION, log, env);
  return {
    metrics: new ServerMetrics(),
    logging,
    metricsSecret: secret !== undefined && secret !== '' ? secret : null,
    engineDriver,
    tracing,
    engineDrivers() {
      if (!tracing.on) return (d) => engineDriver(d);
      const traced = tracedDrivers();
      return (d, source) => traced(engineDriver(d), source);
    },
  };
}
