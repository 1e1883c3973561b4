import { ApiError, jsonKind } from '../../errors/index.js';
import type { ClaimsMapValue, ClaimsSource, JwtConfig } from './config.js';
import { readJsonPath } from './json-path.js';

/** What a verified token says about its bearer: roles and the other session variables. */
export interface TokenClaims {
  readonly allowedRoles: readonly string[];
  readonly defaultRole: string;
  /** Every other `x-svc-*` claim, names lower-case, values text. */
  readonly variables: Readonly<Record<string, string>>;
}

const ALLOWED_ROLES = 'x-svc-allowed-roles';
const DEFAULT_ROLE = 'x-svc-default-role';
const PREFIX = 'x-svc-';

function invalidClaims(message: string): ApiError {
  return new ApiError('jwt-invalid-claims', message);
}

function missingRoleClaim(name: string): ApiError {
  return new ApiError('jwt-missing-role-claims', `JWT claim does not contain ${name}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the service claims of a verified payload as the config says (reference/auth.md §2, J6–J9). */
export function claimsOf(payload: Record<string, unknown>, cfg: JwtConfig): TokenClaims {
  // Hasura's hint for a bad default role: claims_map reads it as "a role" (parseDefaultRoleClaim),
  // a namespace's claims as "a single role name" (parseHasuraClaims), Server/Auth/JWT.hs.
  if (cfg.claims.kind === 'map') return rolesAndVariables(mappedClaims(payload, cfg.claims.entries), 'should be a role');
  return rolesAndVariables(namespacedClaims(payload, cfg), 'should be a single role name');
}

// Lower-cased `x-svc-*` entries of the claims object.
function namespacedClaims(payload: Record<string, unknown>, cfg: JwtConfig): Map<string, unknown> {
  const src = cfg.claims as Exclude<ClaimsSource, { kind: 'map' }>;
  const raw = src.kind === 'namespace' ? (Object.hasOwn(payload, src.namespace) ? payload[src.namespace] : undefined) : readJsonPath(payload, src.path);
  // Hasura names the setting with the place (Server/Auth/JWT.hs parseObjectFromString).
  const where = src.kind === 'namespace' ? `claims_namespace ${src.namespace}` : `claims_namespace_path ${src.text}`;
  if (raw === undefined) {
    throw invalidClaims(src.kind === 'namespace' ? `claims key: '${src.namespace}' not found` : `claims not found at claims_namespace_path: '${src.text}'`);
  }
  let obj: unknown = raw;
  if (cfg.format === 'stringified_json') {
    if (typeof raw !== 'string') throw invalidClaims('expecting a string when claims_format is stringified_json');
    try {
      obj = JSON.parse(raw);
    } catch {
      throw invalidClaims(`expecting stringified json at: '${where}', but found: ${raw}`);
    }
    if (!isObject(obj)) throw invalidClaims(`expecting stringified json at: '${where}', but found: ${raw}`);
  } else if (!isObject(obj)) {
    throw invalidClaims('expecting a json object when claims_format is json');
  }
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    const name = k.toLowerCase();
    if (name.startsWith(PREFIX)) out.set(name, v);
  }
  return out;
}

// claims_map: each session variable from a literal or a path into the whole payload.
function mappedClaims(payload: Record<string, unknown>, entries: readonly (readonly [string, ClaimsMapValue])[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [name, value] of entries) {
    if (value.kind === 'literal') {
      out.set(name, value.value);
      continue;
    }
    const found = readJsonPath(payload, value.path);
    // A value read through a path is a string; only the allowed roles may be a list (spec part A 5.2).
    if (found !== undefined && typeof found !== 'string' && name !== ALLOWED_ROLES && name !== DEFAULT_ROLE) {
      throw invalidClaims(`invalid ${name} from claims_map path '${value.text}': parsing Text failed, expected String, but encountered ${jsonKind(found)}`);
    }
    if (found !== undefined) out.set(name, found);
    else if (value.default !== null) out.set(name, value.default);
    else if (name === ALLOWED_ROLES || name === DEFAULT_ROLE) throw missingRoleClaim(name);
    // Hasura's words (Server/Auth/JWT.hs parseClaimsMap): the claim's name, not the path.
    else throw invalidClaims(`JWT claim from claims_map, ${name} not found`);
  }
  return out;
}

/** A role name as Hasura reads one: RoleName is a NonEmptyText (Data/Text/NonEmpty.hs). */
function isRoleName(v: unknown): v is string {
  return typeof v === 'string' && v !== '';
}

/** Why a value is no role name, in aeson's words for NonEmptyText (read `withText "String"`). */
function notRoleName(v: unknown): string {
  return typeof v === 'string' ? 'empty string not allowed' : `parsing String failed, expected String, but encountered ${jsonKind(v)}`;
}

function rolesAndVariables(claims: Map<string, unknown>, defaultRoleHint: string): TokenClaims {
  const allowed = claims.get(ALLOWED_ROLES);
  if (allowed === undefined) throw missingRoleClaim(ALLOWED_ROLES);
  if (!Array.isArray(allowed)) {
    throw invalidClaims(`invalid ${ALLOWED_ROLES}; should be a list of roles: parsing [] failed, expected Array, but encountered ${jsonKind(allowed)}`);
  }
  const bad = allowed.find((r) => !isRoleName(r));
  if (bad !== undefined) throw invalidClaims(`invalid ${ALLOWED_ROLES}; should be a list of roles: ${notRoleName(bad)}`);
  const def = claims.get(DEFAULT_ROLE);
  if (def === undefined) throw missingRoleClaim(DEFAULT_ROLE);
  if (!isRoleName(def)) throw invalidClaims(`invalid ${DEFAULT_ROLE}; ${defaultRoleHint}: ${notRoleName(def)}`);
  // Hasura drops the two role claims from the session; the rest are text (non-strings JSON-encoded).
  const variables: Record<string, string> = {};
  for (const [name, v] of claims) {
    if (name === ALLOWED_ROLES || name === DEFAULT_ROLE) continue;
    variables[name] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return { allowedRoles: allowed as string[], defaultRole: def, variables };
}
