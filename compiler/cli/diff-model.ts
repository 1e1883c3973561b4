// `kiln diff`: what each role may do in the new bundle compared with the old one, read from the
// two models (engine.mjs). Every change says whether it widens access; a filter change that is
// not proven narrower counts as widening.

import type { BoolIr, BundleModel, PresetValue, RootField, MutationRootField, TableId } from '../../runtime/bundle/index.js';
import { filterText, tableLabel } from '../emit/index.js';
import { actionChanges } from './diff-actions.js';
import { compareFilters, stable } from './filter-order.js';

export type Verdict = 'widened' | 'narrowed' | 'changed, possibly widened' | 'renamed' | 'equivalent';
export type Operation = 'select' | 'insert' | 'update' | 'delete';

/** One difference in one role's access. */
export interface AccessChange {
  readonly role: string;
  readonly table: string | null;
  readonly operation: Operation | null;
  readonly aspect: 'role' | 'root field' | 'action' | 'remote field' | 'permission' | 'columns' | 'computed fields' | 'filter' | 'check' | 'limit' | 'aggregations' | 'presets' | 'backend only';
  readonly verdict: Verdict;
  readonly detail: string;
  /** Old and new predicate, for filter and check changes. */
  readonly before?: string;
  readonly after?: string;
}

/** True when the change may let the role see or write more. */
export function widens(c: AccessChange): boolean {
  return c.verdict === 'widened' || c.verdict === 'changed, possibly widened';
}

interface Side {
  readonly model: BundleModel;
  readonly role: string;
}

/** Every access change of every role, roles sorted, then root fields, then tables in id order. */
export function diffModels(before: BundleModel, after: BundleModel): AccessChange[] {
  const out: AccessChange[] = [];
  for (const role of [...new Set([...before.roles, ...after.roles])].sort()) {
    const had = before.roles.includes(role);
    const has = after.roles.includes(role);
    const push = (c: Omit<AccessChange, 'role'>): void => { out.push({ role, ...c }); };
    if (!has) { push({ table: null, operation: null, aspect: 'role', verdict: 'narrowed', detail: 'role removed' }); continue; }
    if (!had) push({ table: null, operation: null, aspect: 'role', verdict: 'widened', detail: 'role added' });
    rootFields({ model: before, role }, { model: after, role }, push);
    for (const c of actionChanges(before, after, role)) push({ table: null, operation: null, aspect: 'action', ...c });
    for (const id of tableIds(before, after, role)) tableChanges(id, { model: before, role }, { model: after, role }, push);
  }
  return out;
}

type Push = (c: Omit<AccessChange, 'role'>) => void;
type TablePush = (c: Omit<AccessChange, 'role' | 'table' | 'operation'>) => void;

function tableIds(a: BundleModel, b: BundleModel, role: string): TableId[] {
  const ids = [a, b].flatMap((m) => [...Object.keys(m.select[role] ?? {}), ...Object.keys(m.mutations?.[role] ?? {})]);
  return [...new Set(ids)].sort();
}

function rootDefs(s: Side): Map<string, string> {
  const r = s.model.roots[s.role];
  const out = new Map<string, string>();
  if (!r) return out;
  const add = (kind: string, fields: { readonly [f: string]: RootField | MutationRootField | TableId } | undefined): void => {
    for (const [f, def] of Object.entries(fields ?? {})) out.set(`${kind}.${f}`, stable(typeof def === 'string' ? { kind: 'stream', table: def } : def));
  };
  add('query', r.query);
  add('mutation', r.mutation);
  add('subscription', r.subscription);
  add('subscription', r.stream);
  return out;
}

// A field gone and one come with the same definition is a rename; any other new field is a new way in.
function rootFields(a: Side, b: Side, push: Push): void {
  const before = rootDefs(a);
  const after = rootDefs(b);
  const gone = [...before].filter(([f]) => !after.has(f));
  const come = [...after].filter(([f]) => !before.has(f));
  const describe = (s: Side, f: string, def: string): string => {
    const d = JSON.parse(def) as { kind: string; table: TableId };
    return `${f} (${d.kind} on ${tableLabel(s.model, d.table)})`;
  };
  for (const [f, def] of come) {
    const k = gone.findIndex(([g, d]) => d === def && g.split('.')[0] === f.split('.')[0]);
    if (k >= 0) {
      push({ table: null, operation: null, aspect: 'root field', verdict: 'renamed', detail: `${gone[k]![0]} renamed to ${describe(b, f, def)}` });
      gone.splice(k, 1);
    } else {
      push({ table: null, operation: null, aspect: 'root field', verdict: 'widened', detail: `added ${describe(b, f, def)}` });
    }
  }
  for (const [f, def] of gone) push({ table: null, operation: null, aspect: 'root field', verdict: 'narrowed', detail: `removed ${describe(a, f, def)}` });
}

function tableChanges(id: TableId, a: Side, b: Side, push: Push): void {
  const table = tableLabel(b.model.tables[id] ? b.model : a.model, id);
  const sel = (s: Side) => s.model.select[s.role]?.[id];
  const mut = (s: Side) => s.model.mutations?.[s.role]?.[id];
  const at = (operation: Operation): TablePush => (c) => push({ ...c, table, operation });
  const ctx = { id, a, b };
  comparePermission(ctx, 'select', sel(a), sel(b), at('select'), (p) => ({
    columns: p.columns, computed: p.computedFields, filter: p.filter, limit: p.limit, aggregations: p.allowAggregations }));
  comparePermission(ctx, 'insert', mut(a)?.insert, mut(b)?.insert, at('insert'), (p) => ({ columns: p.columns, check: p.check, set: p.set, backendOnly: p.backendOnly }));
  comparePermission(ctx, 'update', mut(a)?.update, mut(b)?.update, at('update'), (p) => ({
    columns: p.columns, filter: p.filter, check: p.check, set: p.set, backendOnly: p.backendOnly }));
  comparePermission(ctx, 'delete', mut(a)?.delete, mut(b)?.delete, at('delete'), (p) => ({ filter: p.filter, backendOnly: p.backendOnly }));
}

/** The parts of a permission the diff compares; absent parts do not exist for that operation. */
interface Parts {
  readonly columns?: readonly string[];
  readonly computed?: readonly string[];
  readonly filter?: BoolIr;
  readonly check?: BoolIr;
  readonly limit?: number | null;
  readonly aggregations?: boolean;
  readonly set?: { readonly [column: string]: PresetValue };
  readonly backendOnly?: boolean;
}

interface Ctx {
  readonly id: TableId;
  readonly a: Side;
  readonly b: Side;
}

function comparePermission<P>(ctx: Ctx, op: Operation, before: P | undefined, after: P | undefined, push: TablePush, parts: (p: P) => Parts): void {
  if (!before && !after) return;
  if (!after) { push({ aspect: 'permission', verdict: 'narrowed', detail: `${op} permission revoked` }); return; }
  const n = parts(after);
  if (!before) { push({ aspect: 'permission', verdict: 'widened', detail: `${op} permission granted: ${summary(ctx.b.model, ctx.id, n)}` }); return; }
  const o = parts(before);
  setChange(o.columns, n.columns, 'columns', push);
  setChange(o.computed, n.computed, 'computed fields', push);
  if (o.filter && n.filter) predicateChange(ctx, o.filter, n.filter, 'filter', push);
  if (o.check && n.check) predicateChange(ctx, o.check, n.check, 'check', push);
  if (o.limit !== n.limit) {
    const up = n.limit === null || (o.limit !== null && o.limit !== undefined && n.limit !== undefined && n.limit > o.limit);
    push({ aspect: 'limit', verdict: up ? 'widened' : 'narrowed', detail: `limit ${o.limit ?? 'none'} -> ${n.limit ?? 'none'}` });
  }
  if (o.aggregations !== n.aggregations) {
    push({ aspect: 'aggregations', verdict: n.aggregations ? 'widened' : 'narrowed', detail: n.aggregations ? 'aggregations allowed' : 'aggregations no longer allowed' });
  }
  if (o.set && n.set) presetChange(o.set, n.set, push);
  if (o.backendOnly !== n.backendOnly) {
    push({ aspect: 'backend only', verdict: n.backendOnly ? 'narrowed' : 'widened', detail: n.backendOnly ? 'now backend only' : 'no longer backend only' });
  }
}

function summary(model: BundleModel, id: TableId, p: Parts): string {
  const parts: string[] = [];
  if (p.columns) parts.push(`columns ${p.columns.join(', ') || '(none)'}`);
  if (p.computed?.length) parts.push(`computed fields ${p.computed.join(', ')}`);
  if (p.filter) parts.push(`filter ${filterText(model, id, p.filter)}`);
  if (p.check) parts.push(`check ${filterText(model, id, p.check)}`);
  if (p.limit !== undefined && p.limit !== null) parts.push(`limit ${p.limit}`);
  if (p.aggregations) parts.push('aggregations');
  if (p.set && Object.keys(p.set).length) parts.push(`presets ${Object.keys(p.set).join(', ')}`);
  if (p.backendOnly) parts.push('backend only');
  return parts.join('; ');
}

function setChange(o: readonly string[] | undefined, n: readonly string[] | undefined, aspect: 'columns' | 'computed fields', push: TablePush): void {
  if (!o || !n) return;
  const added = n.filter((c) => !o.includes(c));
  const removed = o.filter((c) => !n.includes(c));
  if (added.length) push({ aspect, verdict: 'widened', detail: `${aspect} added: ${added.join(', ')}` });
  if (removed.length) push({ aspect, verdict: 'narrowed', detail: `${aspect} removed: ${removed.join(', ')}` });
}

function predicateChange(ctx: Ctx, o: BoolIr, n: BoolIr, aspect: 'filter' | 'check', push: TablePush): void {
  const change = compareFilters(o, n);
  if (change === 'same') return;
  const verdict: Verdict = change === 'changed' ? 'changed, possibly widened' : change;
  const before = filterText(ctx.a.model, ctx.id, o);
  const after = filterText(ctx.b.model, ctx.id, n);
  push({ aspect, verdict, detail: `${aspect} ${verdict}`, before, after });
}

// A new preset fixes a column the client gave; a preset dropped or changed writes other values.
function presetChange(o: { readonly [c: string]: PresetValue }, n: { readonly [c: string]: PresetValue }, push: TablePush): void {
  for (const c of [...new Set([...Object.keys(o), ...Object.keys(n)])].sort()) {
    const x = o[c];
    const y = n[c];
    if (x && y && stable(x) === stable(y)) continue;
    const show = (p: PresetValue | undefined): string => (!p ? 'none' : p.kind === 'session' ? p.name : JSON.stringify(p.value));
    push({ aspect: 'presets', verdict: x ? 'changed, possibly widened' : 'narrowed', detail: `preset ${c}: ${show(x)} -> ${show(y)}` });
  }
}
