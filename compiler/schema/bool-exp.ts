// `where` types: `<t>_bool_exp` per table and `<scalar>_comparison_exp` per scalar, with the
// operator sets and descriptions of Hasura v2 (reference/schema.md §4).

import {
  GraphQLBoolean, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLString,
  type GraphQLInputFieldConfig, type GraphQLInputType,
} from 'graphql';
import type { ScalarCategory, TableModel, TypeAffix } from '../../runtime/bundle/index.js';
import { typeNameOf } from '../../runtime/bundle/index.js';
import {
  named, qualifiedName, sortByKey, tableOf, visibleColumns, visibleComputedFields, visibleRelationships,
  type SchemaContext,
} from './context.js';
import { isEnumScalar, scalarType } from './scalars.js';
import { featuresOf } from './dialect-features.js';
import { postgisFields } from './postgis-ops.js';

type Fields = [string, GraphQLInputFieldConfig][];

/** `<t>_bool_exp`: logical connectives, then one entry per column, relationship and plain computed field the role may read. */
export function boolExpType(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType {
  const name = typeNameOf(t, '_bool_exp');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `Boolean expression to filter rows from the table "${qualifiedName(t)}". All fields are combined with a logical 'AND'.`,
    fields: () => sortByKey(boolExpFields(ctx, t)),
  }));
}

function boolExpFields(ctx: SchemaContext, t: TableModel): Fields {
  const self = boolExpType(ctx, t);
  const fields: Fields = [
    ['_and', { type: new GraphQLList(new GraphQLNonNull(self)) }],
    ['_not', { type: self }],
    ['_or', { type: new GraphQLList(new GraphQLNonNull(self)) }],
  ];
  for (const c of visibleColumns(ctx, t)) {
    const features = featuresOf(ctx, t);
    fields.push([c.field, { type: comparisonExpType(ctx, c.scalar, c.category, c.isArray, t.typeAffix, features.textOps, features.comparisonSuffix) }]);
  }
  // Array relationships too: the filter holds when any related row matches.
  for (const r of visibleRelationships(ctx, t)) {
    fields.push([r.name, { type: boolExpType(ctx, tableOf(ctx, r.target)) }]);
  }
  // Computed fields that need user arguments cannot be filtered on (table_computed_field_filter_fail).
  for (const cf of visibleComputedFields(ctx, t)) {
    if (cf.args.length > 0) continue;
    const type = cf.returns.kind === 'scalar'
      ? comparisonExpType(ctx, cf.returns.scalar, cf.returns.category, false, t.typeAffix)
      : boolExpType(ctx, tableOf(ctx, cf.returns.table));
    fields.push([cf.name, { type }]);
  }
  return fields;
}

const stringOps: readonly (readonly [string, string])[] = [
  ['_ilike', 'does the column match the given case-insensitive pattern'],
  ['_iregex', 'does the column match the given POSIX regular expression, case insensitive'],
  ['_like', 'does the column match the given pattern'],
  ['_nilike', 'does the column NOT match the given case-insensitive pattern'],
  ['_niregex', 'does the column NOT match the given POSIX regular expression, case insensitive'],
  ['_nlike', 'does the column NOT match the given pattern'],
  ['_nregex', 'does the column NOT match the given POSIX regular expression, case sensitive'],
  ['_nsimilar', 'does the column NOT match the given SQL regular expression'],
  ['_regex', 'does the column match the given POSIX regular expression, case sensitive'],
  ['_similar', 'does the column match the given SQL regular expression'],
];

/**
 * `<scalar>_comparison_exp`. Enum columns get equality operators only; text-like scalars add the
 * pattern operators, `jsonb` its containment and key operators, arrays (`_text`) containment.
 */
export function comparisonExpType(ctx: SchemaContext, scalar: string, category: ScalarCategory, isArray: boolean, affix?: TypeAffix,
  textOps: ReadonlySet<string> | null = null, suffix = '_comparison_exp'): GraphQLInputObjectType {
  // A customized source has its own comparison types (`tpref_String_comparison_exp_tsuff`); scalars keep their names.
  const name = typeNameOf({ typeName: scalar, ...(affix ? { typeAffix: affix } : {}) }, suffix);
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `Boolean expression to compare columns of type "${scalar}". All fields are combined with logical 'AND'.`,
    fields: () => sortByKey(comparisonFields(ctx, scalar, category, isArray, textOps, suffix === '_comparison_exp')),
  }));
}

// `postgres`: a PostgreSQL source's type (PostGIS operators are PostgreSQL's).
function comparisonFields(ctx: SchemaContext, scalar: string, category: ScalarCategory, isArray: boolean, textOps: ReadonlySet<string> | null, postgres: boolean): Fields {
  const type = scalarType(ctx, scalar, category);
  const list = new GraphQLList(new GraphQLNonNull(type));
  const fields: Fields = [
    ['_eq', { type }], ['_neq', { type }], ['_in', { type: list }], ['_nin', { type: list }],
    ['_is_null', { type: GraphQLBoolean }],
  ];
  if (isEnumScalar(ctx, scalar)) return fields;
  for (const op of ['_gt', '_gte', '_lt', '_lte']) fields.push([op, { type }]);
  if (category === 'string' || scalar === 'String') {
    for (const [op, description] of stringOps) if (!textOps || textOps.has(op)) fields.push([op, { type, description }]);
  }
  if (scalar === 'jsonb') fields.push(...jsonbFields(ctx, type));
  if (scalar === 'ltree') fields.push(...ltreeFields(ctx, type));
  if (scalar === 'raster') fields.push(...rasterFields(ctx, type));
  if (postgres && (scalar === 'geometry' || scalar === 'geography')) fields.push(...postgisFields(ctx, scalar, (s) => comparisonExpType(ctx, s, 'other', false)));
  if (isArray) {
    fields.push(['_contained_in', { type, description: 'is the array contained in the given array value' }]);
    fields.push(['_contains', { type, description: 'does the array contain the given value' }]);
  }
  return fields;
}

function jsonbFields(ctx: SchemaContext, jsonb: GraphQLInputType): Fields {
  const strings = new GraphQLList(new GraphQLNonNull(GraphQLString));
  return [
    ['_cast', { type: jsonbCastExp(ctx) }],
    ['_contained_in', { type: jsonb, description: 'is the column contained in the given json value' }],
    ['_contains', { type: jsonb, description: 'does the column contain the given json value at the top level' }],
    ['_has_key', { type: GraphQLString, description: 'does the string exist as a top-level key in the column' }],
    ['_has_keys_all', { type: strings, description: 'do all of these strings exist as top-level keys in the column' }],
    ['_has_keys_any', { type: strings, description: 'do any of these strings exist as top-level keys in the column' }],
  ];
}

// ltree's operators (Hasura v2, PostgreSQL's ltree extension: `@>`, `<@`, `~`, `?`, `@`), with
// the `lquery` and `ltxtquery` scalars they take.
function ltreeFields(ctx: SchemaContext, ltree: GraphQLInputType): Fields {
  const ltrees = new GraphQLList(new GraphQLNonNull(ltree));
  return [
    ['_ancestor', { type: ltree, description: 'is the left argument an ancestor of right (or equal)?' }],
    ['_ancestor_any', { type: ltrees, description: 'does array contain an ancestor of `ltree`?' }],
    ['_descendant', { type: ltree, description: 'is the left argument a descendant of right (or equal)?' }],
    ['_descendant_any', { type: ltrees, description: 'does array contain a descendant of `ltree`?' }],
    ['_matches', { type: scalarType(ctx, 'lquery'), description: 'does `ltree` match `lquery`?' }],
    ['_matches_any', { type: new GraphQLList(new GraphQLNonNull(GraphQLString)), description: 'does `ltree` match any `lquery` in array?' }],
    ['_matches_fulltext', { type: scalarType(ctx, 'ltxtquery'), description: 'does `ltree` match `ltxtquery`?' }],
  ];
}

// PostGIS raster's `ST_Intersects` forms (Hasura v2): with a raster, with a geometry and an
// optional band, with a band and a geometry.
function rasterFields(ctx: SchemaContext, raster: GraphQLInputType): Fields {
  const geometry = new GraphQLNonNull(scalarType(ctx, 'geometry'));
  const geomNband = named(ctx, 'st_intersects_geom_nband_input', () => new GraphQLInputObjectType({
    name: 'st_intersects_geom_nband_input',
    fields: () => ({ geommin: { type: geometry }, nband: { type: GraphQLInt } }),
  }));
  const nbandGeom = named(ctx, 'st_intersects_nband_geom_input', () => new GraphQLInputObjectType({
    name: 'st_intersects_nband_geom_input',
    fields: () => ({ geommin: { type: geometry }, nband: { type: new GraphQLNonNull(GraphQLInt) } }),
  }));
  return [
    ['_st_intersects_geom_nband', { type: geomNband }],
    ['_st_intersects_nband_geom', { type: nbandGeom }],
    ['_st_intersects_rast', { type: raster }],
  ];
}

// `_cast` on jsonb converts to text only (reference §4).
function jsonbCastExp(ctx: SchemaContext): GraphQLInputObjectType {
  return named(ctx, 'jsonb_cast_exp', () => new GraphQLInputObjectType({
    name: 'jsonb_cast_exp',
    fields: () => ({ String: { type: comparisonExpType(ctx, 'String', 'string', false) } }),
  }));
}
