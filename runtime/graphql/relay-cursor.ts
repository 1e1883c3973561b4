// Relay connection cursors (runtime/graphql/relay.ts): a connection's order (`order_by`, then the
// key's columns), a cursor's columns read back, and the rows past a cursor as a condition in the
// role's ordinary `where` (a keyset: by the first column whose value differs from the cursor's).

import { Kind, type ValueNode } from 'graphql';
import { ApiError } from '../errors/index.js';

/** A GraphQL name node. */
export const nameNode = (value: string) => ({ kind: Kind.NAME, value } as const);

/** A JSON value (a cursor's, a node id's) as a GraphQL literal. */
export function literal(v: unknown): ValueNode {
  if (v === null || v === undefined) return { kind: Kind.NULL };
  if (typeof v === 'number') return Number.isInteger(v) ? { kind: Kind.INT, value: String(v) } : { kind: Kind.FLOAT, value: String(v) };
  if (typeof v === 'boolean') return { kind: Kind.BOOLEAN, value: v };
  return { kind: Kind.STRING, value: String(v) };
}

// An order direction read the other way round (`last` reads the order backwards).
const FLIP: { readonly [dir: string]: string } = {
  asc: 'desc', desc: 'asc', asc_nulls_first: 'desc_nulls_last', desc_nulls_last: 'asc_nulls_first',
  asc_nulls_last: 'desc_nulls_first', desc_nulls_first: 'asc_nulls_last',
};

/** An order_by value (variables read) as a literal, its directions flipped when `flip`. */
export function orderNode(v: unknown, flip: boolean): ValueNode {
  if (Array.isArray(v)) return { kind: Kind.LIST, values: v.map((x) => orderNode(x, flip)) };
  if (v !== null && typeof v === 'object') {
    return { kind: Kind.OBJECT, fields: Object.entries(v).map(([k, x]) => ({ kind: Kind.OBJECT_FIELD, name: nameNode(k), value: orderNode(x, flip) })) };
  }
  if (typeof v === 'string') return { kind: Kind.ENUM, value: flip ? FLIP[v] ?? v : v };
  return literal(v);
}

/** A column of a connection's order, as cursors carry it: the user's order_by columns, then the key's. */
export interface OrderKey {
  readonly column: string;
  readonly field: string;
  readonly dir: string;
  readonly nullable: boolean;
}

/** A GraphQL object literal of the given fields, in order. */
export const object = (fields: readonly [string, ValueNode][]): ValueNode =>
  ({ kind: Kind.OBJECT, fields: fields.map(([k, v]) => ({ kind: Kind.OBJECT_FIELD, name: nameNode(k), value: v })) });
const compare = (field: string, op: string, v: ValueNode): ValueNode => object([[field, object([[op, v]])]]);
/** Every one of the conditions (`_and`; one alone as it is). */
export const allOf = (items: readonly ValueNode[]): ValueNode => (items.length === 1 ? items[0]! : object([['_and', { kind: Kind.LIST, values: items }]]));
/** Any one of the conditions (`_or`; one alone as it is). */
const anyOf = (items: readonly ValueNode[]): ValueNode => (items.length === 1 ? items[0]! : object([['_or', { kind: Kind.LIST, values: items }]]));

// Rows that come after a key's value `v` in direction `dir` (null: none do). PostgreSQL puts nulls
// last in ascending order and first in descending order unless told otherwise.
function beyond(k: OrderKey, dir: string, v: unknown): ValueNode | null {
  const nullsLast = dir === 'asc' || dir === 'asc_nulls_last' || dir === 'desc_nulls_last';
  const op = dir.startsWith('asc') ? '_gt' : '_lt';
  if (v === null) return nullsLast ? null : compare(k.field, '_is_null', { kind: Kind.BOOLEAN, value: false });
  const past = compare(k.field, op, literal(v));
  return nullsLast && k.nullable ? anyOf([past, compare(k.field, '_is_null', { kind: Kind.BOOLEAN, value: true })]) : past;
}

/**
 * The rows after (`before`: before) a cursor in the connection's order, by the first key whose value
 * differs from the cursor's (null: no row).
 */
export function pastCursor(keys: readonly OrderKey[], values: readonly unknown[], before: boolean): ValueNode | null {
  const ways: ValueNode[] = [];
  for (const [i, k] of keys.entries()) {
    const next = beyond(k, before ? FLIP[k.dir] ?? k.dir : k.dir, values[i]);
    if (next === null) continue;
    const ties = keys.slice(0, i).map((e, j) => (values[j] === null ? compare(e.field, '_is_null', { kind: Kind.BOOLEAN, value: true }) : compare(e.field, '_eq', literal(values[j]))));
    ways.push(allOf([...ties, next]));
  }
  return ways.length === 0 ? null : anyOf(ways);
}

/** The JSON object of a cursor; anything else is refused (validation-failed, at the argument). */
export function decodeCursor(cursor: string, path: (string | number)[]): { readonly [k: string]: unknown } {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as unknown;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as { readonly [k: string]: unknown };
  } catch { /* reported below */ }
  throw new ApiError('validation-failed', 'the cursor is invalid', 400, path);
}
