// GET /v1alpha1/config over a real socket: admin only, the settings the server was started with
// in Hasura's keys, on by default and switched off with the `config` API group.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { configView } from '../../runtime/start/config-view.js';
import { DEFAULT_SUBSCRIPTION_SETTINGS } from '../../runtime/subscriptions/index.js';
import { parseJwtConfig } from '../../runtime/auth/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const KEY = 'a-32-character-long-hmac-key-for-tests!';

describe('GET /v1alpha1/config', () => {
  let db: TestDatabase;
  let server: { port: number; close(): Promise<void> };
  const get = async (s: { port: number }, headers: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${s.port}/v1alpha1/config`, { headers });
    return { status: res.status, body: await res.json() as Record<string, unknown> };
  };

  beforeAll(async () => {
    db = await createTestDatabase('configapi');
    server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 2,
      stringifyNumericTypes: false, console: false, adminSecret: 'secret', enableAllowlist: true,
      jwtSecret: JSON.stringify({ type: 'HS256', key: KEY, claims_namespace: 'https://example.com/claims', claims_format: 'stringified_json' }) });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('answers the admin the settings the server runs with, never a key', async () => {
    const r = await get(server, { 'x-svc-admin-secret': 'secret' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      version: expect.any(String),
      is_function_permissions_inferred: true,
      is_remote_schema_permissions_enabled: false,
      is_admin_secret_set: true,
      is_auth_hook_set: false,
      is_jwt_set: true,
      jwt: { claims_namespace: 'https://example.com/claims', claims_format: 'stringified_json' },
      is_allow_list_enabled: true,
      live_queries: { batch_size: 100, refetch_delay: 1 },
      streaming_queries: { batch_size: 100, refetch_delay: 1 },
      console_assets_dir: null,
      experimental_features: [],
      default_naming_convention: 'hasura-default',
    });
    expect(JSON.stringify(r.body)).not.toContain(KEY);
  });

  it('refuses a caller without the admin secret, and a role that is not admin', async () => {
    // In JWT mode a request without a token or the secret is refused before any route (Hasura: invalid-headers).
    const anonymous = await get(server);
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.code).toBe('invalid-headers');
    const asRole = await get(server, { 'x-svc-admin-secret': 'secret', 'x-svc-role': 'user' });
    expect(asRole).toEqual({ status: 400, body: { path: '$', error: 'restricted access : admin only', code: 'access-denied' } });
  });

  it('is not served when SVC_GRAPHQL_ENABLED_APIS leaves `config` out', async () => {
    const off = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 2,
      stringifyNumericTypes: false, console: false, enabledApis: 'graphql,metadata' });
    try {
      expect(await get(off)).toEqual({ status: 404, body: { path: '$', error: 'resource does not exist', code: 'not-found' } });
    } finally {
      await off.close();
    }
  });
});

describe('configView', () => {
  it('shows several JWT secrets as a list, a namespace path and a claims map as Hasura writes them', () => {
    const path = parseJwtConfig(JSON.stringify({ type: 'HS256', key: KEY, claims_namespace_path: '$.svc.claims' }), 'a');
    const map = parseJwtConfig(JSON.stringify({ type: 'HS256', key: KEY, claims_map: {
      'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 'user', 'x-svc-user-id': { path: '$.sub', default: 'nobody' } } }), 'b');
    const view = configView({ version: 'v', adminSecretSet: true, authHookSet: false, jwt: [path, map], allowlist: false,
      remoteSchemaPermissions: true, subscriptions: { ...DEFAULT_SUBSCRIPTION_SETTINGS, liveRefetchMs: 250, streamBatchSize: 7 }, consoleAssetsDir: null, functionPermissionsInferred: true });
    expect(view.jwt).toEqual([
      { claims_namespace_path: '$.svc.claims', claims_format: 'json' },
      { claims_map: { 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 'user', 'x-svc-user-id': { path: '$.sub', default: 'nobody' } }, claims_format: 'json' },
    ]);
    expect(view.is_remote_schema_permissions_enabled).toBe(true);
    expect(view.live_queries).toEqual({ batch_size: 100, refetch_delay: 0.25 });
    expect(view.streaming_queries).toEqual({ batch_size: 7, refetch_delay: 1 });
    expect(configView({ version: 'v', adminSecretSet: false, authHookSet: true, jwt: [], allowlist: false, remoteSchemaPermissions: false,
      subscriptions: DEFAULT_SUBSCRIPTION_SETTINGS, consoleAssetsDir: null, functionPermissionsInferred: false }))
      .toMatchObject({ is_jwt_set: false, jwt: null, is_auth_hook_set: true, is_function_permissions_inferred: false });
  });
});
