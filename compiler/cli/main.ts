import { Command, CommanderError, Option } from 'commander';
import { checkCommand } from './check.js';
import { compileCommand, introspectCommand } from './compile.js';
import { diffCommand } from './diff.js';
import { inspectCommand } from './inspect.js';
import { checkCompileInput, checkInspectInput, checkIntrospectInput, checkServeInput } from './input-check.js';
import { CliError } from './project.js';
import { serveCommand } from './serve.js';
import { KILN_VERSION } from './version.js';

const env = process.env;

/** The `kiln` command line. */
export function cli(): Command {
  const program = new Command('kiln')
    .description('Kiln: a GraphQL engine for PostgreSQL that compiles metadata into a bundle of SQL per role')
    .version(KILN_VERSION)
    .showHelpAfterError('(add --help for usage)')
    // Usage errors (unknown command or option, missing required option) are bad input: exit 2,
    // as `compile --help` documents; commander alone would exit 1, the code for inconsistent metadata.
    .exitOverride();

  program.command('introspect')
    .description('read the database catalog into a JSON snapshot (for compiling without a database)')
    .requiredOption('--database-url <url>', 'PostgreSQL URL (env SVC_GRAPHQL_DATABASE_URL)', env.SVC_GRAPHQL_DATABASE_URL)
    .option('--out <file>', 'write the snapshot here instead of stdout')
    .action((o) => { checkIntrospectInput(o); return introspectCommand(o); });

  program.command('compile')
    .description('compile metadata + database catalog into a bundle directory')
    .requiredOption('--metadata <path>', 'metadata JSON file or metadata directory (databases/databases.yaml ...)')
    .option('--database-url <url>', 'introspect this database (env SVC_GRAPHQL_DATABASE_URL)', env.SVC_GRAPHQL_DATABASE_URL)
    .option('--introspection <file>', 'use a snapshot written by `kiln introspect` instead of a database')
    .requiredOption('--out <dir>', 'bundle directory to write')
    .option('--stringify-numeric-types', 'print bigint, numeric and float8 values as JSON strings', env.SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES === 'true')
    .option('--allow-inconsistent', 'write the bundle without the objects that do not fit the database')
    .option('--quiet', 'no progress output')
    .addHelpText('after', '\nExit codes: 0 written; 1 the metadata does not fit the database; 2 bad input.')
    .action((o) => { checkCompileInput(o); return compileCommand(o); });

  program.command('inspect')
    .description('print the SQL a role runs: the stored file of each root field, or what a query compiles to')
    .requiredOption('--bundle <dir>', 'bundle directory')
    .option('--role <role>', 'role', 'admin')
    .option('--field <name>', 'one root field (F.subscription: its live-query SQL)')
    .option('--query <file>', 'a GraphQL document: print the SQL it compiles to for the role')
    .option('--variables <json>', 'variables for --query, as JSON')
    .option('--operation-name <name>', 'operation to plan when --query has several')
    .action((o) => { checkInspectInput(o); return inspectCommand(o); });

  program.command('diff')
    .description('compare two bundles role by role: root fields, columns, row filters, limits, aggregations and presets added, removed, widened or narrowed, and the SQL files that changed')
    .argument('<old>', 'the bundle directory deployed now')
    .argument('<new>', 'the bundle directory to deploy')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', '\nA filter that is not proven narrower (or equivalent) counts as "changed, possibly widened".\nExit codes: 0 no role gained access; 1 a role gained access; 2 bad input (missing directory, not a bundle).')
    .action((oldDir: string, newDir: string, o) => diffCommand(oldDir, newDir, o));

  program.command('check')
    .description('verify a bundle: every persisted query still valid, and every table reference in each role\'s SQL carries that role\'s row filter')
    .requiredOption('--bundle <dir>', 'bundle directory')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', '\nExit codes: 0 every check passed; 1 a persisted query is invalid, a file differs from manifest.json, or a statement lacks its role\'s filter; 2 bad input.')
    .action((o) => checkCommand(o));

  program.command('serve')
    .description('serve GraphQL over HTTP: the metadata kept in svc_catalog (changed at run time through /v1/metadata), a compiled bundle, or a metadata file; with no database URL, run the demo on embedded PostgreSQL')
    .option('--bundle <dir>', 'serve a compiled bundle (metadata writes answer not-supported)')
    .option('--metadata <path>', 'compile this metadata in process and serve it read-only (default: the catalog in the database)')
    .option('--database-url <url>', 'PostgreSQL URL for the default source (env SVC_GRAPHQL_DATABASE_URL)', env.SVC_GRAPHQL_DATABASE_URL)
    .option('--data-dir <dir>', 'embedded database folder', '.kiln/pgdata')
    .addOption(new Option('--port <n>', 'port (env SVC_GRAPHQL_SERVER_PORT)').default(env.SVC_GRAPHQL_SERVER_PORT ?? '8080'))
    .option('--host <host>', 'interface (env SVC_GRAPHQL_SERVER_HOST)', env.SVC_GRAPHQL_SERVER_HOST ?? '0.0.0.0')
    .option('--admin-secret <secret>', 'admin secret (env SVC_GRAPHQL_ADMIN_SECRET)', env.SVC_GRAPHQL_ADMIN_SECRET)
    .option('--unauthorized-role <role>', 'role for requests without credentials (env SVC_GRAPHQL_UNAUTHORIZED_ROLE)', env.SVC_GRAPHQL_UNAUTHORIZED_ROLE)
    .option('--jwt-secret <json>', 'JWT mode: the JSON config {type, key | jwk_url, claims_namespace, ...} (env SVC_GRAPHQL_JWT_SECRET; a list in SVC_GRAPHQL_JWT_SECRETS); needs --admin-secret', env.SVC_GRAPHQL_JWT_SECRET)
    .option('--auth-hook <url>', 'auth webhook mode: the webhook URL (env SVC_GRAPHQL_AUTH_HOOK); needs --admin-secret', env.SVC_GRAPHQL_AUTH_HOOK)
    .option('--auth-hook-mode <GET|POST>', 'how the auth webhook is called (env SVC_GRAPHQL_AUTH_HOOK_MODE, default GET)', env.SVC_GRAPHQL_AUTH_HOOK_MODE)
    .option('--enabled-apis <list>', 'comma-separated API groups (env SVC_GRAPHQL_ENABLED_APIS)', env.SVC_GRAPHQL_ENABLED_APIS)
    .addOption(new Option('--pg-connections <n>', 'pool size per source (env SVC_GRAPHQL_PG_CONNECTIONS)').default(env.SVC_GRAPHQL_PG_CONNECTIONS ?? '50'))
    .option('--stringify-numeric-types', 'print bigint, numeric and float8 values as JSON strings (env SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES)', env.SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES === 'true')
    .option('--enable-allowlist', 'non-admin roles may run only the queries of allow-listed query collections (env SVC_GRAPHQL_ENABLE_ALLOWLIST)', env.SVC_GRAPHQL_ENABLE_ALLOWLIST === 'true')
    .addOption(new Option('--events-http-pool-size <n>', 'event, cron and scheduled webhook calls in flight at once (env SVC_GRAPHQL_EVENTS_HTTP_POOL_SIZE)').default(env.SVC_GRAPHQL_EVENTS_HTTP_POOL_SIZE ?? '100'))
    .addOption(new Option('--events-fetch-batch-size <n>', 'events claimed per fetch (env SVC_GRAPHQL_EVENTS_FETCH_BATCH_SIZE)').default(env.SVC_GRAPHQL_EVENTS_FETCH_BATCH_SIZE ?? '100'))
    .addOption(new Option('--events-fetch-interval <ms>', 'milliseconds between fetches that found no event (env SVC_GRAPHQL_EVENTS_FETCH_INTERVAL)').default(env.SVC_GRAPHQL_EVENTS_FETCH_INTERVAL ?? '1000'))
    .option('--max-request-body-bytes <n>', 'largest request body accepted, in bytes (env SVC_GRAPHQL_MAX_REQUEST_BODY_BYTES, default 16 MiB)', env.SVC_GRAPHQL_MAX_REQUEST_BODY_BYTES)
    .option('--no-console', 'do not serve GraphiQL at /console')
    .addHelpText('after', '\nThe metadata catalog lives in SVC_GRAPHQL_METADATA_DATABASE_URL when set, else in the --database-url database.')
    .action(async (raw) => {
      // Numbers arrive as text (a flag or its variable) and are checked with everything else first.
      const o = checkServeInput(raw);
      const server = await serveCommand(o);
      if (!o.bundle && !o.metadata && !o.databaseUrl) printDemoHelp(server.port);
      const stop = (): void => { void server.close().then(() => process.exit(0)); };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  return program;
}

function printDemoHelp(port: number): void {
  const url = `http://127.0.0.1:${port}`;
  process.stderr.write(`
The demo (a Chinook-like music store) is ready. Open ${url}/console, or try:

  curl -s ${url}/v1/graphql -d '{"query":"{ artist(limit: 3, order_by: {name: asc}) { name albums { title } } }"}'
  curl -s ${url}/v1/graphql -d '{"query":"{ album_by_pk(album_id: 1) { title tracks_aggregate { aggregate { count } } } }"}'
  curl -s ${url}/v1/graphql -H 'X-Svc-Role: customer' -H 'X-Svc-Customer-Id: 5' -d '{"query":"{ invoice { invoice_id total invoice_lines { quantity } } }"}'

`);
}

/** Runs the command line; user errors exit with their code and a message, never a stack. */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    await cli().parseAsync([...argv]);
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
    if (e instanceof CliError) {
      process.stderr.write(`kiln: ${e.message}\n`);
      process.exit(e.exitCode);
    }
    const err = e as { code?: string; message?: string; path?: unknown };
    if (err && typeof err.code === 'string' && err.message) {
      process.stderr.write(`kiln: ${err.message} (${err.code})\n`);
      process.exit(1);
    }
    throw e;
  }
}
