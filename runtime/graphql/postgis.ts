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

/** True for the operators this file plans. */
export function isPostgisOp(op: string): boolean {
  return Object.hasOwn(PREDICATES, op);
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
