// set_api_limits / remove_api_limits / set_graphql_schema_introspection_options through the
// metadata API of `kiln serve` (catalog mode): a change is enforced as soon as it is answered, a
// refused change alters nothing, and rate-limit counts survive the engine swap of a metadata change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { LIMITS_SCHEMA, limitsMetadata, nested } from './limits-helpers.js';

describe('API limits through the metadata API', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${server.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
    return { status: res.status, body: await res.json() };
  };
  const meta = (type: string, args: unknown) => post('/v1/metadata', { type, args });
  const asUser = (query: string) => post('/v1/graphql', { query }, { 'x-svc-role': 'user' });
  const exported = async () => (await post('/v1/metadata', { type: 'export_metadata', version: 2, args: {} })).body as { resource_version: number; metadata: any };

  beforeAll(async () => {
    server = await serveDatabase('apilimitsmd', LIMITS_SCHEMA);
    db = server.db;
    const md = limitsMetadata() as { sources: { configuration: unknown }[] };
    md.sources[0]!.configuration = { connection_info: { database_url: db.url } };
    expect((await meta('replace_metadata', md)).status).toBe(200);
  }, 60_000);

  afterAll(() => server?.close());

  it('enforces set_api_limits as soon as it answers, and remove_api_limits lifts them', async () => {
    expect((await asUser(nested(2))).body.errors).toBeUndefined();
    expect(await meta('set_api_limits', { depth_limit: { global: 5, per_role: { user: 1 } } })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await asUser(nested(2))).body.errors[0].message).toBe('The depth limit has been exceeded for this query');
    expect((await post('/v1/graphql', { query: nested(2) })).body.errors).toBeUndefined();
    expect((await meta('remove_api_limits', {})).status).toBe(200);
    expect((await asUser(nested(2))).body.errors).toBeUndefined();
  });

  it('refuses a bad set_api_limits with the path of the bad value and changes nothing', async () => {
    expect((await meta('set_api_limits', { node_limit: { global: 10, per_role: { user: 1 } } })).status).toBe(200);
    const before = await exported();
    const bad: [unknown, string][] = [
      [{ depth_limit: { global: 5, per_role: { user: 'x' } } }, '$.args.depth_limit.per_role.user'],
      [{ node_limit: { global: -1 } }, '$.args.node_limit.global'],
      [{ rate_limit: { global: { max_reqs_per_min: 10, unique_params: 'HOST' } } }, '$.args.rate_limit.global.unique_params'],
      [{ time_limit: { global: 0 } }, '$.args.time_limit.global'],
      [{ depth_limt: { global: 1 } }, '$.args.depth_limt'],
      [{ disabled: 'no' }, '$.args.disabled'],
    ];
    for (const [args, path] of bad) {
      const r = await meta('set_api_limits', args);
      expect([r.status, r.body.code, r.body.path]).toEqual([400, 'parse-failed', path]);
    }
    // The same values in a whole document are refused by replace_metadata.
    const replaced = await meta('replace_metadata', { ...before.metadata, api_limits: { depth_limit: { global: 'deep' } } });
    expect([replaced.status, replaced.body.code]).toEqual([400, 'parse-failed']);
    expect(replaced.body.path).toMatch(/api_limits\.depth_limit\.global$/);
    expect(await exported()).toEqual(before);
    expect((await asUser('{ a: author(limit: 1) { id } b: author(limit: 1) { id } }')).body.errors[0].message).toBe('The node limit has been exceeded for this query');
    expect((await meta('remove_api_limits', {})).status).toBe(200);
  });

  it('enforces set_graphql_schema_introspection_options per role, and a refused call changes nothing', async () => {
    const introspect = '{ __schema { queryType { name } } }';
    expect((await meta('set_graphql_schema_introspection_options', { disabled_for_roles: ['user'] })).status).toBe(200);
    expect((await asUser(introspect)).body.errors[0]).toEqual({ message: 'introspection is disabled for role: "user"', extensions: { path: '$', code: 'not-supported' } });
    expect((await post('/v1/graphql', { query: introspect })).body.data).toEqual({ __schema: { queryType: { name: 'query_root' } } });
    const before = await exported();
    expect((await meta('set_graphql_schema_introspection_options', { disabled_for_roles: 'user' })).status).toBe(400);
    expect(await exported()).toEqual(before);
    expect((await meta('set_graphql_schema_introspection_options', { disabled_for_roles: [] })).status).toBe(200);
    expect((await asUser(introspect)).body.data).toEqual({ __schema: { queryType: { name: 'query_root' } } });
  });

  it('keeps rate-limit counts across a metadata change', async () => {
    expect((await meta('set_api_limits', { rate_limit: { per_role: { user: { max_reqs_per_min: 2 } } } })).status).toBe(200);
    expect((await asUser('{ author(limit: 1) { id } }')).status).toBe(200);
    expect((await asUser('{ author(limit: 1) { id } }')).status).toBe(200);
    expect((await asUser('{ author(limit: 1) { id } }')).status).toBe(429);
    // Another change (a new engine serves from now on): the user's minute is still used up.
    expect((await meta('set_graphql_schema_introspection_options', { disabled_for_roles: ['editor'] })).status).toBe(200);
    expect((await asUser('{ author(limit: 1) { id } }')).status).toBe(429);
    expect((await post('/v1/graphql', { query: '{ author(limit: 1) { id } }' }, { 'x-svc-role': 'editor' })).status).toBe(200);
  });
});
