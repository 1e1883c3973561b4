// Issue 15 against the built command line, as users run it: while fragment bombs and alias
// floods arrive, `kiln serve` keeps answering /healthz and ends on SIGTERM within its grace period;
// a bad SVC_GRAPHQL_MAX_QUERY_* value stops it before it starts anything.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { aliasFlood, fragmentBomb, LIMITS_SCHEMA, limitsMetadata } from '../server/limits-helpers.js';
import { ensureBuilt, freePort, kiln, serve } from './cli-helpers.js';

let db: TestDatabase;
let dir: string;
let metadataFile: string;

beforeAll(async () => {
  await ensureBuilt();
  db = await createTestDatabase('hostile', LIMITS_SCHEMA);
  dir = await mkdtemp(join(tmpdir(), 'kiln-hostile-'));
  const md = limitsMetadata() as { sources: { configuration: unknown }[] };
  md.sources[0]!.configuration = { connection_info: { database_url: db.url } };
  metadataFile = join(dir, 'metadata.json');
  await writeFile(metadataFile, JSON.stringify(md));
}, 180_000);

afterAll(async () => {
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('kiln serve under hostile requests', () => {
  it('answers /healthz while bombs and floods arrive, refuses them all, and ends on SIGTERM at once', async () => {
    const port = await freePort();
    const server = await serve(['--metadata', metadataFile, '--port', String(port), '--host', '127.0.0.1', '--no-console']);
    let stopped = false;
    try {
      const send = (query: string): Promise<{ errors?: { message: string }[] }> => fetch(`${server.base}/v1/graphql`, {
        method: 'POST', body: JSON.stringify({ query }), headers: { 'content-type': 'application/json', 'x-svc-role': 'user' },
      }).then((r) => r.json() as Promise<{ errors?: { message: string }[] }>);
      const hostile = [...Array.from({ length: 30 }, (_, i) => send(fragmentBomb(20 + (i % 10)))), ...Array.from({ length: 10 }, () => send(aliasFlood(3000)))];
      const start = performance.now();
      const health = await fetch(`${server.base}/healthz`);
      expect([health.status, await health.text()]).toEqual([200, 'OK']);
      expect(performance.now() - start).toBeLessThan(2000);
      for (const r of await Promise.all(hostile)) expect(r.errors?.[0]?.message).toMatch(/^the query (has \d+ (fields|selections)|nests fields)/);
      // Another wave, then SIGTERM while it is in flight: the process ends within the grace period.
      const wave = Array.from({ length: 20 }, () => send(fragmentBomb(29)).catch(() => null));
      const t = performance.now();
      const code = await server.stop();
      stopped = true;
      expect(code).toBe(0);
      expect(performance.now() - t).toBeLessThan(5000);
      await Promise.all(wave);
    } finally {
      if (!stopped) await server.stop();
    }
  });

  it('refuses a SVC_GRAPHQL_MAX_QUERY_* value that is not a positive integer before starting anything (exit 2)', async () => {
    const r = await kiln(['serve', '--metadata', metadataFile, '--port', String(await freePort())], { env: { SVC_GRAPHQL_MAX_QUERY_NODES: 'lots' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('kiln: SVC_GRAPHQL_MAX_QUERY_NODES must be a positive integer, got "lots"\n');
  });
});
