// One parsed document made ready to plan for one role: the operation picked, validated as Hasura
// validates (validate.ts, check.ts: its order, words and paths), then the graphql-js rules that
// Hasura's parser also enforces. Shared by the engine's per-request cache and by stored queries,
// which are prepared once when a bundle is loaded.

import {
  ExecutableDefinitionsRule, Kind, LoneAnonymousOperationRule, SingleFieldSubscriptionsRule,
  UniqueArgumentNamesRule, UniqueInputFieldNamesRule, UniqueOperationNamesRule, validate, visit,
  type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode, type ValidationRule,
} from 'graphql';
import { ApiError } from '../errors/index.js';
import { hasuraChecks, type VariableSites } from './check.js';
import { parseSelection, resolveDefinitions, usedVariables } from './validate.js';
import type { Plan } from './plan.js';
import type { MutationPlan } from './mutation-plan.js';

/** One parsed, validated operation; plans keyed by the values of the variables that shaped them. */
export interface Prepared {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly structural: Set<string>;
  readonly plans: Map<string, Plan | MutationPlan>;
  readonly sites: VariableSites;
  /** The variables the operation uses (a value sent for any other is refused). */
  readonly used: ReadonlySet<string>;
}

// The graphql-js rules Hasura's parser enforces too. Left out on purpose: unused variables and
// fragments (Hasura allows them), unknown type names and fragment type conditions (Hasura ignores
// a fragment on a type it does not select), and the rules validate.ts and check.ts implement in
// Hasura's words (values, required arguments, leaf selections, field merging, variables,
// fragments, directives, unknown fields and arguments).
const RULES: readonly ValidationRule[] = [ExecutableDefinitionsRule, UniqueOperationNamesRule, LoneAnonymousOperationRule,
  SingleFieldSubscriptionsRule, UniqueArgumentNamesRule, UniqueInputFieldNamesRule];

/** Checks and validates a parsed document for a role's schema; throws the ApiError a client sees. */
export function prepareOperation(schema: GraphQLSchema, parsed: DocumentNode, operationName: string | null): Prepared {
  let document = parsed;
  let operation = pickOperation(document, operationName);
  // Hasura's answer when the role's schema has no root of that kind at all.
  if (operation.operation === 'mutation' && !schema.getMutationType()) throw new ApiError('validation-failed', 'no mutations exist', 400, []);
  if (operation.operation === 'subscription' && !schema.getSubscriptionType()) throw new ApiError('validation-failed', 'no subscriptions exist', 400, []);
  resolveDefinitions(document, operation);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === 'FragmentDefinition') fragments.set(d.name.value, d);
  const sites = hasuraChecks(schema, operation, fragments);
  if (sites.stringOffsets.size) {
    document = visit(document, { StringValue: (node) => (sites.stringOffsets.has(node) ? { kind: Kind.INT, value: node.value } : undefined) });
    operation = pickOperation(document, operationName);
  }
  parseSelection(schema, document, operation);
  const errors = validate(schema, document, RULES);
  if (errors.length) throw new ApiError('validation-failed', errors[0]!.message, 400, []);
  const used = new Set(usedVariables(operation.selectionSet, fragments, new Set()));
  return { document, operation, structural: new Set(), plans: new Map(), sites, used };
}

/** The operation a request names (or the only one). */
export function pickOperation(doc: DocumentNode, name: string | null): OperationDefinitionNode {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (name === null) {
    if (ops.length !== 1) throw new ApiError('validation-failed', 'exactly one operation has to be present in the document when operationName is not specified', 400, []);
    return ops[0]!;
  }
  const op = ops.find((o) => o.name?.value === name);
  if (!op) throw new ApiError('validation-failed', `no such operation found in the document: ${JSON.stringify(name)}`, 400, []);
  return op;
}

/** Values of the variables that shaped the plan, plus which variables are null: the key of a plan. */
export function planSignature(p: Prepared, variables: { readonly [k: string]: unknown }): string {
  let sig = '';
  // Walk the declared variables, not the coerced ones: an omitted variable is absent from
  // `variables` but plans like a null one, so it must not share the plan of a non-null value.
  for (const def of p.operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    if (variables[name] == null) sig += `${name},`;
  }
  if (p.structural.size === 0) return sig;
  return sig + JSON.stringify([...p.structural].map((n) => variables[n] ?? null));
}
