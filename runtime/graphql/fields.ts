import { Kind, type FieldNode, type SelectionSetNode, type ValueNode } from 'graphql';
import { ApiError } from '../errors/index.js';
import { scalarOutputOf, type ScalarOutput } from '../sql/index.js';
import type { PlanContext } from './context.js';
import { astToJs, type Input } from './input.js';

/** A field of a selection set under its response key (alias or name). */
export interface FieldSel {
  readonly key: string;
  readonly name: string;
  readonly node: FieldNode;
}

/**
 * The fields a selection set selects on an object type, in document order, after fragments and
 * `@skip`/`@include`; fields under one response key are merged, as GraphQL execution does.
 */
export function collectFields(set: SelectionSetNode | undefined, typeName: string, ctx: PlanContext): FieldSel[] {
  const out = new Map<string, FieldSel>();
  // A fragment spread a second time in the same collection adds nothing (the GraphQL spec's
  // CollectFields keeps `visitedFragments`); without this, fragments that spread each other twice
  // per level (issue 15's fragment bomb) cost time exponential in their number.
  const spread = new Set<string>();
  const visit = (s: SelectionSetNode, seen: ReadonlySet<string>): void => {
    for (const sel of s.selections) {
      if (!included(sel.directives ?? [], ctx)) continue;
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        const prev = out.get(key);
        if (!prev) { out.set(key, { key, name: sel.name.value, node: sel }); continue; }
        if (prev.node.selectionSet && sel.selectionSet) {
          const merged: FieldNode = { ...prev.node, selectionSet: { kind: Kind.SELECTION_SET, selections: [...prev.node.selectionSet.selections, ...sel.selectionSet.selections] } };
          out.set(key, { ...prev, node: merged });
        }
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        if (!sel.typeCondition || sel.typeCondition.name.value === typeName) visit(sel.selectionSet, seen);
      } else {
        const name = sel.name.value;
        const frag = ctx.fragments.get(name);
        if (!frag) throw new ApiError('validation-failed', `fragment "${name}" is not defined`, 400, []);
        if (seen.has(name)) throw new ApiError('validation-failed', `cannot spread fragment "${name}" within itself`, 400, []);
        if (spread.has(name)) continue;
        spread.add(name);
        if (frag.typeCondition.name.value === typeName) visit(frag.selectionSet, new Set([...seen, name]));
      }
    }
  };
  if (set) visit(set, new Set());
  return [...out.values()];
}

function included(directives: readonly { name: { value: string }; arguments?: readonly { name: { value: string }; value: ValueNode }[] }[], ctx: PlanContext): boolean {
  for (const d of directives) {
    const arg = d.arguments?.find((a) => a.name.value === 'if');
    if (!arg) continue;
    const v = astToJs(arg.value, ctx) === true;
    if (d.name.value === 'skip' && v) return false;
    if (d.name.value === 'include' && !v) return false;
  }
  return true;
}

/** The arguments of a field as inputs. */
export function argsOf(node: FieldNode): Map<string, Input> {
  return new Map((node.arguments ?? []).map((a) => [a.name.value, { kind: 'ast', node: a.value }]));
}

/**
 * How a scalar of GraphQL type `scalar` is written into the response: numbers beyond JSON doubles
 * as strings when configured; PostGIS values as GeoJSON with 15 digits and the long CRS name
 * (`urn:ogc:def:crs:EPSG::4326`), as Hasura v2 prints them (corpus: graphql_query/computed_fields/locations).
 */
export function scalarOutput(c: { readonly scalar: string }, ctx: PlanContext): ScalarOutput {
  return scalarOutputOf(c.scalar, ctx.stringifyNumeric);
}
