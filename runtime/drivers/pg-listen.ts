// LISTEN on one channel over a dedicated connection (never one of the pool's: a pooled session
// would hand its LISTEN to whichever call checks it out next). A lost connection is opened again
// with a growing pause (250 ms doubling up to 5 s, back to the start once LISTEN holds); the
// caller is told when listening stops and starts holding, so it can fall back to polling and
// catch up on what it missed.

import pg from 'pg';
import { compileSql, ident, postgres } from '../sql/index.js';
import type { ChannelListener, ListenHandlers } from './driver.js';

const RECONNECT_MS = 250;
const RECONNECT_MAX_MS = 5000;
/** application_name of the listening session (pg_stat_activity shows what it is). */
export const LISTENER_APPLICATION_NAME = 'kiln-change-feed';

/** Listens on `channel` of the database at `url`. */
export function listenOn(url: string, channel: string, h: ListenHandlers, log: (line: string) => void): ChannelListener {
  const listen = `LISTEN ${compileSql(ident(channel), postgres).text}`;
  let client: pg.Client | null = null;
  let closed = false;
  let pause = RECONNECT_MS;
  let warned = false;
  const retry = (): void => {
    const wait = pause;
    pause = Math.min(pause * 2, RECONNECT_MAX_MS);
    setTimeout(() => { void connect(); }, wait).unref();
  };
  const connect = async (): Promise<void> => {
    if (closed) return;
    // keepAlive: a connection a middlebox dropped silently ends in an error, not an endless wait.
    const c = new pg.Client({ connectionString: url, keepAlive: true, application_name: LISTENER_APPLICATION_NAME });
    c.on('notification', (n) => {
      if (n.channel === channel && client === c) h.notify(n.payload ?? '');
    });
    c.on('error', () => { /* 'end' follows; reconnect there */ });
    c.on('end', () => {
      if (closed || client !== c) return;
      client = null;
      h.down();
      log(`warning: lost the change feed connection (LISTEN ${channel}); polling until it is back`);
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
      pause = RECONNECT_MS;
      warned = false;
      h.up();
    } catch (e) {
      if (!warned) log(`warning: cannot LISTEN for changes (retrying, polling meanwhile): ${e instanceof Error ? e.message : String(e)}`);
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
