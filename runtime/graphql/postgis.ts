// PostGIS operators of boolean expressions (`_st_d_within`, `_st_intersects`, ...), in a request's
// `where` and in permission filters. Permission filters write their operands as GeoJSON objects
// or session variables holding GeoJSON text (corpus:
// graphql_query/permissions/user_can_query_geometry_values_filter*); a `where` writes GeoJSON
// literals or variables, which Hasura reads with the column's parser, so a bad shape is refused
// before any SQL runs (Backends/Postgres/Instances/Schema.hs, `comparisonExps`).

import type { ValueIr } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { Cond, Expr, SpatialOp } from '../sql/index.js';
import { checkGeoJson, isGeoType } from './geojson.js';

type Path = readonly (string | number)[];

const PREDICATES: { readonly [op: string]: SpatialOp } = {
  _st_contains: 'contains', _st_crosses: 'crosses', _st_equals: 'equals', _st_intersects: 'intersects',
  _st_overlaps: 'overlaps', _st_touches: 'touches', _st_within: 'within', _st_d_within: 'd_within',
  _st_3d_intersects: '3d_intersects', _st_3d_d_within: '3d_d_within',
};
const WITHIN: ReadonlySet<SpatialOp> = new Set(['d_within', '3d_d_within']);
// Operators whose operand is one value of the column's own type (`_eq: <geometry>`), or a list of them.
const SAME_TYPE_OPS = new Set(['_eq', '_neq', '_gt', '_gte', '_lt', '_lte']);
const LIST_OPS = new Set(['_in', '_nin']);

/**
 * The operand of `op` on a geometry or geography value in a request's `where`, fixed while
 * planning: a GeoJSON value is checked where it is written (`parse-failed` at that path, as
 * Hasura's column parser answers), `from` of `_st_d_within`/`_st_3d_d_within` likewise.
 */
export function geoOperand(op: string, value: unknown, path: Path): ValueIr {
  if (value === null || value === undefined) return { kind: 'literal', value: null };
  const spatial = PREDICATES[op];
  if (spatial !== undefined && WITHIN.has(spatial)) {
    const from = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { [k: string]: unknown })['from'] : undefined;
    checkGeoJson(from, [...path, 'from']);
  } else if (spatial !== undefined || SAME_TYPE_OPS.has(op)) {
    checkGeoJson(value, path);
  } else if (LIST_OPS.has(op)) {
    const list = Array.isArray(value) ? value : [value];
    list.forEach((v, i) => checkGeoJson(v, [...path, i]));
    return { kind: 'literal', value: list as never };
  }
  return { kind: 'literal', value: value as never };
}

/**
 * `_eq`, `_gt`, `_in`, ... of a geometry or geography value with GeoJSON literals: each operand
 * read through `ST_GeomFromGeoJSON` as the column's type; null when `op` is not such an operator.
 */
export function geoCompareCond(left: Expr, type: string, op: string, value: ValueIr): Cond | null {
  if (!isGeoType(type) || value.kind !== 'literal' || value.value === null) return null;
  const geoType = type.split('.').pop() === 'geography' ? 'geography' : 'geometry';
  if (SAME_TYPE_OPS.has(op)) return { kind: 'compare', left, op: op.slice(1) as 'eq', right: shape(value.value, geoType) };
  if (!LIST_OPS.has(op)) return null;
  const list = Array.isArray(value.value) ? value.value : [value.value];
  // An empty list: nothing is in it.
  if (list.length === 0) return op === '_in' ? { kind: 'or', items: [] } : { kind: 'and', items: [] };
  return { kind: 'in_list', left, negated: op === '_nin', items: list.map((v) => shape(v, geoType)) };
}

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
  const geoType = type.split('.').pop() === 'geography' ? 'geography' : 'geometry';
  // A `where` fixes its operands while planning (geoOperand); a permission filter's is a literal or a session variable.
  if (value.kind !== 'literal' && value.kind !== 'session') throw new ApiError('not-supported', `operator "${op}" takes a GeoJSON value`);
  const raw = value.kind === 'literal' ? value.value : value.name;
  const spatial = PREDICATES[op]!;
  if (!WITHIN.has(spatial)) return { kind: 'spatial', op: spatial, left, operand: shape(raw, geoType), distance: null, spheroid: null };
  const o = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as { [k: string]: unknown };
  const from = shape(o['from'], geoType);
  const distance = scalar(o['distance'], 'float8');
  // Geography measures on the spheroid unless told not to (PostGIS's default, and Hasura's).
  const spheroid = geoType !== 'geography' || spatial !== 'd_within' ? null
    : o['use_spheroid'] === undefined ? { kind: 'param' as const, value: { kind: 'literal' as const, value: true }, type: 'bool' } : scalar(o['use_spheroid'], 'bool');
  return { kind: 'spatial', op: spatial, left, operand: from, distance, spheroid };
}
