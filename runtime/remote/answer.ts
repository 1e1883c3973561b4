// Running the remote parts of a split operation and merging their answers with the SQL part's:
// the `data` object in the order the client asked its root fields, remote errors after it.

import type { Session } from '../bundle/index.js';
import { callRemote, stepVariables, type RemoteAnswer } from './call.js';
import type { ClientHeaders } from './http.js';
import { presetValues } from './presets.js';
import type { RemotePart, SplitOperation } from './split.js';

/**
 * Runs every remote call of a split operation at once. The remotes' Set-Cookie values go to
 * `cookies` (the HTTP response sends them on, as Hasura's mkSetCookieHeaders keeps them).
 */
export function runRemoteParts(split: SplitOperation, variables: { readonly [k: string]: unknown }, session: Session,
  client: ClientHeaders | null, operationName: string | null, cookies?: string[]): Promise<RemoteAnswer[]> {
  const valuesOf = (p: RemotePart): Record<string, unknown> => {
    const values = stepVariables(p.step, variables, session);
    return p.presets && p.view.presets ? presetValues(p.presets, p.view.schema, p.view.presets, values, session) : values;
  };
  // A namespace's `__typename` is the engine's to answer (Hasura's namespace parser): no call for it alone.
  const call = (p: RemotePart): Promise<RemoteAnswer> => (p.noCall ? Promise.resolve({ data: {}, errors: [] })
    : callRemote(p.view.def, p.step, valuesOf(p), session, client, operationName, cookies));
  return Promise.all(split.remotes.map((p) => call(p)
    .then((a) => (p.renamesTypenames ? clientTypenames(a, p) : a))
    .then((a) => (p.namespaces ? wrapNamespaces(a, p) : a))));
}

// The remote's root fields put back under the namespace fields the client asked.
function wrapNamespaces(a: RemoteAnswer, p: RemotePart): RemoteAnswer {
  const data: Record<string, unknown> = {};
  for (const ns of p.namespaces!) {
    data[ns.key] = a.data === null ? null
      : Object.fromEntries(ns.fields.map(([k, alias]) => [k, alias === null ? ns.typeName : a.data![alias] ?? null]));
  }
  const errors = a.errors.map((e) => {
    const path = (e as { path?: unknown }).path;
    if (!Array.isArray(path) || typeof path[0] !== 'string') return e;
    const ns = p.namespaces!.find((n) => n.fields.some(([, alias]) => alias === path[0]));
    const sub = ns?.fields.find(([, alias]) => alias === path[0]);
    return ns && sub ? { ...(e as object), path: [ns.key, sub[0], ...path.slice(1)] } : e;
  });
  return { data, errors };
}

/** The response text: the SQL part's root fields and each remote's, in `keys` order, then the remote errors. */
export function mergeAnswers(split: SplitOperation, local: { readonly [key: string]: unknown } | null, answers: readonly RemoteAnswer[]): string {
  const data: Record<string, unknown> = {};
  const owner = new Map<string, number>();
  split.remotes.forEach((p, i) => { for (const k of p.keys) owner.set(k, i); });
  // A key no part answered was skipped (`@skip`/`@include`): it stays out, as in any response.
  for (const k of split.keys) {
    const i = owner.get(k);
    const from = i === undefined ? local : answers[i]?.data ?? null;
    if (from === null) data[k] = null;
    else if (Object.hasOwn(from, k)) data[k] = from[k];
  }
  const errors = answers.flatMap((a) => a.errors);
  return errors.length > 0 ? JSON.stringify({ data, errors }) : JSON.stringify({ data });
}

// `__typename` values come back in the remote's type names: written back in the client's.
function clientTypenames(a: RemoteAnswer, p: RemotePart): RemoteAnswer {
  const r = p.view.renaming;
  const fix = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(fix);
    if (v === null || typeof v !== 'object') return v;
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = p.typenameKeys.has(k) && typeof x === 'string' ? r.typeToClient(x) : fix(x);
    return o;
  };
  return { data: a.data === null ? null : fix(a.data) as Record<string, unknown>, errors: a.errors };
}
