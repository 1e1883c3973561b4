// Builds the CLI (and the runtime it wires) into build/kiln.mjs (its metadata API's compile
// worker into build/compile-worker.mjs), the serving-only runtime into
// build/kiln-runtime.mjs (no compiler inside: its metafile, build/kiln-runtime.meta.json, lists
// every input), and the console page into build/console. Runs on `npm ci` (prepare) so that
// `npx kiln` and `npx kiln-runtime` work from a fresh clone.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'warning' };
await build({ ...common, entryPoints: [resolve(root, 'compiler/cli/entry.ts')], outfile: resolve(root, 'build/kiln.mjs') });
// The metadata API compiles in a worker thread running this file (compiler/metadata-compiler).
await build({ ...common, entryPoints: [resolve(root, 'compiler/metadata-compiler/compile-worker.ts')], outfile: resolve(root, 'build/compile-worker.mjs') });
// The serving runtime holds its packages (graphql, pg, ws, jose, prom-client, undici...) in its one
// file: resolving, reading and wrapping each of their modules at start cost about 110 ms of the
// 1.1-1.2 s a 1,000-table x 20-role bundle took to answer /healthz on a 2-core machine (issue 19).
// Left outside: the database drivers loaded only when a source needs them (embedded PostgreSQL
// with its WebAssembly files, SQL Server, BigQuery) and optional native add-ons. The `require`
// of the banner serves the CommonJS packages' requires of those and of Node's built-ins.
const RUNTIME_EXTERNAL = ['@electric-sql/pglite', '@electric-sql/pglite/*', 'mssql', 'tedious', '@google-cloud/bigquery', 'pg-native', 'bufferutil', 'utf-8-validate'];
const runtime = await build({ ...common, packages: undefined, external: RUNTIME_EXTERNAL, entryPoints: [resolve(root, 'runtime/start/entry.ts')],
  outfile: resolve(root, 'build/kiln-runtime.mjs'), metafile: true,
  banner: { js: "import { createRequire as __kilnCreateRequire } from 'node:module';\nconst require = __kilnCreateRequire(import.meta.url);" } });
// The runtime build must stay free of the compiler: a deployment of it has no ts-morph or TypeScript.
const compilerParts = [/^compiler\//, /^(ts-morph|typescript|esbuild|@graphql-codegen\/)/];
const leaked = [...Object.keys(runtime.metafile.inputs), ...Object.values(runtime.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path))]
  .filter((p) => compilerParts.some((re) => re.test(p)));
if (leaked.length > 0) {
  process.stderr.write(`build/kiln-runtime.mjs must not include the compiler, but it does: ${[...new Set(leaked)].join(', ')}\n`);
  process.exit(1);
}
await writeFile(resolve(root, 'build/kiln-runtime.meta.json'), JSON.stringify(runtime.metafile, null, 1));
const r = spawnSync(process.execPath, [resolve(root, 'scripts/build-console.mjs')], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
