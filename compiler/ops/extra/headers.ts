// Header configurations of actions, remote schemas, event and cron triggers: `{name, value}` or
// `{name, value_from_env}` (Hasura's HeaderConf, messages kept; the reserved environment prefix is
// `SVC_GRAPHQL_`, the vendor word replaced).

import { ArgsReader, asArray, isObject, type JsonObject, type JsonPath, parseFailed } from '../../../runtime/errors/index.js';

const RESERVED_PREFIX = 'SVC_GRAPHQL_';

export function readHeader(v: unknown, path: JsonPath): JsonObject {
  if (!isObject(v)) throw parseFailed(path, 'expecting object for headers');
  const r = new ArgsReader(v, path);
  const name = r.string('name');
  const value = r.optString('value');
  const fromEnv = r.optString('value_from_env');
  if (value === undefined && fromEnv === undefined) r.fail('expecting value or value_from_env keys');
  if (value !== undefined && fromEnv !== undefined) r.fail('expecting only one of value or value_from_env keys');
  if (value !== undefined) return { name, value };
  if ((fromEnv as string).startsWith(RESERVED_PREFIX)) {
    r.fail(`env variables starting with "${RESERVED_PREFIX}" are not allowed in value_from_env: ${fromEnv as string}`);
  }
  return { name, value_from_env: fromEnv as string };
}

/** The optional `headers` list of an object (absent: undefined). */
export function readHeaders(r: ArgsReader, key = 'headers'): JsonObject[] | undefined {
  if (!r.has(key)) return undefined;
  return asArray(r.value[key], r.at(key)).map((h, i) => readHeader(h, [...r.at(key), i]));
}
