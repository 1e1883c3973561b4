// The WebSocket service on /v1/graphql: the HTTP server hands it upgrade requests; it picks the
// sub-protocol, serves each socket as a Connection, and on shutdown closes every socket with
// 1001 (going away) and stops every poll.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AuthOptions } from '../auth/index.js';
import type { Driver } from '../drivers/index.js';
import { ChangeFeed } from './change-feed.js';
import { Connection } from './connection.js';
import { Multiplexer, type MultiplexerStats } from './multiplexer.js';
import type { SubscriptionEngine } from './operation.js';
import { CLOSE, LEGACY_PROTOCOL, TRANSPORT_PROTOCOL, chooseProtocol, errorStyleOf, errorsPayload } from './protocol.js';
import { DEFAULT_SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from './settings.js';
import type { WebsocketLog } from './websocket-log.js';

/** What the HTTP server is given to serve subscriptions. */
export interface SubscriptionOptions {
  /** The engine now served; looked up again at every poll, so a swapped engine re-plans subscriptions. */
  readonly engine: () => SubscriptionEngine;
  readonly settings?: Partial<SubscriptionSettings>;
  readonly log?: (line: string) => void;
  /** websocket-log lines (Hasura's shape); absent when that log type is off. */
  readonly wsLog?: WebsocketLog;
  /**
   * The primary driver of each source: where the change feed installs its triggers and LISTENs
   * (drivers that cannot listen have no feed). Absent: no change feed, every subscription polls.
   */
  readonly sources?: () => ReadonlyMap<string, Driver>;
}

/** The running WebSocket service. */
export interface SubscriptionService {
  /** Takes over an HTTP upgrade request for a GraphQL path. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Figures of the pollers and sockets. */
  stats(): MultiplexerStats & { readonly sockets: number };
  /** Closes every socket (1001) and stops every poll. */
  close(): Promise<void>;
}

/** Creates the service; `auth` is the server's session resolution (the same as for HTTP). */
export function createSubscriptionService(opts: SubscriptionOptions, auth: AuthOptions): SubscriptionService {
  const settings: SubscriptionSettings = { ...DEFAULT_SUBSCRIPTION_SETTINGS, ...opts.settings };
  const log = opts.log ?? ((line: string) => { process.stderr.write(`${line}\n`); });
  const feeds = new Map<string, ChangeFeed>();
  const sources = opts.sources;
  // One feed per source (a new one when the source's driver was replaced by a metadata change).
  const feedFor = (source: string): ChangeFeed | null => {
    if (!settings.changeFeed || !sources) return null;
    const driver = sources().get(source);
    if (!driver?.listen || !driver.dialect.can.multiplexing) return null;
    const key = source;
    const existing = feeds.get(key);
    if (existing?.driver === driver) return existing;
    void existing?.close();
    const feed = new ChangeFeed(source, driver, log);
    feeds.set(key, feed);
    return feed;
  };
  const multiplexer = new Multiplexer(settings, errorsPayload, log, feedFor);
  let retiredNotifications = 0;
  multiplexer.notifications = () => retiredNotifications + [...feeds.values()].reduce((n, f) => n + f.notifications, 0);
  const connections = new Set<Connection>();
  const wss = new WebSocketServer({
    noServer: true,
    // Answer with the protocol we speak; a client offering neither gets the legacy one (Hasura's default).
    handleProtocols: (offered) => (offered.has(TRANSPORT_PROTOCOL) ? TRANSPORT_PROTOCOL : offered.has(LEGACY_PROTOCOL) ? LEGACY_PROTOCOL : false),
  });
  let closing = false;

  const accept = (ws: WebSocket, req: IncomingMessage): void => {
    const offered = new Set((req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter(Boolean));
    const c = new Connection(ws, chooseProtocol(offered), req.headers, { engine: opts.engine, auth, multiplexer, settings, log,
      clientIp: req.socket.remoteAddress ?? null, errorStyle: errorStyleOf(new URL(req.url ?? '/', 'http://localhost').pathname),
      relay: new URL(req.url ?? '/', 'http://localhost').pathname === '/v1beta1/relay',
      ...(opts.wsLog ? { wsLog: opts.wsLog } : {}) });
    connections.add(c);
    ws.on('close', () => connections.delete(c));
  };

  return {
    handleUpgrade(req, socket, head) {
      if (closing) {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req));
    },
    stats: () => ({ ...multiplexer.stats(), sockets: connections.size }),
    async close() {
      closing = true;
      for (const c of connections) c.close(CLOSE.goingAway, 'server shutting down');
      connections.clear();
      multiplexer.close();
      for (const f of feeds.values()) {
        retiredNotifications += f.notifications;
        await f.close();
      }
      feeds.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
