// The embedded data folder is locked against a second process: two real `kiln serve` demos on one
// folder, the second refused with the first one's pid; a lock left by a killed process is taken
// over; a clean stop leaves no lock behind.

import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort, kiln, post, serve, type Served } from './cli-helpers.js';

let tmp: string;
let dataDir: string;
const running: Served[] = [];

async function demo(): Promise<Served> {
  const s = await serve(['--data-dir', dataDir, '--port', String(await freePort()), '--host', '127.0.0.1'], { cwd: tmp, readyMs: 90_000 });
  running.push(s);
  return s;
}

beforeAll(async () => {
  await ensureBuilt();
  tmp = await mkdtemp(join(tmpdir(), 'kiln-lock-'));
  dataDir = join(tmp, 'pgdata');
}, 120_000);

afterAll(async () => {
  for (const s of running) await s.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the embedded data folder lock', () => {
  it('refuses a second demo on the same folder, naming the pid that holds it', async () => {
    const first = await demo();
    const lock = JSON.parse(readFileSync(`${dataDir}.lock`, 'utf8')) as { pid: number };
    expect(lock.pid).toBe(first.pid);
    const second = await kiln(['serve', '--data-dir', dataDir, '--port', String(await freePort())], { cwd: tmp });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`kiln: the embedded data folder ${dataDir} is in use by process ${first.pid}`);
    expect(second.stderr).not.toMatch(/^\s+at /m);
    // The first one still serves.
    const r = await post(first.base, { query: '{ artist(limit: 1, order_by: {artist_id: asc}) { name } }' });
    expect(r.body.errors).toBeUndefined();
    expect(await first.stop()).toBe(0);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  }, 180_000);

  it('takes over the lock of a process that was killed', async () => {
    const first = await demo();
    process.kill(first.pid, 'SIGKILL');
    await first.stop();
    expect(JSON.parse(readFileSync(`${dataDir}.lock`, 'utf8')).pid).toBe(first.pid);
    const next = await demo();
    expect(next.log()).toContain(`taking over the lock of ${dataDir}: process ${first.pid} no longer runs`);
    expect(JSON.parse(readFileSync(`${dataDir}.lock`, 'utf8')).pid).toBe(next.pid);
    const r = await post(next.base, { query: '{ artist(limit: 1, order_by: {artist_id: asc}) { name } }' });
    expect(r.body.data.artist).toHaveLength(1);
    expect(await next.stop()).toBe(0);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  }, 180_000);
});
