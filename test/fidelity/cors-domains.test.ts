// CORS as Hasura's middleware answers it (Server/Cors.hs, Server/Middleware.hs), with the
// domains of test_cors.py: SVC_GRAPHQL_CORS_DOMAIN lists the origins (a `*.` wildcard admits one
// label in front), an admitted origin gets Allow-Origin, Allow-Credentials and
// `Allow-Methods: GET,POST,PUT,PATCH,DELETE,OPTIONS` on every answer, any other origin gets none;
// `*` (the default) admits all, --disable-cors none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCorsDomain } from '../../runtime/server/index.js';
import { serveCatalog, type CatalogServer } from '../helpers/catalog-server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const DOMAINS = 'http://*.localhost, http://localhost:3000, https://*.foo.bar.com';

let db: TestDatabase;
const servers: CatalogServer[] = [];
const serve = async (opts: Record<string, unknown>): Promise<CatalogServer> => {
  const s = await serveCatalog(db.url, opts);
  servers.push(s);
  return s;
};
beforeAll(async () => { db = await createTestDatabase('fidcors'); });
afterAll(async () => {
  for (const s of servers) await s.close();
  await db?.drop();
});

const corsOf = (h: Headers) => ({ origin: h.get('access-control-allow-origin'), credentials: h.get('access-control-allow-credentials'),
  methods: h.get('access-control-allow-methods') });
const admitted = (origin: string) => ({ origin, credentials: 'true', methods: 'GET,POST,PUT,PATCH,DELETE,OPTIONS' });
const none = { origin: null, credentials: null, methods: null };

describe('SVC_GRAPHQL_CORS_DOMAIN', () => {
  let s: CatalogServer;
  beforeAll(async () => { s = await serve({ corsDomain: DOMAINS }); });
  const version = async (origin: string) => corsOf((await fetch(`${s.url}/v1/version`, { headers: { origin } })).headers);

  it('admits the listed origins and one label under a wildcard domain', async () => {
    for (const origin of ['http://localhost:3000', 'http://app.localhost', 'https://app.foo.bar.com']) expect(await version(origin)).toEqual(admitted(origin));
  });

  it('answers any other origin without CORS headers', async () => {
    for (const origin of ['https://foo.bar.com', 'https://inst1.app.foo.bar.com', 'https://example.com', 'http://app.localhost:8080', 'https://localhost:3000']) {
      expect(await version(origin)).toEqual(none);
    }
  });

  it('answers the preflight of an admitted origin, and leaves another origin\'s to the route', async () => {
    const pre = await fetch(`${s.url}/v1/graphql`, { method: 'OPTIONS', headers: { origin: 'http://app.localhost', 'access-control-request-headers': 'x-svc-role' } });
    expect(pre.status).toBe(204);
    expect({ ...corsOf(pre.headers), headers: pre.headers.get('access-control-allow-headers'), maxAge: pre.headers.get('access-control-max-age') })
      .toEqual({ ...admitted('http://app.localhost'), headers: 'x-svc-role', maxAge: '1728000' });
    const other = await fetch(`${s.url}/v1/graphql`, { method: 'OPTIONS', headers: { origin: 'https://example.com' } });
    expect(other.status).toBe(405);
    expect(corsOf(other.headers)).toEqual(none);
  });
});

describe('the default and --disable-cors', () => {
  it('admits every origin by default, with the methods on a plain answer too', async () => {
    const s = await serve({});
    expect(corsOf((await fetch(`${s.url}/v1/version`, { headers: { origin: 'https://anything.example' } })).headers)).toEqual(admitted('https://anything.example'));
  });

  it('sends no CORS header at all when disabled', async () => {
    const s = await serve({ disableCors: true });
    expect(corsOf((await fetch(`${s.url}/v1/version`, { headers: { origin: 'https://anything.example' } })).headers)).toEqual(none);
  });

  it('refuses a malformed domain list at start, as Hasura does', () => {
    expect(() => parseCorsDomain('')).toThrow('invalid domain');
    expect(() => parseCorsDomain('localhost:3000')).toThrow("invalid domain: 'localhost:3000'");
    expect(() => parseCorsDomain('http://a.com, ftp://b.com')).toThrow("invalid domain: 'ftp://b.com'");
    expect(parseCorsDomain('*')).toEqual({ kind: 'all' });
  });
});
