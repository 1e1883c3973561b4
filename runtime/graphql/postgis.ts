// PostGIS operators of boolean expressions (`_st_d_within`, `_st_intersects`, ...). Permission
// filters write their operands as GeoJSON objects or session variables holding GeoJSON text
// (corpus: graphql_query/permissions/user_can_query_geometry_values_filter*).

import type { ValueIr } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { Cond, Expr, SpatialOp } from '../sql/index.js';

const PREDICATES: { readonly [op: string]: SpatialOp } = {
  _st_contains: 'contains', _st_crosses: 'crosses', _st_equals: 'equals', _st_intersects: 'intersects',
  _st_overlaps: 'overlaps', _st_touches: 'touches', _st_within: 'within', _st_d_within: 'd_within',
};

// Raster's `ST_Intersects` forms: with a raster, with a geometry and a band, with a band and a geometry.
const RASTER_OPS = new Set(['_st_intersects_rast', '_st_intersects_geom_nband', '_st_intersects_nband_geom']);

/** True for the operators this file plans. */
export function isPostgisOp(op: string): boolean {
  return Object.hasOwn(PREDICATES, op) || RASTER_OPS.has(op);
}

/** `ST_Intersects` of a raster column with a raster, or with a GeoJSON geometry and a band. */
function rasterCond(left: Expr, op: string, value: ValueIr): Cond {
  const part = (key: string, type: string): Expr => ({ kind: 'param', type, value: value.kind === 'variable'
    ? { kind: 'variable', name: value.name, path: [...value.path, key] }
    : { kind: 'literal', value: value.kind === 'literal' && value.value !== null && typeof value.value === 'object' && !Array.isArray(value.value) ? value.value[key] ?? null : null } });
  if (op === '_st_intersects_rast') {
    const slot = value.kind === 'variable' ? { kind: 'variable' as const, name: value.name, path: value.path }
      : value.kind === 'literal' ? { kind: 'literal' as const, value: value.value } : { kind: 'session' as const, name: value.kind === 'session' ? value.name : '' };
    return { kind: 'raster_intersects', left, args: [{ kind: 'param', value: slot, type: 'raster' }] };
  }
  const geometry: Expr = { kind: 'from_geojson', geojson: part('geommin', 'text'), type: 'geometry' };
  const nband = part('nband', 'int4');
  return { kind: 'raster_intersects', left, args: op === '_st_intersects_geom_nband' ? [geometry, nband] : [nband, geometry] };
}

const isSession = (v: unknown): v is string => typeof v === 'string' && /^x-svc-/i.test(v);

// A plain value of a permission filter: a session variable slot, or a parameter.
function scalar(v: unknown, type: string): Expr {
  return { kind: 'param', value: isSession(v) ? { kind: 'session', name: v } : { kind: 'literal', value: v }, type };
}

// A geometry operand: GeoJSON (object, text, or a session variable holding it) read as the column's type.
function shape(v: unknown, type: 'geometry' | 'geography'): Expr {
  const text = isSession(v) ? v : typeof v === 'string' ? v : JSON.stringify(v);
  return { kind: 'from_geojson', geojson: isSession(v) ? scalar(text, 'text') : { kind: 'param', value: { kind: 'literal', value: text }, type: 'text' }, type };
}

/** `ST_DWithin(col, from, distance[, use_spheroid])` or `ST_<Pred>(col, value)`. */
export function postgisCond(left: Expr, type: string, op: string, value: ValueIr): Cond {
  if (RASTER_OPS.has(op)) return rasterCond(left, op, value);
  const geoType = type === 'geography' ? 'geography' : 'geometry';
  // Only permission filters reach here (`<t>_bool_exp` has no PostGIS operators yet): a literal or a session variable.
  if (value.kind !== 'literal' && value.kind !== 'session') throw new ApiError('not-supported', `operator "${op}" takes a GeoJSON value`);
  const raw = value.kind === 'literal' ? value.value : value.name;
  const spatial = PREDICATES[op]!;
  if (spatial !== 'd_within') return { kind: 'spatial', op: spatial, left, operand: shape(raw, geoType), distance: null, spheroid: null };
  const o = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as { [k: string]: unknown };
  const from = shape(o['from'], geoType);
  const distance = scalar(o['distance'], 'float8');
  // Geography measures on the spheroid unless told not to (PostGIS's default, and Hasura's).
  const spheroid = geoType !== 'geography' ? null
    : o['use_spheroid'] === undefined ? { kind: 'param' as const, value: { kind: 'literal' as const, value: true }, type: 'bool' } : scalar(o['use_spheroid'], 'bool');
  return { kind: 'spatial', op: spatial, left, operand: from, distance, spheroid };
}
