import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';
import { jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../errors/index.js';
import { claimsOf, type TokenClaims } from './claims.js';
import type { JwtConfig } from './config.js';
import { RemoteJwkSet } from './jwk-set.js';
import { importStaticKey } from './keys.js';

/** Options of a verifier. */
export interface JwtVerifierOptions {
  readonly log?: (line: string) => void;
  /** Verified tokens kept (default 10000). */
  readonly cacheSize?: number;
  /** Names the config in configuration errors. */
  readonly where?: string;
}

interface Verified {
  readonly claims: TokenClaims;
  /** When the token stops being accepted (exp + allowed_skew), epoch ms; null: no `exp`. */
  readonly expiresAtMs: number | null;
  /** The key set generation that verified it. */
  readonly generation: number;
}

type KeySource =
  | { readonly kind: 'static'; readonly key: KeyObject; readonly algorithms: readonly string[] }
  | { readonly kind: 'remote'; readonly set: RemoteJwkSet };

// Hasura shows the Haskell jose error after this prefix (reference/auth.md J1–J4, J11).
const PREFIX = 'Could not verify JWT: ';

function invalidJwt(detail: string): ApiError {
  return new ApiError('invalid-jwt', PREFIX + detail);
}

/**
 * Verifies tokens for one JWT secret: signature, `exp`/`nbf` with `allowed_skew`, `aud`, `iss`,
 * then the claims. A verified token is remembered until it expires (or the key set changes),
 * so the hot path verifies each signature once.
 */
export class JwtVerifier {
  private readonly cache: LRUCache<string, Verified>;

  private constructor(readonly config: JwtConfig, private readonly keys: KeySource, cacheSize: number) {
    this.cache = new LRUCache({ max: cacheSize });
  }

  /** Imports the key (or fetches the JWK set once) and returns the verifier. Throws `invalid-configuration`. */
  static async create(config: JwtConfig, opts: JwtVerifierOptions = {}): Promise<JwtVerifier> {
    let keys: KeySource;
    if (config.key.kind === 'static') {
      const k = importStaticKey(config.key.type, config.key.key, opts.where);
      keys = { kind: 'static', key: k.key, algorithms: k.algorithms };
    } else {
      keys = { kind: 'remote', set: await RemoteJwkSet.open({ url: config.key.url, ...(opts.log ? { log: opts.log } : {}) }) };
    }
    return new JwtVerifier(config, keys, opts.cacheSize ?? 10_000);
  }

  /** The remote key set, when the config has `jwk_url`. */
  get jwkSet(): RemoteJwkSet | null {
    return this.keys.kind === 'remote' ? this.keys.set : null;
  }

  /** The claims of a valid token; throws `invalid-jwt`, `jwt-invalid-claims` or `jwt-missing-role-claims`. */
  async verify(token: string): Promise<TokenClaims> {
    const generation = this.keys.kind === 'remote' ? this.keys.set.generation : 0;
    const hit = this.cache.get(token);
    if (hit && hit.generation === generation && (hit.expiresAtMs === null || Date.now() < hit.expiresAtMs)) return hit.claims;
    if (hit) this.cache.delete(token);
    const payload = await this.verifySignature(token);
    checkAudienceAndIssuer(payload, this.config);
    const claims = claimsOf(payload as Record<string, unknown>, this.config);
    const expiresAtMs = typeof payload.exp === 'number' ? (payload.exp + this.config.allowedSkew) * 1000 : null;
    this.cache.set(token, { claims, expiresAtMs, generation });
    return claims;
  }

  /** When a token verified by this verifier stops being accepted (epoch ms), from the cache; null when unknown or without `exp`. */
  expiryOf(token: string): number | null {
    return this.cache.get(token)?.expiresAtMs ?? null;
  }

  /** Stops refreshing the JWK set. */
  close(): void {
    if (this.keys.kind === 'remote') this.keys.set.close();
  }

  private async verifySignature(token: string): Promise<JWTPayload> {
    const opts = { clockTolerance: this.config.allowedSkew };
    try {
      if (this.keys.kind === 'static') {
        // HMAC tokens that verify are checked here synchronously; anything else (a bad
        // signature, a claim out of range, an unusual header) goes to jose for its verdict.
        const fast = this.keys.key.type === 'secret' ? verifyHmac(token, this.keys.key, this.keys.algorithms, this.config.allowedSkew) : null;
        if (fast) return fast;
        return (await jwtVerify(token, this.keys.key, { ...opts, algorithms: [...this.keys.algorithms] })).payload;
      }
      return await verifyWithSet(token, this.keys.set.getKey, opts);
    } catch (e) {
      throw verifyError(e, token, this.keys.kind === 'static');
    }
  }
}

// Several keys of the set fit the token (no `kid`): the first whose signature checks wins.
async function verifyWithSet(token: string, getKey: JWTVerifyGetKey, opts: { clockTolerance: number }): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, getKey, opts)).payload;
  } catch (e) {
    const candidates = e as { code?: unknown } & Partial<AsyncIterable<CryptoKey>>;
    if (candidates.code !== 'ERR_JWKS_MULTIPLE_MATCHING_KEYS' || !candidates[Symbol.asyncIterator]) throw e;
    let last: unknown = e;
    for await (const key of candidates as AsyncIterable<CryptoKey>) {
      try {
        return (await jwtVerify(token, key, opts)).payload;
      } catch (inner) {
        last = inner;
        if ((inner as { code?: unknown }).code !== 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') throw inner;
      }
    }
    throw last;
  }
}

// `aud` and `iss` as Haskell jose checks them: a token without the claim passes (spec part A 5.2:
// "a token without issuer matches a configuration that specifies one").
function checkAudienceAndIssuer(payload: JWTPayload, cfg: JwtConfig): void {
  if (cfg.audience !== null && payload.aud !== undefined) {
    const auds = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!auds.some((a) => cfg.audience!.includes(a))) throw invalidJwt('JWTNotInAudience');
  }
  if (cfg.issuer !== null && payload.iss !== undefined && payload.iss !== cfg.issuer) throw invalidJwt('JWTNotInIssuer');
}

/** Maps a jose error, by its code, to Hasura's answer. */
const HMAC: Readonly<Record<string, string>> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

/**
 * The payload of an HS256/384/512 token whose signature, `alg` and time claims are all valid,
 * or null to let jose decide (and word the error). jose's HMAC goes through WebCrypto, which costs
 * about a tenth of a millisecond per token; node:crypto's is a few microseconds.
 */
function verifyHmac(token: string, secret: KeyObject, algorithms: readonly string[], skewSeconds: number): JWTPayload | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts as [string, string, string];
  let header: Record<string, unknown>;
  let payload: unknown;
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
    payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const alg = header['alg'];
  if (typeof alg !== 'string' || !algorithms.includes(alg) || HMAC[alg] === undefined || 'crit' in header || 'b64' in header) return null;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  const expected = createHmac(HMAC[alg]!, secret).update(`${h}.${p}`).digest();
  const given = Buffer.from(s, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const claims = payload as JWTPayload;
  const now = Math.floor(Date.now() / 1000);
  for (const k of ['exp', 'nbf', 'iat'] as const) if (claims[k] !== undefined && typeof claims[k] !== 'number') return null;
  if (claims.exp !== undefined && claims.exp <= now - skewSeconds) return null;
  if (claims.nbf !== undefined && claims.nbf > now + skewSeconds) return null;
  return claims;
}

/** The `alg` of a token's header, unverified; undefined when it does not decode. */
function algOf(token: string): unknown {
  try {
    return (JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { alg?: unknown }).alg;
  } catch {
    return undefined;
  }
}

function verifyError(e: unknown, token: string, fixedKey: boolean): ApiError {
  const err = e as { code?: unknown; claim?: unknown; message?: unknown };
  // A fixed key is tried whatever algorithm the token names (Hasura keeps it as a one-key set whose
  // key names no algorithm), and every signature must verify (hs-jose verifyJWSWithPayload,
  // AllValidated): another family's algorithm fails the check; `none` is no signature at all.
  if (fixedKey && err.code === 'ERR_JOSE_ALG_NOT_ALLOWED') {
    return invalidJwt(algOf(token) === 'none' ? 'JWSError JWSNoSignatures' : 'JWSError JWSInvalidSignature');
  }
  switch (err.code) {
    case 'ERR_JWT_EXPIRED': return invalidJwt('JWTExpired');
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED': return invalidJwt('JWSError JWSInvalidSignature');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (err.claim === 'nbf') return invalidJwt('JWTNotYetValid');
      if (err.claim === 'iat') return invalidJwt('JWTIssuedAtFuture');
      return invalidJwt(`JWTClaimsSetDecodeError "${String(err.message)}"`);
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return invalidJwt('JWSError NoUsableKeys');
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID': {
      const parts = token.split('.').length;
      if (parts !== 3) return invalidJwt(`JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got ${parts})`);
      return invalidJwt(`JWSError (CompactDecodeError ${String(err.message)})`);
    }
    default:
      if (e instanceof TypeError) return invalidJwt(`JWSError (CompactDecodeError ${e.message})`);
      throw e;
  }
}
