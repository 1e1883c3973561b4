// Stored queries (query collections): the key the allow-list compares, and each query planned
// whole for a role. The compiler calls these to write the bundle's persisted plans; the engine
// calls them again only when it serves with settings other than the bundle was compiled with.

import { createHash } from 'node:crypto';
import { Kind, parse, print, visit, type DocumentNode } from 'graphql';
import type { ErrorModel, StoredMutationFieldModel, StoredPlanModel } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { planMutation, type MutationFieldPlan, type MutationPlan } from './mutation-plan.js';
import { planOperation, type Plan, type PlanInput } from './plan.js';
import { prepareOperation, type Prepared } from './prepare.js';

/** What the allow-list compares: the document printed without formatting and without `__typename` fields. */
export interface QueryKey {
  /** sha256 (hex) of the normalised document. */
  readonly sha256: string;
  /** The document printed as is (formatting gone, `__typename` kept): which stored text it is. */
  readonly shape: string;
}

/**
 * The allow-list key of a query text, or null when it does not parse. Hasura compares parsed
 * documents with `__typename` fields stripped, so whitespace, commas, comments and asking for
 * `__typename` anywhere do not matter (reference/endpoints.md "Allow-list").
 */
export function queryKey(text: string): QueryKey | null {
  let document: DocumentNode;
  try {
    document = parse(text, { noLocation: true });
  } catch {
    return null;
  }
  return keyOf(document);
}

/** The allow-list key of a parsed document. */
export function keyOf(document: DocumentNode): QueryKey {
  const stripped = visit(document, { Field: (node) => (node.name.value === '__typename' ? null : undefined) });
  return { sha256: createHash('sha256').update(print(stripped)).digest('hex'), shape: print(document) };
}

/** What planning a stored query for a role gives. */
export type StoredPlanning =
  /** The role's schema does not validate it (or it names no single operation): the role may not run it. */
  | { readonly kind: 'invalid'; readonly error: ApiError }
  /** Ready to run: `plan` serves every request that gives every variable; null when variable values shape it. */
  | { readonly kind: 'planned'; readonly prepared: Prepared; readonly plan: Plan | MutationPlan | null };

export type StoredPlanInput = Pick<PlanInput, 'model' | 'schema' | 'role' | 'dialect' | 'dialectOf' | 'stringifyNumeric' | 'document'>;

/**
 * Plans a stored query whole for a role, as a request giving a value for every variable would
 * plan: only whether a variable is null shapes such a plan, so any non-null stand-in will do,
 * unless planning read a variable's value (then it is planned per request, as ad-hoc queries are).
 */
export function planStoredQuery(input: StoredPlanInput): StoredPlanning {
  let prepared: Prepared;
  try {
    prepared = prepareOperation(input.schema, input.document, null);
  } catch (e) {
    if (e instanceof ApiError) return { kind: 'invalid', error: e };
    throw e;
  }
  const op = prepared.operation;
  if (op.operation === 'subscription') return { kind: 'planned', prepared, plan: null };
  const defs = op.variableDefinitions ?? [];
  // Introspection answers are computed at plan time from variable values the cache does not key.
  if (defs.length > 0 && asksIntrospection(input.document)) return { kind: 'planned', prepared, plan: null };
  const variables = Object.fromEntries(defs.map((d) => [d.variable.name.value, 0]));
  const structural = new Set<string>();
  const planInput = { model: input.model, schema: input.schema, role: input.role, dialect: input.dialect, ...(input.dialectOf ? { dialectOf: input.dialectOf } : {}),
    stringifyNumeric: input.stringifyNumeric, document: prepared.document, operation: op, variables, structural };
  let plan: Plan | MutationPlan;
  try {
    plan = op.operation === 'mutation' ? planMutation(planInput) : planOperation(planInput);
  } catch (e) {
    // A stand-in value the planner refused, or a problem a request will meet and report.
    if (e instanceof ApiError) return { kind: 'planned', prepared, plan: null };
    throw e;
  }
  return { kind: 'planned', prepared, plan: structural.size === 0 ? plan : null };
}

function asksIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, { Field: (node) => { if (node.name.value === '__schema' || node.name.value === '__type') found = true; } });
  return found;
}

/** The declared variables of the document's single operation, types printed as written. */
export function declaredVariables(document: DocumentNode): { name: string; type: string }[] {
  const ops = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (ops.length !== 1 || ops[0]!.kind !== Kind.OPERATION_DEFINITION) return [];
  return (ops[0]!.variableDefinitions ?? []).map((d) => ({ name: d.variable.name.value, type: print(d.type) }));
}

/** A plan as plain JSON for the bundle (a mutation guard's ApiError becomes its fields). */
export function planToModel(plan: Plan | MutationPlan): StoredPlanModel {
  if (plan.kind !== 'mutation') return plan;
  return {
    kind: 'mutation', source: plan.source, transactional: plan.transactional,
    ...(plan.recordsSession ? { recordsSession: true as const } : {}),
    fields: plan.fields.map(fieldToModel),
  };
}

function fieldToModel(f: MutationFieldPlan): StoredMutationFieldModel {
  if (f.kind === 'static') return f;
  if (f.kind === 'group') return { kind: 'group', key: f.key, fields: f.fields.map(fieldToModel) };
  return { kind: 'sql', key: f.key, list: f.list, statements: f.statements.map((s) => ({ sql: s.sql, name: s.name, errors: s.errors.map(errorToModel),
    ...(s.output ? { output: { sql: s.output.sql, name: s.output.name } } : {}) })) };
}

function fieldFromModel(f: StoredMutationFieldModel): MutationFieldPlan {
  if (f.kind === 'static') return f;
  if (f.kind === 'group') return { kind: 'group', key: f.key, fields: f.fields.map(fieldFromModel) };
  return {
    kind: 'sql', key: f.key, list: f.list,
    statements: f.statements.map((s) => ({ sql: s.sql, name: s.name, errors: s.errors.map((x) => new ApiError(x.code, x.message, x.status, x.path)),
      ...(s.output ? { output: { sql: s.output.sql, name: s.output.name, errors: [] } } : {}) })),
  };
}

/** The plan the engine runs, from the bundle's JSON. */
export function planFromModel(m: StoredPlanModel): Plan | MutationPlan {
  if (m.kind !== 'mutation') return m;
  return {
    kind: 'mutation', source: m.source, transactional: m.transactional,
    ...(m.recordsSession ? { recordsSession: true as const } : {}),
    fields: m.fields.map(fieldFromModel),
  };
}

function errorToModel(e: ApiError): ErrorModel {
  return { code: e.code, message: e.message, status: e.status, path: e.path };
}
