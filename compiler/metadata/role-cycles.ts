// Inherited roles may not form a cycle: Hasura orders every role before its children to build
// their permissions (RQL/DDL/Schema/Cache/Permission.hs, orderRoles) and refuses a document where
// that is impossible, whatever allow_inconsistent_metadata says: 400 `cyclic-dependency`,
// `found cycle(s) in roles: ["a","b","a"]`, each cycle written from its first role back to it.

import { ApiError } from '../../runtime/errors/index.js';

/** An entry of `inherited_roles`: the role and its parents (`role_set`). */
export interface InheritedRole {
  readonly name: string;
  readonly parents: readonly string[];
}

/** The well-formed entries of `inherited_roles` (raw metadata JSON); the others are left out. */
export function inheritedRoles(list: readonly unknown[] | undefined): InheritedRole[] {
  const out: InheritedRole[] = [];
  for (const r of list ?? []) {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) continue;
    const o = r as Record<string, unknown>;
    if (typeof o['role_name'] !== 'string' || !Array.isArray(o['role_set'])) continue;
    out.push({ name: o['role_name'], parents: o['role_set'].filter((x): x is string => typeof x === 'string') });
  }
  return out;
}

/**
 * The cycles among `inherited_roles` (raw metadata entries): one per strongly connected group of
 * roles that reach themselves through their parents, written from the group's smallest name along
 * the parents in their order and ending with that name again. Empty when there is none.
 */
export function inheritedRoleCycles(list: readonly unknown[] | undefined): string[][] {
  const nodes = new Map(inheritedRoles(list).map((n) => [n.name, n]));
  const edges = (name: string): string[] => (nodes.get(name)?.parents ?? []).filter((p) => nodes.has(p));
  // Tarjan's strongly connected components, iteratively (a long chain of roles must not overflow the stack).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  for (const start of [...nodes.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { name: string; edge: number }[] = [{ name: start, edge: 0 }];
    index.set(start, next); low.set(start, next); next++;
    stack.push(start); onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const out = edges(top.name);
      if (top.edge < out.length) {
        const to = out[top.edge++]!;
        if (!index.has(to)) {
          index.set(to, next); low.set(to, next); next++;
          stack.push(to); onStack.add(to);
          work.push({ name: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(top.name, Math.min(low.get(top.name)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.name;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.name)!));
      }
      if (low.get(top.name) !== index.get(top.name)) continue;
      const group: string[] = [];
      for (let n = stack.pop()!; ; n = stack.pop()!) {
        onStack.delete(n);
        group.push(n);
        if (n === top.name) break;
      }
      if (group.length > 1 || edges(top.name).includes(top.name)) groups.push(group);
    }
  }
  return groups.map((group) => walk(group, edges)).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
}

// The group's roles from its smallest name, depth first along the parents (in their order) within
// the group, and that name again at the end.
function walk(group: readonly string[], edges: (name: string) => string[]): string[] {
  const members = new Set(group);
  const first = [...group].sort()[0]!;
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (start: string): void => {
    const todo = [start];
    while (todo.length > 0) {
      const n = todo.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      order.push(n);
      // Pushed in reverse so the first parent is visited first.
      for (const p of edges(n).filter((x) => members.has(x) && !seen.has(x)).reverse()) todo.push(p);
    }
  };
  visit(first);
  return [...order, first];
}

/** Hasura's refusal of a document whose inherited roles form cycles; undefined when they form none. */
export function roleCycleError(list: readonly unknown[] | undefined): ApiError | undefined {
  const cycles = inheritedRoleCycles(list);
  if (cycles.length === 0) return undefined;
  return new ApiError('cyclic-dependency', `found cycle(s) in roles: ${cycles.map((c) => JSON.stringify(c)).join(', ')}`, 400, []);
}
