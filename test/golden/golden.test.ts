// Golden files: the SQL every root field runs for every role, and each role's schema, compiled
// from fixtures/<fixture>/ with its committed introspection snapshot. Review diffs like code;
// update only on purpose with `npx vitest run test/golden -u`.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileFixture } from '../helpers/fixtures.js';
import { expectNoOrphanGoldens } from '../helpers/goldens.js';
import { sessionVariablesOf } from '../../compiler/model/index.js';
import type { BoolIr } from '../../runtime/bundle/index.js';

function literalsOf(ir: BoolIr): unknown[] {
  switch (ir.kind) {
    case 'and': case 'or': return ir.items.flatMap(literalsOf);
    case 'not': return literalsOf(ir.item);
    case 'relationship': case 'exists': return literalsOf(ir.where);
    case 'column': case 'computed': return ir.value.kind === 'literal' && ir.op !== '_is_null' ? [ir.value.value] : [];
    default: return [];
  }
}

for (const fixture of ['blog', 'chinook']) {
  describe(`golden ${fixture}`, async () => {
    const bundle = await compileFixture(fixture);

    it('resolves with no inconsistent object', () => {
      expect(bundle.inconsistencies).toEqual([]);
    });

    const goldens = new Map<string, string>();
    for (const [path, content] of bundle.files) {
      if (!path.startsWith('sql/') && !path.startsWith('schema/')) continue;
      goldens.set(path.startsWith('sql/') ? path.slice('sql/'.length) : path, content);
    }
    for (const [golden, content] of goldens) {
      it(golden, async () => {
        await expect(content).toMatchFileSnapshot(join('postgres', fixture, golden));
      });
    }

    it('keeps no golden file the compiler no longer produces', () => {
      expectNoOrphanGoldens(join(import.meta.dirname, 'postgres', fixture), goldens.keys());
    });

    it('every non-admin select file binds its role\'s session variables and filter constants', () => {
      for (const role of bundle.model.roles.filter((r) => r !== 'admin')) {
        for (const [table, perm] of Object.entries(bundle.model.select[role]!)) {
          const roots = Object.entries(bundle.model.roots[role]!.query).filter(([, r]) => r.table === table && r.kind === 'select');
          for (const [field] of roots) {
            const header = bundle.files.get(`sql/${role}/${field}.sql`)!.split('\n').filter((l) => l.startsWith('-- $'));
            for (const name of sessionVariablesOf(perm.filter)) expect(header.some((l) => l.includes(`session ${name}`)), `${role}/${field} ${name}`).toBe(true);
            for (const value of literalsOf(perm.filter)) expect(header.some((l) => l.includes(`constant ${JSON.stringify(value)}`)), `${role}/${field} ${JSON.stringify(value)}`).toBe(true);
            if (perm.limit !== null) expect(header.some((l) => l.includes(`constant ${perm.limit}`)), `${role}/${field} limit`).toBe(true);
          }
        }
      }
    });
  });
}
