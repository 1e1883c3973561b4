// An event's row values are written as the engine writes the column everywhere else: with
// stringified numbers (SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES) bigint, numeric, float8 and money
// travel as strings, and PostGIS values as GeoJSON with 15 digits and the long CRS name, in `new`
// and `old` alike and in a payload column list. Hasura builds the trigger's row with the same
// toJSONableExp as its queries (Backends/Postgres/DDL/EventTrigger.hs mkTriggerQ; tests-py
// test_events.py TestEventDataFormat: test_bigint expects "50755254975729665", test_geojson the
// long CRS). Kiln sent row_to_json's values (bigint as a number, geography as hex EWKB). A column
// dropped later (the trigger takes every column) is left out, and the change still commits.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startWebhook, type Received, type Webhook } from '../workers/webhook-server.js';

const SQL = `CREATE EXTENSION IF NOT EXISTS postgis;
  CREATE SCHEMA lab;
  CREATE TABLE lab.reading (id bigint PRIMARY KEY, amount numeric, ratio float8, n int, note text, place geography(Point));`;

const LONG_CRS = { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4326' } };

describe.each([true, false])('event row values, stringified numbers %s', (stringify) => {
  let server: ServedDatabase;
  let hook: Webhook;
  const num = (text: string, n: number): string | number => (stringify ? text : n);

  beforeAll(async () => {
    hook = await startWebhook(() => ({ status: 200 }));
    server = await serveDatabase('fidevvalues', SQL, {
      stringifyNumericTypes: stringify, eventsFetchInterval: 100,
      track: [{ schema: 'lab', name: 'reading' }],
      metadata: [
        { type: 'pg_create_event_trigger', args: { name: 'every', table: { schema: 'lab', name: 'reading' }, webhook: `${hook.url}/every`,
          insert: { columns: '*' }, update: { columns: '*' }, delete: { columns: '*' } } },
        { type: 'pg_create_event_trigger', args: { name: 'some', table: { schema: 'lab', name: 'reading' }, webhook: `${hook.url}/some`,
          update: { columns: ['note'], payload: ['id', 'n', 'ratio'] } } },
      ],
    });
  });

  afterAll(async () => {
    await server?.close();
    await hook?.close();
  });

  const next = async (path: string, op: string): Promise<Received> => {
    for (let i = 0; i < 100; i++) {
      const found = hook.received.find((r) => r.url === path && r.body?.event?.op === op);
      if (found) {
        hook.received.splice(hook.received.indexOf(found), 1);
        return found;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${op} event at ${path}`);
  };

  it('insert, update and delete carry the values as the engine writes them', async () => {
    const r = await server.gql(`mutation { insert_lab_reading_one(object: {id: "50755254975729665", amount: "1.50", ratio: 0.25, n: 3, note: "a",
      place: {type: "Point", coordinates: [-43.77, 45.64]}}) { id } }`);
    expect(r.errors).toBeUndefined();
    const place = { type: 'Point', crs: LONG_CRS, coordinates: [-43.77, 45.64] };
    const row = { id: num('50755254975729665', 50755254975729665), amount: num('1.50', 1.5), ratio: num('0.25', 0.25), n: 3, note: 'a', place };
    const inserted = await next('/every', 'INSERT');
    expect(inserted.body.event.data).toEqual({ old: null, new: row });
    // The digits travel whole: as a JSON string when stringified, else as the number PostgreSQL printed.
    expect(inserted.text).toMatch(stringify ? /"id": ?"50755254975729665"/ : /"id": ?50755254975729665[,}]/);

    await server.gql('mutation { update_lab_reading(where: {}, _set: {note: "b"}) { affected_rows } }');
    const updated = await next('/every', 'UPDATE');
    expect(updated.body.event.data).toEqual({ old: row, new: { ...row, note: 'b' } });
    const listed = await next('/some', 'UPDATE');
    const picked = { id: row.id, n: 3, ratio: row.ratio };
    expect(listed.body.event.data).toEqual({ old: picked, new: picked });

    await server.gql('mutation { delete_lab_reading(where: {}) { affected_rows } }');
    expect((await next('/every', 'DELETE')).body.event.data).toEqual({ old: { ...row, note: 'b' }, new: null });
  });

  it('rendered columns dropped later are left out, and writes still commit', async () => {
    const drop = await server.post('/v1/query', { type: 'run_sql', args: { sql: 'ALTER TABLE lab.reading DROP COLUMN amount, DROP COLUMN place' } });
    expect(drop.status).toBe(200);
    // The database trigger of `every` is not written again by the drop: its function must cope.
    await server.db.query("INSERT INTO lab.reading (id, n, note) VALUES (7, 1, 'x')");
    const ev = await next('/every', 'INSERT');
    expect(ev.body.event.data.new).toEqual({ id: num('7', 7), ratio: null, n: 1, note: 'x' });
  });
});
