// LISTEN on one channel over a dedicated connection (never one of the pool's: a pooled session
// would hand its LISTEN to whichever call checks it out next). A lost connection is opened again
// with a growing pause (doubling from `reconnectMs` up to `reconnectMaxMs`, back to the start once
// LISTEN holds); the caller is told when listening stops and starts holding, so it can fall back
// to polling and catch up on what it missed. Used by the change feed of live queries and by the
// catalog's metadata-change listener.

import pg from 'pg';
import { compileSql, ident, postgres } from '../sql/index.js';
import type { ChannelListener, ListenHandlers } from './driver.js';

/** How a listener reconnects, names its session and words its warnings. */
export interface ListenOptions {
  /** application_name of the listening session (pg_stat_activity shows what it is). */
  readonly applicationName: string;
  /** What listens, for the warnings ("the change feed"). */
  readonly what: string;
  /** What happens while the connection is down, for the warnings ("polling until it is back"). */
  readonly meanwhile: string;
  readonly reconnectMs: number;
  readonly reconnectMaxMs: number;
}

/** The change feed of live queries: quick to reconnect, since subscribers poll meanwhile. */
export const CHANGE_FEED_LISTEN: ListenOptions = {
  applicationName: 'kiln-change-feed', what: 'the change feed', meanwhile: 'polling until it is back', reconnectMs: 250, reconnectMaxMs: 5000,
};

/** Listens on `channel` of the database at `url`. */
export function listenOn(url: string, channel: string, h: ListenHandlers, log: (line: string) => void, o: ListenOptions = CHANGE_FEED_LISTEN): ChannelListener {
  const listen = `LISTEN ${compileSql(ident(channel), postgres).text}`;
  let client: pg.Client | null = null;
  let closed = false;
  let pause = o.reconnectMs;
  let warned = false;
  const retry = (): void => {
    const wait = pause;
    pause = Math.min(pause * 2, o.reconnectMaxMs);
    setTimeout(() => { void connect(); }, wait).unref();
  };
  const connect = async (): Promise<void> => {
    if (closed) return;
    // keepAlive: a connection a middlebox dropped silently ends in an error, not an endless wait.
    const c = new pg.Client({ connectionString: url, keepAlive: true, application_name: o.applicationName });
    c.on('notification', (n) => {
      if (n.channel === channel && client === c) h.notify(n.payload ?? '');
    });
    c.on('error', () => { /* 'end' follows; reconnect there */ });
    c.on('end', () => {
      if (closed || client !== c) return;
      client = null;
      h.down();
      log(`warning: lost the connection of ${o.what} (LISTEN ${channel}); ${o.meanwhile}`);
      retry();
    });
    try {
      await c.connect();
      await c.query(listen);
      if (closed) {
        await c.end().catch(() => undefined);
        return;
      }
      client = c;
      pause = o.reconnectMs;
      warned = false;
      h.up();
    } catch (e) {
      if (!warned) log(`warning: ${o.what} cannot LISTEN (retrying; ${o.meanwhile}): ${e instanceof Error ? e.message : String(e)}`);
      warned = true;
      await c.end().catch(() => undefined);
      retry();
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
