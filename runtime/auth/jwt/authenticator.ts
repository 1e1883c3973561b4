import { ApiError } from '../../errors/index.js';
import type { Session } from '../../bundle/index.js';
import type { AuthRequest, Authenticator, NormalizedHeaders } from '../session.js';
import type { TokenClaims } from './claims.js';
import type { JwtConfig, TokenLocation } from './config.js';
import { JwtVerifier, type JwtVerifierOptions } from './verify.js';
import { markSessionExpiry } from '../session-expiry.js';

/** JWT mode: an Authenticator over one or more JWT secrets, with close() for the JWK refreshers. */
export interface JwtAuthenticator extends Authenticator {
  readonly kind: 'jwt';
  /** One verifier per secret, in configuration order. */
  readonly verifiers: readonly JwtVerifier[];
  close(): void;
}

const ROLE_HEADER = 'x-svc-role';

// reference/auth.md §2, J0 (no token, no unauthorized role) and J10.
const NO_TOKEN = "Missing 'Authorization' or 'Cookie' header in JWT authentication mode";
const MALFORMED = 'Malformed Authorization header';

/** Reads a cookie's value from a Cookie header (`a=1; b=2`). */
function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** The token at `where`, undefined when that header (or cookie) is absent; a bad Authorization header throws. */
export function tokenAt(headers: NormalizedHeaders, where: TokenLocation): string | undefined {
  switch (where.kind) {
    case 'authorization': {
      const value = headers['authorization'];
      if (value === undefined) return undefined;
      // Hasura splits the value into words and takes exactly ["Bearer", token] (JWT.hs): the scheme's case counts.
      const words = value.trim().split(/\s+/);
      if (words.length !== 2 || words[0] !== 'Bearer') throw new ApiError('invalid-headers', MALFORMED);
      return words[1]!;
    }
    case 'cookie': {
      const cookie = headers['cookie'];
      return cookie === undefined ? undefined : cookieValue(cookie, where.name);
    }
    case 'custom-header':
      return headers[where.name];
  }
}

/** The unverified `iss` of a token, to try the matching secret first when there are several. */
function unverifiedIssuer(token: string): string | undefined {
  const body = token.split('.')[1];
  if (body === undefined) return undefined;
  try {
    const iss = (JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { iss?: unknown }).iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

/** Marks the session with the verified token's expiry (`exp` plus the allowed skew): WebSockets close then. */
function expiring(session: Session, { verifier, token }: { verifier: JwtVerifier; token: string }): Session {
  const at = verifier.expiryOf(token);
  if (at !== null) markSessionExpiry(session, at);
  return session;
}

/** The role: `X-Svc-Role` when sent, else the default role; either must be an allowed role (J5). */
function sessionFor(claims: TokenClaims, headers: NormalizedHeaders): Session {
  const requested = headers[ROLE_HEADER];
  const role = requested !== undefined && requested !== '' ? requested : claims.defaultRole;
  if (!claims.allowedRoles.includes(role)) throw new ApiError('access-denied', 'Your requested role is not in allowed roles');
  return { role, variables: { ...claims.variables, [ROLE_HEADER]: role }, isAdmin: role === 'admin' };
}

/**
 * Builds JWT mode from validated secrets (SVC_GRAPHQL_JWT_SECRET, or the list of
 * SVC_GRAPHQL_JWT_SECRETS): keys imported and JWK sets fetched before it returns.
 * With several secrets, each reads its own token location; the one whose `issuer` matches
 * the token's `iss` is tried first, then the others in order; the first that accepts wins.
 */
export async function createJwtAuthenticator(configs: readonly JwtConfig[], opts: JwtVerifierOptions = {}): Promise<JwtAuthenticator> {
  const verifiers: JwtVerifier[] = [];
  try {
    for (const [i, c] of configs.entries()) {
      verifiers.push(await JwtVerifier.create(c, { ...opts, where: configs.length > 1 ? `JWT secret ${i + 1}` : 'JWT secret' }));
    }
  } catch (e) {
    for (const v of verifiers) v.close();
    throw e;
  }

  async function authenticate({ headers }: AuthRequest): Promise<Session | null> {
    const found: { verifier: JwtVerifier; token: string }[] = [];
    for (const verifier of verifiers) {
      const token = tokenAt(headers, verifier.config.location);
      if (token !== undefined) found.push({ verifier, token });
    }
    if (found.length === 0) return null;
    if (found.length === 1) return expiring(sessionFor(await found[0]!.verifier.verify(found[0]!.token), headers), found[0]!);
    const iss = unverifiedIssuer(found[0]!.token);
    found.sort((a, b) => Number(b.verifier.config.issuer === iss) - Number(a.verifier.config.issuer === iss));
    let first: unknown;
    for (const { verifier, token } of found) {
      try {
        return expiring(sessionFor(await verifier.verify(token), headers), { verifier, token });
      } catch (e) {
        first ??= e;
      }
    }
    throw first;
  }

  return {
    kind: 'jwt',
    verifiers,
    authenticate,
    noCredentials: () => new ApiError('invalid-headers', NO_TOKEN),
    close: () => { for (const v of verifiers) v.close(); },
  };
}
