import type { ScalarCategory } from '../../runtime/bundle/index.js';
import { BIGQUERY_SCALARS } from './bigquery-scalars.js';

const BUILTIN: { readonly [pgType: string]: readonly [string, ScalarCategory] } = {
  int4: ['Int', 'int'], serial: ['Int', 'int'], int2: ['smallint', 'int'], int8: ['bigint', 'int'],
  float4: ['Float', 'float'], float8: ['float8', 'float'], numeric: ['numeric', 'numeric'], money: ['money', 'other'],
  bool: ['Boolean', 'boolean'], text: ['String', 'string'], varchar: ['String', 'string'], bpchar: ['bpchar', 'string'],
  citext: ['citext', 'string'], name: ['name', 'string'], json: ['json', 'json'], jsonb: ['jsonb', 'json'],
  uuid: ['uuid', 'uuid'], date: ['date', 'datetime'], time: ['time', 'datetime'], timetz: ['timetz', 'datetime'],
  timestamp: ['timestamp', 'datetime'], timestamptz: ['timestamptz', 'datetime'], interval: ['interval', 'datetime'],
};

/** A catalog type in GraphQL terms: the scalar name (Hasura's mapping) and its operator family. */
export interface ScalarInfo {
  readonly scalar: string;
  readonly category: ScalarCategory;
  readonly comparable: boolean;
  readonly numeric: boolean;
}

/** Maps a catalog type name (`int4`, `_text`, `mood`) to its GraphQL scalar (reference/schema.md §8). */
export function scalarFor(pgType: string, isArray: boolean): ScalarInfo {
  if (isArray) return { scalar: graphqlSafe(pgType), category: 'other', comparable: false, numeric: false };
  const hit = BUILTIN[pgType] ?? BIGQUERY_SCALARS[pgType];
  const [scalar, category] = hit ?? [graphqlSafe(pgType), 'other' as ScalarCategory];
  const numeric = category === 'int' || category === 'float' || category === 'numeric';
  const comparable = numeric || category === 'string' || category === 'datetime' || category === 'uuid' || pgType === 'money';
  return { scalar, category, comparable, numeric };
}

/** True when `name` can be a GraphQL name. */
export function isGraphqlName(name: string): boolean {
  return /^[_A-Za-z][_0-9A-Za-z]*$/.test(name);
}

function graphqlSafe(pgType: string): string {
  return pgType;
}
