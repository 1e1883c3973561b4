// How a column's value is written into JSON the engine sends (query answers, v1 answers, event
// payloads), one rule for all: PostGIS values as GeoJSON; with stringified numbers
// (SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES) the types past a JSON double as strings. Hasura applies the
// same conversion everywhere (Backends/Postgres/Translate/Column.hs `toJSONableExp`: `isBigNum`
// types as text when stringifyNum, `isGeoType` through ST_AsGeoJSON), event trigger rows included
// (Backends/Postgres/DDL/EventTrigger.hs `mkTriggerQ`).

import type { ScalarOutput } from './ir/index.js';

const STRINGIFIED = new Set(['bigint', 'numeric', 'float8', 'money']);
const SPATIAL = new Set(['geometry', 'geography']);

/** The output of a scalar of GraphQL type `scalar` (or catalog type name, schema-qualified or not). */
export function scalarOutputOf(scalar: string, stringifyNumeric: boolean): ScalarOutput {
  const base = scalar.slice(scalar.lastIndexOf('.') + 1);
  if (SPATIAL.has(base)) return 'geojson';
  return stringifyNumeric && STRINGIFIED.has(base) ? 'string' : 'json';
}
