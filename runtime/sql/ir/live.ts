// Subscriptions as IR: a live query run once for many subscribers (reference/subscriptions.md §4)
// and a stream cursor over one (§5). The select is planned like a query's; what differs is where
// its value slots come from: each is read as a column of a relation holding one row of values per
// cohort of subscribers, so one statement answers every cohort at once.

import type { JsonField } from './select.js';

/** The relation of per-cohort values: one row per cohort, its id, then slot `i` as column `slot(i)`. */
export interface Cohort {
  readonly relation: string;
  readonly id: string;
  /** The column that carries value slot `index` (1-based, in the order the select's slots render). */
  slot(index: number): string;
}

/** A multiplexed live query: `fields` (the root fields of one source) evaluated per cohort row. */
export interface LiveQuery {
  readonly kind: 'live';
  readonly source: string;
  readonly cohort: Cohort;
  readonly fields: readonly JsonField[];
}

/**
 * A stream cursor: batches of at most `batchSize` rows ordered by the cursor columns, after the
 * cursor value each subscriber last saw. `live` is the query of one batch, whose select already
 * holds the cursor condition (`> $cursor`, `< $cursor` descending), order and limit, with the
 * cursor as one more per-cohort slot.
 */
export interface Stream {
  readonly kind: 'stream';
  readonly cursor: readonly string[];
  readonly ordering: 'asc' | 'desc';
  readonly batchSize: number;
  readonly live: LiveQuery;
}

/** The cohort relation the live queries of every dialect read (`_subs(cohort_id, p1, p2, …)`). */
export const subscriberCohort: Cohort = { relation: '_subs', id: 'cohort_id', slot: (i) => `p${i}` };
