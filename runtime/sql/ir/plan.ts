// A plan of the query IR: the steps an operation runs. SQL steps are rendered per dialect; HTTP
// steps (remote schemas, actions) and joins between steps are typed here for the issues that
// build on this one, and no planner produces them yet.

import type { JsonField } from './select.js';
import type { Slot } from './scalar.js';

/** One statement on one source whose single value is a JSON object of `fields` (root fields). */
export interface SqlStep {
  readonly kind: 'sql';
  readonly id: string;
  readonly source: string;
  readonly fields: readonly JsonField[];
}

/** A call of a remote GraphQL server or an action handler, whose response is JSON. */
export interface HttpStep {
  readonly kind: 'http';
  readonly id: string;
  readonly target: { readonly kind: 'remote_schema'; readonly name: string } | { readonly kind: 'action'; readonly name: string };
  /** The GraphQL document or the action's input, with slots for request values. */
  readonly body: string;
  readonly variables: { readonly [name: string]: Slot };
}

/**
 * Joins the JSON of one step into another on named keys: for each object at `path` of `left`,
 * the `right` rows whose `keys` equal the left object's, written under `field`. One right-hand
 * call per relationship per level, never one per row.
 */
export interface JoinStep {
  readonly kind: 'join';
  readonly left: string;
  readonly right: string;
  readonly path: readonly string[];
  readonly keys: readonly (readonly [left: string, right: string])[];
  readonly field: string;
  readonly cardinality: 'object' | 'array';
}

export type Step = SqlStep | HttpStep | JoinStep;

/** The steps of one operation, run in order where they depend on each other. */
export interface QueryPlan {
  readonly steps: readonly Step[];
}
