// GET /dev/ekg, /dev/plan_cache, /dev/subscriptions and /dev/subscriptions/extended: Hasura's
// developer API (group `developer`, off by default, admin only), for looking inside a running
// server. Kiln's answers are its own figures: the process (memory, CPU, uptime), the requests in
// flight, the connection pools, the plan cache's hits and misses, and the subscription pollers.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthOptions } from '../auth/index.js';
import { handleAdminRead } from './admin-read.js';
import type { ServerMetrics } from './metrics.js';

interface Route {
  readonly group: 'developer';
  readonly methods: { readonly GET: (req: IncomingMessage, res: ServerResponse) => Promise<void> };
}

/** The process and server figures of /dev/ekg. */
function ekg(metrics: ServerMetrics): Record<string, unknown> {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const view = metrics.developerView();
  return {
    process: { uptime_seconds: process.uptime(), rss_bytes: memory.rss, heap_used_bytes: memory.heapUsed, heap_total_bytes: memory.heapTotal,
      external_bytes: memory.external, cpu_user_seconds: cpu.user / 1e6, cpu_system_seconds: cpu.system / 1e6 },
    http: { requests_in_flight: view.httpInFlight },
    pools: view.pools,
    events: { webhook_calls_in_flight: view.eventsInFlight },
  };
}

/** The /dev routes, each answered to an admin only (400 `access-denied` otherwise). */
export function developerRoutes(auth: AuthOptions, metrics: ServerMetrics): [string, Route][] {
  const route = (answer: () => unknown): Route => ({ group: 'developer', methods: { GET: (req, res) => handleAdminRead(req, res, auth, answer) } });
  const subscriptions = () => metrics.developerView().subscriptions ?? { pollers: 0, cohorts: 0, subscribers: 0, sockets: 0 };
  return [
    ['/dev/ekg', route(() => ekg(metrics))],
    ['/dev/plan_cache', route(() => metrics.developerView().planCache ?? { hits: 0, misses: 0 })],
    ['/dev/subscriptions', route(() => {
      const s = subscriptions();
      return { pollers: s.pollers, cohorts: s.cohorts, subscribers: s.subscribers };
    })],
    ['/dev/subscriptions/extended', route(subscriptions)],
  ];
}
