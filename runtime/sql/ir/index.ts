// The dialect-neutral query IR (DESIGN.md "Query IR"): planners build these nodes, renderers write SQL.

/** Value slots, scalar expressions and row sources. */
export { isAggregateFn, type AggregateFn, type CallArg, type CallExpr, type Expr, type QualifiedName, type ReadThrough, type Slot, type Source, type TableSource, type FunctionSource, type WrittenRows } from './scalar.js';
/** Boolean conditions: permission filters, `where`, joins and `_exists`. */
export { isCompareOp, type CompareOp, type Cond, type SpatialOp } from './scalar.js';
/** Precompiled conditions: a permission predicate rendered for a dialect, with slots. */
export type { SqlTemplate, TemplateSlot } from './template.js';
/** Selects: JSON shapes over permitted, ordered, limited rows. */
export type {
  AggregateColumn, AggregateFnField, AggregatePart, AggregateSelect, JsonField, JsonObject, JsonValue, Limit, ListSelect,
  ObjectSelect, OrderDir, OrderItem, Permission, RowSet, ScalarOutput,
} from './select.js';
/** Writes: inserts, upserts, updates, deletes, their guards and responses. */
export type { Assignment, Conflict, Guard, KeptWrite, MutationJson, MutationStatement, UpdateOp, Write, WriteBody, WriteExpr, WrittenTable } from './mutation.js';
/** Subscriptions: a live query over a relation of per-cohort values, and a stream cursor. */
export { subscriberCohort, type Cohort, type LiveQuery, type Stream } from './live.js';
/** Every read of rows in a plan and what guards it (permission proofs on the IR). */
export { readsOf, readsOfMutation, relationsRead, type RelationsRead, type TableRead } from './reads.js';
/** Plans: SQL steps, HTTP steps and joins between them. */
export type { HttpStep, JoinStep, QueryPlan, SqlStep, Step } from './plan.js';
