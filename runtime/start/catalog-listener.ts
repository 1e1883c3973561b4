// Keeps an instance in step with the others on the same catalog: LISTEN on the change channel
// (a notification arrives when another instance commits), with a slow poll of the stored
// resource_version as a safety net for dropped connections. A lost connection is opened again
// with a growing pause (1 s doubling up to 30 s, back to 1 s once LISTEN holds), and every
// reconnect catches up by reading the resource_version at once: a notification sent while the
// connection was down is not lost.

import pg from 'pg';
import { METADATA_CHANNEL } from '../metadata-api/index.js';

export interface CatalogListener {
  close(): Promise<void>;
}

const RECONNECT_MS = 1000;
const RECONNECT_MAX_MS = 30_000;
const POLL_MS = 5000;

/** Calls `changed` when another instance (not `instance`) changed the metadata. */
export function listenForChanges(url: string, instance: string, changed: () => Promise<unknown>, log: (line: string) => void): CatalogListener {
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let pause = RECONNECT_MS;
  const retry = (then: () => void): void => {
    const wait = pause;
    pause = Math.min(pause * 2, RECONNECT_MAX_MS);
    setTimeout(() => { if (!closed) then(); }, wait).unref();
  };
  const check = (): void => {
    changed().catch((e: unknown) => log(`warning: cannot reload the metadata: ${e instanceof Error ? e.message : String(e)}`));
  };
  const connect = async (): Promise<void> => {
    if (closed) return;
    // keepAlive: a connection a middlebox dropped silently ends in an error, not an endless wait.
    const c = new pg.Client({ connectionString: url, keepAlive: true });
    c.on('notification', (n) => {
      if (n.channel !== METADATA_CHANNEL) return;
      try {
        const payload = JSON.parse(n.payload ?? '{}') as { instance?: string };
        if (payload.instance === instance) return;
      } catch { /* an unreadable payload still means: look */ }
      check();
    });
    c.on('error', () => { /* 'end' follows; reconnect there */ });
    c.on('end', () => {
      if (closed || client !== c) return;
      client = null;
      log('warning: lost the metadata change listener connection; reconnecting');
      retry(() => { void connect(); });
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${METADATA_CHANNEL}`);
      if (closed) {
        await c.end().catch(() => undefined);
        return;
      }
      client = c;
      if (pause > RECONNECT_MS) check(); // a reconnect: catch up on what was missed meanwhile
      pause = RECONNECT_MS;
    } catch (e) {
      log(`warning: cannot listen for metadata changes (retrying): ${e instanceof Error ? e.message : String(e)}`);
      await c.end().catch(() => undefined);
      retry(() => { void connect(); });
    }
  };
  void connect();
  timer = setInterval(check, POLL_MS);
  timer.unref();
  return {
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
