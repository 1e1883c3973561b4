// A `kiln serve` in catalog mode over the fuzz fixture, for the hostile-input fuzzers: the
// fixture's tables tracked with its roles' permissions, http-log lines off (thousands would bury
// the report), a default statement timeout (fragment bombs over article -> author -> articles are
// legitimately exponential in their answer, and only a timeout bounds them, as an operator would
// set it), and every uncaught exception or unhandled rejection of the process kept in `crashes`.
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { fixtureMetadata, fixtureSql } from './fixture.js';

export interface FuzzServer {
  /** http://127.0.0.1:PORT */
  readonly base: string;
  /** What reached the process's uncaughtException and unhandledRejection handlers. */
  readonly crashes: unknown[];
  close(): Promise<void>;
}

export async function startFuzzServer(name: string): Promise<FuzzServer> {
  const crashes: unknown[] = [];
  const onCrash = (e: unknown): void => { crashes.push(e); };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  let db: TestDatabase | undefined;
  let stop: (() => Promise<void>) | undefined;
  const close = async (): Promise<void> => {
    await stop?.();
    await db?.drop();
    delete process.env.SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT;
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  };
  try {
    db = await createTestDatabase(name, fixtureSql());
    process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES = 'startup';
    process.env.SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT = '5';
    const server = await serveCommand({
      databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false,
      eventsFetchInterval: 1000, eventsHttpPoolSize: 2, eventsFetchBatchSize: 10,
    });
    stop = () => server.close();
    delete process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES;
    const base = `http://127.0.0.1:${server.port}`;
    const exported = await postJson(base, '/v1/metadata', { type: 'export_metadata', args: {} });
    const md = exported.body as { sources: { tables: unknown[] }[] };
    md.sources[0]!.tables = (fixtureMetadata() as typeof md).sources[0]!.tables;
    const replaced = await postJson(base, '/v1/metadata', { type: 'replace_metadata', args: md });
    if (replaced.status !== 200) throw new Error(`replace_metadata: ${JSON.stringify(replaced.body)}`);
    return { base, crashes, close };
  } catch (e) {
    await close();
    throw e;
  }
}
