// The serving flags, each with its SVC_GRAPHQL_* variable as default: one definition for
// `kiln serve` and `kiln-runtime`, so both read the same settings the same way.

import { workerSettingsFromEnv } from '../workers/index.js';
import { Option, type Command } from 'commander';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Adds the serving flags (database, address, auth, pool, events, console) to a command. Numbers
 * arrive as text (a flag or its variable): checkServeInput checks and converts them first.
 */
export function addServeFlags(cmd: Command, env: Env = process.env): Command {
  return cmd
    .option('--database-url <url>', 'PostgreSQL URL for the default source (env SVC_GRAPHQL_DATABASE_URL)', env.SVC_GRAPHQL_DATABASE_URL)
    .option('--data-dir <dir>', 'embedded database folder', '.kiln/pgdata')
    .addOption(new Option('--port <n>', 'port (env SVC_GRAPHQL_SERVER_PORT)').default(env.SVC_GRAPHQL_SERVER_PORT ?? '8080'))
    .option('--host <host>', 'interface (env SVC_GRAPHQL_SERVER_HOST)', env.SVC_GRAPHQL_SERVER_HOST ?? '0.0.0.0')
    .option('--admin-secret <secret>', 'admin secret (env SVC_GRAPHQL_ADMIN_SECRET)', env.SVC_GRAPHQL_ADMIN_SECRET)
    .option('--unauthorized-role <role>', 'role for requests without credentials (env SVC_GRAPHQL_UNAUTHORIZED_ROLE)', env.SVC_GRAPHQL_UNAUTHORIZED_ROLE)
    .option('--jwt-secret <json>', 'JWT mode: the JSON config {type, key | jwk_url, claims_namespace, ...} (env SVC_GRAPHQL_JWT_SECRET; a list in SVC_GRAPHQL_JWT_SECRETS); needs --admin-secret', env.SVC_GRAPHQL_JWT_SECRET)
    .option('--auth-hook <url>', 'auth webhook mode: the webhook URL (env SVC_GRAPHQL_AUTH_HOOK); needs --admin-secret', env.SVC_GRAPHQL_AUTH_HOOK)
    .option('--auth-hook-mode <GET|POST>', 'how the auth webhook is called (env SVC_GRAPHQL_AUTH_HOOK_MODE, default GET)', env.SVC_GRAPHQL_AUTH_HOOK_MODE)
    .option('--enabled-apis <list>', 'comma-separated API groups among graphql, metadata, pgdump, config, metrics, developer (default graphql,metadata,pgdump,config; env SVC_GRAPHQL_ENABLED_APIS)', env.SVC_GRAPHQL_ENABLED_APIS)
    .addOption(new Option('--pg-connections <n>', 'pool size per source (env SVC_GRAPHQL_PG_CONNECTIONS)').default(env.SVC_GRAPHQL_PG_CONNECTIONS ?? '50'))
    .option('--stringify-numeric-types', 'print bigint, numeric and float8 values as JSON strings (env SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES)', env.SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES === 'true')
    .option('--infer-function-permissions <true|false>', 'false: a function exposed as a query is shown only to roles given a function permission (env SVC_GRAPHQL_INFER_FUNCTION_PERMISSIONS, default true)',
      env.SVC_GRAPHQL_INFER_FUNCTION_PERMISSIONS ?? 'true')
    .option('--v1-boolean-null-collapse <true|false>', 'true: a null comparison operand (_eq: null) is no condition, as in Hasura v1, instead of an error (env SVC_GRAPHQL_V1_BOOLEAN_NULL_COLLAPSE, default false)',
      env.SVC_GRAPHQL_V1_BOOLEAN_NULL_COLLAPSE ?? 'false')
    .option('--cors-domain <domains>', 'origins answered with CORS headers: * (the default) or a comma-separated list, http(s)://*.domain admitting one label in front (env SVC_GRAPHQL_CORS_DOMAIN)', env.SVC_GRAPHQL_CORS_DOMAIN)
    .option('--disable-cors', 'answer no origin with CORS headers (env SVC_GRAPHQL_DISABLE_CORS)', env.SVC_GRAPHQL_DISABLE_CORS === 'true')
    .option('--enable-allowlist', 'non-admin roles may run only the queries of allow-listed query collections (env SVC_GRAPHQL_ENABLE_ALLOWLIST)', env.SVC_GRAPHQL_ENABLE_ALLOWLIST === 'true')
    .addOption(new Option('--events-http-pool-size <n>', 'event, cron and scheduled webhook calls in flight at once (env SVC_GRAPHQL_EVENTS_HTTP_POOL_SIZE)').default(env.SVC_GRAPHQL_EVENTS_HTTP_POOL_SIZE ?? '100'))
    .addOption(new Option('--events-fetch-batch-size <n>', 'events claimed per fetch (env SVC_GRAPHQL_EVENTS_FETCH_BATCH_SIZE)').default(env.SVC_GRAPHQL_EVENTS_FETCH_BATCH_SIZE ?? '100'))
    .addOption(new Option('--events-fetch-interval <ms>', 'milliseconds between fetches that found no event (env SVC_GRAPHQL_EVENTS_FETCH_INTERVAL)').default(env.SVC_GRAPHQL_EVENTS_FETCH_INTERVAL ?? '1000'))
    .option('--max-request-body-bytes <n>', 'largest request body accepted, in bytes (env SVC_GRAPHQL_MAX_REQUEST_BODY_BYTES, default 16 MiB)', env.SVC_GRAPHQL_MAX_REQUEST_BODY_BYTES)
    .option('--no-console', 'do not serve GraphiQL at /console')
    .addHelpText('after', '\nThe metadata catalog (and cron and one-off events) live in SVC_GRAPHQL_METADATA_DATABASE_URL when set, else in the --database-url database.');
}

/**
 * Stops the server on SIGINT and SIGTERM, then exits 0: no new connection is taken, the requests
 * in flight are answered and the workers finish their deliveries, for at most the grace period
 * (SVC_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT seconds, 60 by default, as Hasura's). What is still
 * running then is abandoned and the process exits 1; a second signal exits 1 at once.
 */
export function stopOnSignals(server: { close(): Promise<void> }, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log(`kiln: ${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    const graceMs = workerSettingsFromEnv(process.env).gracefulShutdownMs;
    log(`kiln: ${signal}: answering the requests in flight, then stopping (grace period ${graceMs / 1000} s)`);
    // The workers get the whole grace period for their deliveries; the process a moment more to close.
    setTimeout(() => {
      log(`kiln: the grace period of ${graceMs / 1000} s is over: exiting with work still in flight`);
      process.exit(1);
    }, graceMs + 500).unref();
    server.close().then(() => process.exit(0), (e: unknown) => {
      log(`kiln: stopping failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
