// `kiln serve` with no database: embedded PostgreSQL (PGlite) seeded with the Chinook demo once.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort, post, serve, type Served } from './cli-helpers.js';

const SEEDING = 'first start: loading the demo data';
const ARTISTS = '{ artist(limit: 2, order_by: {artist_id: asc}) { name } }';

let tmp: string;
let dataDir: string;
let running: Served | undefined;

/** Starts the demo from a folder outside the repository: the CLI must find its fixtures itself. */
async function startDemo(): Promise<Served> {
  const port = await freePort();
  running = await serve(['--data-dir', dataDir, '--port', String(port), '--host', '127.0.0.1'], { cwd: tmp, readyMs: 60_000 });
  return running;
}

async function stopDemo(): Promise<number | null> {
  const code = await running!.stop();
  running = undefined;
  return code;
}

/** The `-H ... -d '...'` parts of the example curl lines the demo prints. */
function examples(log: string): { headers: Record<string, string>; body: unknown }[] {
  return [...log.matchAll(/^\s+curl -s \S+\/v1\/graphql (.*)$/gm)].map(([, rest]) => {
    const headers = Object.fromEntries([...rest!.matchAll(/-H '([^:]+): ([^']*)'/g)].map((m) => [m[1]!, m[2]!]));
    const body = JSON.parse(/-d '(.*)'$/.exec(rest!)![1]!) as unknown;
    return { headers, body };
  });
}

beforeAll(async () => {
  await ensureBuilt();
  tmp = await mkdtemp(join(tmpdir(), 'kiln-cli-embedded-'));
  // As in a fresh checkout: the parent folder (.kiln) does not exist yet.
  dataDir = join(tmp, '.kiln', 'pgdata');
}, 90_000);

afterAll(async () => {
  if (running) await running.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('kiln serve without a database URL', () => {
  it('starts embedded PostgreSQL, seeds the demo, prints example queries that work', async () => {
    const s = await startDemo();
    expect(s.log()).toContain(`starting embedded PostgreSQL (PGlite) in ${dataDir}`);
    expect(s.log()).toContain(SEEDING);
    const r = await post(s.base, { query: ARTISTS });
    expect(r).toEqual({ status: 200, body: { data: { artist: [{ name: 'AC/DC' }, { name: 'Accept' }] } } });

    await s.waitFor(/X-Svc-Role: customer.*\n/);
    expect(s.log()).toContain(`Open ${s.base}/console`);
    const printed = examples(s.log());
    expect(printed).toHaveLength(3);
    for (const { headers, body } of printed) {
      const answer = await post(s.base, body, headers);
      expect(answer.status, JSON.stringify(body)).toBe(200);
      expect(answer.body.errors, JSON.stringify(body)).toBeUndefined();
      expect(Object.values(answer.body.data as object)[0], JSON.stringify(body)).toBeTruthy();
    }
    // The customer example (X-Svc-Customer-Id: 5) sees exactly customer 5's invoices.
    const mine = await post(s.base, printed[2]!.body, printed[2]!.headers);
    const theirs = await post(s.base, { query: '{ invoice(where: {customer_id: {_eq: 5}}) { invoice_id } all: invoice_aggregate { aggregate { count } } }' });
    const ids = (rows: { invoice_id: number }[]): number[] => rows.map((r) => r.invoice_id).sort((a, b) => a - b);
    expect(ids(mine.body.data.invoice)).toEqual(ids(theirs.body.data.invoice));
    expect(theirs.body.data.invoice.length).toBeGreaterThan(0);
    expect(theirs.body.data.all.aggregate.count).toBeGreaterThan(theirs.body.data.invoice.length);

    expect(await stopDemo()).toBe(0);
  }, 90_000);

  it('reuses the data folder on a second start without seeding again', async () => {
    const s = await startDemo();
    expect(s.log()).toContain(`starting embedded PostgreSQL (PGlite) in ${dataDir}`);
    expect(s.log()).not.toContain(SEEDING);
    expect(await post(s.base, { query: ARTISTS })).toEqual({ status: 200, body: { data: { artist: [{ name: 'AC/DC' }, { name: 'Accept' }] } } });
    const count = await post(s.base, { query: '{ artist_aggregate { aggregate { count } } }' });
    expect(count.body.errors).toBeUndefined();
    expect(count.body.data.artist_aggregate.aggregate.count).toBeGreaterThan(2);
    expect(await stopDemo()).toBe(0);
  }, 90_000);
});
