// Serving a fixed model: a compiled bundle (what `kiln-runtime` and `kiln serve --bundle` run), or
// one the command line compiled in process. The model is the metadata, so metadata writes answer
// `not-supported`; its event and cron triggers run here as the bundle defines them.

import { actionsOf, startAsyncActions } from './actions.js';
import type { BigQueryConnection, BundleModel, Json, PoolModel } from '../bundle/index.js';
import { loadBundle } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { Engine, setBooleanNullCollapse } from '../graphql/index.js';
import { createServer, DEFAULT_ENABLED_APIS, webhookLogWriter } from '../server/index.js';
import { subscriptionSettingsFromEnv } from '../subscriptions/index.js';
import { serverConfig } from './config-view.js';
import { serverAuth } from './auth-config.js';
import { Databases, type SourceUrl } from './databases.js';
import { openBigQuerySource } from './bigquery-source.js';
import { ReadReplicas } from './read-replicas.js';
import { prepareBundleEvents, startDeliveryWorkers } from './serve-workers.js';
import { baseUrl, corsPolicy, enabledApiList, requestLimits, sourceDefaults, stderrLog, type Log, type RunningServer, type ServeSettings } from './settings.js';
import { detailOf, StartError } from './start-error.js';
import { KILN_VERSION } from './version.js';
import { observability, type Observability } from './observability.js';
import { logServerConfiguration } from './startup-log.js';
import { servedRemotes } from './remotes.js';

/** A model and the SDL of each role, ready to serve. */
export interface ServableModel {
  readonly model: BundleModel;
  readonly sdl: { readonly [role: string]: string };
  /** A bundle's key of each role's stored schema (roles with the same key share one built schema). */
  readonly sdlKey?: { readonly [role: string]: string };
  /** A bundle's schema file of each role (its types are read from it when needed). */
  readonly sdlFiles?: { readonly [role: string]: string };
  /** Each remote schema's SDL as compiled, by remote name (the definitions are the model's `remoteSchemas`). */
  readonly remoteSdl?: { readonly [name: string]: string };
}

/** Opens (once) the database of a named source; what an in-process compile introspects with. */
export type SourceOpener = (source: string, url: SourceUrl, bigquery?: BigQueryConnection, pool?: PoolModel) => Promise<Driver>;

/** Where the served model comes from: a bundle directory, or a compile run with the sources open. */
export type ModelOrigin =
  | { readonly kind: 'bundle'; readonly dir: string }
  | { readonly kind: 'compile'; compile(open: SourceOpener, log: Log): Promise<ServableModel> };

/** Starts HTTP and WebSocket serving of a model, with its workers; what `kiln-runtime` runs. */
export async function serveModel(o: ServeSettings, origin: ModelOrigin, log: Log = stderrLog): Promise<RunningServer> {
  const limits = requestLimits();
  setBooleanNullCollapse(o.v1BooleanNullCollapse === true);
  sourceDefaults(); // a bad SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT or SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS is refused before anything opens
  const obs = observability(enabledApiList(o.enabledApis), log);
  const dbs = new Databases(o, log);
  const drivers = new Map<string, Driver>();
  const replicas = new ReadReplicas(o.pgConnections, log);
  const open: SourceOpener = async (source, url, bigquery, pool) => {
    const d = drivers.get(source) ?? (bigquery ? openBigQuerySource(source, bigquery, log) : await dbs.forSource(url, pool));
    drivers.set(source, d);
    return d;
  };
  try {
    const { model, sdl, sdlKey, sdlFiles, remoteSdl } = await modelOf(origin, open, log);
    const remote = servedRemotes(model, () => sdl['admin'], remoteSdl ?? {}, log);
    obs.tracing.configure(model.openTelemetry);
    const wrap = obs.engineDrivers();
    const driverFor = (source: string): Driver => {
      const d = drivers.get(source);
      if (!d) throw new Error(`assertion failed: no driver for source ${source}`);
      return wrap(d, source);
    };
    // Queries and subscriptions read from the source's replicas; everything else uses `drivers`.
    const readers = replicas.update(model, drivers);
    // Asynchronous actions log their calls in the metadata database, as the events do.
    const actionCatalog = model.actions?.actions.some((a) => a.kind === 'asynchronous') ? await dbs.metadata() : undefined;
    const engine = new Engine({ model, sdl, ...(sdlKey ? { sdlKey } : {}), ...(sdlFiles ? { sdlFiles } : {}), stringifyNumeric: o.stringifyNumericTypes, allowlist: o.enableAllowlist ?? false, ...limits, driverFor,
      ...(remote ? { remote } : {}), ...actionsOf(model, o.stringifyNumericTypes, actionCatalog),
      readerFor: (source) => {
        const r = readers.get(source);
        return r ? wrap(r, source) : driverFor(source);
      } });
    obs.metrics.feed({ planCache: () => ({ hits: engine.stats.planCacheHits, misses: engine.stats.parses }) });
    const workers = model.events ? await bundleWorkers(o, model, model.events, drivers, dbs, log, obs) : null;
    const asyncActions = actionCatalog ? await startAsyncActions(actionCatalog, () => model.actions, log) : null;
    const auth = await serverAuth(o, log, process.env, webhookLogWriter(obs.logging));
    const subscriptionSettings = subscriptionSettingsFromEnv(process.env);
    const server = createServer({
      engine, version: KILN_VERSION, adminSecret: o.adminSecret ?? null, unauthorizedRole: o.unauthorizedRole ?? null,
      enabledApis: enabledApiList(o.enabledApis), consoleEnabled: o.console, maxBodyBytes: o.maxRequestBodyBytes, cors: corsPolicy(o),
      adminSecrets: auth.adminSecrets, authenticators: auth.authenticators, // A bundle was compiled with its own inference setting: the config tells that one.
      config: serverConfig({ ...o, inferFunctionPermissions: model.options.inferFunctionPermissions ?? true }, auth, subscriptionSettings),
      // The change feed runs on a source's primary; a source read from replicas polls (a replica may lag the notification).
      subscriptions: { engine: () => engine, settings: subscriptionSettings, log,
        sources: () => new Map([...drivers].filter(([source]) => !readers.has(source))) },
      metrics: obs.metrics, metricsSecret: obs.metricsSecret, logging: obs.logging, sources: () => drivers, tracing: obs.tracing,
    });
    const { port } = await server.listen(o.port, o.host);
    logServerConfiguration(obs.logging, o, { port, auth, cors: corsPolicy(o), enabledApis: enabledApiList(o.enabledApis) ?? DEFAULT_ENABLED_APIS, subscriptions: subscriptionSettings });
    const base = baseUrl(o.host, port);
    log(`kiln ${KILN_VERSION} serving GraphQL at ${base}/v1/graphql — GraphiQL at ${base}/console`);
    return {
      port,
      async close() {
        await server.close();
        await workers?.stop();
        await asyncActions?.stop();
        await replicas.close();
        await obs.tracing.close();
        await dbs.close(drivers.values());
      },
    };
  } catch (e) {
    await replicas.close();
    await dbs.close(drivers.values());
    throw e;
  }
}

async function modelOf(origin: ModelOrigin, open: SourceOpener, log: Log): Promise<ServableModel> {
  if (origin.kind === 'compile') return origin.compile(open, log);
  // A missing or foreign bundle is an ApiError (invalid-configuration) the command line prints.
  const b = await loadBundle(origin.dir);
  for (const s of b.model.sources) await open(s.name, s.databaseUrl, s.bigquery, s.pool);
  log(`loaded bundle ${origin.dir}: ${b.model.roles.length} role(s), ${Object.keys(b.model.tables).length} table(s)`);
  return { model: b.model, sdl: b.sdl, sdlKey: b.sdlKey, ...(b.sdlFiles ? { sdlFiles: b.sdlFiles } : {}), remoteSdl: b.remoteSdl };
}

/**
 * A bundle's event and cron triggers: capture installed as the bundle defines it, cron events made,
 * and the delivery workers started. Cron and one-off events live in SVC_GRAPHQL_METADATA_DATABASE_URL
 * when set, else in the default database.
 */
async function bundleWorkers(o: ServeSettings, model: BundleModel, events: Json, drivers: ReadonlyMap<string, Driver>,
  dbs: Databases, log: Log, obs: Observability): Promise<{ stop(): Promise<void> }> {
  const catalog = await dbs.metadata();
  try {
    await prepareBundleEvents(events, model, drivers, catalog, log);
  } catch (e) {
    throw new StartError(`cannot install the event triggers of the bundle: ${detailOf(e)}`, 1);
  }
  return startDeliveryWorkers(o, () => ({ metadata: events, drivers }), catalog, KILN_VERSION, log, obs.metrics, obs.tracing);
}
