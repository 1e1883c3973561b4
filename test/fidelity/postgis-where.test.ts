// PostGIS operators in a request's `where`, as Hasura v2 offers them (Backends/Postgres/Instances/
// Schema.hs, `comparisonExps`): geometry columns take `_st_contains`, `_st_crosses`, `_st_equals`,
// `_st_intersects`, `_st_3d_intersects`, `_st_overlaps`, `_st_touches`, `_st_within`,
// `_st_d_within` and `_st_3d_d_within`; geography columns `_st_intersects` and `_st_d_within`
// (with `use_spheroid`, default true); both `_cast` to the other type. Operands are GeoJSON, checked
// before any SQL runs (parse-failed at the operand), in queries, aggregates, updates and deletes
// alike; permission filters take the 3D operators too.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, metadataOf, table } from '../integration/setup.js';

let db: TestDatabase;
let kiln: TestKiln;

const point = (...coordinates: number[]) => ({ type: 'Point', coordinates });
const square = (x0: number, y0: number, x1: number, y1: number) => ({ type: 'Polygon', coordinates: [[[x0, y0], [x0, y1], [x1, y1], [x1, y0], [x0, y0]]] });

beforeAll(async () => {
  db = await createTestDatabase('fidpostgiswhere', `CREATE EXTENSION IF NOT EXISTS postgis;
    CREATE TABLE depot (id serial PRIMARY KEY, name text NOT NULL, site geometry(Point, 4326));
    INSERT INTO depot (name, site) VALUES ('north', ST_GeomFromText('POINT(1 1)', 4326)), ('south', ST_GeomFromText('POINT(5 5)', 4326)),
      ('east', ST_GeomFromText('POINT(9 1)', 4326)), ('nowhere', NULL);
    CREATE TABLE harbor (id serial PRIMARY KEY, name text NOT NULL, spot geography(Point));
    INSERT INTO harbor (name, spot) VALUES ('Oslo', 'SRID=4326;POINT(10.75 59.91)'), ('Bergen', 'SRID=4326;POINT(5.32 60.39)'), ('Lisbon', 'SRID=4326;POINT(-9.14 38.72)');
    CREATE TABLE beacon (id serial PRIMARY KEY, tag text NOT NULL, pos geometry);
    INSERT INTO beacon (tag, pos) VALUES ('low', ST_GeomFromEWKT('SRID=4326;POINT(0 0 0)')), ('high', ST_GeomFromEWKT('SRID=4326;POINT(0 0 20)'));`);
  const nearGround = { pos: { _st_3d_d_within: { distance: 5, from: point(0, 0, 1) } } };
  kiln = await startKiln({ databaseUrl: db.url, metadata: metadataOf([
    table('depot'), table('harbor'),
    table('beacon', { select_permissions: [{ role: 'ground', permission: { columns: ['id', 'tag'], filter: nearGround } }] }),
  ]) });
}, 60_000);
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const names = (rows: unknown): string[] => (rows as { name?: string; tag?: string }[]).map((r) => r.name ?? r.tag!);

describe('the bundle', () => {
  // Previews plan each root field with placeholder variables; a geometry one must be GeoJSON,
  // which the planner checks (the build used to stop at the first insertable geometry column).
  it('compiles the SQL preview of writes to geometry and geography columns', () => {
    const insert = kiln.bundle.files.get('sql/admin/insert_depot.sql') ?? '';
    expect(insert).toMatch(/st_geomfromgeojson/);
    expect(kiln.bundle.files.get('sql/admin/update_harbor.sql') ?? '').toMatch(/st_geomfromgeojson/);
  });
});

describe('the comparison types', () => {
  it('offer the PostGIS operators of each type, and the other type through _cast', async () => {
    const fields = async (type: string) => {
      const t = dataOf(await kiln.gql(`{ __type(name: "${type}") { inputFields { name type { name kind ofType { name } } defaultValue } } }`)).__type as { inputFields: { name: string }[] };
      return t.inputFields;
    };
    expect((await fields('geometry_comparison_exp')).map((f) => f.name)).toEqual(['_cast', '_eq', '_gt', '_gte', '_in', '_is_null', '_lt', '_lte', '_neq', '_nin',
      '_st_3d_d_within', '_st_3d_intersects', '_st_contains', '_st_crosses', '_st_d_within', '_st_equals', '_st_intersects', '_st_overlaps', '_st_touches', '_st_within']);
    expect((await fields('geography_comparison_exp')).map((f) => f.name)).toEqual(['_cast', '_eq', '_gt', '_gte', '_in', '_is_null', '_lt', '_lte', '_neq', '_nin', '_st_d_within', '_st_intersects']);
    expect(await fields('geometry_cast_exp')).toEqual([{ name: 'geography', type: { name: 'geography_comparison_exp', kind: 'INPUT_OBJECT', ofType: null }, defaultValue: null }]);
    expect(await fields('st_d_within_geography_input')).toEqual([
      { name: 'distance', type: { name: null, kind: 'NON_NULL', ofType: { name: 'Float' } }, defaultValue: null },
      { name: 'from', type: { name: null, kind: 'NON_NULL', ofType: { name: 'geography' } }, defaultValue: null },
      { name: 'use_spheroid', type: { name: 'Boolean', kind: 'SCALAR', ofType: null }, defaultValue: 'true' },
    ]);
  });
});

describe('filtering geometry and geography columns', () => {
  it('applies the spatial predicates to literals and variables, in a list and its aggregate', async () => {
    const d = dataOf(await kiln.gql(`query ($box: geometry!, $near: st_d_within_input) {
      inside: depot(where: {site: {_st_within: {type: "Polygon", coordinates: [[[0, 0], [0, 6], [6, 6], [6, 0], [0, 0]]]}}}, order_by: {id: asc}) { name }
      covering: depot(where: {site: {_st_intersects: $box}}, order_by: {id: asc}) { name }
      close: depot(where: {site: {_st_d_within: $near}}, order_by: {id: asc}) { name }
      counted: depot_aggregate(where: {site: {_st_d_within: {distance: 5, from: $box}}}) { aggregate { count } }
    }`, { box: square(8, 0, 10, 2), near: { distance: 5, from: point(1, 2) } }));
    expect(names(d.inside)).toEqual(['north', 'south']);
    expect(names(d.covering)).toEqual(['east']);
    expect(names(d.close)).toEqual(['north', 'south']);
    expect(d.counted).toEqual({ aggregate: { count: 2 } });
  });

  // `_nin: []` holds for every row, a null one too (as `<> ALL('{}')` does for other types).
  it('compares with GeoJSON values for _eq and _in', async () => {
    const d = dataOf(await kiln.gql('query ($p: geometry) { a: depot(where: {site: {_eq: $p}}) { name } b: depot(where: {site: {_in: [{type: "Point", coordinates: [1, 1]}, {type: "Point", coordinates: [9, 1]}]}}, order_by: {id: asc}) { name } c: depot(where: {site: {_nin: []}}, order_by: {id: asc}) { name } }', { p: point(5, 5) }));
    expect(d).toEqual({ a: [{ name: 'south' }], b: [{ name: 'north' }, { name: 'east' }], c: [{ name: 'north' }, { name: 'south' }, { name: 'east' }, { name: 'nowhere' }] });
  });

  it('measures geography in meters, on the spheroid unless use_spheroid is false', async () => {
    const d = dataOf(await kiln.gql(`{
      spheroid: harbor(where: {spot: {_st_d_within: {distance: 400000, from: {type: "Point", coordinates: [10, 60]}}}}, order_by: {id: asc}) { name }
      sphere: harbor(where: {spot: {_st_d_within: {distance: 400000, from: {type: "Point", coordinates: [10, 60]}, use_spheroid: false}}}, order_by: {id: asc}) { name }
      exact: harbor(where: {spot: {_st_intersects: {type: "Point", coordinates: [10.75, 59.91]}}}) { name }
    }`));
    expect(d).toEqual({ spheroid: [{ name: 'Oslo' }, { name: 'Bergen' }], sphere: [{ name: 'Oslo' }, { name: 'Bergen' }], exact: [{ name: 'Oslo' }] });
  });

  it('casts between geometry and geography before comparing', async () => {
    const d = dataOf(await kiln.gql(`query ($norway: geometry) {
      ports: harbor(where: {spot: {_cast: {geometry: {_st_within: $norway}}}}, order_by: {id: asc}) { name }
      depots: depot(where: {site: {_cast: {geography: {_st_d_within: {distance: 200000, from: {type: "Point", coordinates: [1, 2], crs: {type: "name", properties: {name: "EPSG:4326"}}}}}}}}) { name }
    }`, { norway: { ...square(0, 55, 15, 65), crs: { type: 'name', properties: { name: 'EPSG:4326' } } } }));
    expect(d).toEqual({ ports: [{ name: 'Oslo' }, { name: 'Bergen' }], depots: [{ name: 'north' }] });
  });

  it('measures in three dimensions with the 3D operators', async () => {
    const d = dataOf(await kiln.gql(`{
      flat: beacon(where: {pos: {_st_d_within: {distance: 5, from: {type: "Point", coordinates: [0, 0, 3]}}}}, order_by: {id: asc}) { tag }
      deep: beacon(where: {pos: {_st_3d_d_within: {distance: 5, from: {type: "Point", coordinates: [0, 0, 3]}}}}) { tag }
      touching: beacon(where: {pos: {_st_3d_intersects: {type: "Point", coordinates: [0, 0, 20]}}}) { tag }
    }`));
    expect(d).toEqual({ flat: [{ tag: 'low' }, { tag: 'high' }], deep: [{ tag: 'low' }], touching: [{ tag: 'high' }] });
  });

  it('keeps only the rows a permission filter with a 3D operator allows', async () => {
    expect(dataOf(await kiln.gql('{ beacon { tag } }', null, { 'x-svc-role': 'ground' }))).toEqual({ beacon: [{ tag: 'low' }] });
  });
});

describe('writes filtered by the PostGIS operators', () => {
  it('updates and deletes the rows the operators select', async () => {
    const u = dataOf(await kiln.gql('mutation ($box: geometry) { update_depot(where: {site: {_st_within: $box}}, _set: {name: "boxed"}) { affected_rows returning { id } } }', { box: square(0, 0, 2, 2) }));
    expect(u).toEqual({ update_depot: { affected_rows: 1, returning: [{ id: 1 }] } });
    const d = dataOf(await kiln.gql('mutation { delete_harbor(where: {spot: {_st_d_within: {distance: 100000, from: {type: "Point", coordinates: [-9, 38.7]}}}}) { returning { name } } }'));
    expect(d).toEqual({ delete_harbor: { returning: [{ name: 'Lisbon' }] } });
    expect(names(dataOf(await kiln.gql('{ depot(order_by: {id: asc}) { name } }')).depot)).toEqual(['boxed', 'south', 'east', 'nowhere']);
  });

  it('refuses a bad GeoJSON operand at its path, and changes nothing', async () => {
    expect(errorOf(await kiln.gql('{ depot(where: {site: {_st_within: {type: "Polygon", coordinates: [[[0, 0], [1, 1]]]}}}) { name } }')))
      .toEqual({ code: 'parse-failed', message: 'A LinearRing needs at least 4 Positions', path: '$.selectionSet.depot.args.where.site._st_within' });
    expect(errorOf(await kiln.gql('mutation ($f: geometry!) { delete_depot(where: {site: {_st_d_within: {distance: 100, from: $f}}}) { affected_rows } }', { f: { type: 'Point', coordinates: [1] } })))
      .toEqual({ code: 'parse-failed', message: 'A Position needs at least 2 elements', path: '$.selectionSet.delete_depot.args.where.site._st_d_within.from' });
    expect(errorOf(await kiln.gql('mutation { update_harbor(where: {spot: {_cast: {geometry: {_st_touches: {type: "Triangle", coordinates: []}}}}}, _set: {name: "x"}) { affected_rows } }')))
      .toEqual({ code: 'parse-failed', message: 'unexpected geometry type: Triangle', path: '$.selectionSet.update_harbor.args.where.spot._cast.geometry._st_touches' });
    expect(errorOf(await kiln.gql('{ harbor(where: {spot: {_cast: {integer: {_eq: 0}}}}) { name } }')))
      .toEqual({ code: 'validation-failed', message: 'field "integer" not found in type: \'geography_cast_exp\'', path: '$.selectionSet.harbor.args.where.spot._cast.integer' });
    expect(dataOf(await kiln.gql('{ depot_aggregate { aggregate { count } } harbor(order_by: {id: asc}) { name } }')))
      .toEqual({ depot_aggregate: { aggregate: { count: 4 } }, harbor: [{ name: 'Oslo' }, { name: 'Bergen' }] });
  });
});
