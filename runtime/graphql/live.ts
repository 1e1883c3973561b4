// Subscriptions as IR: a live query's root fields are planned like a query's and wrapped in a
// LiveQuery node whose value slots are read from the relation of per-cohort values; a stream's
// batch query (runtime/subscriptions/stream.ts rewrites it to a live query) is wrapped once more
// in a Stream node that names its cursor. The dialect's renderer writes the one statement.

import { ApiError } from '../errors/index.js';
import { subscriberCohort, type LiveQuery, type MultiplexedSql, type Stream } from '../sql/index.js';
import { planQueryIr, type PlanInput } from './plan.js';

/** What a stream cursor reads: its column(s), ordering and batch size. */
export interface StreamCursor {
  readonly columns: readonly string[];
  readonly ordering: 'asc' | 'desc';
  readonly batchSize: number;
}

/** A planned subscription: its response known at plan time, several sources (refused by the caller), or one statement. */
export type LivePlan =
  | { readonly kind: 'static'; readonly body: string }
  | { readonly kind: 'multi' }
  | { readonly kind: 'live'; readonly source: string; readonly query: LiveQuery | Stream; readonly statement: MultiplexedSql };

/** Plans a subscription as a LiveQuery (or a Stream when `cursor` is given) and renders it. */
export function planLiveQuery(input: PlanInput, cursor: StreamCursor | null = null): LivePlan {
  const ir = planQueryIr(input);
  if (ir.kind === 'static') return ir;
  if (ir.plan.steps.length !== 1) return { kind: 'multi' };
  const { ctx } = ir;
  if (!ctx.dialect.can.multiplexing) throw new ApiError('not-supported', `subscriptions on a ${ctx.dialect.name} source are not supported`, 400, []);
  const step = ir.plan.steps[0]!;
  const live: LiveQuery = { kind: 'live', source: step.source, cohort: subscriberCohort, fields: step.fields };
  const query: LiveQuery | Stream = cursor ? { kind: 'stream', cursor: cursor.columns, ordering: cursor.ordering, batchSize: cursor.batchSize, live } : live;
  const statement = query.kind === 'stream' ? ctx.dialect.render.stream(query, ctx) : ctx.dialect.render.live(query, ctx);
  return { kind: 'live', source: step.source, query, statement };
}
