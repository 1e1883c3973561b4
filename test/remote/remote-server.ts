// A real GraphQL server on 127.0.0.1 for the remote schema tests: graphql-js over node:http. It
// records every request (headers and body) so tests can count calls and read what was sent.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { graphql, buildSchema, type GraphQLSchema } from 'graphql';

export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: { query: string; variables?: Record<string, unknown>; operationName?: string };
}

export interface RemoteServer {
  readonly url: string;
  readonly received: Received[];
  /** Calls other than introspection. */
  calls(): Received[];
  /** Replaces the schema and resolvers (a remote that changed). */
  setSchema(sdl: string, root: Record<string, unknown>): void;
  /** Makes every answer this raw text (status 200), or back to normal with null. */
  answerWith(text: string | null): void;
  /** Delays every answer by this many ms. */
  delay(ms: number): void;
  close(): Promise<void>;
}

export async function startRemote(sdl: string, root: Record<string, unknown>): Promise<RemoteServer> {
  let schema: GraphQLSchema = buildSchema(sdl);
  let rootValue = root;
  let raw: string | null = null;
  let wait = 0;
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Received['body'];
        received.push({ headers: req.headers, body });
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (raw !== null) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(raw);
          return;
        }
        const result = await graphql({ schema, source: body.query, variableValues: body.variables ?? null,
          operationName: body.operationName ?? null, rootValue, contextValue: { headers: req.headers } });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      })().catch(() => { if (!res.headersSent) res.writeHead(500).end(); });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    received,
    calls: () => received.filter((r) => !r.body.query.includes('__schema')),
    setSchema(s, r) { schema = buildSchema(s); rootValue = r; },
    answerWith(t) { raw = t; },
    delay(ms) { wait = ms; },
    close: () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
