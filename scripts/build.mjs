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
const runtime = await build({ ...common, entryPoints: [resolve(root, 'runtime/start/entry.ts')], outfile: resolve(root, 'build/kiln-runtime.mjs'), metafile: true });
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
