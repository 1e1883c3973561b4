// ZetaSQL, Google's SQL front end and reference engine, as the stand-in's executor: the npm
// package @fivetrandevelopers/zetasql ships its local gRPC server (a native binary); queries are
// evaluated with EvaluateQuery over a catalog of the tables they name and those tables' rows.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from '../free-port.mjs';
import { StandInError } from './values.mjs';

const require = createRequire(import.meta.url);

/** Starts the ZetaSQL server and returns an evaluator over it. */
export async function startZetaSql() {
  const pkg = dirname(require.resolve('@fivetrandevelopers/zetasql/package.json'));
  const pkgRequire = createRequire(join(pkg, 'package.json'));
  const grpc = pkgRequire('@grpc/grpc-js');
  const loader = pkgRequire('@grpc/proto-loader');
  const arm = process.arch.startsWith('arm') ? '_arm' : '';
  const binary = join(pkg, 'lib/zetasql', `remote_server${arm}${process.platform === 'darwin' ? '' : '.so'}`);
  const port = await freePort();
  const child = spawn(binary, ['127.0.0.1', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  const definition = loader.loadSync('local_service.proto', {
    includeDirs: [join(pkg, 'lib/zetasql/protos')], longs: String, enums: String, oneofs: true, defaults: false,
  });
  const proto = grpc.loadPackageDefinition(definition);
  const client = new proto.zetasql.local_service.ZetaSqlLocalService(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    'grpc.max_send_message_length': 256 * 1024 * 1024, 'grpc.max_receive_message_length': 256 * 1024 * 1024,
  });
  const call = (method, request) => new Promise((resolve, reject) => {
    client[method](request, (err, res) => (err ? reject(err) : resolve(res)));
  });
  // The server takes a moment to listen; ask until it answers (at most ~20 s).
  for (let i = 0; ; i++) {
    try { await call('formatSql', { sql: 'SELECT 1' }); break; } catch (e) {
      if (i > 80 || child.exitCode !== null) throw new Error(`ZetaSQL server did not start: ${e.message} ${stderr}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const languageOptions = await call('getLanguageOptions', { maximumFeatures: true });
  return {
    /** The table names a statement reads (`chinook.album` for `` `chinook.album` ``). */
    async tableNames(sql) {
      try {
        const r = await call('extractTableNamesFromStatement', { sqlStatement: sql, options: languageOptions });
        return (r.tableName ?? []).map((t) => (t.tableNameSegment ?? []).join('.'));
      } catch (e) { throw new StandInError(detail(e)); }
    },
    /**
     * Runs `sql` over `tables` (`{name: {columns: [{name, type}], rows: [[ValueProto]]}}`) with
     * named `params` (`[{name, type, value}]`); returns the result's columns and rows.
     */
    async evaluate(sql, tables, params) {
      const request = {
        sql,
        options: {
          languageOptions, errorMessageMode: 'ERROR_MESSAGE_ONE_LINE', defaultTimezone: 'UTC',
          queryParameters: params.map((p) => ({ name: p.name, type: p.type })),
        },
        simpleCatalog: {
          name: 'stand_in',
          table: Object.entries(tables).map(([name, t]) => ({ name, column: t.columns.map((c) => ({ name: c.name, type: c.type })) })),
          builtinFunctionOptions: { languageOptions },
        },
        tableContent: Object.fromEntries(Object.entries(tables).map(([name, t]) => [name, { tableData: { row: t.rows.map((cell) => ({ cell })) } }])),
        params: params.map((p) => ({ name: p.name, value: p.value })),
      };
      try {
        const r = await call('evaluateQuery', request);
        return { columns: r.prepared?.columns ?? [], rows: (r.content?.tableData?.row ?? []).map((row) => row.cell ?? []) };
      } catch (e) { throw new StandInError(detail(e)); }
    },
    close() { client.close(); child.kill('SIGKILL'); },
  };
}

function detail(e) {
  return typeof e?.details === 'string' && e.details ? e.details : String(e?.message ?? e);
}
