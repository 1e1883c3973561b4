// The tests run wherever the repository is cloned: the shared folder is found through
// test/helpers/shared.ts (KILN_SHARED, or ../shared beside the repository), never by a path of
// the machine the tests were written on.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'fixtures' ? [] : sources(p);
    return /\.(ts|mts|mjs)$/.test(e.name) ? [p] : [];
  });
}

// A string literal that starts with an absolute path into a home, work or shared folder.
const MACHINE_PATH = /['"`](\/work\/|\/home\/|\/root\/|\/Users\/)[^'"`]*['"`]/;

describe('paths of one machine', () => {
  it('appear in no test or script', () => {
    const found = [...sources(join(root, 'test')), ...sources(join(root, 'scripts'))]
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => ({ f, line, i })))
      .filter(({ line }) => MACHINE_PATH.test(line) && !line.includes('MACHINE_PATH'))
      .map(({ f, i, line }) => `${relative(root, f)}:${i + 1}: ${line.trim()}`);
    expect(found).toEqual([]);
  });
});
