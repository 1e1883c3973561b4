// Golden persisted queries: the whole SQL each role runs for each stored query of the blog
// fixture with collections added (test/emit/persisted-fixture.ts). Review diffs like code;
// update only on purpose with `npx vitest run test/golden -u`.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileBlogWithCollections } from '../emit/persisted-fixture.js';
import { expectNoOrphanGoldens } from '../helpers/goldens.js';

describe('golden blog persisted queries', async () => {
  const bundle = await compileBlogWithCollections();
  const goldens = [...bundle.files.keys()].filter((p) => p.startsWith('persisted/')).map((p) => p.slice('persisted/'.length));
  for (const golden of goldens) {
    it(golden, async () => {
      await expect(bundle.files.get(`persisted/${golden}`)).toMatchFileSnapshot(join('postgres', 'blog-persisted', golden));
    });
  }

  it('keeps no golden file the compiler no longer produces', () => {
    expectNoOrphanGoldens(join(import.meta.dirname, 'postgres', 'blog-persisted'), goldens);
  });
});
