// A real Kiln server on 127.0.0.1 for action tests that count statements: the metadata is compiled
// in process against live databases (one or more PostgreSQL sources), every source's driver and the
// metadata catalog's driver record each statement they send, and the server runs actions (with the
// asynchronous worker) and subscriptions as `kiln serve` does.

import { buildBundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { ActionExecutor, ensureActionLog, startActionWorker } from '../../runtime/actions/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer } from '../../runtime/server/index.js';

export interface CountingServer {
  readonly url: string;
  readonly wsUrl: string;
  /** Statements sent to each source's database since the start (or the last reset), by source name. */
  statements(source: string): string[];
  /** Statements sent to the metadata catalog (hdb_action_log) since the start (or the last reset). */
  catalogStatements(): string[];
  resetStatements(): void;
  close(): Promise<void>;
}

function counted(inner: Driver, seen: string[]): Driver {
  return {
    ...inner,
    query: (text, params, co) => { seen.push(text); return inner.query(text, params, co); },
    queryText: (text, params, ...rest) => { seen.push(text); return inner.queryText(text, params, ...rest); },
    runScript: (text, co) => { seen.push(text); return inner.runScript(text, co); },
    transaction: (fn, opts) => inner.transaction((tx) => {
      seen.push('BEGIN');
      return fn({ ...tx, query: (text, params, co) => { seen.push(text); return tx.query(text, params, co); },
        queryText: (text, params, ...rest) => { seen.push(text); return tx.queryText(text, params, ...rest); } });
    }, opts),
  };
}

/** Starts the server; `databases` maps each source name of the metadata to its database URL (the catalog is the first). */
export async function startCountingServer(o: { metadata: unknown; databases: Readonly<Record<string, string>>; asyncIntervalMs?: number }): Promise<CountingServer> {
  const parsed = parseMetadata(o.metadata);
  if (!parsed.value) throw new Error(`test metadata is invalid: ${JSON.stringify(parsed.errors)}`);
  const inner = new Map(Object.entries(o.databases).map(([name, url]) => [name, createPgDriver({ url, max: 4 })]));
  const seen = new Map([...inner.keys()].map((name) => [name, [] as string[]]));
  const drivers = new Map([...inner].map(([name, d]) => [name, counted(d, seen.get(name)!)]));
  const catalogSeen: string[] = [];
  const catalogInner = createPgDriver({ url: Object.values(o.databases)[0]!, max: 2 });
  const catalog = counted(catalogInner, catalogSeen);
  const introspection = Object.fromEntries(await Promise.all([...inner].map(async ([name, d]) => [name, await introspectPostgres(d)] as const)));
  const bundle = await buildBundle({ metadata: parsed.value, introspection, engineVersion: 'test' });
  if (bundle.inconsistencies.length) throw new Error(`inconsistent: ${JSON.stringify(bundle.inconsistencies)}`);
  await ensureActionLog(catalogInner);
  const driverFor = (source: string): Driver => {
    const d = drivers.get(source);
    if (!d) throw new Error(`no driver for source ${source}`);
    return d;
  };
  const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor, actions: new ActionExecutor({ model: bundle.model, catalog }) });
  const worker = await startActionWorker({ catalog: catalogInner, actions: () => bundle.model.actions, intervalMs: o.asyncIntervalMs ?? 100, log: () => undefined });
  const server = createServer({
    engine, version: 'test', adminSecret: null, consoleEnabled: false, authenticators: [],
    subscriptions: { engine: () => engine, settings: { liveRefetchMs: 100, streamRefetchMs: 100 }, log: () => undefined },
  });
  const { port } = await server.listen(0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/v1/graphql`,
    statements: (source) => [...(seen.get(source) ?? [])],
    catalogStatements: () => [...catalogSeen],
    resetStatements: () => { for (const s of seen.values()) s.length = 0; catalogSeen.length = 0; },
    async close() {
      await server.close();
      await worker.stop();
      for (const d of inner.values()) await d.close();
      await catalogInner.close();
    },
  };
}
