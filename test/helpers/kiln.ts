import { buildBundle, type Bundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { databaseUrl, parseMetadata, type Metadata } from '../../compiler/metadata/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer } from '../../runtime/server/index.js';

/** A running Kiln on 127.0.0.1 (real socket), compiled in process from metadata and a live database. */
export interface TestKiln {
  readonly url: string;
  readonly bundle: Bundle;
  /** POST /v1/graphql; returns the parsed body. */
  gql(query: string, variables?: Record<string, unknown> | null, headers?: Record<string, string>): Promise<GqlBody>;
  /** POST a raw body; returns status and the body text. */
  post(path: string, body: string, headers?: Record<string, string>): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

export interface GqlBody {
  data?: Record<string, unknown>;
  errors?: { message: string; extensions: { path: string; code: string } }[];
}

export interface StartOptions {
  readonly metadata: unknown;
  readonly databaseUrl: string;
  readonly adminSecret?: string;
  readonly unauthorizedRole?: string;
  readonly stringifyNumeric?: boolean;
}

/** Validates metadata (failing loudly), compiles it against the database and serves it on a free port. */
export async function startKiln(o: StartOptions): Promise<TestKiln> {
  const parsed = parseMetadata(o.metadata);
  if (!parsed.value) throw new Error(`test metadata is invalid: ${parsed.errors.map((e) => `${e.path.join('.')}: ${e.message}`).join('; ')}`);
  const md: Metadata = parsed.value;
  // A source with a literal database_url is served from it (as `kiln serve` does); the rest from databaseUrl.
  const drivers = new Map<string, Driver>();
  const introspection: Record<string, Awaited<ReturnType<typeof introspectPostgres>>> = {};
  for (const s of md.sources) {
    const own = databaseUrl(s);
    // With a pipeline lane, as `kiln serve` has: the queries and one-statement mutations of every test that serves through here go pipelined.
    const driver = createPgDriver({ url: own?.kind === 'literal' ? own.url : o.databaseUrl, max: 4, pipelineConnections: 2 });
    drivers.set(s.name, driver);
    introspection[s.name] = await introspectPostgres(driver);
  }
  const bundle = await buildBundle({ metadata: md, introspection, engineVersion: 'test', stringifyNumeric: o.stringifyNumeric ?? false });
  if (bundle.inconsistencies.length) throw new Error(`test metadata is inconsistent: ${JSON.stringify(bundle.inconsistencies)}`);
  const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: (s) => drivers.get(s)!, stringifyNumeric: o.stringifyNumeric ?? false });
  const server = createServer({ engine, version: 'test', adminSecret: o.adminSecret ?? null, unauthorizedRole: o.unauthorizedRole ?? null, consoleEnabled: false });
  const { port } = await server.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> => {
    const res = await fetch(`${url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    return { status: res.status, text: await res.text() };
  };
  return {
    url, bundle, post,
    async gql(query, variables, headers) {
      const r = await post('/v1/graphql', JSON.stringify({ query, variables: variables ?? null }), headers);
      if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.text}`);
      return JSON.parse(r.text) as GqlBody;
    },
    async close() {
      await server.close();
      for (const d of drivers.values()) await d.close();
    },
  };
}
