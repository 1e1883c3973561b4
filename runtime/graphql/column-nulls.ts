// The column fields of a table's insert and update inputs that take no explicit null. Hasura
// builds each column field of `<t>_insert_input` (Schema/Mutation.hs tableFieldsInput,
// mkColumnParser) and of `_set`, `_inc` (Schema/Update.hs setOp, incOp), `_append` and `_prepend`
// (Backends/Postgres/Instances/Schema.hs appendOp, prependOp) with `fieldOptional` over the
// column parser built with the column's own nullability (`G.Nullability $ ciIsNullable
// columnInfo`, NOT attnotnull in pg_table_metadata.sql): the field shows as nullable and may be
// left out, but an explicit null reaches the parser of a NOT NULL column, which refuses it
// ("unexpected null value for type ..."), a default or not. The schema's SDL cannot say so (the
// fields stay nullable for introspection): the model's columns do, and each such input type is
// marked here when its schema builds it, so the check costs nothing until a null is met.

import { isInputObjectType, type GraphQLInputObjectType, type GraphQLNamedType } from 'graphql';
import { typeNameOf, type BundleModel, type TableModel } from '../bundle/index.js';

// Per built input type, the fields of its NOT NULL columns.
const notNullFields = new WeakMap<GraphQLInputObjectType, ReadonlySet<string>>();

/** Whether `field` of `parent` is a NOT NULL column's, read by a column parser that takes no null. */
export function isNotNullColumn(parent: GraphQLInputObjectType, field: string): boolean {
  return notNullFields.get(parent)?.has(field) ?? false;
}

// The input types made of a table's columns read with their own nullability: the insert input
// (also the `data` of a nested insert) needs the insert permission, the others (also in an
// update_many's `<t>_updates`) the update permission. `_delete_key` reads a nullable text,
// `_delete_elem` and `_delete_at_path` non-null ones whatever the column (validate-words.ts).
const INSERT_INPUT = '_insert_input';
const UPDATE_INPUTS = ['_set_input', '_inc_input', '_append_input', '_prepend_input'] as const;

/**
 * A lazySchema `onType` hook for a role's schema: marks each of those input types of the tables
 * the role may write as it is built. Only those names are marked, so a remote schema's or an
 * action's own input types (which may not share a name with them, stitch.ts) are left alone.
 */
export function notNullColumnMarker(model: BundleModel, role: string): (type: GraphQLNamedType) => void {
  let byType: Map<string, TableModel> | undefined;
  const fieldsOf = new Map<TableModel, ReadonlySet<string>>();
  return (type) => {
    if (!isInputObjectType(type)) return;
    byType ??= writtenInputs(model, role);
    const t = byType.get(type.name);
    if (t === undefined) return;
    let fields = fieldsOf.get(t);
    if (!fields) fieldsOf.set(t, (fields = new Set(t.columns.filter((c) => !c.nullable).map((c) => c.field))));
    if (fields.size > 0) notNullFields.set(type, fields);
  };
}

// The names of those input types of the role's tables, each with its table.
function writtenInputs(model: BundleModel, role: string): Map<string, TableModel> {
  const out = new Map<string, TableModel>();
  for (const [id, perms] of Object.entries(model.mutations?.[role] ?? {})) {
    const t = model.tables[id];
    if (!t) continue;
    if (perms.insert) out.set(typeNameOf(t, INSERT_INPUT), t);
    if (perms.update) for (const kind of UPDATE_INPUTS) out.set(typeNameOf(t, kind), t);
  }
  return out;
}

/**
 * Whether every table of both models has the same columns, NOT NULL the same: what a schema's
 * input types are marked from, apart from its SDL (a table only one model has is in no SDL the
 * two share).
 */
export function sameColumnNulls(before: BundleModel, after: BundleModel): boolean {
  for (const [id, t] of Object.entries(after.tables)) {
    const was = Object.hasOwn(before.tables, id) ? before.tables[id] : undefined;
    if (was === undefined || was === t) continue;
    if (was.columns.length !== t.columns.length) return false;
    for (let i = 0; i < t.columns.length; i++) {
      const a = was.columns[i]!, b = t.columns[i]!;
      if (a.field !== b.field || a.nullable !== b.nullable) return false;
    }
  }
  return true;
}
