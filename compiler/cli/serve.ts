import type { BundleModel } from '../../runtime/bundle/index.js';
import { loadBundle } from '../../runtime/bundle/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer } from '../../runtime/server/index.js';
import { buildBundle } from '../emit/index.js';
import { introspectPostgres } from '../introspect/index.js';
import { databaseUrl } from '../metadata/index.js';
import { demoFixture, openEmbedded } from './embedded.js';
import { CliError, readMetadata, redact } from './project.js';
import { KILN_VERSION } from './version.js';

export interface ServeOptions {
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
  let model: BundleModel;
  let sdl: { readonly [role: string]: string };
  if (o.bundle) {
    const b = await loadBundle(o.bundle);
    model = b.model;
    sdl = b.sdl;
    for (const s of model.sources) drivers.set(s.name, await driverForSource(s.databaseUrl, o, defaultDriver));
    log(`loaded bundle ${o.bundle}: ${model.roles.length} role(s), ${Object.keys(model.tables).length} table(s)`);
  } else {
    const metadataPath = o.metadata ?? (o.databaseUrl ? null : demoFixture().metadata);
    if (!metadataPath) throw new CliError('serve needs --bundle DIR or --metadata PATH (the metadata catalog in the database comes with the metadata API)', 2);
    const metadata = await readMetadata(metadataPath);
    const introspection: Record<string, Awaited<ReturnType<typeof introspectPostgres>>> = {};
    // The demo fixture names `from_env: DATABASE_URL`; the demo always runs on the embedded database.
    const demo = !o.metadata;
    for (const s of metadata.sources) {
      const d = demo ? await defaultDriver() : await driverForSource(databaseUrl(s), o, defaultDriver);
      drivers.set(s.name, d);
      try {
        introspection[s.name] = await introspectPostgres(d);
      } catch (e) {
        const detail = (e as { internal?: { error?: { message?: string } } }).internal?.error?.message ?? (e as Error).message;
        throw new CliError(`cannot read the catalog of source "${s.name}": ${detail} (is the database up, and the URL right?)`, 1);
      }
    }
    const bundle = await buildBundle({ metadata, introspection, engineVersion: KILN_VERSION, stringifyNumeric: o.stringifyNumericTypes, progress: log });
    for (const i of bundle.inconsistencies) log(`warning: inconsistent ${i.type} ${i.name}: ${i.reason}`);
    model = bundle.model;
    sdl = bundle.sdl;
  }
  const engine = new Engine({ model, sdl, stringifyNumeric: o.stringifyNumericTypes, driverFor: (source) => {
    const d = drivers.get(source);
    if (!d) throw new Error(`assertion failed: no driver for source ${source}`);
    return d;
  } });
  const server = createServer({
    engine, version: KILN_VERSION, adminSecret: o.adminSecret ?? null, unauthorizedRole: o.unauthorizedRole ?? null,
    enabledApis: o.enabledApis ? o.enabledApis.split(',').map((s) => s.trim()) : undefined, consoleEnabled: o.console,
  });
  const { port } = await server.listen(o.port, o.host);
  const base = `http://${o.host === '0.0.0.0' ? '127.0.0.1' : o.host}:${port}`;
  log(`kiln ${KILN_VERSION} serving GraphQL at ${base}/v1/graphql — GraphiQL at ${base}/console`);
  return {
    port,
    async close() {
      await server.close();
      const all = new Set([...drivers.values(), ...(embedded ? [embedded] : []), ...(shared ? [shared] : [])]);
      for (const d of all) await d.close();
    },
  };
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
