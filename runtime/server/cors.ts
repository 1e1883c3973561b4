// CORS: which origins are answered with CORS headers, and the headers (Hasura's Server/Cors.hs and
// Server/Middleware.hs).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../errors/index.js';
import { headWith } from './http-io.js';

/** An origin as Hasura compares it with a wildcard domain: scheme, host after the first label, port. */
interface OriginParts {
  readonly scheme: string;
  readonly host: string;
  readonly port: number | null;
}

/**
 * Which origins get CORS headers (SVC_GRAPHQL_CORS_DOMAIN, --disable-cors): every origin (`*`,
 * the default), the listed ones, or none.
 */
export type CorsPolicy =
  | { readonly kind: 'all' }
  | { readonly kind: 'disabled' }
  | { readonly kind: 'domains'; readonly exact: ReadonlySet<string>; readonly wildcards: readonly OriginParts[] };

/** Every origin may call, credentials included (Hasura's default). */
export const CORS_ALLOW_ALL: CorsPolicy = { kind: 'all' };

// Hasura's check of each listed domain (Server/Cors.hs, wildcardDomainRegex).
const DOMAIN = /^http(s)?:\/\/(\*\.)?([a-zA-Z0-9]+\.)*[a-zA-Z0-9]+(:[0-9]+)*$/;
const METHODS = 'GET,POST,PUT,PATCH,DELETE,OPTIONS';
const MAX_AGE = '1728000';

/**
 * Reads SVC_GRAPHQL_CORS_DOMAIN as Hasura does (Server/Cors.hs, readCorsDomains): `*`, or
 * comma-separated origins (`https://app.example.com`, `http://localhost:3000`); one starting
 * `http://*.` or `https://*.` admits any single label in front of the rest. Throws `invalid-configuration`.
 */
export function parseCorsDomain(text: string): CorsPolicy {
  if (text === '*') return CORS_ALLOW_ALL;
  if (text === '' || text === ',') throw new ApiError('invalid-configuration', 'invalid domain');
  const domains = text.split(',').map((d) => d.trim());
  for (const d of domains) if (!DOMAIN.test(d)) throw new ApiError('invalid-configuration', `invalid domain: '${d}'`);
  const wildcards = domains.filter((d) => d.startsWith('http://*.') || d.startsWith('https://*.'));
  const exact = domains.filter((d) => !wildcards.includes(d));
  return { kind: 'domains', exact: new Set(exact), wildcards: wildcards.map((w) => splitOrigin(w)!) };
}

/**
 * Scheme, the host after the first label and the port, as Hasura's originParser reads an origin
 * (`https://app.foo.com:8080` gives `https://`, `foo.com`, 8080; a wildcard's `*` is that label).
 */
function splitOrigin(origin: string): OriginParts | null {
  const m = /^(https?:\/\/)[^.]*\.(.*)$/.exec(origin);
  if (!m) return null;
  const rest = m[2]!;
  const colon = rest.indexOf(':');
  if (colon <= 0) return { scheme: m[1]!, host: rest, port: null };
  const digits = /^\d+/.exec(rest.slice(colon + 1));
  return { scheme: m[1]!, host: rest.slice(0, colon), port: digits ? Number(digits[0]) : null };
}

function admits(policy: CorsPolicy, origin: string): boolean {
  switch (policy.kind) {
    case 'all': return true;
    case 'disabled': return false;
    case 'domains': {
      if (policy.exact.has(origin)) return true;
      const o = splitOrigin(origin);
      return o !== null && policy.wildcards.some((w) => w.scheme === o.scheme && w.host === o.host && w.port === o.port);
    }
  }
}

/**
 * CORS as Hasura's middleware does it (Server/Middleware.hs): a request whose Origin the policy
 * admits gets Allow-Origin (that origin), Allow-Credentials and Allow-Methods on its answer, and
 * a preflight (OPTIONS) is answered here, 204; any other request goes to its route untouched.
 * True when the request was answered.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, policy: CorsPolicy): boolean {
  const origin = req.headers.origin;
  if (!origin || !admits(policy, origin)) return false;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-allow-credentials', 'true');
  res.setHeader('access-control-allow-methods', METHODS);
  res.setHeader('vary', 'Origin');
  if (req.method !== 'OPTIONS') return false;
  const requested = req.headers['access-control-request-headers'];
  res.writeHead(204, headWith(res, {
    'access-control-max-age': MAX_AGE,
    'access-control-allow-headers': typeof requested === 'string' ? requested : '',
    'content-length': '0',
    'content-type': 'text/plain charset=UTF-8',
  }));
  res.end();
  return true;
}
