// The `startup` line of kind `server_configuration` a server writes once it listens, in the keys
// of Hasura's serveOptsToLog (Server/Init.hs): what the server runs with, secrets left out (the
// admin secret as admin_secret_set, a JWT key as Hasura's "<JWK REDACTED>", URL passwords masked).

import type { JwtConfig } from '../auth/index.js';
import { logs, logTimestamp, type CorsPolicy, type LogSettings } from '../server/index.js';
import type { SubscriptionSettings } from '../subscriptions/index.js';
import type { AuthSetup } from './auth-config.js';
import type { ServeSettings } from './settings.js';
import { redact } from './start-error.js';

/** What the line is made from besides the settings. */
export interface StartupFacts {
  readonly port: number;
  readonly auth: AuthSetup;
  readonly cors: CorsPolicy;
  readonly enabledApis: readonly string[];
  readonly subscriptions: SubscriptionSettings;
}

// Hasura's JWTConfig as its ToJSON writes it: the key's type and value redacted, a JWK URL shown.
function jwtView(c: JwtConfig): Record<string, unknown> {
  const key = c.key.kind === 'static' ? { type: '<TYPE REDACTED>', key: '<JWK REDACTED>' } : { jwk_url: redact(c.key.url) };
  const claims = c.claims.kind === 'namespace' ? { claims_namespace: c.claims.namespace }
    : c.claims.kind === 'namespace-path' ? { claims_namespace_path: c.claims.text }
      : { claims_map: Object.fromEntries(c.claims.entries.map(([name, v]) => [name, v.kind === 'literal' ? v.value
        : { path: v.text, ...(v.default !== null ? { default: v.default } : {}) }])) };
  const header = c.location.kind === 'authorization' ? null
    : { type: c.location.kind === 'cookie' ? 'Cookie' : 'CustomHeader', name: c.location.name };
  return { ...key, claims_format: c.format, audience: c.audience, issuer: c.issuer, header, ...claims };
}

// Hasura's CorsConfig as its ToJSON writes it (Server/Cors.hs).
function corsView(p: CorsPolicy): Record<string, unknown> {
  if (p.kind === 'disabled') return { disabled: true, ws_read_cookie: false };
  if (p.kind === 'all') return { disabled: false, allowed_origins: '*' };
  return { disabled: false, allowed_origins: [...p.exact, ...p.wildcards.map((w) => `${w.scheme}://*.${w.host}${w.port ? `:${w.port}` : ''}`)] };
}

/** The server_configuration object. */
export function serverConfiguration(o: ServeSettings, f: StartupFacts, s: LogSettings,
  env: Readonly<Record<string, string | undefined>> = process.env): Record<string, unknown> {
  const hook = o.authHook ?? env.SVC_GRAPHQL_AUTH_HOOK;
  return {
    port: f.port,
    server_host: o.host,
    transaction_isolation: 'ReadCommitted',
    admin_secret_set: Boolean(o.adminSecret) || f.auth.adminSecrets.length > 0,
    auth_hook: hook ? redact(hook) : null,
    auth_hook_mode: hook ? (o.authHookMode ?? env.SVC_GRAPHQL_AUTH_HOOK_MODE ?? 'GET').toUpperCase() : null,
    jwt_secret: f.auth.jwtConfigs.length === 0 ? null : f.auth.jwtConfigs.length === 1 ? jwtView(f.auth.jwtConfigs[0]!) : f.auth.jwtConfigs.map(jwtView),
    unauth_role: o.unauthorizedRole ?? null,
    cors_config: corsView(f.cors),
    enable_console: o.console,
    console_assets_dir: null,
    enable_telemetry: false,
    use_prepared_statements: true,
    stringify_numeric_types: o.stringifyNumericTypes,
    'v1-boolean-null-collapse': o.v1BooleanNullCollapse === true,
    enabled_apis: f.enabledApis,
    live_query_options: { batch_size: f.subscriptions.liveBatchSize, refetch_delay: f.subscriptions.liveRefetchMs / 1000 },
    enable_allowlist: o.enableAllowlist ?? false,
    enabled_log_types: [...s.types],
    log_level: s.level,
    remote_schema_permissions: env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS === 'true',
    infer_function_permissions: o.inferFunctionPermissions ?? true,
    enable_maintenance_mode: false,
    experimental_features: [],
    events_fetch_batch_size: o.eventsFetchBatchSize ?? 100,
  };
}

/** Writes the line when `startup` is an enabled log type (one of Hasura's defaults). */
export function logServerConfiguration(s: LogSettings, o: ServeSettings, f: StartupFacts): void {
  if (!logs(s, 'startup', 'info')) return;
  s.write(JSON.stringify({ type: 'startup', timestamp: logTimestamp(), level: 'info', detail: { kind: 'server_configuration', info: serverConfiguration(o, f, s) } }));
}
