// A real action handler for the tests: an HTTP server on 127.0.0.1 whose routes answer as the
// test sets them, recording every request it receives.
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: any;
}

export interface Answer { status?: number; body: unknown; raw?: boolean; delayMs?: number; headers?: Record<string, string> }
/** A route answers at once or after looking something up (a promise). */
export type Route = (body: any) => Answer | Promise<Answer>;

export interface HandlerServer {
  readonly base: string;
  readonly received: Received[];
  route(path: string, r: Route): void;
  close(): Promise<void>;
}

export async function startHandler(): Promise<HandlerServer> {
  const routes = new Map<string, Route>();
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try { body = text ? JSON.parse(text) : null; } catch { body = text; }
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const r = routes.get(req.url ?? '');
      if (!r) { res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no route"}'); return; }
      let out: Answer;
      try {
        out = await r(body);
      } catch (e) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(e) }));
        return;
      }
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(out.status ?? 200, { 'content-type': 'application/json', 'set-cookie': 'abcd', ...out.headers });
        res.end(out.raw ? String(out.body) : JSON.stringify(out.body));
      };
      if (out.delayMs) setTimeout(send, out.delayMs); else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    base: `http://127.0.0.1:${port}`, received,
    route: (path, r) => { routes.set(path, r); },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
