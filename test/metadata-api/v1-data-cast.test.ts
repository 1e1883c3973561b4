// `$cast` in the v1 query API's boolean expressions (Hasura v1): the operators apply to the column
// cast to another type, between geometry and geography and from jsonb to text; any other cast is
// refused at the `$cast` key. Shown on select, count and delete.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('$cast in v1 boolean expressions', () => {
  let server: ServedDatabase;
  const post = (body: unknown): Promise<{ status: number; body: any }> => server.post('/v1/query', body);
  const near = { $cast: { geography: { $st_d_within: { distance: 200000, from: { type: 'Point', coordinates: [2.35, 48.85] } } } } };

  beforeAll(async () => {
    server = await serveDatabase('v1cast', `CREATE EXTENSION IF NOT EXISTS postgis;
      CREATE TABLE stop (id int PRIMARY KEY, name text, at geometry(Point, 4326), tags jsonb);
      INSERT INTO stop VALUES (1, 'Paris', ST_SetSRID(ST_MakePoint(2.35, 48.85), 4326), '{"zone": 1}'),
        (2, 'Orleans', ST_SetSRID(ST_MakePoint(1.9, 47.9), 4326), '{"zone": 2}'),
        (3, 'Lyon', ST_SetSRID(ST_MakePoint(4.83, 45.76), 4326), '"plain"');`);
    expect((await post({ type: 'track_table', args: { table: 'stop' } })).status).toBe(200);
  }, 60_000);
  afterAll(() => server?.close());

  it('filters a geometry column by a geography distance, on select and count', async () => {
    expect((await post({ type: 'select', args: { table: 'stop', columns: ['name'], where: { at: near }, order_by: ['id'] } })).body)
      .toEqual([{ name: 'Paris' }, { name: 'Orleans' }]);
    expect((await post({ type: 'count', args: { table: 'stop', where: { at: near } } })).body).toEqual({ count: 2 });
  });

  it('compares jsonb as text, and deletes by it', async () => {
    expect((await post({ type: 'select', args: { table: 'stop', columns: ['id'], where: { tags: { $cast: { text: { $like: '%zone%' } } } } } })).body)
      .toEqual([{ id: 1 }, { id: 2 }]);
    expect((await post({ type: 'delete', args: { table: 'stop', where: { tags: { $cast: { text: { $eq: '"plain"' } } } } } })).body).toEqual({ affected_rows: 1 });
  });

  it('refuses a cast it does not know at the $cast key', async () => {
    expect(await post({ type: 'count', args: { table: 'stop', where: { at: { $cast: { integer: { $eq: 1 } } } } } })).toEqual({ status: 400, body: {
      path: "$.args.where.at['$cast']", code: 'unexpected-payload', error: 'cannot cast column of type "geometry" to type "integer"' } });
  });
});
