/** The request engine: plan cache, binding and execution. */
/** Subscriptions planned as LiveQuery / Stream IR. */
export { planLiveQuery, type LivePlan, type StreamCursor } from './live.js';
export { Engine, type EngineOptions, type EngineStats, type SubscriptionPlan } from './engine.js';
export { setBooleanNullCollapse } from './validate-words.js';
/** Names in the iteration order of Hasura's HashMap/HashSet of names (the order its messages list them in). */
export { hashMapOrder } from './validate-words.js';
/** What POST /v1/graphql/explain answers: per root field the SQL and PostgreSQL's plan. */
export type { Explanation, FieldExplanation, SubscriptionExplanation } from './explain.js';
/** Planning one operation into SQL (used by `inspect` and the compiler's SQL files), or into IR (what proofs read). */
export { planOperation, planQueryIr, type Plan, type PlanInput, type QueryIr, type SqlPlan } from './plan.js';
/** Planning one mutation operation into guarded statements (used by the compiler's SQL files). */
export { planMutation, type MutationPlan, type MutationFieldPlan, type NamedSql } from './mutation-plan.js';
/** Request and session shapes. */
export type { GraphQLRequest, Session } from '../bundle/index.js';
/** BoolIr as an IR condition (and rendered), and parameter binding, for the v1 data operations run under a role's permissions. */
export { boolCond, lowerBool, permissionCond, restAfterParent } from './bool.js';
/** A permission's preset value as an IR expression of the column's type. */
export { presetExpr } from './mutation-perms.js';
export { bindParams } from './bind.js';
export type { PlanContext } from './context.js';
/** Stored queries: the allow-list key of a document, planning one whole for a role, its plan as bundle JSON. */
export { queryKey, keyOf, planStoredQuery, declaredVariables, planToModel, type QueryKey, type StoredPlanning } from './persisted.js';
/** The proof on the IR that every read of a table carries the role's select permission. */
export { permissionGaps } from './permission-proof.js';
/** The proof on the IR that a mutation's writes carry the role's filters and checks, and its reads the select permission. */
export { mutationGaps, proveMutation } from './mutation-proof.js';
/** The server's caps on one operation and their defaults; the cost of an operation with its fragments expanded. */
export { DEFAULT_QUERY_CAPS, queryCapsFromEnv, type QueryCaps } from './limits.js';
export { operationCost, type OperationCost } from './cost.js';
/** Rate-limit counts (share one across engines) and what a limit knows of the client. */
export { RateLimiter, type ClientInfo } from './rate-limit.js';
/** The action executor's hook into the engine (runtime/actions implements it). */
export type { ActionHook, ActionRequest } from './action-hook.js';
/** A prepared operation; collecting the fields of a selection set; a field's arguments as inputs. */
export { onlyFields, type Prepared } from './prepare.js';
export { collectFields, type FieldSel } from './fields.js';
/** Row selections as IR (object and list), a table as a row source, a join condition: what action relationships plan with. */
export { listSelect, objectSelect, relationshipAggregateSelect } from './select.js';
export { argsOf } from './fields.js';
export { tableSource } from './context.js';
export type { JoinCond } from './rows.js';
/** Hasura's non-negative 32-bit integer rule and wording (`limit`, a stream's `batch_size`): a literal, a variable's value. */
export { checkLimit, checkLimitValue } from './check.js';
