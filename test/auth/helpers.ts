// Shared setup of the auth tests: one compiled bundle over a real PostgreSQL database, served by
// as many servers (each with its own auth configuration) as a test file needs, on real sockets.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildBundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer, type ServerOptions } from '../../runtime/server/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

export const SETUP = `
CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL, org uuid);
CREATE TABLE article (id int PRIMARY KEY, title text NOT NULL, author_id int NOT NULL REFERENCES author(id), rating numeric);
INSERT INTO author VALUES (1, 'Alice', '0b9b4f5e-6a3f-4a8e-9d1e-1c2b3a4d5e6f'), (2, 'Bob', NULL), (3, 'Carol', NULL);
INSERT INTO article VALUES (1, 'A1', 1, 4.5), (2, 'A2', 1, 3), (3, 'B1', 2, 5), (4, 'C1', 3, 1);
`;

const sel = (role: string, permission: Record<string, unknown>): unknown => ({ role, permission });

export const METADATA = {
  version: 3,
  sources: [{
    name: 'default', kind: 'postgres', configuration: {},
    tables: [
      { table: { schema: 'public', name: 'author' }, select_permissions: [
        sel('user', { columns: ['id', 'name'], filter: { id: { _eq: 'X-Svc-User-Id' } } }),
        sel('org', { columns: ['id', 'name'], filter: { org: { _eq: 'X-Svc-Org-Id' } } }),
        sel('anonymous', { columns: ['name'], filter: {} }),
        sel('editor', { columns: ['id', 'name'], filter: {} }),
      ] },
      { table: { schema: 'public', name: 'article' }, select_permissions: [
        sel('user', { columns: ['id', 'title'], filter: { author_id: { _eq: 'X-Svc-User-Id' } } }),
        sel('lister', { columns: ['id'], filter: { author_id: { _in: 'X-Svc-Author-Ids' } } }),
        sel('rated', { columns: ['id'], filter: { rating: { _gte: 'X-Svc-Min-Rating' } } }),
      ] },
    ],
  }],
};

/** A compiled bundle over a fresh database; `serve` starts a server with the given auth options. */
export interface AuthFixture {
  readonly db: TestDatabase;
  serve(opts?: Partial<ServerOptions>): Promise<Served>;
  close(): Promise<void>;
}

/** One running server. */
export interface Served {
  readonly url: string;
  /** POST /v1/graphql (or `path`); returns the status and the parsed body. */
  post(body: unknown, headers?: Record<string, string>, path?: string): Promise<{ status: number; body: any; headers: Headers }>;
  /** `{ query }` on /v1/graphql: the parsed body. */
  gql(query: string, headers?: Record<string, string>): Promise<any>;
  close(): Promise<void>;
}

export async function authFixture(prefix: string): Promise<AuthFixture> {
  const db = await createTestDatabase(prefix, SETUP);
  const parsed = parseMetadata(METADATA);
  if (!parsed.value) throw new Error(`bad test metadata: ${JSON.stringify(parsed.errors)}`);
  const driver: Driver = createPgDriver({ url: db.url, max: 4 });
  const bundle = await buildBundle({ metadata: parsed.value, introspection: { default: await introspectPostgres(driver) }, engineVersion: 'test', stringifyNumeric: false });
  if (bundle.inconsistencies.length) throw new Error(JSON.stringify(bundle.inconsistencies));
  const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: () => driver });
  const servers: Served[] = [];
  return {
    db,
    async serve(opts = {}) {
      const server = createServer({ engine, version: 'test', consoleEnabled: false, ...opts });
      const { port } = await server.listen(0, '127.0.0.1');
      const url = `http://127.0.0.1:${port}`;
      const post: Served['post'] = async (body, headers = {}, path = '/v1/graphql') => {
        const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
        const text = await res.text();
        return { status: res.status, body: JSON.parse(text), headers: res.headers };
      };
      const served: Served = {
        url, post,
        gql: async (query, headers = {}) => (await post({ query }, headers)).body,
        close: () => server.close(),
      };
      servers.push(served);
      return served;
    },
    async close() {
      for (const s of servers) await s.close();
      await driver.close();
      await db.drop();
    },
  };
}

/** A GraphQL error body with one error. */
export function gqlError(message: string, code: string, path = '$'): unknown {
  return { errors: [{ message, extensions: { path, code } }] };
}

/** A tiny HTTP server on 127.0.0.1 whose handler a test can swap. */
export interface TestHttpServer {
  readonly url: string;
  handler: (req: IncomingMessage, body: string, res: ServerResponse) => void;
  readonly requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

export async function startHttpServer(handler: TestHttpServer['handler']): Promise<TestHttpServer> {
  const state: TestHttpServer = {
    url: '', handler, requests: [],
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      state.handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  (state as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Writes a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
