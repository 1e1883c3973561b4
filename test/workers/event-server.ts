// A catalog-mode Kiln for the event trigger tests: the metadata API with the event trigger
// extension, over a real socket, on one test database (catalog and default source together, as
// `kiln serve --database-url` runs it).

import { randomUUID } from 'node:crypto';
import { metadataCompiler } from '../../compiler/metadata-compiler/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { MetadataApi, type ServedState } from '../../runtime/metadata-api/index.js';
import { createServer } from '../../runtime/server/index.js';
import { eventTriggerExtension } from '../../runtime/workers/index.js';

export const SECRET = 'events-secret';

export interface EventServer {
  readonly url: string;
  readonly api: MetadataApi;
  /** POST to /v1/metadata (or another management path) as admin; status and parsed body. */
  meta(body: unknown, path?: string): Promise<{ status: number; body: any }>;
  /** POST /v1/graphql with the admin secret and these headers; the parsed body. */
  gql(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<any>;
  close(): Promise<void>;
}

export async function startEventServer(databaseUrl: string): Promise<EventServer> {
  const catalog: Driver = createPgDriver({ url: databaseUrl, max: 4 });
  let engine: Engine | null = null;
  const serve = (state: ServedState): void => {
    engine = new Engine({ model: state.compiled.model, sdl: state.compiled.sdl, stringifyNumeric: false, driverFor: () => catalog });
  };
  const api = await MetadataApi.start({
    compiler: metadataCompiler('test'), catalog, connect: async () => catalog, serve, instance: randomUUID(),
    stringifyNumeric: false, extensions: [eventTriggerExtension()],
    // A bug answers 500 unexpected; its stack is worth seeing in the test output.
    log: (line) => { if (line.includes('unexpected')) process.stderr.write(`${line}\n`); },
  });
  const server = createServer({
    engine: { execute: (req, s) => engine!.execute(req, s), executeOrThrow: (req, s) => engine!.executeOrThrow(req, s) },
    version: 'test', adminSecret: SECRET, consoleEnabled: false,
    management: (call) => api.handle(call), health: () => api.health(),
  });
  const { port } = await server.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET, ...headers },
    });
    return { status: res.status, body: await res.json() };
  };
  return {
    url, api,
    meta: (body, path = '/v1/metadata') => post(path, body, {}),
    gql: async (query, variables, headers = {}) => (await post('/v1/graphql', { query, variables: variables ?? null }, headers)).body,
    async close() {
      await server.close();
      await api.close();
      await catalog.close();
    },
  };
}
