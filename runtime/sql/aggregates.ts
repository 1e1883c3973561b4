import { raw, type Sql } from './fragment.js';

// The aggregate functions a GraphQL aggregate field may name, each mapped to its SQL keyword.
// A field name from a request only ever selects an entry here; it never becomes SQL text itself.
const AGGREGATES: { readonly [field: string]: string } = {
  avg: 'avg', max: 'max', min: 'min', sum: 'sum', stddev: 'stddev', stddev_pop: 'stddev_pop',
  stddev_samp: 'stddev_samp', var_pop: 'var_pop', var_samp: 'var_samp', variance: 'variance',
};

/** The SQL aggregate function behind a GraphQL aggregate field (`sum`, `stddev_pop`...), or null. */
export function aggregateFunction(field: string): Sql | null {
  const fn = Object.hasOwn(AGGREGATES, field) ? AGGREGATES[field] : undefined;
  return fn === undefined ? null : raw(fn);
}
