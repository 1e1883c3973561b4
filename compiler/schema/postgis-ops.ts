// PostGIS operators of `geometry_comparison_exp` and `geography_comparison_exp`, with their input
// types, as Hasura v2 builds them (Backends/Postgres/Instances/Schema.hs: the geometry and
// geography blocks of `comparisonExps`, `castExp`, `geometryWithinDistanceInput`,
// `geographyWithinDistanceInput`). Operands are GeoJSON values of the column's scalar.

import { GraphQLBoolean, GraphQLFloat, GraphQLInputObjectType, GraphQLNonNull, type GraphQLInputFieldConfig } from 'graphql';
import { named, type SchemaContext } from './context.js';
import { scalarType } from './scalars.js';

type Fields = [string, GraphQLInputFieldConfig][];
type ComparisonOf = (scalar: 'geometry' | 'geography') => GraphQLInputObjectType;

// Hasura's descriptions, word for word where its schema shows them.
const GEOMETRY_PREDICATES: readonly (readonly [string, string])[] = [
  ['_st_contains', 'does the column contain the given geometry value'],
  ['_st_crosses', 'does the column cross the given geometry value'],
  ['_st_equals', 'is the column equal to given geometry value (directionality is ignored)'],
  ['_st_overlaps', "does the column 'spatially overlap' (intersect but not completely contain) the given geometry value"],
  ['_st_touches', 'does the column have atleast one point in common with the given geometry value'],
  ['_st_within', 'is the column contained in the given geometry value'],
  ['_st_intersects', 'does the column spatially intersect the given geometry value'],
  ['_st_3d_intersects', 'does the column spatially intersect the given geometry value in 3D'],
];

/** The PostGIS fields of a `geometry` or `geography` comparison type: `_cast` to the other, and the spatial predicates. */
export function postgisFields(ctx: SchemaContext, scalar: 'geometry' | 'geography', comparisonOf: ComparisonOf): Fields {
  const self = scalarType(ctx, scalar);
  const fields: Fields = [['_cast', { type: castExp(ctx, scalar, comparisonOf) }]];
  if (scalar === 'geography') {
    fields.push(['_st_intersects', { type: self, description: 'does the column spatially intersect the given geography value' }]);
    fields.push(['_st_d_within', { type: withinInput(ctx, 'geography'), description: 'is the column within a given distance from the given geography value' }]);
    return fields;
  }
  for (const [op, description] of GEOMETRY_PREDICATES) fields.push([op, { type: self, description }]);
  fields.push(['_st_d_within', { type: withinInput(ctx, 'geometry'), description: 'is the column within a given distance from the given geometry value' }]);
  fields.push(['_st_3d_d_within', { type: withinInput(ctx, 'geometry'), description: 'is the column within a given 3D distance from the given geometry value' }]);
  return fields;
}

// `<scalar>_cast_exp`: one field, the other PostGIS type, holding that type's comparison operators.
function castExp(ctx: SchemaContext, scalar: 'geometry' | 'geography', comparisonOf: ComparisonOf): GraphQLInputObjectType {
  const target = scalar === 'geometry' ? 'geography' : 'geometry';
  const name = `${scalar}_cast_exp`;
  return named(ctx, name, () => new GraphQLInputObjectType({ name, fields: () => ({ [target]: { type: comparisonOf(target) } }) }));
}

// `st_d_within_input {distance, from}` on geometry; on geography `st_d_within_geography_input`,
// whose `use_spheroid` is nullable with the default true, as in Hasura (measured on the spheroid
// unless told not to).
function withinInput(ctx: SchemaContext, scalar: 'geometry' | 'geography'): GraphQLInputObjectType {
  const name = scalar === 'geometry' ? 'st_d_within_input' : 'st_d_within_geography_input';
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    fields: () => ({
      distance: { type: new GraphQLNonNull(GraphQLFloat) },
      from: { type: new GraphQLNonNull(scalarType(ctx, scalar)) },
      ...(scalar === 'geography' ? { use_spheroid: { type: GraphQLBoolean, defaultValue: true } } : {}),
    }),
  }));
}
