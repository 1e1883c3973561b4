// `npm test`: runs vitest and ends with the plain closing line `N passed, N failed[, N skipped]`
// (read from vitest's JSON report), so that any CI can read the outcome. Arguments pass through.
// A missing golden or snapshot fails (vitest.config.ts sets update mode "none" on every machine);
// `npm test -- -u` writes the goldens on request and removes those nothing produces any more.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const report = join(root, 'build', 'test-report.json');
mkdirSync(dirname(report), { recursive: true });
rmSync(report, { force: true });
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(process.execPath, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: root });
let summary = null;
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  summary = { passed: r.numPassedTests, failed: r.numFailedTests + (r.numFailedTestSuites ?? 0), skipped: r.numPendingTests + (r.numTodoTests ?? 0) };
} catch {
  // vitest crashed before writing its report: the exit code below says so.
}
if (summary) {
  const failed = summary.failed + (run.status !== 0 && summary.failed === 0 ? 1 : 0);
  console.log(`tests: ${summary.passed} passed, ${failed} failed${summary.skipped ? `, ${summary.skipped} skipped` : ''}`);
}
process.exit(run.status ?? 1);
