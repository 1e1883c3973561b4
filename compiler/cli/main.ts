import { Command } from 'commander';
import { addServeFlags, exitOnError, stopOnSignals } from '../../runtime/index.js';
import { checkCommand } from './check.js';
import { compileCommand, introspectCommand } from './compile.js';
import { diffCommand } from './diff.js';
import { importHasuraCommand } from './import-hasura.js';
import { inspectCommand } from './inspect.js';
import { checkCompileInput, checkInspectInput, checkIntrospectInput, checkServeInput, type RawServeInput } from '../../runtime/index.js';
import { migrateApply, migrateStatus } from './migrate.js';
import { introspectBigQueryCommand } from './introspect-bigquery.js';
import { CliError } from './project.js';
import { serveCommand, type ServeOptions } from './serve.js';
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
    .option('--database-url <url>', 'PostgreSQL URL (env SVC_GRAPHQL_DATABASE_URL)', env.SVC_GRAPHQL_DATABASE_URL)
    .option('--out <file>', 'write the snapshot here instead of stdout')
    // A BigQuery source instead (BIGQUERY_EMULATOR_HOST reaches a stand-in): compiler/cli/introspect-bigquery.ts.
    .option('--bigquery-project <id>', 'introspect this BigQuery project instead of a PostgreSQL database (with --datasets)')
    .option('--datasets <list>', 'the BigQuery datasets to read, comma-separated')
    .option('--service-account <file>', 'a BigQuery service account key file (JSON)')
    .action((o) => {
      if (o.bigqueryProject !== undefined || o.datasets !== undefined) return introspectBigQueryCommand(o);
      if (o.databaseUrl === undefined) throw new CliError("error: required option '--database-url <url>' not specified", 2);
      checkIntrospectInput(o);
      return introspectCommand(o);
    });

  program.command('compile')
    .description('compile metadata + database catalog into a bundle directory')
    .requiredOption('--metadata <path>', 'metadata JSON file or metadata directory (databases/databases.yaml ...)')
    .option('--database-url <url>', 'introspect this database (env SVC_GRAPHQL_DATABASE_URL)', env.SVC_GRAPHQL_DATABASE_URL)
    .option('--introspection <file>', 'use a snapshot written by `kiln introspect` instead of a database')
    .requiredOption('--out <dir>', 'bundle directory to write')
    .option('--stringify-numeric-types', 'print bigint, numeric and float8 values as JSON strings', env.SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES === 'true')
    .option('--infer-function-permissions <true|false>', 'false: a function exposed as a query is shown only to roles given a function permission (env SVC_GRAPHQL_INFER_FUNCTION_PERMISSIONS, default true)',
      env.SVC_GRAPHQL_INFER_FUNCTION_PERMISSIONS)
    .option('--allow-inconsistent', 'write the bundle without the objects that do not fit the database')
    .option('--remote-snapshot <dir>', 'read each remote schema from this folder (a bundle, or <name>.graphql files) instead of introspecting the remote servers')
    .option('--quiet', 'no progress output')
    .addHelpText('after', '\nRemote schemas are introspected at compile time (their servers must answer) and stored in DIR/remote/.\nExit codes: 0 written; 1 the metadata does not fit the database, or a remote schema cannot be read; 2 bad input.')
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
    .option('--remote', 'also introspect each remote schema again and report what the bundle serves that the remote no longer has (fields, types, arguments, relationship paths, role permissions)')
    .addHelpText('after', '\nExit codes: 0 every check passed; 1 a persisted query is invalid, a file differs from manifest.json, a statement lacks its role\'s filter, or (--remote) a remote schema drifted or cannot be read; 2 bad input.')
    .action((o) => checkCommand(o));

  program.command('import-hasura')
    .description('turn a Hasura CLI project (config.yaml, metadata in the v2 or v3 layout, migrations) into Kiln\'s metadata directory and migrations, renaming x-hasura-* to x-svc-* and HASURA_GRAPHQL_* to SVC_GRAPHQL_*')
    .argument('<project>', 'the Hasura project folder (holding config.yaml)')
    .requiredOption('--out <dir>', 'write DIR/metadata and DIR/migrations here')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', '\nMigration SQL is copied unchanged; the report lists the lines naming hasura.user, x-hasura-* or hdb_catalog.\nExit codes: 0 imported (the report lists what was not carried); 2 bad input (no config.yaml, unreadable metadata).')
    .action((project: string, o) => importHasuraCommand(project, o));

  const migrate = program.command('migrate').description('apply SQL migrations (DIR/migrations/<database>/<version>_<name>/up.sql) and record them in svc_catalog.schema_migrations');
  const migrateFlags = (c: Command): Command => c
    .requiredOption('--project <dir>', 'folder holding migrations/ (as kiln import-hasura writes it)')
    .option('--database-url <url>', 'PostgreSQL URL (env SVC_GRAPHQL_DATABASE_URL)', env.SVC_GRAPHQL_DATABASE_URL)
    .option('--database-name <name>', 'which database\'s migrations (migrations/<name>/)', 'default');
  migrateFlags(migrate.command('apply')
    .description('apply the migrations not yet recorded, in version order, each in its own transaction')
    // Hasura spells it --version, which is kiln's own --version (commander reads program options after a subcommand too).
    .option('--only-version <version>', 'only this migration (Hasura: --version)')
    .option('--skip-execution', 'record the migrations as applied without running them (the database already has their schema, e.g. one Hasura migrated)')
    .addHelpText('after', '\nExit codes: 0 applied (or nothing to apply); 1 a migration failed (it is rolled back, earlier ones stay); 2 bad input.'))
    .action((o) => migrateApply(o));
  migrateFlags(migrate.command('status').description('list each migration version as applied or not applied'))
    .action((o) => migrateStatus(o));

  addServeFlags(program.command('serve')
    .description('serve GraphQL over HTTP: the metadata kept in svc_catalog (changed at run time through /v1/metadata), a compiled bundle, or a metadata file; with no database URL, run the demo on embedded PostgreSQL')
    .option('--bundle <dir>', 'serve a compiled bundle (metadata writes answer not-supported; kiln-runtime does the same without the compiler)')
    .option('--metadata <path>', 'compile this metadata in process and serve it read-only (default: the catalog in the database)'))
    .action(async (raw: RawServeInput & ServeOptions) => {
      // Numbers arrive as text (a flag or its variable) and are checked with everything else first.
      const o = checkServeInput(raw);
      const server = await serveCommand(o);
      if (!o.bundle && !o.metadata && !o.databaseUrl) printDemoHelp(server.port);
      stopOnSignals(server);
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
    exitOnError(e, 'kiln');
  }
}
