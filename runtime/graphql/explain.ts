// POST /v1/graphql/explain (reference/endpoints.md): for a query, per root field the statement
// the engine would run for the session and PostgreSQL's plan of it; for a live query, the
// multiplexed statement of one cohort. Nothing runs: `EXPLAIN` without ANALYZE only plans, and
// it is sent in a read-only transaction so that a planner that evaluates a function early
// cannot write either. Request values stay parameters, bound the way a real run binds them.

import type { FragmentDefinitionNode } from 'graphql';
import type { Session } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { ApiError } from '../errors/index.js';
import {
  formatSql, multiplexParams, paramHeader, type MultiplexedSql,
} from '../sql/index.js';
import { bindParams } from './bind.js';
import { tableOf, type PlanContext } from './context.js';
import { collectFields } from './fields.js';
import { planLiveQuery } from './live.js';
import { planOperation, rootFieldIr, rootFieldStatement, type PlanInput } from './plan.js';

/** One root field of a query: its statement and plan; both null for a field answered without SQL (`__typename`). */
export interface FieldExplanation {
  readonly field: string;
  readonly sql: string | null;
  readonly plan: readonly string[] | null;
}

/** A live query: the multiplexed statement for one cohort, its plan and the values it was explained with. */
export interface SubscriptionExplanation {
  readonly sql: string;
  readonly plan: readonly string[];
  readonly variables: {
    readonly synthetic: readonly unknown[];
    readonly query: { readonly [k: string]: unknown };
    readonly session: { readonly [k: string]: string };
  };
}

/** What explain answers: a list for a query, one object for a subscription (Hasura's shapes). */
export type Explanation = readonly FieldExplanation[] | SubscriptionExplanation;

/**
 * Explains an operation already parsed, validated and with its variables coerced (Engine.explain)
 * for `session`. Mutations are refused as Hasura refuses them.
 */
export async function explainOperation(input: PlanInput, session: Session, driverFor: (source: string) => Driver): Promise<Explanation> {
  switch (input.operation.operation) {
    case 'mutation': throw new ApiError('invalid-params', 'only queries can be explained', 400, []);
    case 'subscription': return explainSubscription(input, session, driverFor);
    default: return explainQuery(input, session, driverFor);
  }
}

async function explainQuery(input: PlanInput, session: Session, driverFor: (source: string) => Driver): Promise<FieldExplanation[]> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of input.document.definitions) if (d.kind === 'FragmentDefinition') fragments.set(d.name.value, d);
  const ctx: PlanContext = { ...input, fragments, hints: { valueSensitive: false } };
  const roots = input.model.roots[input.role]?.query;
  const out: FieldExplanation[] = [];
  for (const f of collectFields(input.operation.selectionSet, 'query_root', ctx)) {
    // Introspection and __typename are answered from the schema: Hasura lists them with nulls.
    if (f.name.startsWith('__')) { out.push({ field: f.key, sql: null, plan: null }); continue; }
    const root = roots?.[f.name];
    if (!root) throw new ApiError('validation-failed', `field "${f.name}" not found in type: 'query_root'`, 400, ['selectionSet', f.name]);
    // The statement the engine would run were this the request's only root field.
    const statement = rootFieldStatement(f.key, rootFieldIr(root, f, ctx, ['selectionSet', f.name], f.name), ctx);
    const values = bindParams(statement.params, input.variables, session);
    const plan = await postgresPlan(driverFor(tableOf(ctx, root.table).source), statement.text, values);
    out.push({ field: f.key, sql: withParams(statement.text, paramHeader(statement, values)), plan });
  }
  return out;
}

async function explainSubscription(input: PlanInput, session: Session, driverFor: (source: string) => Driver): Promise<SubscriptionExplanation> {
  const streams = input.model.roots[input.role]?.stream ?? {};
  if (input.operation.selectionSet.selections.some((s) => s.kind === 'Field' && Object.hasOwn(streams, s.name.value))) {
    throw new ApiError('not-supported', 'streaming subscriptions cannot be explained', 400, []);
  }
  // Planned as runtime/subscriptions plans it: parameters read as columns of the cohort relation.
  const plan = planLiveQuery({ ...input, structural: new Set() });
  if (plan.kind === 'static') throw new ApiError('not-supported', 'a subscription that reads no table has no SQL to explain', 400, []);
  if (plan.kind === 'multi') throw new ApiError('not-supported', 'all fields of a subscription must be from the same source', 400, []);
  const driver = driverFor(plan.source);
  const statement = plan.statement;
  const slots = bindParams(statement.slots, input.variables, session).map((v) => driver.dialect.cohortValue(v));
  // Hasura's cohort variables (Execute/Subscription/Plan.hs resolveMultiplexedValue): every column
  // value the request gives, literal or variable, is a synthetic variable, its text as PostgreSQL
  // reads it, in the order of the statement; session values are listed apart (tests-py
  // test_subscriptions.py TestSubscriptionMultiplexingPostgres: $id -> ['1'], $ids -> ['{1,2,3}']).
  const synthetic = statement.slots.flatMap((slot, i) => (slot.source.kind === 'session' ? [] : [slots[i]]));
  const params = multiplexParams([{ id: 1, values: slots }], slots.length);
  const notes = [`-- $1 = cohort ids :: int4[] = ${JSON.stringify(params[0])}`,
    ...paramHeader({ params: statement.slots }, params.slice(1), 2).map((line) => `${line} (one text value per cohort)`)];
  return {
    sql: withParams(statement.text, notes),
    plan: await postgresPlan(driver, statement.text, params),
    variables: { synthetic, query: {}, session: sessionRead(statement.slots, session) },
  };
}

// The session variables a live query reads, as Hasura lists them (filterVariablesFromQuery): only
// those its permissions or arguments use; all of them when a function takes the whole session.
function sessionRead(slots: MultiplexedSql['slots'], session: Session): { [k: string]: string } {
  const out: { [k: string]: string } = {};
  for (const slot of slots) {
    if (slot.source.kind !== 'session') continue;
    if (slot.source.name === '*') return { ...session.variables };
    const v = session.variables[slot.source.name];
    if (v !== undefined) out[slot.source.name] = v;
  }
  return out;
}

// EXPLAIN is PostgreSQL's (every driver is one today); the keyword is a constant before a
// compiled statement, whose values stay parameters.
async function postgresPlan(driver: Driver, text: string, values: readonly unknown[]): Promise<string[]> {
  const result = await driver.transaction((tx) => tx.query(`EXPLAIN ${text}`, values), { readOnly: true });
  return result.rows.map((row) => String(row[0]));
}

// The statement laid out for reading (the plan is of the text as the engine runs it; they differ
// only in whitespace), then one comment line per parameter: its origin and its value.
function withParams(text: string, notes: readonly string[]): string {
  const laid = formatSql(text);
  return notes.length === 0 ? laid : `${laid}\n${notes.join('\n')}`;
}

