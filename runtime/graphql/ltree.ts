// ltree's operators of boolean expressions (Hasura v2 over PostgreSQL's ltree extension), and the
// check Hasura makes of an ltree value before it reaches the database: a label path is zero or
// more non-empty labels separated by dots, anything else is `parse-failed` at the value.

import { ApiError } from '../errors/index.js';
import type { CompareOp, Cond, Expr } from '../sql/index.js';

type Path = readonly (string | number)[];

// Operator -> the IR comparison and the type its operand is read as.
const OPERATORS: { readonly [op: string]: readonly [CompareOp, string] } = {
  _ancestor: ['ancestor', 'ltree'], _ancestor_any: ['ancestor_any', 'ltree[]'],
  _descendant: ['descendant', 'ltree'], _descendant_any: ['descendant_any', 'ltree[]'],
  _matches: ['matches', 'lquery'], _matches_any: ['matches_any', 'lquery[]'], _matches_fulltext: ['matches_fulltext', 'ltxtquery'],
};

/** Operators whose operand is a list. */
export const LTREE_LIST_OPS: ReadonlySet<string> = new Set(['_ancestor_any', '_descendant_any', '_matches_any']);

// Operators of an ltree column whose operand is itself an ltree (or a list of them).
const LTREE_OPERANDS = new Set(['_eq', '_neq', '_gt', '_gte', '_lt', '_lte', '_in', '_nin', '_ancestor', '_descendant', '_ancestor_any', '_descendant_any']);

/** True for the operators this file lowers. */
export function isLtreeOp(op: string): boolean {
  return OPERATORS[op] !== undefined;
}

const LABEL_PATH = 'Expecting label path: a sequence of zero or more labels separated by dots, for example L1.L2.L3';

/** Throws `parse-failed` at `path` when an operand of `op` on an ltree column is not a label path. */
export function checkLtreeOperand(op: string, value: unknown, path: Path): void {
  if (!LTREE_OPERANDS.has(op) || value === null || value === undefined) return;
  const check = (v: unknown, at: Path): void => {
    if (typeof v === 'string' && v.split('.').some((label) => label === '')) throw new ApiError('parse-failed', LABEL_PATH, 400, at);
  };
  if (Array.isArray(value)) value.forEach((v, i) => check(v, [...path, i]));
  else check(value, path);
}

/** `left <op> operand`, the operand bound by `bind` at the operator's type. */
export function ltreeCond(left: Expr, op: string, bind: (type: string) => Expr): Cond {
  const [cmp, type] = OPERATORS[op]!;
  return { kind: 'compare', left, op: cmp, right: bind(type) };
}
