// A run_sql that changes a table's columns rewrites the capture triggers of the table's event
// triggers for the new columns, even though the metadata stays the same: Hasura drops the
// source's event triggers before the statements and recreates every one after them
// (Backends/Postgres/DDL/RunSQL.hs withMetadataCheck: recreateEventTriggers, mkAllTriggersQ with
// the new column types). So with stringified numbers, a column turned into bigint, or a numeric
// column added, travels as a string in the next event. Kiln kept the function written for the
// old columns, which sent the bigint as a number and the new numeric as row_to_json printed it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startWebhook, type Received, type Webhook } from '../workers/webhook-server.js';

describe('capture triggers follow a column change made by run_sql', () => {
  let server: ServedDatabase;
  let hook: Webhook;

  beforeAll(async () => {
    hook = await startWebhook(() => ({ status: 200 }));
    server = await serveDatabase('fidevddl', 'CREATE SCHEMA lab; CREATE TABLE lab.meter (id int PRIMARY KEY, reading int);', {
      stringifyNumericTypes: true, eventsFetchInterval: 100,
      track: [{ schema: 'lab', name: 'meter' }],
      metadata: [{ type: 'pg_create_event_trigger', args: { name: 'metered', table: { schema: 'lab', name: 'meter' }, webhook: `${hook.url}/m`,
        insert: { columns: '*' } } }],
    });
  });

  afterAll(async () => {
    await server?.close();
    await hook?.close();
  });

  const next = async (id: number | string): Promise<Received> => {
    for (let i = 0; i < 100; i++) {
      const found = hook.received.find((r) => r.body?.event?.data?.new?.id === id);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no event for row ${id}`);
  };

  it('a type changed to bigint and an added numeric column are written as strings', async () => {
    await server.db.query('INSERT INTO lab.meter VALUES (1, 10)');
    expect((await next(1)).body.event.data.new).toEqual({ id: 1, reading: 10 });
    const alter = await server.post('/v2/query', { type: 'run_sql', args: {
      sql: 'ALTER TABLE lab.meter ALTER COLUMN reading TYPE bigint; ALTER TABLE lab.meter ADD COLUMN rate numeric' } });
    expect(alter.status).toBe(200);
    await server.db.query("INSERT INTO lab.meter VALUES (2, 20, '1.50')");
    expect((await next(2)).body.event.data.new).toEqual({ id: 2, reading: '20', rate: '1.50' });
  });
});
