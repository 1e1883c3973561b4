import { ApiError } from '../errors/index.js';
import type { GraphQLRequest, Session } from '../bundle/index.js';
import { adminSecretMatches } from './admin-secret.js';

/** Request headers as Node gives them (`IncomingHttpHeaders`) or any plain record. */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Headers with lower-case names and one string value each. */
export type NormalizedHeaders = Readonly<Record<string, string>>;

/** What an authenticator sees: the headers and, when the body parsed, the GraphQL request. */
export interface AuthRequest {
  readonly headers: NormalizedHeaders;
  /**
   * The headers with their names as the client wrote them (Hasura's auth webhook is sent them so,
   * Server/Auth/WebHook.hs `hdrsToText`).
   */
  readonly sent?: Readonly<Record<string, string>>;
  readonly request?: GraphQLRequest | readonly GraphQLRequest[];
}

/**
 * One way to establish a session for a request that carries no admin secret (JWT, auth
 * webhook). `null` means "no credentials for me here": the next authenticator is asked, then
 * the unauthorized role. Throwing an ApiError denies the request.
 */
export interface Authenticator {
  readonly kind: string;
  authenticate(req: AuthRequest): Promise<Session | null>;
  /** True when it must see the request body (the auth webhook in POST mode sends it along). */
  readonly needsRequest?: boolean;
  /**
   * The error when no authenticator found credentials and there is no unauthorized role
   * (JWT mode: "Missing 'Authorization' or 'Cookie' header ..."); default: the admin-secret one.
   */
  noCredentials?(): ApiError;
}

/** How requests are authenticated (SVC_GRAPHQL_ADMIN_SECRET(S), SVC_GRAPHQL_UNAUTHORIZED_ROLE). */
export interface AuthOptions {
  readonly adminSecret?: string | null;
  /** Several valid secrets at once, for rotation (SVC_GRAPHQL_ADMIN_SECRETS). */
  readonly adminSecrets?: readonly string[];
  readonly unauthorizedRole?: string | null;
  /** Tried in order when a secret is configured but none was sent. */
  readonly authenticators?: readonly Authenticator[];
}

/** The role with unrestricted access. */
export const ADMIN_ROLE = 'admin';
/** Session-variable and header names are matched lower-case. */
export const ROLE_HEADER = 'x-svc-role';
const SECRET_HEADERS = ['x-svc-admin-secret', 'x-svc-access-key'] as const;
const SESSION_PREFIX = 'x-svc-';

// Hasura's wording with the vendor word replaced (reference/auth.md, A1 and A2).
const SECRET_MISSING = 'x-svc-admin-secret/x-svc-access-key required, but not found';
const SECRET_INVALID = 'invalid x-svc-admin-secret/x-svc-access-key';

/** Lower-cases header names and joins repeated values the way HTTP does (`a, b`). */
export function normalizeHeaders(headers: RequestHeaders): NormalizedHeaders {
  if (isNormalized(headers)) return headers as NormalizedHeaders;
  // A request's headers are read by the route, the session and the engine: made once per request.
  const known = normalizedOf.get(headers);
  if (known) return known;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  normalizedOf.set(headers, out);
  return out;
}
const normalizedOf = new WeakMap<RequestHeaders, NormalizedHeaders>();

/**
 * True when the headers are normalized already: Node gives a request's header names in lower case
 * and, but for set-cookie, one string each, so a request's own headers are used as they are (no
 * copy, no WeakMap entry per request).
 */
function isNormalized(headers: RequestHeaders): boolean {
  for (const name in headers) {
    if (typeof headers[name] !== 'string') return false;
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i);
      if (c >= 65 && c <= 90) return false;
    }
  }
  return true;
}

/** Every `x-svc-*` header except the admin secret, plus `x-svc-role` set to the resolved role. */
function sessionFromHeaders(headers: NormalizedHeaders, fallbackRole: string): Session {
  const variables: Record<string, string> = {};
  for (const name in headers) {
    if (!name.startsWith(SESSION_PREFIX)) continue;
    if ((SECRET_HEADERS as readonly string[]).includes(name)) continue;
    variables[name] = headers[name]!;
  }
  const requested = headers[ROLE_HEADER];
  const role = requested !== undefined && requested !== '' ? requested : fallbackRole;
  variables[ROLE_HEADER] = role;
  // No object spread per request: the common session is a literal of three fields.
  return backendOnlyAccess(headers[BACKEND_ONLY_HEADER])
    ? { role, variables, isAdmin: role === ADMIN_ROLE, backendOnly: true }
    : { role, variables, isAdmin: role === ADMIN_ROLE };
}

/** The header a trusted request sends to use the role's backend_only permissions. */
export const BACKEND_ONLY_HEADER = 'x-svc-use-backend-only-permissions';
const TRUE_TEXTS = ['true', 't', 'yes', 'y'];
const FALSE_TEXTS = ['false', 'f', 'no', 'n'];

/**
 * `x-svc-use-backend-only-permissions` read as Hasura reads it on a trusted request (Session.hs
 * `mkUserInfo`, `parseStringAsBool`): absent is false, one of its boolean texts in any case is
 * that value, anything else refuses the request (`bad-request`, Hasura's words). A request that
 * is not trusted never reads it (JWT, webhook and the unauthorized role build their own sessions).
 */
function backendOnlyAccess(value: string | undefined): boolean {
  if (value === undefined) return false;
  const text = value.toLowerCase();
  if (TRUE_TEXTS.includes(text)) return true;
  if (FALSE_TEXTS.includes(text)) return false;
  const list = (xs: readonly string[]): string => `[${xs.map((x) => JSON.stringify(x)).join(',')}]`;
  throw new ApiError('bad-request', `${BACKEND_ONLY_HEADER}:  Not a valid boolean text. True values are ${list(TRUE_TEXTS)} and  False values are ${list(FALSE_TEXTS)}. All values are case insensitive`, 400);
}

function hasSecret(opts: AuthOptions): boolean {
  return Boolean(opts.adminSecret) || (opts.adminSecrets?.length ?? 0) > 0;
}

function configuredSecrets(opts: AuthOptions): string[] {
  const secrets = [...(opts.adminSecrets ?? [])];
  if (opts.adminSecret) secrets.push(opts.adminSecret);
  return secrets;
}

function sentSecret(headers: NormalizedHeaders): string | undefined {
  for (const name of SECRET_HEADERS) {
    const value = headers[name];
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * Resolves who is asking (reference/auth.md §1):
 * - no secret configured: admin, or the role in `x-svc-role`, with every `x-svc-*` header;
 * - a correct secret: the same; a wrong one: always `access-denied` (401);
 * - no secret sent: the authenticators in order (JWT, webhook), then the unauthorized role
 *   (with no session variables besides the role), else `access-denied` (401).
 * Throws ApiError; /v1/graphql answers it as a GraphQL error with HTTP 200.
 */
export async function resolveSession(
  headers: RequestHeaders,
  opts: AuthOptions,
  request?: AuthRequest['request'],
  sent?: AuthRequest['sent'],
): Promise<Session> {
  const decided = sessionAtOnce(headers, opts);
  if (decided) return decided;
  const normalized = normalizeHeaders(headers);
  // Without the names as sent (an HTTP route passes them), the headers given (a WebSocket's
  // connection_init payload keeps the client's names).
  const asSent = sent ?? stringValued(headers);
  for (const authenticator of opts.authenticators ?? []) {
    const session = await authenticator.authenticate({ headers: normalized, sent: asSent, ...(request ? { request } : {}) });
    if (session) return session;
  }

  if (opts.unauthorizedRole) {
    const role = opts.unauthorizedRole;
    return { role, variables: { [ROLE_HEADER]: role }, isAdmin: false };
  }
  for (const authenticator of opts.authenticators ?? []) {
    const error = authenticator.noCredentials?.();
    if (error) throw error;
  }
  throw new ApiError('access-denied', SECRET_MISSING, 401);
}

/** The headers as they were given, each with one string value (repeated ones joined as HTTP does). */
function stringValued(headers: RequestHeaders): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

/**
 * The session when no authenticator is to be asked: no admin secret is configured, or one was
 * sent (a wrong one throws `access-denied`). Undefined otherwise. Synchronous: the common request
 * awaits nothing for its session.
 */
export function sessionAtOnce(headers: RequestHeaders, opts: AuthOptions): Session | undefined {
  const normalized = normalizeHeaders(headers);
  if (!hasSecret(opts)) return sessionFromHeaders(normalized, ADMIN_ROLE);
  const sent = sentSecret(normalized);
  if (sent === undefined) return undefined;
  if (!adminSecretMatches(sent, configuredSecrets(opts))) throw new ApiError('access-denied', SECRET_INVALID, 401);
  return sessionFromHeaders(normalized, ADMIN_ROLE);
}

/**
 * The session when the headers alone decide it (admin secret, JWT, the auth webhook in GET mode,
 * the unauthorized role), so that a request is refused before its body is read; null when an
 * authenticator must see the body first (the auth webhook in POST mode, no admin secret sent).
 */
export async function resolveSessionBeforeBody(headers: RequestHeaders, opts: AuthOptions,
  sent?: AuthRequest['sent']): Promise<Session | null> {
  const needsBody = hasSecret(opts) && sentSecret(normalizeHeaders(headers)) === undefined
    && (opts.authenticators ?? []).some((a) => a.needsRequest === true);
  return needsBody ? null : resolveSession(headers, opts, undefined, sent);
}
