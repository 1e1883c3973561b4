// Keeps an instance in step with the others on the same catalog: LISTEN on the change channel
// (a notification arrives when another instance commits), with a slow poll of the stored
// resource_version as a safety net for dropped connections. The listening connection is the
// drivers' (listenOn: reconnects from 1 s doubling up to 30 s here), and every reconnect catches
// up by reading the resource_version at once: a notification sent while it was down is not lost.

import { listenOn, type ListenOptions } from '../drivers/index.js';
import { METADATA_CHANNEL } from '../metadata-api/index.js';

export interface CatalogListener {
  close(): Promise<void>;
}

const POLL_MS = 5000;
const CATALOG_LISTEN: ListenOptions = {
  applicationName: 'kiln-metadata-listener', what: 'the metadata change listener', meanwhile: 'reconnecting', reconnectMs: 1000, reconnectMaxMs: 30_000,
};

/** Calls `changed` when another instance (not `instance`) changed the metadata. */
export function listenForChanges(url: string, instance: string, changed: () => Promise<unknown>, log: (line: string) => void): CatalogListener {
  const check = (): void => {
    changed().catch((e: unknown) => log(`warning: cannot reload the metadata: ${e instanceof Error ? e.message : String(e)}`));
  };
  // True until LISTEN holds, and again once it is lost: when it holds (again), the stored
  // resource_version is read at once, for what changed before.
  let lost = true;
  const listener = listenOn(url, METADATA_CHANNEL, {
    notify(payload) {
      try {
        const sent = JSON.parse(payload || '{}') as { instance?: string };
        if (sent.instance === instance) return;
      } catch { /* an unreadable payload still means: look */ }
      check();
    },
    up() {
      if (lost) check();
      lost = false;
    },
    down() {
      lost = true;
    },
  }, log, CATALOG_LISTEN);
  const timer = setInterval(check, POLL_MS);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await listener.close();
    },
  };
}
