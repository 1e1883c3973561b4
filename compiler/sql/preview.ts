import { parse } from 'graphql';
import type { BundleModel, RootField, TableModel } from '../../runtime/bundle/index.js';
import { type CompiledSql, type MultiplexedSql } from '../../runtime/sql/index.js';
import { planLiveQuery, planOperation } from '../../runtime/graphql/index.js';
import type { GraphQLSchema } from 'graphql';
import { previewVariables } from './preview-variables.js';
import { tableDialect } from './source-dialect.js';

/** The query a root field's SQL file shows: every column the role may read, no arguments, keys as variables. */
export function previewQuery(model: BundleModel, role: string, field: string, root: RootField): string {
  const t = model.tables[root.table]!;
  const perm = model.select[role]![root.table]!;
  const cols = t.columns.filter((c) => perm.columns.includes(c.name)).map((c) => c.field);
  const selection = cols.length ? cols.join(' ') : '__typename';
  switch (root.kind) {
    case 'select': return `query { ${field} { ${selection} } }`;
    case 'select_by_pk': {
      const keys = t.primaryKey.map((k) => t.columns.find((c) => c.name === k)!);
      const defs = keys.map((c) => `$${c.field}: ${c.scalar}!`).join(', ');
      return `query (${defs}) { ${field}(${keys.map((c) => `${c.field}: $${c.field}`).join(', ')}) { ${selection} } }`;
    }
    case 'select_aggregate': return `query { ${field} { aggregate { count } nodes { ${selection} } } }`;
    case 'function': case 'function_aggregate': {
      const fn = model.functions[root.function]!;
      const defs = fn.args.map((a) => `$${a.name}: ${a.scalar}${a.hasDefault ? '' : '!'}`).join(', ');
      const args = fn.args.length ? `(args: {${fn.args.map((a) => `${a.name}: $${a.name}`).join(', ')}})` : '';
      const body = root.kind === 'function' ? `{ ${selection} }` : `{ aggregate { count } nodes { ${selection} } }`;
      return `query ${defs ? `(${defs}) ` : ''}{ ${field}${args} ${body} }`;
    }
  }
}

/** Plans the preview query of a root field for a role: the statement its SQL file holds. */
export function previewSql(model: BundleModel, schema: GraphQLSchema, role: string, field: string, root: RootField): CompiledSql {
  const text = previewQuery(model, role, field, root);
  const document = parse(text);
  const operation = document.definitions[0]!;
  if (operation.kind !== 'OperationDefinition') throw new Error('assertion failed: preview is an operation');
  const variables = previewVariables(operation);
  const plan = planOperation({ model, schema, role, dialect: tableDialect(model, root.table), stringifyNumeric: model.options.stringifyNumeric,
    document, operation, variables, structural: new Set() });
  if (plan.kind !== 'sql') throw new Error('assertion failed: a root field plans to SQL');
  return plan.sql;
}

/**
 * The multiplexed statement a live-query subscription on a root field runs per poll for a role
 * (reference/subscriptions.md): the preview query as a subscription, planned with its parameters
 * read from the per-cohort relation, then wrapped to run for every cohort at once.
 */
export function previewSubscriptionSql(model: BundleModel, schema: GraphQLSchema, role: string, field: string, root: RootField): MultiplexedSql {
  const text = previewQuery(model, role, field, root).replace(/^query\b/, 'subscription');
  const document = parse(text);
  const operation = document.definitions[0]!;
  if (operation.kind !== 'OperationDefinition') throw new Error('assertion failed: preview is an operation');
  const variables = previewVariables(operation);
  const plan = planLiveQuery({ model, schema, role, dialect: tableDialect(model, root.table), stringifyNumeric: model.options.stringifyNumeric,
    document, operation, variables, structural: new Set() });
  if (plan.kind !== 'live') throw new Error('assertion failed: a root field plans to SQL');
  return plan.statement;
}

/** A table's display name for headers. */
export function tableLabel(t: TableModel): string {
  return `${t.schema}.${t.name}`;
}
