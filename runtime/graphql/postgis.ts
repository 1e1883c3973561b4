// PostGIS operators of boolean expressions (`_st_d_within`, `_st_intersects`, ...). Permission
// filters write their operands as GeoJSON objects or session variables holding GeoJSON text
// (corpus: graphql_query/permissions/user_can_query_geometry_values_filter*).

import type { ValueIr } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { ident, param, session, sql, variable, type Sql } from '../sql/index.js';

const PREDICATES: { readonly [op: string]: string } = {
  _st_contains: 'st_contains', _st_crosses: 'st_crosses', _st_equals: 'st_equals', _st_intersects: 'st_intersects',
  _st_overlaps: 'st_overlaps', _st_touches: 'st_touches', _st_within: 'st_within',
};

// Raster's `ST_Intersects` forms: with a raster, with a geometry and a band, with a band and a geometry.
const RASTER_OPS = new Set(['_st_intersects_rast', '_st_intersects_geom_nband', '_st_intersects_nband_geom']);

/** True for the operators this file lowers. */
export function isPostgisOp(op: string): boolean {
  return op === '_st_d_within' || PREDICATES[op] !== undefined || RASTER_OPS.has(op);
}

/** `ST_Intersects` of a raster column with a raster, or with a GeoJSON geometry and a band. */
function lowerRaster(left: Sql, op: string, value: ValueIr): Sql {
  const part = (key: string, type: string): Sql => (value.kind === 'variable' ? variable(value.name, [...value.path, key], type)
    : param(value.kind === 'literal' && value.value !== null && typeof value.value === 'object' && !Array.isArray(value.value) ? value.value[key] ?? null : null, type));
  if (op === '_st_intersects_rast') {
    const operand = value.kind === 'variable' ? variable(value.name, value.path, 'raster') : value.kind === 'literal' ? param(value.value, 'raster') : session(value.kind === 'session' ? value.name : '', 'raster');
    return sql`${ident('st_intersects')}(${left}, ${operand})`;
  }
  const geometry = sql`${ident('st_geomfromgeojson')}(${part('geommin', 'text')})`;
  if (op === '_st_intersects_geom_nband') return sql`${ident('st_intersects')}(${left}, ${geometry}, ${part('nband', 'int4')})`;
  return sql`${ident('st_intersects')}(${left}, ${part('nband', 'int4')}, ${geometry})`;
}

const isSession = (v: unknown): v is string => typeof v === 'string' && /^x-svc-/i.test(v);

// A plain value of a permission filter: a session variable slot, or a parameter.
function scalar(v: unknown, type: string): Sql {
  return isSession(v) ? session(v, type) : param(v, type);
}

// A geometry operand: GeoJSON (object, text, or a session variable holding it) to the column's type.
function shape(v: unknown, type: string): Sql {
  const text = isSession(v) ? session(v, 'text') : param(typeof v === 'string' ? v : JSON.stringify(v), 'text');
  return sql`(${ident('st_geomfromgeojson')}(${text}))::${ident(type)}`;
}

/** `ST_DWithin(col, from, distance[, use_spheroid])` or `ST_<Pred>(col, value)`. */
export function lowerPostgis(left: Sql, type: string, op: string, value: ValueIr): Sql {
  if (RASTER_OPS.has(op)) return lowerRaster(left, op, value);
  const geoType = type === 'geography' ? 'geography' : 'geometry';
  // Only permission filters reach here (`<t>_bool_exp` has no PostGIS operators yet): a literal or a session variable.
  if (value.kind !== 'literal' && value.kind !== 'session') throw new ApiError('not-supported', `operator "${op}" takes a GeoJSON value`);
  const raw = value.kind === 'literal' ? value.value : value.name;
  if (op !== '_st_d_within') return sql`${ident(PREDICATES[op]!)}(${left}, ${shape(raw, geoType)})`;
  const o = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as { [k: string]: unknown };
  const from = shape(o['from'], geoType);
  const distance = scalar(o['distance'], 'float8');
  if (geoType === 'geography') {
    const spheroid = o['use_spheroid'] === undefined ? param(true, 'bool') : scalar(o['use_spheroid'], 'bool');
    return sql`${ident('st_dwithin')}(${left}, ${from}, ${distance}, ${spheroid})`;
  }
  return sql`${ident('st_dwithin')}(${left}, ${from}, ${distance})`;
}
