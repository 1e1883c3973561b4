// A real webhook for the delivery tests: a node:http server on 127.0.0.1 that records every
// request (with the time it arrived) and answers as the test's handler says.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly body: any;
  readonly at: number;
}

export interface Reply {
  readonly status?: number;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  readonly delayMs?: number;
}

export type Handler = (req: Received, index: number) => Reply | Promise<Reply>;

export interface Webhook {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  handler: Handler;
  /** Resolves when `n` requests (in all) have arrived, or rejects after `ms`. */
  waitFor(n: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startWebhook(handler: Handler = () => ({ status: 200, body: '{"ok":true}' }), port = 0): Promise<Webhook> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  let server: Server;
  const hook: Webhook = {
    url: '', port: 0, received, handler,
    async waitFor(n, ms = 8000) {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`webhook got ${received.length} request(s), expected ${n}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, text, body, at: Date.now() };
        const index = received.length;
        received.push(r);
        for (const w of waiters.splice(0)) w();
        const reply = await hook.handler(r, index);
        if (reply.delayMs) await new Promise((ok) => setTimeout(ok, reply.delayMs));
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body ?? '{}');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  Object.assign(hook, { url: `http://127.0.0.1:${actual}`, port: actual });
  return hook;
}

/** A port nothing listens on (taken and given back at once). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Polls `check` until it returns a value that is not undefined, or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 8000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
