// `kiln diff` orders row filters soundly: only a proven narrowing (or equivalence) is not widening.

import { describe, expect, it } from 'vitest';
import { compareFilters, implies, normalize } from '../../compiler/cli/filter-order.js';
import type { BoolIr } from '../../runtime/bundle/index.js';

const eq = (column: string, value: unknown): BoolIr => ({ kind: 'column', column, type: 'text', op: '_eq', value: { kind: 'literal', value: value as never } });
const cmp = (column: string, op: string, value: unknown): BoolIr => ({ kind: 'column', column, type: 'int4', op, value: { kind: 'literal', value: value as never } });
const mine: BoolIr = { kind: 'column', column: 'author_id', type: 'int4', op: '_eq', value: { kind: 'session', name: 'x-svc-user-id' } };
const and = (...items: BoolIr[]): BoolIr => ({ kind: 'and', items });
const or = (...items: BoolIr[]): BoolIr => ({ kind: 'or', items });
const TRUE: BoolIr = { kind: 'true' };
const rel = (where: BoolIr): BoolIr => ({ kind: 'relationship', target: 'default:public.author', mapping: [['author_id', 'id']], where });

describe('comparing row filters', () => {
  it('a filter that became true is widened, and the reverse narrowed', () => {
    expect(compareFilters(mine, TRUE)).toBe('widened');
    expect(compareFilters(TRUE, mine)).toBe('narrowed');
  });

  it('an OR that gained a branch is widened; one that lost a branch is narrowed', () => {
    expect(compareFilters(or(mine, eq('status', 'published')), or(mine, eq('status', 'published'), eq('status', 'draft')))).toBe('widened');
    expect(compareFilters(or(mine, eq('status', 'published')), mine)).toBe('narrowed');
  });

  it('an AND that lost a conjunct is widened; one that gained a conjunct is narrowed', () => {
    expect(compareFilters(and(mine, eq('status', 'draft')), mine)).toBe('widened');
    expect(compareFilters(mine, and(mine, eq('status', 'draft')))).toBe('narrowed');
  });

  it('a different condition that is neither wider nor narrower is changed (possibly widened)', () => {
    expect(compareFilters(eq('status', 'published'), eq('status', 'draft'))).toBe('changed');
    expect(compareFilters(mine, { ...mine, value: { kind: 'session', name: 'x-svc-org-id' } })).toBe('changed');
    // A session value swapped for a client variable is never taken as the same.
    expect(compareFilters(mine, { ...mine, value: { kind: 'variable', name: 'id', path: [] } })).toBe('changed');
  });

  it('reordered or regrouped conditions are equivalent, identical ones the same', () => {
    expect(compareFilters(and(mine, eq('status', 'a')), and(eq('status', 'a'), mine))).toBe('equivalent');
    expect(compareFilters(and(mine, and(eq('a', 1), eq('b', 2))), and(and(mine, eq('a', 1)), eq('b', 2)))).toBe('equivalent');
    expect(compareFilters(mine, mine)).toBe('same');
  });

  it('reads through relationships and NOT', () => {
    expect(compareFilters(rel(eq('is_public', true)), rel(TRUE))).toBe('widened');
    expect(compareFilters(rel(TRUE), rel(eq('is_public', true)))).toBe('narrowed');
    expect(compareFilters({ kind: 'not', item: eq('status', 'draft') }, { kind: 'not', item: or(eq('status', 'draft'), eq('status', 'x')) })).toBe('narrowed');
  });

  it('compares value sets and numeric bounds of one column', () => {
    const inList = (...v: unknown[]): BoolIr => ({ kind: 'column', column: 'status', type: 'text', op: '_in', value: { kind: 'literal', value: v as never } });
    expect(compareFilters(inList('a', 'b'), inList('a', 'b', 'c'))).toBe('widened');
    expect(compareFilters(inList('a', 'b'), eq('status', 'a'))).toBe('narrowed');
    expect(compareFilters(cmp('rating', '_gt', 3), cmp('rating', '_gt', 1))).toBe('widened');
    expect(compareFilters(cmp('rating', '_gte', 3), cmp('rating', '_gt', 3))).toBe('narrowed');
    expect(compareFilters(cmp('rating', '_lt', 3), cmp('rating', '_lte', 3))).toBe('widened');
    expect(compareFilters(cmp('rating', '_gt', 3), cmp('rating', '_lt', 3))).toBe('changed');
  });

  it('treats a comparison with null as no condition, as the runtime lowers it', () => {
    expect(normalize(eq('status', null))).toEqual(TRUE);
    expect(compareFilters(and(eq('status', null), mine), mine)).toBe('equivalent');
    expect(implies(or(), mine)).toBe(true);
  });
});
