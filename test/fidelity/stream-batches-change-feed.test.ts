// A stream subscription fetches its next batch on the refetch interval while its cursor moves, as
// Hasura's streaming poller does (Execute/Subscription/Poll/StreamingQuery.hs polls every stream
// each interval; tests-py test_subscriptions.py TestStreamingSubscription
// test_basic_streaming_subscription_existing_static_data reads 10 existing rows in 5 batches of 2).
// With the change feed on (kiln serve's default), Kiln waited for a commit before the next batch,
// so rows already in the table stopped after the first batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { Client, sleep, startSubsServer, type Msg, type SubsServer } from '../subscriptions/helpers.js';

// One table per protocol, so each test owns its rows.
const TABLES = { 'graphql-ws': 'article_a', 'graphql-transport-ws': 'article_b' } as const;
const SETUP = Object.values(TABLES).map((t) => `
CREATE TABLE ${t} (id serial PRIMARY KEY, title text NOT NULL);
INSERT INTO ${t} (title) SELECT 'Article title ' || i FROM generate_series(1, 10) AS i;`).join('\n');
const METADATA = {
  version: 3,
  sources: [{ name: 'default', kind: 'postgres', configuration: {}, functions: [],
    tables: Object.values(TABLES).map((name) => ({ table: { schema: 'public', name } })) }],
};

let db: TestDatabase;
let kiln: SubsServer;

beforeAll(async () => {
  db = await createTestDatabase('stream_feed', SETUP);
  kiln = await startSubsServer({ metadata: METADATA, databaseUrl: db.url, adminSecret: 'secret', changeFeed: true,
    settings: { liveRefetchMs: 100, streamRefetchMs: 100, changeFeed: true, safetyRefetchMs: 0 } });
});

afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const rows = (m: Msg): unknown => (m.payload as { data: { s: unknown } }).data.s;

describe.each(['graphql-ws', 'graphql-transport-ws'] as const)('a stream over %s on the change feed', (protocol) => {
  it('sends the rows already committed batch after batch, then waits for new ones', async () => {
    const table = TABLES[protocol];
    const c = await Client.open(kiln.wsUrl, protocol);
    await c.init({ 'x-svc-admin-secret': 'secret' });
    c.send({ type: protocol === 'graphql-ws' ? 'start' : 'subscribe', id: '1', payload: {
      query: `subscription ($n: Int!) { s: ${table}_stream(cursor: {initial_value: {id: 0}}, batch_size: $n) { id title } }`, variables: { n: 2 },
    } });
    for (let i = 0; i < 5; i++) {
      const m = await c.next((x) => x.id === '1', 2000);
      expect(rows(m)).toEqual([{ id: 2 * i + 1, title: `Article title ${2 * i + 1}` }, { id: 2 * i + 2, title: `Article title ${2 * i + 2}` }]);
    }
    await sleep(400);
    expect(c.results('1')).toEqual([]);
    await db.exec(`INSERT INTO ${table} (title) VALUES ('Article title 11')`);
    expect(rows(await c.next((x) => x.id === '1', 3000))).toEqual([{ id: 11, title: 'Article title 11' }]);
    c.close();
  });
});
