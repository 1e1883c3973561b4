// GeoJSON input values of `geometry` and `geography` columns, read as Hasura v2 reads them
// (Hasura.Backends.Postgres.SQL.GeoJSON, RFC 7946's shapes): a value is validated before it
// reaches PostgreSQL, and a bad shape is `parse-failed` at the argument that holds it, in
// Hasura's words ("A Position needs at least 2 elements", "A LinearRing needs at least 4
// Positions", ...). A valid value goes to the column through `ST_GeomFromGeoJSON`.

import { ApiError } from '../errors/index.js';
import type { Expr } from '../sql/index.js';

type Path = readonly (string | number)[];

/** True for the catalog types whose input values are GeoJSON. */
export function isGeoType(type: string | null): type is string {
  if (!type) return false;
  const base = type.split('.').pop()!;
  return base === 'geometry' || base === 'geography';
}

class GeoError extends Error {}
const fail = (message: string): never => { throw new GeoError(message); };

function position(v: unknown): void {
  if (!Array.isArray(v)) fail('expected an array of numbers for a Position');
  const list = v as unknown[];
  if (list.some((x) => typeof x !== 'number')) fail('expected an array of numbers for a Position');
  if (list.length < 2) fail('A Position needs at least 2 elements');
}

function positions(v: unknown): unknown[] {
  if (!Array.isArray(v)) return fail('expected an array of Positions');
  for (const p of v) position(p);
  return v;
}

function lineString(v: unknown): void {
  if (positions(v).length < 2) fail('A LineString needs at least 2 Positions');
}

function linearRing(v: unknown): void {
  const list = positions(v);
  if (list.length < 4) fail('A LinearRing needs at least 4 Positions');
  if (JSON.stringify(list[0]) !== JSON.stringify(list[list.length - 1])) fail('the first and last locations have to be equal for a LinearRing');
}

function listOf(v: unknown, each: (x: unknown) => void): void {
  if (!Array.isArray(v)) fail('expected an array');
  for (const x of v as unknown[]) each(x);
}

const polygon = (v: unknown): void => listOf(v, linearRing);

const SHAPES: { readonly [type: string]: (coordinates: unknown) => void } = {
  Point: position,
  MultiPoint: (v) => listOf(v, position),
  LineString: lineString,
  MultiLineString: (v) => listOf(v, lineString),
  Polygon: polygon,
  MultiPolygon: (v) => listOf(v, polygon),
};

function geometry(v: unknown): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail('expected an object for a GeoJSON geometry');
  const o = v as { readonly [k: string]: unknown };
  if (!('type' in o)) fail('key "type" not found');
  const type = o['type'];
  if (type === 'GeometryCollection') {
    if (!('geometries' in o)) fail('key "geometries" not found');
    return listOf(o['geometries'], geometry);
  }
  const shape = typeof type === 'string' ? SHAPES[type] : undefined;
  if (!shape) return fail(`unexpected geometry type: ${typeof type === 'string' ? type : JSON.stringify(type)}`);
  if (!('coordinates' in o)) fail('key "coordinates" not found');
  shape(o['coordinates']);
}

/** Throws `parse-failed` at `path` when `value` is not a GeoJSON geometry Hasura accepts (text holding one is read first). */
export function checkGeoJson(value: unknown, path: Path): void {
  let v = value;
  if (typeof v === 'string') {
    try { v = JSON.parse(v); } catch { throw new ApiError('parse-failed', 'expected an object for a GeoJSON geometry', 400, path); }
  }
  try {
    geometry(v);
  } catch (e) {
    if (e instanceof GeoError) throw new ApiError('parse-failed', e.message, 400, path);
    throw e;
  }
}

/** A checked GeoJSON literal (object or text) as a value of `type`. */
export function geoJsonParam(value: unknown, type: string, path: Path): Expr {
  checkGeoJson(value, path);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return { kind: 'from_geojson', geojson: { kind: 'param', value: { kind: 'literal', value: text }, type: 'text' }, type };
}
