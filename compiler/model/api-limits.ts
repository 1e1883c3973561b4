// `api_limits` and `graphql_schema_introspection` of the metadata, read into the bundle model so
// that a served bundle enforces them as the metadata API's compile does. One reader for both:
// set_api_limits checks its args with it (refusing with the path of the bad value, changing
// nothing), and the compile of a metadata file refuses the same values.

import type { ApiLimitsModel, LimitModel, RateLimitKey, RateLimitModel } from '../../runtime/bundle/index.js';
import { ApiError, jsonKind, type JsonPath } from '../../runtime/errors/index.js';
import type { Json } from '../metadata/index.js';

type JsonObject = { readonly [k: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function failed(path: JsonPath, expected: string, v: unknown): ApiError {
  return new ApiError('parse-failed', `parsing ${expected} failed, expected ${expected}, but encountered ${jsonKind(v)}`, 400, path);
}

function object(v: unknown, path: JsonPath): JsonObject {
  if (!isObject(v)) throw failed(path, 'Object', v);
  return v;
}

// A whole number of at least `min` (Hasura's limits are natural numbers; a limit of 0 refuses everything).
function count(v: unknown, path: JsonPath, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw new ApiError('parse-failed', `expected an integer of at least ${min}, but encountered ${typeof v === 'number' ? v : jsonKind(v)}`, 400, path);
  }
  return v;
}

// Seconds: a positive number (fractions allowed: Hasura reads a DiffTime).
function seconds(v: unknown, path: JsonPath): number {
  if (typeof v !== 'number' || !(v > 0)) throw new ApiError('parse-failed', `expected a positive number of seconds, but encountered ${typeof v === 'number' ? v : jsonKind(v)}`, 400, path);
  return v;
}

function limit<T>(v: unknown, path: JsonPath, value: (x: unknown, p: JsonPath) => T): LimitModel<T> {
  const o = object(v, path);
  for (const key of Object.keys(o)) {
    if (key !== 'global' && key !== 'per_role') throw new ApiError('parse-failed', `unexpected key "${key}" in a limit (expected global, per_role)`, 400, [...path, key]);
  }
  const perRole: Record<string, T> = {};
  if (o['per_role'] !== undefined && o['per_role'] !== null) {
    const roles = object(o['per_role'], [...path, 'per_role']);
    for (const role of Object.keys(roles).sort()) perRole[role] = value(roles[role], [...path, 'per_role', role]);
  }
  const global = o['global'] === undefined || o['global'] === null ? undefined : value(o['global'], [...path, 'global']);
  return global === undefined ? { perRole } : { global, perRole };
}

function uniqueParams(v: unknown, path: JsonPath): RateLimitKey | null {
  if (v === undefined || v === null) return null;
  if (v === 'IP') return { kind: 'ip' };
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'string' || !/^x-svc-/i.test(x))) {
    throw new ApiError('parse-failed', 'unique_params must be "IP" or a non-empty list of session variables (x-svc-*)', 400, path);
  }
  return { kind: 'session', variables: [...new Set((v as string[]).map((x) => x.toLowerCase()))].sort() };
}

function rate(v: unknown, path: JsonPath): RateLimitModel {
  const o = object(v, path);
  return { maxReqsPerMin: count(o['max_reqs_per_min'], [...path, 'max_reqs_per_min'], 0), uniqueParams: uniqueParams(o['unique_params'], [...path, 'unique_params']) };
}

const READERS = {
  depth_limit: ['depth', (x: unknown, p: JsonPath) => count(x, p, 0)],
  node_limit: ['node', (x: unknown, p: JsonPath) => count(x, p, 0)],
  batch_limit: ['batch', (x: unknown, p: JsonPath) => count(x, p, 0)],
  time_limit: ['time', seconds],
  rate_limit: ['rate', rate],
} as const;

/** Reads `api_limits` (at `path`); throws `parse-failed` with the path of the first bad value. Null when nothing is set. */
export function readApiLimits(v: Json | undefined, path: JsonPath): ApiLimitsModel | null {
  if (v === undefined || v === null) return null;
  const o = object(v, path);
  const out: { -readonly [K in keyof ApiLimitsModel]: ApiLimitsModel[K] } = { disabled: false };
  for (const key of Object.keys(o)) {
    if (key === 'disabled') {
      if (typeof o[key] !== 'boolean') throw failed([...path, key], 'Bool', o[key]);
      out.disabled = o[key] as boolean;
      continue;
    }
    const reader = (READERS as Record<string, readonly [string, (x: unknown, p: JsonPath) => unknown]>)[key];
    if (!reader) throw new ApiError('parse-failed', `unexpected key "${key}" in api_limits (expected disabled, ${Object.keys(READERS).join(', ')})`, 400, [...path, key]);
    if (o[key] === null) continue;
    (out as Record<string, unknown>)[reader[0]] = limit(o[key], [...path, key], reader[1]);
  }
  return out;
}

/** The roles `graphql_schema_introspection.disabled_for_roles` lists, sorted; empty when none. */
export function introspectionDisabledRoles(v: Json | undefined): readonly string[] {
  if (!isObject(v) || !Array.isArray(v['disabled_for_roles'])) return [];
  return [...new Set(v['disabled_for_roles'].filter((r): r is string => typeof r === 'string'))].sort();
}
