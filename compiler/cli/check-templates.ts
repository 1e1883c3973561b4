// `kiln check`, part (d): the permission templates engine.mjs serves are the role's predicates.
// The runtime completes the templates without reading the predicates again, so a template that
// says less than the metadata (edited, or written by another compiler) would go unseen by the proofs
// that compare plans with templates: each is compiled again from the model's predicate and compared.

import { PERMISSION_RULES, type BundleModel } from '../../runtime/bundle/index.js';
import { templateText } from '../../runtime/sql/index.js';
import { compileTemplates } from '../sql/index.js';
import { tableLabel } from '../emit/index.js';

/** Templates compared, and each one that is not its predicate compiled again. */
export interface TemplateProof {
  readonly checked: number;
  readonly problems: readonly string[];
}

/** Compares every role's templates in `model` with those its predicates compile to. */
export function checkTemplates(model: BundleModel): TemplateProof {
  const problems: string[] = [];
  let checked = 0;
  if (!model.templates) return { checked, problems: ['engine.mjs carries no permission templates (a bundle compiled before them: compile it again)'] };
  const expected = compileTemplates(model);
  const roles = new Set([...Object.keys(expected.roles), ...Object.keys(model.templates.roles)]);
  for (const role of [...roles].sort()) {
    const want = expected.roles[role] ?? {};
    const have = model.templates.roles[role] ?? {};
    for (const table of [...new Set([...Object.keys(want), ...Object.keys(have)])].sort()) {
      for (const rule of PERMISSION_RULES) {
        const w = want[table]?.[rule];
        const h = have[table]?.[rule];
        if (w === undefined && h === undefined) continue;
        checked++;
        if (JSON.stringify(w) === JSON.stringify(h)) continue;
        const shown = (t: typeof w): string => (t === undefined ? 'none' : t === null ? 'every row' : templateText(t));
        problems.push(`role ${role}, ${tableLabel(model, table)}, ${rule}: engine.mjs has ${shown(h)}; the permission compiles to ${shown(w)}`);
      }
    }
  }
  return { checked, problems };
}
