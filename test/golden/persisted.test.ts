// Golden persisted queries: the whole SQL each role runs for each stored query of the blog
// fixture with collections added (test/emit/persisted-fixture.ts). Review diffs like code;
// update only on purpose with `npx vitest run test/golden -u`.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileBlogWithCollections } from '../emit/persisted-fixture.js';

describe('golden blog persisted queries', async () => {
  const bundle = await compileBlogWithCollections();
  for (const [path, content] of bundle.files) {
    if (!path.startsWith('persisted/')) continue;
    it(path, async () => {
      await expect(content).toMatchFileSnapshot(join('postgres', 'blog-persisted', path.slice('persisted/'.length)));
    });
  }
});
