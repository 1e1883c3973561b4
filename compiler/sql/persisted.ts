import { parse, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { BundleModel, PersistedQueryModel, StoredPlanModel } from '../../runtime/bundle/index.js';
import { declaredVariables, keyOf, planStoredQuery, planToModel } from '../../runtime/graphql/index.js';
import { postgres } from '../../runtime/sql/index.js';
import { sourceDialect } from './source-dialect.js';

/** A stored query compiled for the roles asked: everything the bundle keeps of it but its name. */
export type CompiledStoredQuery = Omit<PersistedQueryModel, 'collection' | 'name'>;

/**
 * Compiles a stored query (a query collection's) whole for each of `roles` by the planner that
 * serves requests: roles whose schema does not validate it are left out; a role whose plan
 * depends on variable values gets null (planned per request).
 */
export function compileStoredQuery(model: BundleModel, schemas: { readonly [role: string]: GraphQLSchema },
  roles: readonly string[], query: string): CompiledStoredQuery {
  let document: DocumentNode;
  try {
    document = parse(query, { noLocation: true });
  } catch {
    return { query, sha256: null, operation: null, variables: [], plans: {} };
  }
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const plans: { [role: string]: StoredPlanModel | null } = {};
  for (const role of roles) {
    const schema = schemas[role];
    if (!schema) continue;
    // Each root field in its own source's dialect (a stored query may read sources of several kinds).
    const planning = planStoredQuery({ model, schema, role, dialect: postgres, dialectOf: (source) => sourceDialect(model, source), stringifyNumeric: model.options.stringifyNumeric, document });
    if (planning.kind === 'invalid') continue;
    plans[role] = planning.plan === null ? null : planToModel(planning.plan);
  }
  return {
    query, sha256: keyOf(document).sha256, operation: ops.length === 1 ? ops[0]!.operation : null,
    variables: declaredVariables(document), plans,
  };
}
