// Builds the CLI (and the runtime it wires) into build/kiln.mjs, and the console page into
// build/console. Runs on `npm ci` (prepare) so that `npx kiln` works from a fresh clone.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [resolve(root, 'compiler/cli/entry.ts')],
  outfile: resolve(root, 'build/kiln.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
const r = spawnSync(process.execPath, [resolve(root, 'scripts/build-console.mjs')], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
