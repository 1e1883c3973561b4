// What an operation costs once its fragments are expanded, computed in time linear in the
// document: each fragment is measured once and its figures are multiplied through every spread.
// Planning (and Hasura's own checks) expand fragments in place, so a document whose fragments
// double at each level is tiny as text and exponential as work: this is measured before either.

import { Kind, type DirectiveNode, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode,
  type SelectionSetNode } from 'graphql';

/** The figures of one operation with its fragments expanded (counts saturate at Number.MAX_SAFE_INTEGER). */
export interface OperationCost {
  /** Every field, leaves included: what the planner walks and the database computes. */
  readonly fields: number;
  /** Fields with a selection set outside introspection: Hasura's "nodes" (node_limit). */
  readonly nodes: number;
  /** The deepest chain of fields with a selection set outside introspection: Hasura's depth (depth_limit). */
  readonly depth: number;
  /** The deepest chain of fields of any kind, introspection included: what recursion in the planner follows. */
  readonly nesting: number;
  /** Whether it reads `__schema` or `__type` (introspection may be disabled for a role). */
  readonly introspects: boolean;
}

/** Refused while measuring: nested past `maxNesting` (the walk stops there, so the stack stays small). */
export class NestingExceeded extends Error {
  constructor(readonly limit: number) {
    super(`nested deeper than ${limit}`);
  }
}

const ZERO: OperationCost = { fields: 0, nodes: 0, depth: 0, nesting: 0, introspects: false };
const MAX = Number.MAX_SAFE_INTEGER;
const INTROSPECTION = new Set(['__schema', '__type']);

const add = (a: number, b: number): number => Math.min(MAX, a + b);

// A fragment's figures are relative to where it is spread; its `nesting` is how far it reaches
// below that point, so a spread at level L reaches L + nesting.
interface Walk {
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly memo: Map<string, OperationCost>;
  // Fragments being measured: a spread of one of these is a cycle, which validation refuses later.
  readonly open: Set<string>;
  readonly maxNesting: number;
  readonly maxFrames: number;
}

/**
 * Measures an operation. `maxNesting` bounds the walk: a selection nested deeper throws
 * NestingExceeded as soon as it is reached, without walking the rest. Unknown fragments and
 * fragment cycles count as nothing (graphql-js validation reports them afterwards).
 */
export function operationCost(document: DocumentNode, operation: OperationDefinitionNode, maxNesting: number): OperationCost {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return setCost(operation.selectionSet, { fragments, memo: new Map(), open: new Set(), maxNesting, maxFrames: 4 * maxNesting + 64 }, 0, 0, false);
}

// `level`: how many fields lie above this set; `frames`: how many sets and spreads (the walk's own
// recursion, bounded too so that a long chain of spreads cannot exhaust the stack).
function setCost(set: SelectionSetNode, walk: Walk, level: number, frames: number, inIntrospection: boolean): OperationCost {
  if (level > walk.maxNesting || frames > walk.maxFrames) throw new NestingExceeded(walk.maxNesting);
  let fields = 0; let nodes = 0; let depth = 0; let nesting = 0; let introspects = false;
  const merge = (c: OperationCost): void => {
    fields = add(fields, c.fields);
    nodes = add(nodes, c.nodes);
    depth = Math.max(depth, c.depth);
    nesting = Math.max(nesting, c.nesting);
    introspects ||= c.introspects;
  };
  for (const sel of set.selections) {
    if (skipped(sel.directives)) continue;
    if (sel.kind === Kind.FIELD) {
      const introspection = inIntrospection || INTROSPECTION.has(sel.name.value);
      if (!sel.selectionSet) { merge({ fields: 1, nodes: 0, depth: 0, nesting: 1, introspects: introspection }); continue; }
      const inner = setCost(sel.selectionSet, walk, level + 1, frames + 1, introspection);
      const counted = introspection ? 0 : 1;
      merge({ fields: add(inner.fields, 1), nodes: add(inner.nodes, counted), depth: inner.depth + counted, nesting: inner.nesting + 1,
        introspects: introspection || inner.introspects });
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      merge(setCost(sel.selectionSet, walk, level, frames + 1, inIntrospection));
    } else {
      merge(fragmentCost(sel.name.value, walk, level, frames + 1, inIntrospection));
    }
  }
  return { fields, nodes, depth, nesting, introspects };
}

// A fragment spread inside introspection is measured apart (its nodes are not counted there), so
// the memo is kept per context.
function fragmentCost(name: string, walk: Walk, level: number, frames: number, inIntrospection: boolean): OperationCost {
  const key = `${inIntrospection ? 'i' : 'd'}:${name}`;
  const known = walk.memo.get(key);
  if (known) {
    if (level + known.nesting > walk.maxNesting) throw new NestingExceeded(walk.maxNesting);
    return known;
  }
  const frag = walk.fragments.get(name);
  if (!frag || walk.open.has(key)) return ZERO;
  walk.open.add(key);
  // Measured from level 0 so the memo holds the fragment's own reach; the bound is checked with the offset.
  const cost = setCost(frag.selectionSet, { ...walk, maxNesting: walk.maxNesting - level }, 0, frames, inIntrospection);
  walk.open.delete(key);
  walk.memo.set(key, cost);
  return cost;
}

// `@skip(if: true)` and `@include(if: false)` written as literals drop the selection; a variable
// may go either way, so the selection is counted (the figures are an upper bound).
function skipped(directives: readonly DirectiveNode[] | undefined): boolean {
  for (const d of directives ?? []) {
    const arg = d.arguments?.find((a) => a.name.value === 'if');
    if (arg?.value.kind !== Kind.BOOLEAN) continue;
    if (d.name.value === 'skip' && arg.value.value) return true;
    if (d.name.value === 'include' && !arg.value.value) return true;
  }
  return false;
}
