// Golden files the compiler no longer produces fail the run: a removed root field must take its
// reviewed SQL with it, or the folder stops saying what each role can run.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { filesUnder } from './shared.js';

/**
 * Asserts that `dir` holds no file outside `produced` (paths relative to it). Under `-u` (vitest's
 * update mode "all") the orphans are deleted instead, as vitest removes obsolete snapshots.
 */
export function expectNoOrphanGoldens(dir: string, produced: Iterable<string>): void {
  const want = new Set(produced);
  const orphans = filesUnder(dir).filter((f) => !want.has(f));
  const state = expect.getState().snapshotState as unknown as { _updateSnapshot?: string } | undefined;
  if (orphans.length > 0 && state?._updateSnapshot === 'all') {
    for (const f of orphans) rmSync(join(dir, f));
    return;
  }
  expect(orphans, `golden files in ${dir} that nothing produces (delete them, or run with -u)`).toEqual([]);
}
