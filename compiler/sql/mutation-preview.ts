// The preview of a mutation root field (the bundle's sql/<role>/<field>.sql): every column the
// role may write given as a variable, every column it may read returned, no filter of the
// client's own; so the file shows the statement with the role's presets, filters and checks.

import { parse, type GraphQLSchema } from 'graphql';
import type { BundleModel, ColumnModel, MutationRootField } from '../../runtime/bundle/index.js';
import { planMutation } from '../../runtime/graphql/index.js';
import type { CompiledSql } from '../../runtime/sql/index.js';
import { previewVariables } from './preview-variables.js';
import { tableDialect } from './source-dialect.js';

function variable(prefix: string, c: ColumnModel, required = false): { def: string; use: string } {
  return { def: `$${prefix}${c.field}: ${c.scalar}${required ? '!' : ''}`, use: `${c.field}: $${prefix}${c.field}` };
}

/** The mutation a mutation root field's SQL file shows. */
export function previewMutationQuery(model: BundleModel, role: string, field: string, root: MutationRootField): string {
  const t = model.tables[root.table]!;
  const perms = model.mutations?.[role]?.[root.table] ?? {};
  const readable = model.select[role]?.[root.table]?.columns ?? [];
  const cols = t.columns.filter((c) => readable.includes(c.name)).map((c) => c.field);
  const row = cols.length ? `{ ${cols.join(' ')} }` : '{ __typename }';
  const response = cols.length ? `{ affected_rows returning ${row} }` : '{ affected_rows }';
  const pk = t.primaryKey.map((k) => variable('pk_', t.columns.find((c) => c.name === k)!, true));
  const defs = (vars: readonly { def: string }[]): string => (vars.length ? `(${vars.map((v) => v.def).join(', ')}) ` : '');
  const obj = (vars: readonly { use: string }[]): string => `{${vars.map((v) => v.use).join(', ')}}`;
  switch (root.kind) {
    case 'insert': case 'insert_one': {
      const vars = t.columns.filter((c) => perms.insert?.columns.includes(c.name)).map((c) => variable('', c));
      const arg = root.kind === 'insert' ? `objects: [${obj(vars)}]` : `object: ${obj(vars)}`;
      return `mutation ${defs(vars)}{ ${field}(${arg}) ${root.kind === 'insert' ? response : row} }`;
    }
    case 'update': case 'update_by_pk': case 'update_many': {
      const vars = t.columns.filter((c) => perms.update?.columns.includes(c.name)).map((c) => variable('', c));
      const set = vars.length ? `_set: ${obj(vars)}` : '';
      if (root.kind === 'update_by_pk') return `mutation ${defs([...pk, ...vars])}{ ${field}(pk_columns: ${obj(pk)}${set ? `, ${set}` : ''}) ${row} }`;
      if (root.kind === 'update_many') return `mutation ${defs(vars)}{ ${field}(updates: [{where: {}${set ? `, ${set}` : ''}}]) ${response} }`;
      return `mutation ${defs(vars)}{ ${field}(where: {}${set ? `, ${set}` : ''}) ${response} }`;
    }
    case 'delete': return `mutation { ${field}(where: {}) ${response} }`;
    case 'delete_by_pk': return `mutation ${defs(pk)}{ ${field}(${pk.map((v) => v.use).join(', ')}) ${row} }`;
    case 'function': {
      const fn = model.functions[root.function!]!;
      const vars = fn.args.map((a) => ({ def: `$${a.name}: ${a.scalar}${a.hasDefault ? '' : '!'}`, use: `${a.name}: $${a.name}` }));
      return `mutation ${defs(vars)}{ ${field}${vars.length ? `(args: ${obj(vars)})` : ''} ${row} }`;
    }
  }
}

/** Plans the preview of a mutation root field: its statements (one; update_many shows one entry). */
export function previewMutationSql(model: BundleModel, schema: GraphQLSchema, role: string, field: string, root: MutationRootField): CompiledSql {
  const document = parse(previewMutationQuery(model, role, field, root));
  const operation = document.definitions[0]!;
  if (operation.kind !== 'OperationDefinition') throw new Error('assertion failed: preview is an operation');
  const variables = previewVariables(operation);
  const plan = planMutation({ model, schema, role, dialect: tableDialect(model, root.table), stringifyNumeric: model.options.stringifyNumeric,
    document, operation, variables, structural: new Set() });
  const f = plan.fields[0];
  if (!f || f.kind !== 'sql' || !f.statements[0]) throw new Error('assertion failed: a mutation root field plans to SQL');
  return f.statements[0].sql;
}
