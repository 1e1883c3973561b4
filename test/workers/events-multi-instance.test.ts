// Event triggers delivered by two `kiln serve` processes on one database, one SIGKILLed while it
// delivers and started again: every captured change reaches the webhook, and an event arrives
// twice only if the killed process had claimed it (a small run of scripts/events-fault.mjs).

import { beforeAll, describe, expect, it } from 'vitest';
import { report, runFault, type FaultResult } from '../../scripts/events-fault.mjs';
import { ensureBuilt } from '../cli/cli-helpers.js';

describe('event delivery across instances with a crash', () => {
  beforeAll(async () => {
    await ensureBuilt();
  });

  it('delivers every event once or more, with duplicates only among the killed instance\'s claims', async () => {
    const lines: string[] = [];
    const log = (line: string): void => { lines.push(line); };
    const r: FaultResult = await runFault({
      instances: 2, changes: 500, batch: 50, killAt: 0.2, restartAfterMs: 1000, latencyMs: [20, 60], retries: 3,
      deadlineMs: 25_000, log,
      // Small pools and batches and a slowish webhook spread the work over both instances for a
      // few seconds, so the victim has calls in flight when it is killed; its claims come back
      // after the lock timeout (3 s here, well above the webhook's 60 ms).
      env: {
        SVC_GRAPHQL_EVENTS_HTTP_POOL_SIZE: '4', SVC_GRAPHQL_EVENTS_FETCH_BATCH_SIZE: '10', SVC_GRAPHQL_EVENTS_FETCH_INTERVAL: '200',
        SVC_GRAPHQL_EVENTS_LOCK_TIMEOUT: '3',
      },
    });
    const status = report(r, log);
    const story = lines.join('\n');
    expect(r.killed.pid, story).not.toBeNull();
    expect(r.killed.inFlight, story).toBeGreaterThan(0);
    expect(r.changes, story).toBe(500);
    expect(r.written, story).toBe(500);
    expect(r.counts.timedOut, story).toBe(false);
    expect(r.counts.delivered, story).toBe(500);
    expect(r.missing, story).toEqual([]);
    expect(r.unknown, story).toEqual([]);
    expect(r.received, story).toBe(500);
    expect(r.unexplained, story).toEqual([]);
    expect(status, story).toBe(0);
  }, 60_000);
});
