// One parsed document made ready to plan for one role: the operation picked, validated as Hasura
// validates (validate.ts, check.ts: its order, words and paths), then the graphql-js rules that
// Hasura's parser also enforces. Shared by the engine's per-request cache and by stored queries,
// which are prepared once when a bundle is loaded.

import {
  ExecutableDefinitionsRule, Kind, TokenKind, UniqueArgumentNamesRule, UniqueInputFieldNamesRule, validate, visit,
  type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode, type ValidationRule,
} from 'graphql';
import { ApiError } from '../errors/index.js';
import { hasuraChecks, type VariableSites } from './check.js';
import { MULTIPLE_ROOT_FIELDS } from './hasura-directives.js';
import { operationVariables, parseSelection, resolveDefinitions } from './validate.js';
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
// a fragment on a type it does not select), the choice of the operation (pickOperation: Hasura
// takes the first operation of the name asked for, and refuses a name only beside a shorthand
// query), one root field per subscription (singleSubscriptionField, Hasura's words), and the
// rules validate.ts and check.ts implement in Hasura's words (values, required arguments, leaf
// selections, field merging, variables, fragments, directives, unknown fields and arguments).
const RULES: readonly ValidationRule[] = [ExecutableDefinitionsRule, UniqueArgumentNamesRule, UniqueInputFieldNamesRule];

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
  // `@_multiple_top_level_fields` lifts the one-root-field rule (Hasura's Execute.hs).
  if (operation.operation === 'subscription' && !operation.directives?.some((d) => d.name.value === MULTIPLE_ROOT_FIELDS)) {
    singleSubscriptionField(operation, fragments);
  }
  const used = new Set(operationVariables(operation, fragments));
  return { document, operation, structural: new Set(), plans: new Map(), sites, used };
}

/**
 * The operation a request names (or the only one), as Hasura picks it (Execute.hs getQueryParts):
 * a name is looked up among the operations (the first of that name), and refused when the
 * document holds a shorthand query (`{ ... }`); without a name the document must hold one.
 */
export function pickOperation(doc: DocumentNode, name: string | null): OperationDefinitionNode {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (name === null) {
    if (ops.length !== 1) throw new ApiError('validation-failed', 'exactly one operation has to be present in the document when operationName is not specified', 400, []);
    return ops[0]!;
  }
  if (ops.some(isShorthand)) throw new ApiError('validation-failed', 'operationName cannot be used when an anonymous operation exists in the document', 400, []);
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

// A query written as a bare selection set: its first token is `{` (a document parsed without
// locations tells it by having nothing but the selection set).
function isShorthand(op: OperationDefinitionNode): boolean {
  if (op.loc) return op.loc.startToken.kind === TokenKind.BRACE_L;
  return op.operation === 'query' && !op.name && !op.variableDefinitions?.length && !op.directives?.length;
}

// Hasura runs a subscription as one live query: its selection, fragments inlined, must be one
// field (Execute.hs; graphql-js words it "... must select only one top level field.").
function singleSubscriptionField(op: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): void {
  // Stops at the second field: a chain of fragments each spreading the next twice is not expanded.
  let count = 0;
  const walk = (set: OperationDefinitionNode['selectionSet'], seen: ReadonlySet<string>): void => {
    for (const sel of set.selections) {
      if (count > 1) return;
      if (sel.kind === Kind.FIELD) count++;
      else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet, seen);
      else if (!seen.has(sel.name.value)) {
        const f = fragments.get(sel.name.value);
        if (f) walk(f.selectionSet, new Set([...seen, sel.name.value]));
      }
    }
  };
  walk(op.selectionSet, new Set());
  if (count > 1) throw new ApiError('validation-failed', 'subscriptions must select one top level field', 400, []);
}

/** The operation with only these root fields (already collected: fragments at the root expanded), with plans of its own. */
export function onlyFields(p: Prepared, fields: readonly { readonly node: FieldNode }[]): Prepared {
  const operation = { ...p.operation, selectionSet: { kind: Kind.SELECTION_SET, selections: fields.map((f) => f.node) } } as OperationDefinitionNode;
  const document = { ...p.document, definitions: p.document.definitions.map((d) => (d === p.operation ? operation : d)) };
  return { ...p, document, operation, plans: new Map() };
}
