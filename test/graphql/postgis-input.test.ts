// PostGIS values in GraphQL arguments, as Hasura v2 reads them: a geometry or geography value is
// GeoJSON, checked before it reaches the database (a bad shape is parse-failed at the argument
// holding it, in Hasura's words), on inserts and on updates alike; raster columns filter with
// the three ST_Intersects forms.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('PostGIS values in GraphQL arguments', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = async (path: string, body: unknown): Promise<any> => (await server.post(path, body)).body;
  const gql = (query: string, variables: Record<string, unknown> = {}) => post('/v1/graphql', { query, variables });
  const parseFailed = (message: string, path: string) => ({ errors: [{ message, extensions: { code: 'parse-failed', path } }] });

  beforeAll(async () => {
    server = await serveDatabase('postgisin');
    db = server.db;
    const setup = await post('/v1/query', { type: 'bulk', args: [
      { type: 'run_sql', args: { sql: `CREATE EXTENSION IF NOT EXISTS postgis; CREATE EXTENSION IF NOT EXISTS postgis_raster;
        CREATE TABLE field (id serial PRIMARY KEY, name text, outline geometry(Polygon, 4326), gate geography(Point));
        CREATE TABLE tile (id serial PRIMARY KEY, img raster);
        INSERT INTO tile (img) VALUES (ST_AsRaster(ST_Buffer(ST_GeomFromText('POINT(10 10)', 4326), 1), 4, 4)),
                                      (ST_AsRaster(ST_Buffer(ST_GeomFromText('POINT(50 50)', 4326), 1), 4, 4));` } },
      { type: 'track_table', args: { table: 'field' } },
      { type: 'track_table', args: { table: 'tile' } },
    ] });
    expect(setup).toHaveLength(3);
  }, 60_000);
  afterAll(() => server?.close());

  const square = { type: 'Polygon', coordinates: [[[0, 0], [0, 2], [2, 2], [2, 0], [0, 0]]], crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4326' } } };

  it('inserts GeoJSON into geometry and geography columns, from a variable and from a literal', async () => {
    const r = await gql('mutation ($o: [field_insert_input!]!) { insert_field(objects: $o) { returning { name outline gate } } }',
      { o: [{ name: 'north', outline: square, gate: { type: 'Point', coordinates: [1, 0] } }] });
    expect(r.data.insert_field.returning[0].outline.coordinates).toEqual(square.coordinates);
    expect(r.data.insert_field.returning[0].gate).toMatchObject({ type: 'Point', coordinates: [1, 0] });
    const lit = await gql('mutation { insert_field_one(object: {name: "south", gate: {type: "Point", coordinates: [5, 6]}}) { gate } }');
    expect(lit.data.insert_field_one.gate).toMatchObject({ type: 'Point', coordinates: [5, 6] });
    expect(await db.query("SELECT ST_AsText(gate::geometry) AS g FROM field WHERE name = 'south'")).toEqual([{ g: 'POINT(5 6)' }]);
    // null is no shape to check: the column is simply null.
    const none = await gql('mutation ($o: field_insert_input!) { insert_field_one(object: $o) { name gate } }', { o: { name: 'none', gate: null } });
    expect(none).toEqual({ data: { insert_field_one: { name: 'none', gate: null } } });
  });

  it('refuses bad GeoJSON on insert at the column of the object, and writes nothing', async () => {
    const before = (await db.query('SELECT count(*)::int AS n FROM field'))[0];
    expect(await gql('mutation ($o: [field_insert_input!]!) { insert_field(objects: $o) { affected_rows } }',
      { o: [{ name: 'ok' }, { name: 'bad', outline: { type: 'Polygon', coordinates: [[[0, 0], [0, 2], [2, 2]]] } }] }))
      .toEqual(parseFailed('A LinearRing needs at least 4 Positions', '$.selectionSet.insert_field.args.objects[1].outline'));
    expect(await gql('mutation { insert_field_one(object: {gate: {type: "Point", coordinates: [1]}}) { id } }'))
      .toEqual(parseFailed('A Position needs at least 2 elements', '$.selectionSet.insert_field_one.args.object.gate'));
    expect(await gql('mutation { insert_field_one(object: {gate: {type: "Circle", coordinates: [1, 2]}}) { id } }'))
      .toEqual(parseFailed('unexpected geometry type: Circle', '$.selectionSet.insert_field_one.args.object.gate'));
    expect((await db.query('SELECT count(*)::int AS n FROM field'))[0]).toEqual(before);
  });

  it('checks GeoJSON in an update\'s _set the same way, and applies a good one', async () => {
    const open = { type: 'Polygon', coordinates: [[[0, 0], [0, 3], [3, 3], [3, 0], [1, 1]]] };
    expect(await gql('mutation ($s: field_set_input) { update_field(where: {name: {_eq: "north"}}, _set: $s) { affected_rows } }', { s: { outline: open } }))
      .toEqual(parseFailed('the first and last locations have to be equal for a LinearRing', '$.selectionSet.update_field.args._set.outline'));
    expect(await gql('mutation { update_field(where: {}, _set: {gate: {type: "LineString", coordinates: [[1, 1]]}}) { affected_rows } }'))
      .toEqual(parseFailed('A LineString needs at least 2 Positions', '$.selectionSet.update_field.args._set.gate'));
    const ok = await gql('mutation { update_field(where: {name: {_eq: "south"}}, _set: {gate: {type: "Point", coordinates: [7, 8]}}) { returning { gate } } }');
    expect(ok.data.update_field.returning[0].gate).toMatchObject({ coordinates: [7, 8] });
  });

  it('filters raster columns by ST_Intersects with a raster, a geometry and band, a band and a geometry', async () => {
    const near = { type: 'Point', coordinates: [10, 10], crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4326' } } };
    const ids = async (vars: string, where: string, variables: Record<string, unknown>) => {
      const r = await gql(`query (${vars}) { tile(where: ${where}, order_by: {id: asc}) { id } }`, variables);
      return r.data?.tile.map((t: any) => t.id) ?? r;
    };
    expect(await ids('$p: geometry!', '{img: {_st_intersects_geom_nband: {geommin: $p}}}', { p: near })).toEqual([1]);
    expect(await ids('$p: geometry!', '{img: {_st_intersects_nband_geom: {nband: 1, geommin: $p}}}', { p: near })).toEqual([1]);
    const img = (await db.query('SELECT img::text AS img FROM tile WHERE id = 2'))[0]?.['img'];
    expect(await ids('$r: raster', '{img: {_st_intersects_rast: $r}}', { r: img })).toEqual([2]);
    // The operands' input types carry Hasura's names (Backends/Postgres/Instances/Schema.hs
    // intersectsGeomNbandInput, intersectsNbandGeomInput), so a variable may be declared with them.
    expect(await ids('$o: st_intersects_geom_nband_input!', '{img: {_st_intersects_geom_nband: $o}}', { o: { geommin: near } })).toEqual([1]);
    expect(await ids('$o: st_intersects_nband_geom_input!', '{img: {_st_intersects_nband_geom: $o}}', { o: { nband: 1, geommin: near } })).toEqual([1]);
    const exp = await gql('{ __type(name: "raster_comparison_exp") { inputFields { name type { name } } } }');
    const operand = (name: string) => exp.data.__type.inputFields.find((f: any) => f.name === name)?.type.name;
    expect([operand('_st_intersects_geom_nband'), operand('_st_intersects_nband_geom')]).toEqual(['st_intersects_geom_nband_input', 'st_intersects_nband_geom_input']);
  });

  it('refuses raster text that is not hex well-known binary before any SQL, from a variable and a literal, on queries and inserts', async () => {
    const msg = 'invalid hexadecimal representation of raster well known binary format';
    expect(await gql('query ($r: raster) { tile(where: {img: {_st_intersects_rast: $r}}) { id } }', { r: 'not a raster' }))
      .toEqual(parseFailed(msg, '$.selectionSet.tile.args.where.img._st_intersects_rast'));
    expect(await gql('query { tile(where: {img: {_st_intersects_rast: "abc"}}) { id } }'))
      .toEqual(parseFailed(msg, '$.selectionSet.tile.args.where.img._st_intersects_rast'));
    expect(await gql('mutation ($r: raster) { insert_tile(objects: [{img: $r}]) { affected_rows } }', { r: '0g' }))
      .toEqual(parseFailed(msg, '$.selectionSet.insert_tile.args.objects[0].img'));
    expect(await db.query('SELECT count(*)::int AS n FROM tile')).toEqual([{ n: 2 }]);
  });
});
