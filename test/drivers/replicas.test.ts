// The read-replica driver over real PostgreSQL pools: reads go to the replicas at random, a
// replica that cannot be reached is skipped (and tried again after its pause), the primary answers
// when none is up, and a statement error is the caller's answer, not a reason to read elsewhere.
// Two test databases stand in for two replicas here (each answers its own name); the streaming
// replica itself is tested in test/integration/read-replica.test.ts.

import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, createReplicaReader, type Driver } from '../../runtime/drivers/index.js';
import { PG_ROOT, createTestDatabase, type TestDatabase } from '../helpers/database.js';

const WHO = 'SELECT current_database()::text';

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('read replica driver', () => {
  const dbs: TestDatabase[] = [];
  const drivers: Driver[] = [];
  const open = (url: string): Driver => {
    const d = createPgDriver({ url, max: 2, log: () => undefined });
    drivers.push(d);
    return d;
  };

  beforeAll(async () => {
    for (const name of ['primary', 'replica_a', 'replica_b']) dbs.push(await createTestDatabase(`rr_${name}`));
  });
  afterAll(async () => {
    for (const d of drivers) await d.close().catch(() => undefined);
    for (const db of dbs) await db.drop();
  });

  it('spreads reads over the replicas at random and never reads the primary while they are up', async () => {
    const [primary, a, b] = dbs.map((db) => open(db.url));
    const reader = createReplicaReader({ primary: primary!, replicas: [a!, b!], log: () => undefined });
    const seen = new Map<string, number>();
    for (let i = 0; i < 40; i++) {
      const who = await reader.queryText(WHO, []);
      seen.set(who, (seen.get(who) ?? 0) + 1);
    }
    expect([...seen.keys()].sort()).toEqual([dbs[1]!.name, dbs[2]!.name].sort());
    expect(seen.get(dbs[1]!.name)! + seen.get(dbs[2]!.name)!).toBe(40);
  });

  it('skips a replica that refuses connections, reads it again after its pause, and falls back to the primary when none is up', async () => {
    const port = await closedPort();
    const [primary, a] = dbs.map((db) => open(db.url));
    const down = open(`postgres://postgres@127.0.0.1:${port}/nothing`);
    const lines: string[] = [];
    const reader = createReplicaReader({ primary: primary!, replicas: [down, a!], backoffMs: 300, log: (l) => lines.push(l), random: () => 0 });
    // random() = 0 always picks the first replica that is up: the broken one, until it is left out.
    expect(await reader.queryText(WHO, [])).toBe(dbs[1]!.name);
    expect(reader.status().map((s) => s.up)).toEqual([false, true]);
    expect(lines.join('\n')).toMatch(/unreachable .*300 ms/);
    expect(await reader.query(WHO)).toMatchObject({ rows: [[dbs[1]!.name]] });
    await new Promise((r) => setTimeout(r, 350));
    expect(reader.status().map((s) => s.up)).toEqual([true, true]);
    expect(await reader.queryText(WHO, [])).toBe(dbs[1]!.name);
    // Failed twice in a row: the pause doubles.
    expect(lines.at(-1)).toMatch(/600 ms/);

    const alone = createReplicaReader({ primary: primary!, replicas: [down], backoffMs: 300, log: () => undefined });
    expect(await alone.queryText(WHO, [])).toBe(dbs[0]!.name);
    expect(await alone.transaction((tx) => tx.queryText(WHO, []))).toBe(dbs[0]!.name);
  });

  it('answers a statement error from the replica without reading elsewhere', async () => {
    const [primary, a] = dbs.map((db) => open(db.url));
    const reader = createReplicaReader({ primary: primary!, replicas: [a!], log: () => undefined });
    await expect(reader.queryText('SELECT 1/0', [])).rejects.toMatchObject({ code: 'data-exception' });
    expect(reader.status()).toEqual([{ label: 'replica 1', up: true, retryAt: null }]);
  });

  it('closes its replicas but not the primary it was given', async () => {
    const primary = open(dbs[0]!.url);
    const reader = createReplicaReader({ primary, replicas: [createPgDriver({ url: `${PG_ROOT}/${dbs[1]!.name}`, max: 1 })], log: () => undefined });
    await reader.queryText(WHO, []);
    await reader.close();
    expect(await primary.queryText(WHO, [])).toBe(dbs[0]!.name);
  });
});
