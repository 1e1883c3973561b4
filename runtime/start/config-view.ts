// What GET /v1alpha1/config answers: the settings a Kiln server runs with, in the keys and shapes
// of Hasura's ServerConfig (reference/endpoints.md "Config").

import type { JwtConfig } from '../auth/index.js';
import type { SubscriptionSettings } from '../subscriptions/index.js';
import type { AuthSetup } from './auth-config.js';
import type { ServeSettings } from './settings.js';
import { KILN_VERSION } from './version.js';

/** The settings the answer is made from. */
export interface ConfigFacts {
  readonly version: string;
  readonly adminSecretSet: boolean;
  readonly authHookSet: boolean;
  readonly jwt: readonly JwtConfig[];
  readonly allowlist: boolean;
  readonly remoteSchemaPermissions: boolean;
  readonly subscriptions: SubscriptionSettings;
  readonly consoleAssetsDir: string | null;
  readonly functionPermissionsInferred: boolean;
}

/** One JWT secret as the config shows it: where the claims are, and their format (never the key). */
function jwtInfo(c: JwtConfig): Record<string, unknown> {
  const where = c.claims.kind === 'namespace' ? { claims_namespace: c.claims.namespace }
    : c.claims.kind === 'namespace-path' ? { claims_namespace_path: c.claims.text }
      : { claims_map: Object.fromEntries(c.claims.entries.map(([name, v]) => [name, v.kind === 'literal' ? v.value
        : { path: v.text, ...(v.default !== null ? { default: v.default } : {}) }])) };
  return { ...where, claims_format: c.format };
}

/**
 * The config object. `jwt` is null without a JWT secret, the secret's object with one, and a
 * list with several.
 */
export function configView(f: ConfigFacts): Readonly<Record<string, unknown>> {
  const seconds = (ms: number): number => ms / 1000;
  return {
    version: f.version,
    is_function_permissions_inferred: f.functionPermissionsInferred,
    is_remote_schema_permissions_enabled: f.remoteSchemaPermissions,
    is_admin_secret_set: f.adminSecretSet,
    is_auth_hook_set: f.authHookSet,
    is_jwt_set: f.jwt.length > 0,
    jwt: f.jwt.length === 0 ? null : f.jwt.length === 1 ? jwtInfo(f.jwt[0]!) : f.jwt.map(jwtInfo),
    is_allow_list_enabled: f.allowlist,
    live_queries: { batch_size: f.subscriptions.liveBatchSize, refetch_delay: seconds(f.subscriptions.liveRefetchMs) },
    streaming_queries: { batch_size: f.subscriptions.streamBatchSize, refetch_delay: seconds(f.subscriptions.streamRefetchMs) },
    console_assets_dir: f.consoleAssetsDir,
    experimental_features: [],
    default_naming_convention: 'hasura-default',
  };
}

/** The config answer of a server started with these settings (the same for every request: the settings do not change while it runs). */
export function serverConfig(o: ServeSettings, auth: AuthSetup, subscriptions: SubscriptionSettings,
  env: Readonly<Record<string, string | undefined>> = process.env): () => Readonly<Record<string, unknown>> {
  const view = configView({
    version: KILN_VERSION,
    adminSecretSet: Boolean(o.adminSecret) || auth.adminSecrets.length > 0,
    authHookSet: auth.authHookSet,
    jwt: auth.jwtConfigs,
    allowlist: o.enableAllowlist ?? false,
    remoteSchemaPermissions: env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS === 'true',
    subscriptions,
    consoleAssetsDir: null,
    functionPermissionsInferred: o.inferFunctionPermissions ?? true,
  });
  return () => view;
}
