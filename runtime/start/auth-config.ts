import {
  createJwtAuthenticator, createWebhookAuthenticator, parseJwtConfig, parseJwtConfigList, parseWebhookMode,
  type Authenticator, type JwtConfig, type WebhookLogEntry,
} from '../auth/index.js';
import { StartError } from './start-error.js';

/** The authentication flags of `kiln serve` (each with its SVC_GRAPHQL_* variable). */
export interface AuthFlags {
  readonly adminSecret?: string;
  readonly unauthorizedRole?: string;
  /** --jwt-secret / SVC_GRAPHQL_JWT_SECRET: one JSON config. */
  readonly jwtSecret?: string;
  /** --auth-hook / SVC_GRAPHQL_AUTH_HOOK: the webhook URL. */
  readonly authHook?: string;
  /** --auth-hook-mode / SVC_GRAPHQL_AUTH_HOOK_MODE: GET (default) or POST. */
  readonly authHookMode?: string;
}

/** What createServer takes for authentication beyond the admin secret and the unauthorized role. */
export interface ServerAuth {
  readonly adminSecrets: readonly string[];
  readonly authenticators: readonly Authenticator[];
}

/** ServerAuth and what GET /v1alpha1/config reports of it. */
export interface AuthSetup extends ServerAuth {
  readonly jwtConfigs: readonly JwtConfig[];
  readonly authHookSet: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

function fail(message: string): never {
  throw new StartError(message, 2);
}

function adminSecretList(env: Env): string[] {
  const raw = env['SVC_GRAPHQL_ADMIN_SECRETS'];
  if (raw === undefined || raw === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    fail('SVC_GRAPHQL_ADMIN_SECRETS must be a JSON list of strings');
  }
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string' && s !== '')) fail('SVC_GRAPHQL_ADMIN_SECRETS must be a JSON list of non-empty strings');
  return value as string[];
}

function jwtConfigs(o: AuthFlags, env: Env): JwtConfig[] {
  const out: JwtConfig[] = [];
  try {
    if (o.jwtSecret) out.push(parseJwtConfig(o.jwtSecret, 'JWT secret (--jwt-secret / SVC_GRAPHQL_JWT_SECRET)'));
    const list = env['SVC_GRAPHQL_JWT_SECRETS'];
    if (list) out.push(...parseJwtConfigList(list, 'SVC_GRAPHQL_JWT_SECRETS'));
  } catch (e) {
    fail((e as Error).message);
  }
  return out;
}

/**
 * Builds JWT or webhook mode from the flags and the environment, refusing what Hasura refuses
 * at start: JWT or webhook without an admin secret (securing the endpoint is a prerequisite,
 * spec part A 5.1), both at once, a malformed JWT config or a too-short HMAC key. JWK sets are
 * fetched before it returns.
 */
export async function serverAuth(o: AuthFlags, log: (line: string) => void, env: Env = process.env,
  webhookLog?: (e: WebhookLogEntry) => void): Promise<AuthSetup> {
  const adminSecrets = adminSecretList(env);
  const secured = Boolean(o.adminSecret) || adminSecrets.length > 0;
  const configs = jwtConfigs(o, env);
  const hook = o.authHook || undefined;
  if (configs.length > 0 && hook) fail('JWT mode and the auth webhook cannot be enabled at the same time');
  if (configs.length > 0 && !secured) fail('--jwt-secret (SVC_GRAPHQL_JWT_SECRET) requires --admin-secret (SVC_GRAPHQL_ADMIN_SECRET) to be set');
  if (hook && !secured) fail('--auth-hook (SVC_GRAPHQL_AUTH_HOOK) requires --admin-secret (SVC_GRAPHQL_ADMIN_SECRET) to be set');
  const authenticators: Authenticator[] = [];
  if (configs.length > 0) {
    try {
      authenticators.push(await createJwtAuthenticator(configs, { log }));
    } catch (e) {
      fail((e as Error).message);
    }
    log(`JWT mode: ${configs.length} secret(s)`);
  }
  if (hook) {
    let mode;
    try {
      mode = parseWebhookMode(o.authHookMode ?? env['SVC_GRAPHQL_AUTH_HOOK_MODE']);
      new URL(hook);
    } catch (e) {
      fail(e instanceof TypeError ? `--auth-hook is not a URL: ${hook}` : (e as Error).message);
    }
    authenticators.push(createWebhookAuthenticator({ url: hook, mode, log, ...(webhookLog ? { webhookLog } : {}) }));
    log(`auth webhook mode: ${mode} ${hook}`);
  }
  return { adminSecrets, authenticators, jwtConfigs: configs, authHookSet: hook !== undefined };
}
