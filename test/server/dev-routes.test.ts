// Hasura's developer API (`developer` in SVC_GRAPHQL_ENABLED_APIS, off by default): /dev/ekg,
// /dev/plan_cache, /dev/subscriptions and /dev/subscriptions/extended through a real socket,
// admin only, with the server's own figures.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const SECRET = 'dev-secret';

describe('the /dev endpoints', () => {
  let db: TestDatabase;
  let on: { port: number; close(): Promise<void> };
  let off: { port: number; close(): Promise<void> };
  const get = async (port: number, path: string, role?: string) => {
    const r = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-svc-admin-secret': SECRET, ...(role ? { 'x-svc-role': role } : {}) } });
    return { status: r.status, body: await r.json() as any };
  };

  beforeAll(async () => {
    db = await createTestDatabase('devroutes', 'CREATE TABLE note (id int PRIMARY KEY)');
    const common = { databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 2, stringifyNumericTypes: false, console: false, adminSecret: SECRET };
    on = await serveCommand({ ...common, enabledApis: 'graphql,metadata,developer' });
    off = await serveCommand(common);
  }, 60_000);

  afterAll(async () => {
    await on?.close();
    await off?.close();
    await db?.drop();
  });

  it('answers an admin with the server\'s figures', async () => {
    // One query parsed afresh, then the same text again from the plan cache.
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`http://127.0.0.1:${on.port}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET },
        body: JSON.stringify({ query: '{ __typename }' }) });
      expect(r.status).toBe(200);
    }
    const ekg = await get(on.port, '/dev/ekg');
    expect(ekg.status).toBe(200);
    expect(ekg.body.process.rss_bytes).toBeGreaterThan(1024 * 1024);
    expect(ekg.body.process.uptime_seconds).toBeGreaterThan(0);
    expect(ekg.body.http.requests_in_flight).toBe(1); // this request
    expect(Object.keys(ekg.body.pools)).toContain('default');
    const cache = await get(on.port, '/dev/plan_cache');
    expect(cache.status).toBe(200);
    expect(cache.body.hits).toBeGreaterThanOrEqual(1);
    expect(cache.body.misses).toBeGreaterThanOrEqual(1);
    expect(await get(on.port, '/dev/subscriptions')).toEqual({ status: 200, body: { pollers: 0, cohorts: 0, subscribers: 0 } });
    const extended = await get(on.port, '/dev/subscriptions/extended');
    expect(extended.status).toBe(200);
    expect(extended.body).toMatchObject({ pollers: 0, cohorts: 0, subscribers: 0, sockets: 0 });
  });

  it('refuses other roles, and is not served unless the developer group is on', async () => {
    for (const path of ['/dev/ekg', '/dev/plan_cache', '/dev/subscriptions', '/dev/subscriptions/extended']) {
      expect(await get(on.port, path, 'user')).toEqual({ status: 400, body: { path: '$', error: 'restricted access : admin only', code: 'access-denied' } });
      expect((await get(off.port, path)).status).toBe(404);
    }
  });
});
