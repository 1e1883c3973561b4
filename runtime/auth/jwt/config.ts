import { ApiError } from '../../errors/index.js';
import { parseJsonPath, type JsonPathSegments } from './json-path.js';

/** The `type` values of a JWT secret (spec part A 5.2; EC keys as newer Hasura v2 accepts them). */
export type JwtKeyType = 'HS256' | 'HS384' | 'HS512' | 'RS256' | 'RS384' | 'RS512' | 'Ed25519' | 'ES256' | 'ES384' | 'ES512';

/** Where the keys come from: a fixed key, or a JWK set fetched (and refreshed) from a URL. */
export type JwtKeySpec =
  | { readonly kind: 'static'; readonly type: JwtKeyType; readonly key: string }
  | { readonly kind: 'jwk-url'; readonly url: string };

/** Where the token is read from (`header` of the config). */
export type TokenLocation =
  | { readonly kind: 'authorization' }
  | { readonly kind: 'cookie'; readonly name: string }
  | { readonly kind: 'custom-header'; readonly name: string };

/** One `claims_map` value: a literal, or a JSON path into the payload with an optional default. */
export type ClaimsMapValue =
  | { readonly kind: 'literal'; readonly value: string | readonly string[] }
  | { readonly kind: 'path'; readonly path: JsonPathSegments; readonly text: string; readonly default: string | readonly string[] | null };

/** Where the service claims are: a key of the payload, a JSON path, or built by `claims_map`. */
export type ClaimsSource =
  | { readonly kind: 'namespace'; readonly namespace: string }
  | { readonly kind: 'namespace-path'; readonly path: JsonPathSegments; readonly text: string }
  | { readonly kind: 'map'; readonly entries: readonly (readonly [string, ClaimsMapValue])[] };

/** A validated JWT secret (SVC_GRAPHQL_JWT_SECRET). */
export interface JwtConfig {
  readonly key: JwtKeySpec;
  readonly claims: ClaimsSource;
  readonly format: 'json' | 'stringified_json';
  /** Accepted `aud` values; null: any. */
  readonly audience: readonly string[] | null;
  readonly issuer: string | null;
  /** Seconds of clock skew allowed on `exp` and `nbf`. */
  readonly allowedSkew: number;
  readonly location: TokenLocation;
}

/** The default claims namespace (DESIGN.md: `https://<service_domain>/jwt/claims` with the neutral domain). */
export const DEFAULT_CLAIMS_NAMESPACE = 'https://svc.io/jwt/claims';

const KEY_TYPES: readonly JwtKeyType[] = ['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'Ed25519', 'ES256', 'ES384', 'ES512'];
// An HMAC key must be at least as long as the hash output (RFC 7518 §3.2).
const HMAC_MIN: Readonly<Record<string, number>> = { HS256: 32, HS384: 48, HS512: 64 };

function configError(where: string, message: string): ApiError {
  return new ApiError('invalid-configuration', `${where}: ${message}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses one JWT secret: a JSON text or an already-parsed object. `where` names it in messages. */
export function parseJwtConfig(raw: unknown, where = 'JWT secret'): JwtConfig {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw configError(where, `not valid JSON (${(e as Error).message})`);
    }
  }
  if (!isObject(value)) throw configError(where, 'expected a JSON object');
  return {
    key: keySpec(value, where),
    claims: claimsSource(value, where),
    format: claimsFormat(value['claims_format'], where),
    audience: audience(value['audience'], where),
    issuer: optionalString(value, 'issuer', where),
    allowedSkew: allowedSkew(value['allowed_skew'], where),
    location: tokenLocation(value['header'], where),
  };
}

/** Parses SVC_GRAPHQL_JWT_SECRETS: a JSON list of JWT secrets. */
export function parseJwtConfigList(text: string, where = 'JWT secrets'): JwtConfig[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw configError(where, `not valid JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(value)) throw configError(where, 'expected a JSON list of JWT secrets');
  return value.map((item, i) => parseJwtConfig(item, `${where}[${i}]`));
}

function optionalString(o: Record<string, unknown>, key: string, where: string): string | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw configError(where, `"${key}" must be a string`);
  return v;
}

function keySpec(o: Record<string, unknown>, where: string): JwtKeySpec {
  const type = optionalString(o, 'type', where);
  const key = optionalString(o, 'key', where);
  const url = optionalString(o, 'jwk_url', where);
  if (url !== null && key !== null) throw configError(where, 'set either "key" (with "type") or "jwk_url", not both');
  if (url !== null) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw configError(where, `"jwk_url" is not a URL: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw configError(where, '"jwk_url" must be an http(s) URL');
    return { kind: 'jwk-url', url };
  }
  if (key === null) throw configError(where, 'either "key" (with "type") or "jwk_url" must be present');
  if (type === null) throw configError(where, '"type" is required together with "key"');
  if (!(KEY_TYPES as readonly string[]).includes(type)) {
    throw configError(where, `"type" must be one of ${KEY_TYPES.join(', ')}; got "${type}"`);
  }
  const min = HMAC_MIN[type];
  if (min !== undefined && key.length < min) {
    throw configError(where, `the ${type} key must be at least ${min} characters long (it has ${key.length}): a shorter HMAC key is too weak for the algorithm`);
  }
  return { kind: 'static', type: type as JwtKeyType, key };
}

function claimsSource(o: Record<string, unknown>, where: string): ClaimsSource {
  const map = o['claims_map'];
  // Hasura v2: with claims_map set, claims_namespace(_path) are ignored.
  if (map !== undefined && map !== null) return { kind: 'map', entries: claimsMap(map, where) };
  const ns = optionalString(o, 'claims_namespace', where);
  const nsPath = optionalString(o, 'claims_namespace_path', where);
  if (ns !== null && nsPath !== null) throw configError(where, 'set at most one of "claims_namespace" and "claims_namespace_path"');
  if (nsPath !== null) return { kind: 'namespace-path', path: pathOf(nsPath, where), text: nsPath };
  return { kind: 'namespace', namespace: ns ?? DEFAULT_CLAIMS_NAMESPACE };
}

function pathOf(text: string, where: string): JsonPathSegments {
  try {
    return parseJsonPath(text);
  } catch (e) {
    throw configError(where, (e as Error).message);
  }
}

const ALLOWED_ROLES = 'x-svc-allowed-roles';
const DEFAULT_ROLE = 'x-svc-default-role';

// x-svc-allowed-roles is a list of roles, every other claim a string (Hasura's JWTCustomClaimsMap).
function fitsClaim(name: string, v: unknown): v is string | string[] {
  return name === ALLOWED_ROLES ? Array.isArray(v) && v.every((x) => typeof x === 'string') : typeof v === 'string';
}

/**
 * claims_map as Hasura reads it (Server/Auth/JWT.hs, JWTCustomClaimsMap): each session variable a
 * literal or `{path, default}`, the allowed roles (and their default) a list, the others a string;
 * x-svc-allowed-roles and x-svc-default-role must both be there.
 */
function claimsMap(map: unknown, where: string): (readonly [string, ClaimsMapValue])[] {
  if (!isObject(map)) throw configError(where, '"claims_map" must be an object');
  const out: (readonly [string, ClaimsMapValue])[] = [];
  for (const [rawName, v] of Object.entries(map)) {
    const name = rawName.toLowerCase();
    const at = `"claims_map"."${rawName}"`;
    const kind = name === ALLOWED_ROLES ? 'a list of roles' : 'a string literal';
    if (isObject(v) && typeof v['path'] === 'string') {
      const def = v['default'];
      if (def !== undefined && def !== null && !fitsClaim(name, def)) throw configError(where, `${at}.default must be ${name === ALLOWED_ROLES ? 'a list of roles' : 'a string'}`);
      out.push([name, { kind: 'path', path: pathOf(v['path'], where), text: v['path'], default: (def as string | string[] | undefined) ?? null }]);
    } else if (fitsClaim(name, v)) {
      out.push([name, { kind: 'literal', value: v }]);
    } else {
      throw configError(where, `${at} must be ${kind} or {"path": "<JSON path>", "default": <value>}`);
    }
  }
  for (const required of [ALLOWED_ROLES, DEFAULT_ROLE]) {
    if (!out.some(([name]) => name === required)) throw configError(where, `"claims_map": ${required} is expected but not found`);
  }
  return out;
}

function claimsFormat(v: unknown, where: string): JwtConfig['format'] {
  if (v === undefined || v === null || v === 'json') return 'json';
  if (v === 'stringified_json') return 'stringified_json';
  throw configError(where, '"claims_format" must be "json" or "stringified_json"');
}

function audience(v: unknown, where: string): readonly string[] | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  throw configError(where, '"audience" must be a string or a list of strings');
}

function allowedSkew(v: unknown, where: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw configError(where, '"allowed_skew" must be a non-negative integer (seconds)');
  return v;
}

function tokenLocation(v: unknown, where: string): TokenLocation {
  if (v === undefined || v === null) return { kind: 'authorization' };
  if (!isObject(v) || typeof v['type'] !== 'string') {
    throw configError(where, '"header" must be {"type": "Authorization"}, {"type": "Cookie", "name": ...} or {"type": "CustomHeader", "name": ...}');
  }
  const type = v['type'];
  if (type === 'Authorization') return { kind: 'authorization' };
  if (type !== 'Cookie' && type !== 'CustomHeader') {
    throw configError(where, `"header"."type" must be Authorization, Cookie or CustomHeader; got "${type}"`);
  }
  const name = v['name'];
  if (typeof name !== 'string' || name === '') throw configError(where, `"header" of type ${type} needs a "name"`);
  return type === 'Cookie' ? { kind: 'cookie', name } : { kind: 'custom-header', name: name.toLowerCase() };
}
