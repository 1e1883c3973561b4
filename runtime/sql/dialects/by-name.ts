import type { Dialect } from '../dialect.js';
import { bigquery } from './bigquery.js';
import { postgres } from './postgres.js';

/**
 * The dialect a source's statements are printed in, by the model's dialect name. A name with no
 * renderer on this build prints as PostgreSQL, as every source did before dialects.
 */
export function dialectNamed(name: 'postgres' | 'mssql' | 'bigquery'): Dialect {
  return name === 'bigquery' ? bigquery : postgres;
}
