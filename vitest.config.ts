import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // Goldens and snapshots change only on request: a missing one fails (vitest's CI mode, on
    // every machine) instead of being written; `npm test -- -u` (or `npx vitest run -u`) writes them.
    update: 'none',
  },
});
