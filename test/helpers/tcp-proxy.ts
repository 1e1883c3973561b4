// A TCP proxy on 127.0.0.1 between Kiln and PostgreSQL that injects network faults: it ends
// (FIN) or resets (RST) the connections it carries, delays their bytes, or refuses new ones,
// while the two ends stay real (a real pg client, a real server).

import { createServer, Socket, type Server } from 'node:net';

/** One proxied connection: the client's socket and the socket to the server. */
interface Link {
  readonly client: Socket;
  readonly upstream: Socket;
}

/** A running proxy and its fault switches. */
export interface TcpProxy {
  readonly port: number;
  /** The database URL through the proxy for a URL that names 127.0.0.1:5432 (or any host:port). */
  via(url: string): string;
  /** Open connections now. */
  connections(): number;
  /** Connections accepted since the start. */
  accepted(): number;
  /** Ends every open connection, both ways, as a server or a middlebox closing it would. */
  cut(): void;
  /** Resets every open connection (RST to the client, the server's side destroyed). */
  reset(): void;
  /** Holds every byte this many milliseconds before passing it on (0: none), both ways. */
  delay(ms: number): void;
  /** While on, new connections are closed as soon as they arrive (the server "is down"). */
  refuse(on: boolean): void;
  /** Resolves once `n` connections are open (or rejects after `timeoutMs`). */
  waitForConnections(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (host:port) on a free port of 127.0.0.1. */
export async function startTcpProxy(target: { host: string; port: number } = { host: '127.0.0.1', port: 5432 }): Promise<TcpProxy> {
  const links = new Set<Link>();
  let delayMs = 0;
  let refusing = false;
  let total = 0;

  // Passes `from`'s bytes to `to`, in order, each after the delay in force when it arrived.
  const pipe = (from: Socket, to: Socket): void => {
    let chain = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      const wait = delayMs;
      if (wait === 0) {
        chain = chain.then(() => { if (!to.destroyed) to.write(chunk); });
        return;
      }
      chain = chain.then(() => new Promise<void>((r) => setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
        r();
      }, wait)));
    });
    from.on('end', () => { void chain.then(() => to.end()); });
  };

  const server: Server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    total += 1;
    const upstream = new Socket();
    const link: Link = { client, upstream };
    links.add(link);
    const drop = (): void => {
      links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    upstream.connect(target.port, target.host);
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    connections: () => links.size,
    accepted: () => total,
    cut() {
      for (const l of [...links]) {
        links.delete(l);
        l.client.destroy();
        l.upstream.destroy();
      }
    },
    reset() {
      for (const l of [...links]) {
        links.delete(l);
        l.client.resetAndDestroy();
        l.upstream.resetAndDestroy();
      }
    },
    delay(ms) { delayMs = ms; },
    refuse(on) { refusing = on; },
    async waitForConnections(n, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (links.size < n) {
        if (Date.now() > until) throw new Error(`proxy: ${links.size} connection(s) open, waited for ${n}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const l of [...links]) {
        l.client.destroy();
        l.upstream.destroy();
      }
      links.clear();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
