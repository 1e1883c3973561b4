import { createLocalJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import { ApiError } from '../../errors/index.js';
import { parseCacheControl, parseHttpDate } from '../cache-headers.js';

/** The startup fetch reads every cache rule; later refresh cycles only max-age / Expires (spec part A 5.2). */
export type RefreshPhase = 'startup' | 'refresh';

/** The two response headers that decide when the key set is fetched again. */
export interface JwkCacheHeaders {
  readonly cacheControl: string | null;
  readonly expires: string | null;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const FETCH_TIMEOUT_MS = 10 * SECOND;

/**
 * Milliseconds until the next fetch of a JWK set, or null for never (spec part A 5.2):
 * - startup: Cache-Control `no-cache`/`no-store`/`must-revalidate` → every second; else its
 *   `max-age`/`s-maxage`; `Expires` only when there is no Cache-Control; nothing → never;
 * - later cycles: only `max-age`/`s-maxage`, then `Expires`; nothing → one minute.
 * A parsed time under one second is raised to one second.
 */
export function jwkRefreshDelay(h: JwkCacheHeaders, phase: RefreshPhase, nowMs: number): number | null {
  const none = phase === 'startup' ? null : MINUTE;
  if (h.cacheControl !== null) {
    const cc = parseCacheControl(h.cacheControl);
    if (phase === 'startup' && cc.revalidate) return SECOND;
    return cc.maxAge !== null ? Math.max(cc.maxAge * SECOND, SECOND) : none;
  }
  const expiresAt = h.expires !== null ? parseHttpDate(h.expires) : null;
  return expiresAt !== null ? Math.max(expiresAt - nowMs, SECOND) : none;
}

/** Options of a remote key set. */
export interface RemoteJwkSetOptions {
  readonly url: string;
  readonly log?: (line: string) => void;
}

/**
 * A JWK set fetched from `jwk_url` and refetched on the schedule its response headers give.
 * `generation` changes whenever the fetched set differs, so verified-token caches can drop
 * what an older set accepted: a rotated-out key stops working after the refresh.
 */
export class RemoteJwkSet {
  /** Bumped each time the fetched key set changes. */
  generation = 0;
  /** The delay of the scheduled next fetch (ms), null when none is scheduled. */
  nextRefreshMs: number | null = null;
  /** Refresh cycles run so far (the startup fetch not counted). */
  fetches = 0;
  private resolver: JWTVerifyGetKey | null = null;
  private lastText: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(private readonly opts: RemoteJwkSetOptions) {}

  /**
   * Fetches the set once (startup rules) and schedules the refreshes. A failed first fetch is
   * fatal, as in Hasura (`invalid-configuration`); a failed refresh keeps the old set and
   * retries in a minute.
   */
  static async open(opts: RemoteJwkSetOptions): Promise<RemoteJwkSet> {
    const set = new RemoteJwkSet(opts);
    let headers: JwkCacheHeaders;
    try {
      headers = await set.fetchSet();
    } catch (e) {
      throw new ApiError('invalid-configuration', `cannot fetch the JWK set from ${opts.url}: ${(e as Error).message}`);
    }
    set.schedule(jwkRefreshDelay(headers, 'startup', Date.now()));
    return set;
  }

  /** The key lookup jose's jwtVerify takes (by `kid` and `alg`). */
  readonly getKey: JWTVerifyGetKey = (header, token) => {
    // No set fetched yet: as if no key matched (answered "NoUsableKeys").
    if (!this.resolver) throw new errors.JWKSNoMatchingKey();
    return this.resolver(header, token);
  };

  /** Runs one refresh cycle now (later-cycle rules) and reschedules. */
  refreshNow(): Promise<void> {
    return this.cycle();
  }

  /** Stops refreshing. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.nextRefreshMs = null;
  }

  private async cycle(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let delay: number | null;
    try {
      const headers = await this.fetchSet();
      delay = jwkRefreshDelay(headers, 'refresh', Date.now());
    } catch (e) {
      this.opts.log?.(`JWK set ${this.opts.url}: ${(e as Error).message}; retrying in a minute`);
      delay = MINUTE;
    }
    this.fetches++;
    this.schedule(delay);
  }

  private schedule(delay: number | null): void {
    this.nextRefreshMs = delay;
    if (delay === null || this.closed) return;
    this.timer = setTimeout(() => { void this.cycle(); }, delay);
    // A pending refresh must not keep the process alive.
    this.timer.unref();
  }

  private async fetchSet(): Promise<JwkCacheHeaders> {
    const res = await fetch(this.opts.url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
    const text = await res.text();
    if (res.status < 200 || res.status > 299) throw new Error(`non-2xx response (HTTP ${res.status})`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error('the key set is not JSON');
    }
    const resolver = createLocalJWKSet(body as Parameters<typeof createLocalJWKSet>[0]);
    const canonical = JSON.stringify(body);
    if (canonical !== this.lastText) {
      this.lastText = canonical;
      this.resolver = resolver;
      this.generation++;
    }
    return { cacheControl: res.headers.get('cache-control'), expires: res.headers.get('expires') };
  }
}
