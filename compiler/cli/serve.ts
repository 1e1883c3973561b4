import type { BundleModel, Json } from '../../runtime/bundle/index.js';
import { loadBundle } from '../../runtime/bundle/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { MetadataApi, type ServedState, type SourceInfo } from '../../runtime/metadata-api/index.js';
import { createServer } from '../../runtime/server/index.js';
import { subscriptionSettingsFromEnv } from '../../runtime/subscriptions/index.js';
import { eventTriggerExtension, scheduledEventExtension } from '../../runtime/workers/index.js';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { serverAuth, type AuthFlags } from './auth-config.js';
import { listenForChanges, type CatalogListener } from './catalog-listener.js';
import { metadataCompiler } from './metadata-compiler.js';
import { buildBundle } from '../emit/index.js';
import { introspectPostgres } from '../introspect/index.js';
import { databaseUrl } from '../metadata/index.js';
import { demoFixture, openEmbedded } from './embedded.js';
import { CliError, readMetadata, redact } from './project.js';
import { KILN_VERSION } from './version.js';
import { prepareBundleEvents, startDeliveryWorkers, type WorkerFlags } from './serve-workers.js';

export interface ServeOptions extends AuthFlags, WorkerFlags {
  readonly bundle?: string;
  readonly metadata?: string;
  readonly databaseUrl?: string;
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly adminSecret?: string;
  readonly unauthorizedRole?: string;
  readonly enabledApis?: string;
  readonly pgConnections: number;
  readonly stringifyNumericTypes: boolean;
  readonly console: boolean;
  /** SVC_GRAPHQL_ENABLE_ALLOWLIST: non-admin roles run only allow-listed queries. */
  readonly enableAllowlist?: boolean;
}

const log = (line: string): void => { process.stderr.write(`${line}\n`); };

/** `kiln serve`: load (or compile in process) a bundle, open the databases, serve HTTP. */
export async function serveCommand(o: ServeOptions): Promise<{ close(): Promise<void>; port: number }> {
  const drivers = new Map<string, Driver>();
  let embedded: Driver | null = null;
  let shared: Driver | null = null;
  const defaultDriver = async (): Promise<Driver> => {
    if (o.databaseUrl) return (shared ??= createPgDriver({ url: o.databaseUrl, max: o.pgConnections }));
    embedded ??= await openEmbedded(o.dataDir, log);
    return embedded;
  };
  if (!o.bundle && !o.metadata) return serveCatalog(o, defaultDriver, () => embedded, () => shared);
  let model: BundleModel;
  let sdl: { readonly [role: string]: string };
  let sdlKey: { readonly [role: string]: string } | undefined;
  if (o.bundle) {
    const b = await loadBundle(o.bundle);
    model = b.model;
    sdl = b.sdl;
    sdlKey = b.sdlKey;
    for (const s of model.sources) drivers.set(s.name, await driverForSource(s.databaseUrl, o, defaultDriver));
    log(`loaded bundle ${o.bundle}: ${model.roles.length} role(s), ${Object.keys(model.tables).length} table(s)`);
  } else {
    const metadataPath = o.metadata!;
    const metadata = await readMetadata(metadataPath);
    const introspection: Record<string, Awaited<ReturnType<typeof introspectPostgres>>> = {};
    for (const s of metadata.sources) {
      const d = await driverForSource(databaseUrl(s), o, defaultDriver);
      drivers.set(s.name, d);
      try {
        introspection[s.name] = await introspectPostgres(d);
      } catch (e) {
        const detail = (e as { internal?: { error?: { message?: string } } }).internal?.error?.message ?? (e as Error).message;
        throw new CliError(`cannot read the catalog of source "${s.name}": ${detail} (is the database up, and the URL right?)`, 1);
      }
    }
    const bundle = await buildBundle({ metadata, introspection, engineVersion: KILN_VERSION, stringifyNumeric: o.stringifyNumericTypes, progress: log });
    for (const i of bundle.inconsistencies) log(`warning: inconsistent ${i.name}: ${i.reason}`);
    model = bundle.model;
    sdl = bundle.sdl;
  }
  const engine = new Engine({ model, sdl, ...(sdlKey ? { sdlKey } : {}), stringifyNumeric: o.stringifyNumericTypes, allowlist: o.enableAllowlist ?? false, driverFor: (source) => {
    const d = drivers.get(source);
    if (!d) throw new Error(`assertion failed: no driver for source ${source}`);
    return d;
  } });
  const workers = model.events ? await bundleWorkers(o, model, model.events, drivers, defaultDriver) : null;
  const server = createServer({
    engine, version: KILN_VERSION, adminSecret: o.adminSecret ?? null, unauthorizedRole: o.unauthorizedRole ?? null,
    enabledApis: o.enabledApis ? o.enabledApis.split(',').map((s) => s.trim()) : undefined, consoleEnabled: o.console,
    ...await serverAuth(o, log),
    subscriptions: { engine: () => engine, settings: subscriptionSettingsFromEnv(process.env), log },
  });
  const { port } = await server.listen(o.port, o.host);
  const base = `http://${o.host === '0.0.0.0' ? '127.0.0.1' : o.host}:${port}`;
  log(`kiln ${KILN_VERSION} serving GraphQL at ${base}/v1/graphql — GraphiQL at ${base}/console`);
  return {
    port,
    async close() {
      await server.close();
      await workers?.stop();
      const all = new Set([...drivers.values(), ...(embedded ? [embedded] : []), ...(shared ? [shared] : []), ...(workers ? [workers.catalog] : [])]);
      for (const d of all) await d.close();
    },
  };
}

/**
 * A bundle's event and cron triggers: capture installed as the bundle defines it, cron events made,
 * and the delivery workers started. Cron and one-off events live in SVC_GRAPHQL_METADATA_DATABASE_URL
 * when set, else in the default database.
 */
async function bundleWorkers(o: ServeOptions, model: BundleModel, events: Json, drivers: ReadonlyMap<string, Driver>,
  defaultDriver: () => Promise<Driver>): Promise<{ stop(): Promise<void>; catalog: Driver }> {
  const metadataUrl = process.env.SVC_GRAPHQL_METADATA_DATABASE_URL;
  const catalog = metadataUrl ? createPgDriver({ url: metadataUrl, max: 4 }) : await defaultDriver();
  try {
    await prepareBundleEvents(events, model, drivers, catalog, log);
  } catch (e) {
    const detail = (e as { internal?: { error?: { message?: string } } }).internal?.error?.message ?? (e as Error).message;
    throw new CliError(`cannot install the event triggers of the bundle: ${detail}`, 1);
  }
  const workers = startDeliveryWorkers(o, () => ({ metadata: events, drivers }), catalog, KILN_VERSION, log);
  return { stop: () => workers.stop(), catalog };
}

async function driverForSource(url: BundleModel['sources'][number]['databaseUrl'], o: ServeOptions, fallback: () => Promise<Driver>): Promise<Driver> {
  if (url?.kind === 'literal') return createPgDriver({ url: url.url, max: o.pgConnections });
  if (url?.kind === 'env') {
    const v = process.env[url.name];
    // Unset: --database-url serves the source, as it does in `kiln compile`.
    if (!v && o.databaseUrl) return fallback();
    if (!v) throw new CliError(`environment variable ${url.name} (the database URL of a source) is not set; set it or pass --database-url`, 2);
    log(`source database from $${url.name}: ${redact(v)}`);
    return createPgDriver({ url: v, max: o.pgConnections });
  }
  return fallback();
}

/**
 * Serves the metadata kept in svc_catalog, with the metadata API writing it (compile on write).
 * The catalog is in SVC_GRAPHQL_METADATA_DATABASE_URL, else in the default database (--database-url,
 * or the embedded demo database, whose fresh catalog starts with the demo metadata).
 */
async function serveCatalog(o: ServeOptions, defaultDriver: () => Promise<Driver>, embedded: () => Driver | null,
  shared: () => Driver | null): Promise<{ close(): Promise<void>; port: number }> {
  const metadataUrl = process.env.SVC_GRAPHQL_METADATA_DATABASE_URL;
  const catalog = metadataUrl ? createPgDriver({ url: metadataUrl, max: 4 }) : await defaultDriver();
  const demo = !o.databaseUrl && !metadataUrl;
  const demoMetadata = demo ? JSON.parse(await readFile(demoFixture().metadata, 'utf8')) as never : null;
  const opened: Driver[] = [];
  const connect = async (s: SourceInfo): Promise<Driver> => {
    // The demo fixture names `from_env: DATABASE_URL`; the demo always runs on the embedded database.
    if (demo) return defaultDriver();
    const url = s.location?.kind === 'literal' ? s.location.url : s.location?.kind === 'env' ? process.env[s.location.name] : undefined;
    if (!url || url === o.databaseUrl) return defaultDriver();
    const d = createPgDriver({ url, max: o.pgConnections });
    opened.push(d);
    return d;
  };
  let engine: Engine | null = null;
  let served: ServedState | null = null;
  const serve = (state: ServedState): void => {
    served = state;
    engine = new Engine({ model: state.compiled.model, sdl: state.compiled.sdl, stringifyNumeric: o.stringifyNumericTypes,
      allowlist: o.enableAllowlist ?? false, driverFor: (source) => {
      const d = state.drivers.get(source);
      if (!d) throw new Error(`assertion failed: no driver for source ${source}`);
      return d;
    } });
  };
  const instance = randomUUID();
  let api: MetadataApi;
  try {
    api = await MetadataApi.start({
      compiler: metadataCompiler(KILN_VERSION), catalog, connect, serve, instance, log,
      stringifyNumeric: o.stringifyNumericTypes,
      extensions: [eventTriggerExtension(), scheduledEventExtension({ log })],
      ...(demoMetadata ? { initial: () => demoMetadata } : {}),
    });
  } catch (e) {
    await catalog.close().catch(() => undefined);
    const detail = (e as { internal?: { error?: { message?: string } } }).internal?.error?.message ?? (e as Error).message;
    const where = metadataUrl ? redact(metadataUrl) : o.databaseUrl ? redact(o.databaseUrl) : 'the embedded database';
    throw new CliError(`cannot open the metadata catalog (svc_catalog) in ${where}: ${detail} (is the database up, and the URL right?)`, 1);
  }
  const s0 = served as ServedState | null;
  log(`metadata: resource_version ${api.current.resourceVersion}, ${Object.keys(s0?.compiled.model.tables ?? {}).length} table(s) tracked`);
  const listenUrl = metadataUrl ?? o.databaseUrl;
  const listener: CatalogListener | null = listenUrl ? listenForChanges(listenUrl, instance, () => api.refresh(), log) : null;
  const workers = startDeliveryWorkers(o, () => api.current, catalog, KILN_VERSION, log);
  const server = createServer({
    engine: { execute: (req, session) => engine!.execute(req, session), executeOrThrow: (req, session) => engine!.executeOrThrow(req, session),
      explain: (req, session) => engine!.explain(req, session),
      // REST endpoints follow the engine swapped in on every metadata change.
      restEndpoints: () => engine!.restEndpoints(), storedQuery: (c, q) => engine!.storedQuery(c, q),
      executeStored: (c, q, variables, session) => engine!.executeStored(c, q, variables, session) },
    version: KILN_VERSION, adminSecret: o.adminSecret ?? null, unauthorizedRole: o.unauthorizedRole ?? null,
    enabledApis: o.enabledApis ? o.enabledApis.split(',').map((x) => x.trim()) : undefined, consoleEnabled: o.console,
    ...await serverAuth(o, log),
    management: (call) => api.handle(call),
    health: () => api.health(),
    // `engine` is replaced on every metadata change; subscriptions look it up at every poll.
    subscriptions: { engine: () => engine!, settings: subscriptionSettingsFromEnv(process.env), log },
  });
  const { port } = await server.listen(o.port, o.host);
  const base = `http://${o.host === '0.0.0.0' ? '127.0.0.1' : o.host}:${port}`;
  log(`kiln ${KILN_VERSION} serving GraphQL at ${base}/v1/graphql — GraphiQL at ${base}/console — metadata API at ${base}/v1/metadata`);
  return {
    port,
    async close() {
      await server.close();
      await workers.stop();
      await listener?.close();
      await api.close();
      const all = new Set([...api.current.drivers.values(), ...opened, catalog, ...(embedded() ? [embedded()!] : []), ...(shared() ? [shared()!] : [])]);
      for (const d of all) await d.close().catch(() => undefined);
    },
  };
}
