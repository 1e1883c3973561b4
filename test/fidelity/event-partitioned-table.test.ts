// An event trigger on a partitioned table names that table in its events, whichever partition the
// row went to: PostgreSQL runs a partitioned table's row trigger on the partition, so the capture
// writes the trigger's own schema and table, not TG_TABLE_NAME (Hasura's trigger function has the
// names written in: Backends/Postgres/DDL/EventTrigger.hs mkTriggerQ; tests-py test_events.py
// TestCreateEventQueryPostgres::test_partitioned_table_basic_insert). Kiln sent the partition's
// name. The clones PostgreSQL keeps on the partitions are not taken for triggers of Kiln's own:
// metadata changes after it (another trigger, deleting it) go through.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startWebhook, type Webhook } from '../workers/webhook-server.js';

const SQL = `CREATE SCHEMA lab;
  CREATE TABLE lab.measurement (city_id int NOT NULL, logdate date NOT NULL, peaktemp int) PARTITION BY RANGE (logdate);
  CREATE TABLE lab.measurement_y2006m02 PARTITION OF lab.measurement FOR VALUES FROM ('2006-02-01') TO ('2006-03-01');
  CREATE TABLE lab.measurement_y2006m03 PARTITION OF lab.measurement FOR VALUES FROM ('2006-03-01') TO ('2006-04-01');
  CREATE TABLE lab.station (id int PRIMARY KEY);`;

describe('event trigger on a partitioned table', () => {
  let server: ServedDatabase;
  let hook: Webhook;
  const measurement = { schema: 'lab', name: 'measurement' };

  beforeAll(async () => {
    hook = await startWebhook(() => ({ status: 200 }));
    server = await serveDatabase('fidevpartition', SQL, {
      eventsFetchInterval: 100, track: [measurement, { schema: 'lab', name: 'station' }],
      metadata: [{ type: 'pg_create_event_trigger', args: { name: 'measured', table: measurement, webhook: hook.url,
        insert: { columns: '*' }, update: { columns: '*' }, delete: { columns: '*' } } }],
    });
  });

  afterAll(async () => {
    await server?.close();
    await hook?.close();
  });

  it('the events name the partitioned table, whichever partition holds the row', async () => {
    const r = await server.gql(`mutation { insert_lab_measurement(objects: [{city_id: 1, logdate: "2006-02-02", peaktemp: 1},
      {city_id: 2, logdate: "2006-03-05", peaktemp: 2}]) { affected_rows } }`);
    expect(r.errors).toBeUndefined();
    await hook.waitFor(2);
    expect(hook.received.map((e) => e.body.table)).toEqual([measurement, measurement]);
    expect(hook.received.map((e) => e.body.event.data.new.city_id).sort()).toEqual([1, 2]);
    const logged = await server.db.query<{ t: string }>("SELECT DISTINCT schema_name || '.' || table_name AS t FROM svc_catalog.event_log");
    expect(logged.map((x) => x.t)).toEqual(['lab.measurement']);
  });

  it('later metadata changes leave the partitions alone, and deleting the trigger removes it everywhere', async () => {
    const other = await server.metadata('pg_create_event_trigger', { name: 'stationed', table: { schema: 'lab', name: 'station' }, webhook: hook.url, insert: { columns: '*' } });
    expect(other.status).toBe(200);
    const del = await server.metadata('pg_delete_event_trigger', { name: 'measured' });
    expect(del.status).toBe(200);
    const left = await server.db.query<{ n: string }>("SELECT tgname AS n FROM pg_trigger WHERE tgname LIKE 'notify\\_svc\\_measured%'");
    expect(left).toEqual([]);
    await server.db.query("INSERT INTO lab.measurement VALUES (3, '2006-02-10', 3)");
    await new Promise((r) => setTimeout(r, 400));
    expect(hook.received).toHaveLength(2);
  });
});
