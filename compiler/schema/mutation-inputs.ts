// Input types of mutation_root (reference/schema.md §6): what a role may insert (with nested
// relationship inserts and upserts) and update. Preset columns are not in them; `on_conflict`
// exists only for roles that may update the table.

import {
  GraphQLEnumType, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLString,
  type GraphQLEnumValueConfig, type GraphQLInputFieldConfig, type GraphQLInputType,
} from 'graphql';
import type {
  ColumnModel, InsertPermissionModel, TableModel, TableMutationPermissions, UpdatePermissionModel,
} from '../../runtime/bundle/index.js';
import { typeNameOf } from '../../runtime/bundle/index.js';
import { boolExpType } from './bool-exp.js';
import { describe, named, qualifiedName, sortByKey, tableOf, type SchemaContext } from './context.js';
import { scalarType } from './scalars.js';
import { featuresOf } from './dialect-features.js';

type Fields = [string, GraphQLInputFieldConfig][];

/** The role's insert/update/delete permissions on a table. */
export function mutationPerms(ctx: SchemaContext, id: string): TableMutationPermissions {
  return ctx.model.mutations?.[ctx.role]?.[id] ?? {};
}

export function insertPerm(ctx: SchemaContext, id: string): InsertPermissionModel | undefined {
  const p = mutationPerms(ctx, id).insert;
  return p && !p.backendOnly ? p : undefined;
}

export function updatePerm(ctx: SchemaContext, id: string): UpdatePermissionModel | undefined {
  const p = mutationPerms(ctx, id).update;
  return p && !p.backendOnly ? p : undefined;
}

function columnsOf(t: TableModel, names: readonly string[]): ColumnModel[] {
  return t.columns.filter((c) => names.includes(c.name));
}

function columnInput(ctx: SchemaContext, c: ColumnModel): GraphQLInputFieldConfig {
  return { type: scalarType(ctx, c.scalar, c.category), description: describe(c.comment) };
}

/** `<t>_insert_input`: the insertable columns, and relationships to tables the role may insert into. */
export function insertInputType(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType {
  const name = typeNameOf(t, '_insert_input');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `input type for inserting data into table "${qualifiedName(t)}"`,
    fields: () => {
      const fields: Fields = columnsOf(t, insertPerm(ctx, t.id)?.columns ?? []).map((c) => [c.field, columnInput(ctx, c)]);
      for (const r of t.relationships) {
        const target = tableOf(ctx, r.target);
        if (!insertPerm(ctx, target.id)) continue;
        fields.push([r.name, { type: r.kind === 'object' ? objRelInsertType(ctx, target) : arrRelInsertType(ctx, target) }]);
      }
      return sortByKey(fields);
    },
  }));
}

function objRelInsertType(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType {
  const name = typeNameOf(t, '_obj_rel_insert_input');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `input type for inserting object relation for remote table "${qualifiedName(t)}"`,
    fields: () => relInsertFields(ctx, t, new GraphQLNonNull(insertInputType(ctx, t))),
  }));
}

function arrRelInsertType(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType {
  const name = typeNameOf(t, '_arr_rel_insert_input');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `input type for inserting array relation for remote table "${qualifiedName(t)}"`,
    fields: () => relInsertFields(ctx, t, new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(insertInputType(ctx, t))))),
  }));
}

function relInsertFields(ctx: SchemaContext, t: TableModel, data: GraphQLInputType): { [k: string]: GraphQLInputFieldConfig } {
  const fields: Fields = [['data', { type: data }]];
  const onConflict = onConflictType(ctx, t);
  if (onConflict) fields.push(['on_conflict', { type: onConflict, description: 'upsert condition' }]);
  return sortByKey(fields);
}

/** `<t>_on_conflict`, or null when the role may not update `t` or `t` has no unique constraint. */
export function onConflictType(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType | null {
  const update = updatePerm(ctx, t.id);
  if (!update || t.uniqueConstraints.length === 0 || !featuresOf(ctx, t).onConflict) return null;
  const name = typeNameOf(t, '_on_conflict');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `on_conflict condition type for table "${qualifiedName(t)}"`,
    fields: () => ({
      constraint: { type: new GraphQLNonNull(constraintEnum(ctx, t)) },
      update_columns: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(updateColumnEnum(ctx, t, update)))), defaultValue: [] },
      where: { type: boolExpType(ctx, t) },
    }),
  }));
}

function constraintEnum(ctx: SchemaContext, t: TableModel): GraphQLEnumType {
  const name = typeNameOf(t, '_constraint');
  return named(ctx, name, () => new GraphQLEnumType({
    name,
    description: `unique or primary key constraints on table "${qualifiedName(t)}"`,
    values: sortByKey(t.uniqueConstraints.map((u): [string, GraphQLEnumValueConfig] => [u.name, {
      value: u.name, description: `unique or primary key constraint on columns ${u.columns.map((c) => JSON.stringify(c)).join(', ')}`,
    }])),
  }));
}

/** `<t>_update_column`; a role that may update no column gets the `_PLACEHOLDER` value (an enum needs one). */
function updateColumnEnum(ctx: SchemaContext, t: TableModel, update: UpdatePermissionModel): GraphQLEnumType {
  const name = typeNameOf(t, '_update_column');
  return named(ctx, name, () => {
    const columns = columnsOf(t, update.columns);
    const values = columns.length === 0
      ? [['_PLACEHOLDER', { value: '_PLACEHOLDER', description: 'placeholder (do not use)' }] as [string, GraphQLEnumValueConfig]]
      : columns.map((c): [string, GraphQLEnumValueConfig] => [c.field, { value: c.field, description: 'column name' }]);
    return new GraphQLEnumType({ name, description: `update columns of table "${qualifiedName(t)}"`, values: sortByKey(values) });
  });
}

/** One update operator argument: its name, description, the input type's description and which columns it takes. */
interface UpdateOperator {
  readonly arg: string;
  readonly suffix: string;
  readonly description: string;
  readonly typeDescription: (t: TableModel) => string;
  readonly applies: (c: ColumnModel) => boolean;
  readonly type: (ctx: SchemaContext, c: ColumnModel) => GraphQLInputType;
}

const isJsonb = (c: ColumnModel): boolean => c.scalar === 'jsonb';
const sameType = (ctx: SchemaContext, c: ColumnModel): GraphQLInputType => scalarType(ctx, c.scalar, c.category);

const appendText = 'append existing jsonb value of filtered columns with new jsonb value';
const prependText = 'prepend existing jsonb value of filtered columns with new jsonb value';
const deleteKeyText = 'delete key/value pair or string element. key/value pairs are matched based on their key value';
const deleteElemText = 'delete the array element with specified index (negative integers count from the end). throws an error if top level container is not an array';
const deleteAtPathText = 'delete the field or element with specified path (for JSON arrays, negative integers count from the end)';

/** The update operators in the order Hasura lists their arguments (sorted by name). */
export const updateOperators: readonly UpdateOperator[] = [
  { arg: '_append', suffix: 'append_input', description: appendText, typeDescription: () => appendText, applies: isJsonb, type: sameType },
  { arg: '_delete_at_path', suffix: 'delete_at_path_input', description: deleteAtPathText, typeDescription: () => deleteAtPathText,
    applies: isJsonb, type: () => new GraphQLList(new GraphQLNonNull(GraphQLString)) },
  { arg: '_delete_elem', suffix: 'delete_elem_input', description: deleteElemText, typeDescription: () => deleteElemText,
    applies: isJsonb, type: () => GraphQLInt },
  { arg: '_delete_key', suffix: 'delete_key_input', description: deleteKeyText, typeDescription: () => deleteKeyText,
    applies: isJsonb, type: () => GraphQLString },
  { arg: '_inc', suffix: 'inc_input', description: 'increments the numeric columns with given value of the filtered values',
    typeDescription: (t) => `input type for incrementing numeric columns in table "${qualifiedName(t)}"`, applies: (c) => c.numeric || c.scalar === 'money', type: sameType },
  { arg: '_prepend', suffix: 'prepend_input', description: prependText, typeDescription: () => prependText, applies: isJsonb, type: sameType },
  { arg: '_set', suffix: 'set_input', description: 'sets the columns of the filtered rows to the given values',
    typeDescription: (t) => `input type for updating data in table "${qualifiedName(t)}"`, applies: () => true, type: sameType },
];

/** The update operator arguments the role has columns for (`_inc` needs a numeric column, the jsonb ones a jsonb column). */
export function updateOperatorArgs(ctx: SchemaContext, t: TableModel): Fields {
  const update = updatePerm(ctx, t.id);
  if (!update) return [];
  const columns = columnsOf(t, update.columns);
  const out: Fields = [];
  for (const op of updateOperators) {
    const cols = columns.filter(op.applies);
    if (cols.length === 0) continue;
    const name = typeNameOf(t, `_${op.suffix}`);
    const type = named(ctx, name, () => new GraphQLInputObjectType({
      name,
      description: op.typeDescription(t),
      fields: () => sortByKey(cols.map((c): [string, GraphQLInputFieldConfig] => [c.field, { type: op.type(ctx, c), description: describe(c.comment) }])),
    }));
    out.push([op.arg, { type, description: op.description }]);
  }
  return out;
}

/** `<t>_pk_columns_input`: one non-null field per primary-key column. */
export function pkColumnsInputType(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType {
  const name = typeNameOf(t, '_pk_columns_input');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `primary key columns input for table: ${qualifiedName(t)}`,
    fields: () => sortByKey(columnsOf(t, t.primaryKey).map((c): [string, GraphQLInputFieldConfig] =>
      [c.field, { type: new GraphQLNonNull(scalarType(ctx, c.scalar, c.category)), description: describe(c.comment) }])),
  }));
}

/** `<t>_updates`: one entry of update_<t>_many. */
export function updatesType(ctx: SchemaContext, t: TableModel): GraphQLInputObjectType {
  const name = typeNameOf(t, '_updates');
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    fields: () => sortByKey([...updateOperatorArgs(ctx, t),
      ['where', { type: new GraphQLNonNull(boolExpType(ctx, t)), description: 'filter the rows which have to be updated' }]]),
  }));
}
