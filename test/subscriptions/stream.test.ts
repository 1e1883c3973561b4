// Streaming subscriptions `<t>_stream`: rows after the cursor, in cursor order, in batches,
// each row once, with the role's row filter and the `where` argument applied.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { Client, sleep, startSubsServer, type Msg, type SubsServer } from './helpers.js';

const SETUP = `
CREATE TABLE event (id serial PRIMARY KEY, room int NOT NULL, owner int NOT NULL, body text NOT NULL);
INSERT INTO event (room, owner, body) SELECT 1 + (i % 2), 1, 'e' || i FROM generate_series(1, 25) AS i;
`;

const METADATA = {
  version: 3,
  sources: [{
    name: 'default', kind: 'postgres', configuration: {}, functions: [],
    tables: [{
      table: { schema: 'public', name: 'event' },
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'room', 'body'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } }],
    }],
  }],
};

let db: TestDatabase;
let kiln: SubsServer;

beforeAll(async () => {
  db = await createTestDatabase('subs_stream', SETUP);
  kiln = await startSubsServer({ metadata: METADATA, databaseUrl: db.url, adminSecret: 'secret' });
});

afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const idsOf = (m: Msg, field = 'event_stream'): number[] => ((m.payload as { data: Record<string, { id: number }[]> }).data[field]!).map((r) => r.id);

async function collect(c: Client, id: string, until: (ids: number[]) => boolean, field?: string): Promise<number[]> {
  const all: number[] = [];
  while (!until(all)) all.push(...idsOf(await c.next((m) => m.id === id), field));
  return all;
}

describe.each(['graphql-transport-ws', 'graphql-ws'] as const)('streaming over %s', (protocol) => {
  const start = protocol === 'graphql-ws' ? 'start' : 'subscribe';

  it('sends every row after the cursor once, in order, in batches, then new rows as they commit', async () => {
    const c = await Client.open(kiln.wsUrl, protocol);
    await c.init({ 'x-svc-admin-secret': 'secret', 'x-svc-role': 'user', 'x-svc-user-id': '1' });
    c.send({ type: start, id: 's', payload: { query: 'subscription { event_stream(batch_size: 4, cursor: {initial_value: {id: 3}, ordering: ASC}) { id body } }' } });
    const expected = (await db.query<{ id: number }>('SELECT id FROM event WHERE owner = 1 AND id > 3 ORDER BY id')).map((r) => r.id);
    const first = await c.next((m) => m.id === 's');
    expect(idsOf(first)).toEqual([4, 5, 6, 7]);
    const rest = await collect(c, 's', (ids) => ids.length + 4 >= expected.length);
    expect([...idsOf(first), ...rest]).toEqual(expected);
    // New rows in several commits, and one of another owner (filtered out by the permission).
    await db.exec(`INSERT INTO event (room, owner, body) VALUES (1, 1, 'n1'), (1, 2, 'other'), (2, 1, 'n2')`);
    await db.exec(`INSERT INTO event (room, owner, body) VALUES (1, 1, 'n3')`);
    const more = await collect(c, 's', (ids) => ids.length >= 3);
    const max = (await db.query<{ max: number }>('SELECT max(id) AS max FROM event'))[0]!.max;
    expect(more).toEqual([max - 3, max - 1, max]);
    await sleep(300);
    expect(c.results('s')).toEqual([]);
    c.close();
  });

  it('streams in descending order with a where filter and an alias', async () => {
    const c = await Client.open(kiln.wsUrl, protocol);
    await c.init({ 'x-svc-admin-secret': 'secret' });
    c.send({ type: start, id: 'd', payload: {
      query: 'subscription ($w: event_bool_exp) { evs: event_stream(batch_size: 5, cursor: [{initial_value: {id: 12}, ordering: DESC}], where: $w) { id room } }',
      variables: { w: { room: { _eq: 1 } } },
    } });
    const ids = await collect(c, 'd', (all) => all.includes(2), 'evs');
    expect(ids).toEqual([10, 8, 6, 4, 2]);
    c.close();
  });
});
