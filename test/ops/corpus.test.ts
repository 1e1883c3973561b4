// The metadata operations of the conformance suites that exercise them, replayed in process: every
// setup applies and compiles cleanly, and each expected error body of the corpus is what the
// compiler side gives (the runtime's own checks, such as admin-only access, are left out).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE, readSteps, replay, type Step } from './corpus-replay.js';

interface Suite {
  name: string;
  setup: { file: string; endpoint?: string }[];
  setup_each: { file: string; endpoint?: string }[];
  tests: { name: string; files: string[] }[];
}

const manifest = JSON.parse(readFileSync(join(CONFORMANCE, 'manifest.json'), 'utf8')) as { suites: Suite[] };
const SUITES = /^test_v1_queries::Test(Metadata|ComputedFields|Permissions|Relationships|SetTable|TrackTables)|^test_metadata::|^test_graphql_queries::TestGraphQLQueryFunctions/;
/** Expectations the runtime produces, not the compiler: admin-only access, duplicate root fields (500). */
const RUNTIME_ONLY = /restricted access : admin only|found duplicate fields/;

describe('conformance corpus, metadata steps', () => {
  for (const suite of manifest.suites.filter((s) => SUITES.test(s.name))) {
    for (const test of suite.tests) {
      it(`${suite.name} ${test.name}`, async () => {
        const steps: Step[] = [
          ...suite.setup.flatMap((s) => readSteps(s.file, s.endpoint)),
          ...suite.setup_each.flatMap((s) => readSteps(s.file, s.endpoint)),
          ...test.files.flatMap((f) => readSteps(f)),
        ];
        const { outcomes, sqlFailures } = await replay(steps);
        expect(outcomes.length).toBeGreaterThan(0);
        // A setup statement that fails (an extension this database lacks, say) fails the test:
        // nothing after it could be judged.
        expect(sqlFailures).toEqual([]);
        for (const { step, got } of outcomes) {
          const where = `${step.op.type} ${JSON.stringify(step.op.args)}`;
          if (step.status === null || step.status === 200) {
            expect(got, where).toBeNull();
          } else if (!RUNTIME_ONLY.test(step.response?.error ?? '')) {
            const want = { code: step.response?.code, error: step.response?.error, path: step.response?.path,
              ...(step.response?.internal ? { internal: step.response.internal } : {}) };
            expect(got, where).toEqual(want);
          }
        }
      }, 120_000);
    }
  }
});
