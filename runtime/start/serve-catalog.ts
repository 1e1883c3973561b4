// Serving the metadata kept in svc_catalog, with the metadata API writing it (compile on write).
// The compiler comes in through the metadata API's contract (MetadataCompiler): the command line
// wires it in, so the runtime itself never loads it.

import { actionsOf, startAsyncActions } from './actions.js';
import { randomUUID } from 'node:crypto';
import type { Json } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { unsetVariable } from '../errors/index.js';
import { Engine, setBooleanNullCollapse } from '../graphql/index.js';
import { MetadataApi, type MetadataCompiler, type ServedState, type SourceInfo } from '../metadata-api/index.js';
import { createServer, DEFAULT_ENABLED_APIS, webhookLogWriter } from '../server/index.js';
import { subscriptionSettingsFromEnv } from '../subscriptions/index.js';
import { serverConfig } from './config-view.js';
import { eventTriggerExtension, scheduledEventExtension, webhookEnvironmentExtension } from '../workers/index.js';
import { serverAuth } from './auth-config.js';
import { listenForChanges, type CatalogListener } from './catalog-listener.js';
import { Databases } from './databases.js';
import { openBigQuerySource } from './bigquery-source.js';
import { ReadReplicas } from './read-replicas.js';
import { startDeliveryWorkers } from './serve-workers.js';
import { baseUrl, corsPolicy, enabledApiList, requestLimits, sourceDefaults, stderrLog, type Log, type RunningServer, type ServeSettings } from './settings.js';
import { detailOf, redact, StartError } from './start-error.js';
import { KILN_VERSION } from './version.js';
import { observability } from './observability.js';
import { logServerConfiguration } from './startup-log.js';

/** The variable `--database-url` is read from. */
const DATABASE_URL_VARIABLE = 'SVC_GRAPHQL_DATABASE_URL';

/** What the catalog server needs beyond the settings. */
export interface CatalogServing {
  readonly compiler: MetadataCompiler;
  /**
   * The demo: every source runs on the embedded database, and a fresh catalog starts with this
   * metadata (the demo fixture names `from_env: DATABASE_URL`, which the demo never sets).
   */
  readonly demoMetadata?: Json;
}

/**
 * Serves the metadata kept in svc_catalog. The catalog is in SVC_GRAPHQL_METADATA_DATABASE_URL,
 * else in the default database (--database-url, or the embedded demo database).
 */
export async function serveCatalog(o: ServeSettings, c: CatalogServing, log: Log = stderrLog): Promise<RunningServer> {
  const limits = requestLimits();
  setBooleanNullCollapse(o.v1BooleanNullCollapse === true);
  sourceDefaults(); // a bad SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT or SVC_GRAPHQL_PG_PIPELINE_CONNECTIONS is refused before anything opens
  const obs = observability(enabledApiList(o.enabledApis), log);
  const dbs = new Databases(o, log);
  const metadataUrl = process.env.SVC_GRAPHQL_METADATA_DATABASE_URL;
  const catalog = await dbs.metadata();
  const connect = async (s: SourceInfo): Promise<Driver> => {
    // A BigQuery source is a BigQuery client (BIGQUERY_EMULATOR_HOST for a local stand-in), never a database URL.
    if (s.kind === 'bigquery') {
      if (!s.bigquery) throw new Error(`BigQuery source "${s.name}": its configuration names no usable project_id and datasets`);
      return openBigQuerySource(s.name, s.bigquery, log);
    }
    if (c.demoMetadata !== undefined) return dbs.fallback();
    const url = s.location?.kind === 'literal' ? s.location.url : s.location?.kind === 'env' ? process.env[s.location.name] : undefined;
    // A variable that is not set is Hasura's reason for the source (resolveUrlConf -> getEnv), except
    // SVC_GRAPHQL_DATABASE_URL, which --database-url stands for (the default source of a fresh catalog).
    if (s.location?.kind === 'env' && !url && s.location.name !== DATABASE_URL_VARIABLE) throw unsetVariable(s.location.name);
    if (!url || url === o.databaseUrl) return dbs.fallback();
    return dbs.open(url, undefined, true, s.pool);
  };
  let engine: Engine | null = null;
  let served: ServedState | null = null;
  // Queries and subscriptions read from the sources' replicas; the metadata API, events and cron keep the primaries.
  const replicas = new ReadReplicas(o.pgConnections, log);
  const serve = (state: ServedState): void => {
    served = state;
    obs.tracing.configure(state.compiled.model.openTelemetry);
    const wrap = obs.engineDrivers();
    const driverFor = (source: string): Driver => {
      const d = state.drivers.get(source);
      if (!d) throw new Error(`assertion failed: no driver for source ${source}`);
      return wrap(d, source);
    };
    const readers = replicas.update(state.compiled.model, state.drivers);
    // The schemas of roles the change left alone go on with the new engine (EngineOptions.previous).
    engine = new Engine({ ...(engine ? { previous: engine } : {}), model: state.compiled.model, sdl: state.compiled.sdl, stringifyNumeric: o.stringifyNumericTypes,
      ...actionsOf(state.compiled.model, o.stringifyNumericTypes, catalog),
      allowlist: o.enableAllowlist ?? false, ...limits, driverFor, ...(state.compiled.remote ? { remote: state.compiled.remote } : {}), readerFor: (source) => {
        const r = readers.get(source);
        return r ? wrap(r, source) : driverFor(source);
      } });
  };
  obs.metrics.feed({ planCache: () => (engine ? { hits: engine.stats.planCacheHits, misses: engine.stats.parses } : null) });
  const instance = randomUUID();
  let api: MetadataApi;
  try {
    api = await MetadataApi.start({
      compiler: c.compiler, catalog, connect, serve, instance, log,
      stringifyNumeric: o.stringifyNumericTypes,
      ...(o.inferFunctionPermissions === false ? { inferFunctionPermissions: false } : {}),
      remoteSchemaPermissions: process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS === 'true',
      extensions: [webhookEnvironmentExtension(), eventTriggerExtension(), scheduledEventExtension({ log })],
      ...(c.demoMetadata !== undefined ? { initial: () => c.demoMetadata! } : {}),
    });
  } catch (e) {
    await replicas.close();
    await dbs.close();
    const where = metadataUrl ? redact(metadataUrl) : o.databaseUrl ? redact(o.databaseUrl) : 'the embedded database';
    throw new StartError(`cannot open the metadata catalog (svc_catalog) in ${where}: ${detailOf(e)} (is the database up, and the URL right?)`, 1);
  }
  const s0 = served as ServedState | null;
  log(`metadata: resource_version ${api.current.resourceVersion}, ${Object.keys(s0?.compiled.model.tables ?? {}).length} table(s) tracked`);
  const listenUrl = metadataUrl ?? o.databaseUrl;
  const listener: CatalogListener | null = listenUrl ? listenForChanges(listenUrl, instance, () => api.refresh(), log) : null;
  const workers = startDeliveryWorkers(o, () => api.current, catalog, KILN_VERSION, log, obs.metrics, obs.tracing);
  const asyncActions = await startAsyncActions(catalog, () => engine?.model.actions, log);
  const auth = await serverAuth(o, log, process.env, webhookLogWriter(obs.logging));
  const subscriptionSettings = subscriptionSettingsFromEnv(process.env);
  const server = createServer({
    engine: { execute: (req, session, rc) => engine!.execute(req, session, rc), executeOrThrow: (req, session, rc) => engine!.executeOrThrow(req, session, rc),
      explain: (req, session) => engine!.explain(req, session), executeRelay: (req, session, rc) => engine!.executeRelay(req, session, rc),
      // REST endpoints follow the engine swapped in on every metadata change.
      restEndpoints: () => engine!.restEndpoints(), storedQuery: (q, n) => engine!.storedQuery(q, n),
      executeStored: (q, n, variables, session) => engine!.executeStored(q, n, variables, session),
      admitRequest: (session, client, operations, batched) => engine!.admitRequest(session, client, operations, batched) },
    version: KILN_VERSION, adminSecret: o.adminSecret ?? null, unauthorizedRole: o.unauthorizedRole ?? null,
    enabledApis: enabledApiList(o.enabledApis), consoleEnabled: o.console, maxBodyBytes: o.maxRequestBodyBytes, cors: corsPolicy(o),
    adminSecrets: auth.adminSecrets, authenticators: auth.authenticators, config: serverConfig(o, auth, subscriptionSettings),
    management: (call) => api.handle(call),
    health: () => api.health(),
    // `engine` is replaced on every metadata change; subscriptions look it up at every poll.
    // The change feed runs on a source's primary; a source read from replicas polls (a replica may lag the notification).
    subscriptions: { engine: () => engine!, settings: subscriptionSettings, log,
      sources: () => new Map([...api.current.drivers].filter(([source]) => !replicas.has(source))) },
    metrics: obs.metrics, metricsSecret: obs.metricsSecret, logging: obs.logging, sources: () => api.current.drivers, tracing: obs.tracing,
  });
  const { port } = await server.listen(o.port, o.host);
  logServerConfiguration(obs.logging, o, { port, auth, cors: corsPolicy(o), enabledApis: enabledApiList(o.enabledApis) ?? DEFAULT_ENABLED_APIS, subscriptions: subscriptionSettings });
  const base = baseUrl(o.host, port);
  log(`kiln ${KILN_VERSION} serving GraphQL at ${base}/v1/graphql — GraphiQL at ${base}/console — metadata API at ${base}/v1/metadata`);
  return {
    port,
    async close() {
      await server.close();
      await workers.stop();
      await asyncActions.stop();
      await listener?.close();
      await api.close();
      await replicas.close();
      await obs.tracing.close();
      await dbs.close(api.current.drivers.values());
    },
  };
}
