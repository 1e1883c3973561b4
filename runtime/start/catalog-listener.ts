// Keeps an instance in step with the others on the same catalog: LISTEN on the change channel
// (a notification arrives when another instance commits), with a slow poll of the stored
// resource_version as a safety net for dropped connections.

import pg from 'pg';
import { METADATA_CHANNEL } from '../metadata-api/index.js';

export interface CatalogListener {
  close(): Promise<void>;
}

const RECONNECT_MS = 1000;
const POLL_MS = 5000;

/** Calls `changed` when another instance (not `instance`) changed the metadata. */
export function listenForChanges(url: string, instance: string, changed: () => Promise<unknown>, log: (line: string) => void): CatalogListener {
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  const check = (): void => {
    changed().catch((e: unknown) => log(`warning: cannot reload the metadata: ${e instanceof Error ? e.message : String(e)}`));
  };
  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({ connectionString: url });
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
      setTimeout(() => { void connect().then(check, () => undefined); }, RECONNECT_MS).unref();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${METADATA_CHANNEL}`);
      client = c;
    } catch (e) {
      log(`warning: cannot listen for metadata changes (retrying): ${e instanceof Error ? e.message : String(e)}`);
      await c.end().catch(() => undefined);
      if (!closed) setTimeout(() => { void connect(); }, RECONNECT_MS).unref();
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
