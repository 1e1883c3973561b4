// `kiln check`, part (d): the permission templates engine.mjs serves are the role's predicates, its
// root field templates the role's source, filter, columns, row limit and aggregation switch, and its
// mutation root field templates the role's written table, columns, presets, checks and filters.
// The runtime completes the templates without reading the predicates again, so a template that
// says less than the metadata (edited, or written by another compiler) would go unseen by the proofs
// that compare plans with templates: each is compiled again from the model's predicate and compared.

import { PERMISSION_RULES, type BundleModel, type MutationTemplate, type RootTemplate } from '../../runtime/bundle/index.js';
import { templateText } from '../../runtime/sql/index.js';
import { compileMutationTemplates, compileRootTemplates, compileTemplates } from '../sql/index.js';
import { mutationTemplateLines, rootTemplateLines, tableLabel } from '../emit/index.js';

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
  checked += checkRootTemplates(model, { ...model, templates: expected }, problems);
  checked += checkMutationTemplates(model, { ...model, templates: expected }, problems);
  return { checked, problems };
}

// The root field templates the runtime completes (source, filter, columns, row limit, aggregation
// switch), each compared with the one the permissions compile to; the number compared.
function checkRootTemplates(model: BundleModel, recompiled: BundleModel, problems: string[]): number {
  return compareTemplates(compileRootTemplates(recompiled)?.roles ?? {}, model.rootTemplates?.roles ?? {}, 'root field',
    (t: RootTemplate) => rootTemplateLines(t).join('; '), problems);
}

// The mutation root field templates the mutation planners complete (written table, columns,
// presets, checks and filters, returning), each compared with the one the permissions compile to.
function checkMutationTemplates(model: BundleModel, recompiled: BundleModel, problems: string[]): number {
  return compareTemplates(compileMutationTemplates(recompiled)?.roles ?? {}, model.mutationTemplates?.roles ?? {}, 'mutation root field',
    (t: MutationTemplate) => mutationTemplateLines(t).join('; '), problems);
}

type TemplatesByRole<T> = { readonly [role: string]: { readonly [field: string]: T } };

// Every role's and field's template in `have` (engine.mjs) against `expected` (recompiled), a
// problem named per difference; the number compared.
function compareTemplates<T>(expected: TemplatesByRole<T>, have: TemplatesByRole<T>, kind: string, lines: (t: T) => string, problems: string[]): number {
  let checked = 0;
  const shown = (t: T | undefined): string => (t === undefined ? 'none' : lines(t));
  for (const role of [...new Set([...Object.keys(expected), ...Object.keys(have)])].sort()) {
    const want = expected[role] ?? {};
    const got = have[role] ?? {};
    for (const field of [...new Set([...Object.keys(want), ...Object.keys(got)])].sort()) {
      checked++;
      if (JSON.stringify(want[field]) === JSON.stringify(got[field])) continue;
      problems.push(`role ${role}, ${kind} ${field}: engine.mjs has ${shown(got[field])}; the permission compiles to ${shown(want[field])}`);
    }
  }
  return checked;
}
