// Which aggregate functions a role gets on a table, and over which columns. Shared by the
// aggregate output types and the aggregate order-by inputs so the two always agree.

import type { ColumnModel, TableModel } from '../../runtime/bundle/index.js';
import { visibleColumns, type SchemaContext } from './context.js';

/** Aggregate functions over numeric columns; all but `sum` return Float. */
export const numericAggregates = ['avg', 'stddev', 'stddev_pop', 'stddev_samp', 'sum', 'var_pop', 'var_samp', 'variance'] as const;
/** Aggregate functions over comparable columns, returning the column's type. */
export const comparableAggregates = ['max', 'min'] as const;

export type AggregateFunction = (typeof numericAggregates)[number] | (typeof comparableAggregates)[number];

export interface AggregateGroup {
  readonly fn: AggregateFunction;
  readonly columns: readonly ColumnModel[];
}

/** The groups that have at least one column the role may read (a group without columns is absent). */
export function aggregateGroups(ctx: SchemaContext, t: TableModel): AggregateGroup[] {
  const columns = visibleColumns(ctx, t);
  const numeric = columns.filter((c) => c.numeric);
  const comparable = columns.filter((c) => c.comparable);
  const groups: AggregateGroup[] = [];
  if (numeric.length > 0) for (const fn of numericAggregates) groups.push({ fn, columns: numeric });
  if (comparable.length > 0) for (const fn of comparableAggregates) groups.push({ fn, columns: comparable });
  return groups;
}
