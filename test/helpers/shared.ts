// Where the shared folder (conformance corpus, benchmark metadata) is: `KILN_SHARED` when set, else
// `../shared` next to the repository, so the tests pass wherever the repository is cloned.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');

/** The shared folder: KILN_SHARED, or ../shared beside the repository root. */
export const SHARED = resolve(process.env['KILN_SHARED'] ?? join(root, '..', 'shared'));

/** A path inside the shared folder; throws when it is missing, so a moved corpus fails the test. */
export function sharedPath(...parts: string[]): string {
  const p = join(SHARED, ...parts);
  if (!existsSync(p)) throw new Error(`${p} not found (set KILN_SHARED to the folder holding conformance/ and bench/)`);
  return p;
}

/** Every file under a folder, as paths relative to it with '/' separators, sorted. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}
