// Small settings kept in the document as given: introspection options, API limits, metrics
// configuration and the TLS allow-list of `network`.

import { ApiError, ArgsReader, asArray, asName, asNat, isObject, type JsonObject } from '../../../runtime/errors/index.js';
import type { Json } from '../../metadata/index.js';
import type { OpHandler } from '../types.js';
import { readApiLimits } from '../../model/index.js';
import { compact } from './compact.js';
import { changed, withSetting } from './document.js';

const q = JSON.stringify;

/**
 * SetGraphqlIntrospectionOptions is a newtype record Hasura derives with Template Haskell: its one
 * key is required ("the key 'disabled_for_roles' was not present"), a null is not a list.
 */
export function readIntrospectionOptions(r: ArgsReader): string[] {
  return asArray(r.given('disabled_for_roles'), r.at('disabled_for_roles')).map((x, i) => asName(x, [...r.at('disabled_for_roles'), i]));
}

export const setGraphqlSchemaIntrospectionOptions: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const roles = readIntrospectionOptions(r);
  const value = roles.length === 0 ? undefined : { disabled_for_roles: [...new Set(roles)] };
  return changed(withSetting(input.metadata, 'graphql_schema_introspection', value));
};

// Every value is checked (the same reader the compile uses), so a bad one is refused with its
// path before anything is stored.
export const setApiLimits: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  readApiLimits(r.value, r.path);
  return changed(withSetting(input.metadata, 'api_limits', r.value));
};

export const removeApiLimits: OpHandler = (input) => changed(withSetting(input.metadata, 'api_limits', undefined));

export const setMetricsConfig: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const value = { analyze_query_variables: r.bool('analyze_query_variables', false), analyze_response_body: r.bool('analyze_response_body', false) };
  return changed(withSetting(input.metadata, 'metrics_config', value));
};

export const removeMetricsConfig: OpHandler = (input) => changed(withSetting(input.metadata, 'metrics_config', undefined));

function tlsAllowlist(network: Json | undefined): JsonObject[] {
  const list = isObject(network) ? network['tls_allowlist'] : undefined;
  return Array.isArray(list) ? list.filter(isObject) : [];
}

function withTls(network: Json | undefined, list: readonly JsonObject[]): JsonObject | undefined {
  const next: Record<string, Json> = { ...(isObject(network) ? network : {}) };
  if (list.length === 0) delete next['tls_allowlist'];
  else next['tls_allowlist'] = [...list];
  return Object.keys(next).length === 0 ? undefined : next;
}

const sameHost = (a: JsonObject, host: string, suffix: string | undefined) => a['host'] === host && (a['suffix'] ?? undefined) === suffix;

export const addHostToTlsAllowlist: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const host = r.name('host');
  const suffix = r.optString('suffix');
  const permissions = r.has('permissions') ? asArray(r.value['permissions'], r.at('permissions')) : undefined;
  const list = tlsAllowlist(input.metadata.network);
  if (list.some((e) => sameHost(e, host, suffix))) {
    throw new ApiError('already-exists', `the host ${q(host)} already exists in the allowlist`, 400, ['args']);
  }
  const entry = compact({ host, suffix, permissions: permissions as Json | undefined });
  return changed(withSetting(input.metadata, 'network', withTls(input.metadata.network, [...list, entry])));
};

export const dropHostFromTlsAllowlist: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const host = r.name('host');
  const suffix = r.optString('suffix');
  const list = tlsAllowlist(input.metadata.network);
  if (!list.some((e) => sameHost(e, host, suffix))) {
    throw new ApiError('not-exists', `the host ${q(host)} isn't present in the allowlist`, 400, ['args']);
  }
  const rest = list.filter((e) => !sameHost(e, host, suffix));
  return changed(withSetting(input.metadata, 'network', withTls(input.metadata.network, rest)));
};
