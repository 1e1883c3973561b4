// `kiln diff` for actions (issue 18): an action a role may call now and could not before widens
// its access; one it lost narrows it. Admin has every action.

import type { BundleModel } from '../../runtime/bundle/index.js';

/** One role's action gained or lost. */
export interface ActionChange {
  readonly verdict: 'widened' | 'narrowed';
  readonly detail: string;
}

function callable(model: BundleModel, role: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of model.actions?.actions ?? []) {
    if (role === 'admin' || a.roles.includes(role)) out.set(a.name, `${a.type}${a.kind === 'asynchronous' ? ', asynchronous' : ''}`);
  }
  return out;
}

/** The actions `role` gained and lost between two models, sorted by name. */
export function actionChanges(before: BundleModel, after: BundleModel, role: string): ActionChange[] {
  const had = callable(before, role);
  const has = callable(after, role);
  const names = [...new Set([...had.keys(), ...has.keys()])].sort();
  return names.flatMap((n): ActionChange[] => {
    if (!had.has(n)) return [{ verdict: 'widened', detail: `added action ${n} (${has.get(n)!})` }];
    if (!has.has(n)) return [{ verdict: 'narrowed', detail: `removed action ${n} (${had.get(n)!})` }];
    return [];
  });
}
