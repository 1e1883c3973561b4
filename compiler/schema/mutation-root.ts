// mutation_root: insert_<t>, insert_<t>_one, update_<t>, update_<t>_by_pk, update_<t>_many,
// delete_<t>, delete_<t>_by_pk with Hasura v2's arguments, types and descriptions
// (reference/schema.md §1, §6).

import {
  GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType,
  type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap,
} from 'graphql';
import type { MutationKind, MutationRootField, TableModel } from '../../runtime/bundle/index.js';
import { typeNameOf } from '../../runtime/bundle/index.js';
import { boolExpType } from './bool-exp.js';
import { canSelect, describe, hasObjectType, named, qualifiedName, sortByKey, tableOf, visibleColumns, type SchemaContext } from './context.js';
import {
  insertInputType, insertPerm, mutationPerms, onConflictType, pkColumnsInputType, updateOperatorArgs, updatePerm, updatesType,
} from './mutation-inputs.js';
import { objectType, rowsType } from './object-type.js';
import { withNamespaces } from './namespaces.js';
import { scalarType } from './scalars.js';
import { functionField } from './select-root.js';
import { ifMatchedType } from './if-matched.js';

type Field = GraphQLFieldConfig<unknown, unknown>;

const defaultDescriptions: { readonly [K in MutationKind]: (table: string) => string } = {
  insert: (table) => `insert data into the table: "${table}"`,
  insert_one: (table) => `insert a single row into the table: "${table}"`,
  update: (table) => `update data of the table: "${table}"`,
  update_by_pk: (table) => `update single row of the table: "${table}"`,
  update_many: (table) => `update multiples rows of table: "${table}"`,
  delete: (table) => `delete data from the table: "${table}"`,
  delete_by_pk: (table) => `delete single row from the table: "${table}"`,
  // Not read: functionMutation words a function mutation with the function's name.
  function: (table) => `execute VOLATILE function which returns "${table}"`,
};

/** `<t>_mutation_response`: `affected_rows`, and `returning` when the role may read `t`. */
function mutationResponseType(ctx: SchemaContext, t: TableModel): GraphQLObjectType {
  const name = typeNameOf(t, '_mutation_response');
  return named(ctx, name, () => new GraphQLObjectType({
    name,
    description: `response of any mutation on the table "${qualifiedName(t)}"`,
    fields: () => {
      const fields: [string, Field][] = [['affected_rows', { type: new GraphQLNonNull(GraphQLInt), description: 'number of rows affected by the mutation' }]];
      if (canSelect(ctx, t.id) && hasObjectType(ctx, t)) {
        fields.push(['returning', { type: rowsType(ctx, t), description: 'data from the rows affected by the mutation' }]);
      }
      return sortByKey(fields);
    },
  }));
}

function insertArgs(ctx: SchemaContext, t: TableModel, one: boolean): GraphQLFieldConfigArgumentMap {
  const input = new GraphQLNonNull(insertInputType(ctx, t));
  const args: GraphQLFieldConfigArgumentMap = one
    ? { object: { type: input, description: 'the row to be inserted' } }
    : { objects: { type: new GraphQLNonNull(new GraphQLList(input)), description: 'the rows to be inserted' } };
  const onConflict = onConflictType(ctx, t);
  if (onConflict) args['on_conflict'] = { type: onConflict, description: 'upsert condition' };
  const ifMatched = ifMatchedType(ctx, t);
  if (ifMatched) args['if_matched'] = { type: ifMatched, description: 'upsert condition' };
  return sortByKey(Object.entries(args));
}

function pkArgs(ctx: SchemaContext, t: TableModel): GraphQLFieldConfigArgumentMap {
  const readable = visibleColumns(ctx, t);
  return sortByKey(t.primaryKey.map((name) => {
    const c = readable.find((x) => x.name === name)!;
    return [c.field, { type: new GraphQLNonNull(scalarType(ctx, c.scalar, c.category)), description: describe(c.comment) }];
  }));
}

function build(ctx: SchemaContext, kind: MutationKind, t: TableModel): Field | null {
  const readable = canSelect(ctx, t.id) && hasObjectType(ctx, t);
  switch (kind) {
    case 'insert': return insertPerm(ctx, t.id) ? { type: mutationResponseType(ctx, t), args: insertArgs(ctx, t, false) } : null;
    case 'insert_one': return insertPerm(ctx, t.id) && readable ? { type: objectType(ctx, t), args: insertArgs(ctx, t, true) } : null;
    case 'update': case 'update_by_pk': {
      if (!updatePerm(ctx, t.id) || (kind === 'update_by_pk' && !readable)) return null;
      const key: [string, GraphQLFieldConfigArgumentMap[string]] = kind === 'update'
        ? ['where', { type: new GraphQLNonNull(boolExpType(ctx, t)), description: 'filter the rows which have to be updated' }]
        : ['pk_columns', { type: new GraphQLNonNull(pkColumnsInputType(ctx, t)) }];
      const args = sortByKey([...updateOperatorArgs(ctx, t), key]);
      return { type: kind === 'update' ? mutationResponseType(ctx, t) : objectType(ctx, t), args };
    }
    case 'update_many': {
      if (!updatePerm(ctx, t.id)) return null;
      const updates = new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(updatesType(ctx, t))));
      return { type: new GraphQLList(mutationResponseType(ctx, t)), args: { updates: { type: updates, description: 'updates to execute, in order' } } };
    }
    case 'delete': {
      if (!mutationPerms(ctx, t.id).delete) return null;
      const where = { type: new GraphQLNonNull(boolExpType(ctx, t)), description: 'filter the rows which have to be deleted' };
      return { type: mutationResponseType(ctx, t), args: { where } };
    }
    case 'delete_by_pk': return mutationPerms(ctx, t.id).delete && readable ? { type: objectType(ctx, t), args: pkArgs(ctx, t) } : null;
    case 'function': return null;
  }
}

// A function exposed as a mutation: the query field's type and arguments, with Hasura's description
// of a mutation function (Schema/Build.hs buildFunctionMutationFields: no comment, no `_aggregate`).
function functionMutation(ctx: SchemaContext, f: MutationRootField, t: TableModel): Field | null {
  const fn = f.function ? ctx.model.functions[f.function] : undefined;
  if (!fn || !canSelect(ctx, t.id) || !hasObjectType(ctx, t)) return null;
  return { ...functionField(ctx, fn, t), description: `execute VOLATILE function "${qualifiedName(fn)}" which returns "${qualifiedName(t)}"` };
}

/** `mutation_root`, or undefined when the role may write nothing (the type is then absent: "no mutations exist"). */
export function mutationRoot(ctx: SchemaContext, extra: readonly [string, Field][] = []): GraphQLObjectType | undefined {
  const fields: [string, Field][] = [...extra];
  for (const [name, f] of Object.entries(ctx.model.roots[ctx.role]?.mutation ?? {}) as [string, MutationRootField][]) {
    const t = tableOf(ctx, f.table);
    if (f.kind === 'function') {
      const call = functionMutation(ctx, f, t);
      if (call) fields.push([name, call]);
      continue;
    }
    const field = build(ctx, f.kind, t);
    if (!field) continue;
    fields.push([name, { ...field, description: describe(t.rootFieldComments[f.kind], defaultDescriptions[f.kind](qualifiedName(t))) }]);
  }
  if (fields.length === 0) return undefined;
  return new GraphQLObjectType({ name: 'mutation_root', fields: sortByKey(withNamespaces(ctx, fields, 'mutation')) });
}
