// The order of a Relay connection as its cursors carry it (runtime/graphql/relay.ts): each order_by
// item a key, as Hasura's mkCursorExp (Backends/Postgres/Translate/Select.hs) writes it into a
// cursor: a column under its name, an object relationship's items under the relationship's name,
// an array relationship's aggregate under `<rel>_aggregate` (`{"count" : n}`, `{"<op>" :
// {"<column>" : v}}`); then the key's columns the order does not name. A key on a relationship or
// an aggregate is read beside each row; rows past such a cursor are found by comparing keys in
// the connection's order as PostgreSQL sorts them (relay.ts reads the whole order then).

import { Kind, type FieldNode, type SelectionNode } from 'graphql';
import type { BundleModel, TableModel } from '../bundle/index.js';
import { nameNode } from './relay-cursor.js';

/** One key of a connection's order. */
export interface CursorKey {
  /** Where the cursor holds the value: a column's name, or a relationship's then the nested keys. */
  readonly path: readonly string[];
  readonly dir: string;
  readonly nullable: boolean;
  /** A plain column: its GraphQL field (compared in `where`); null for a key on a relationship or an aggregate. */
  readonly field: string | null;
  /** The selection reading the value beside the row (under an alias), and the path of the value in its answer. */
  readonly select: (alias: string) => FieldNode;
  readonly read: readonly string[];
}

const field = (name: string, alias: string | null, selections: readonly SelectionNode[] | null): FieldNode => ({
  kind: Kind.FIELD, name: nameNode(name), ...(alias ? { alias: nameNode(alias) } : {}), arguments: [],
  ...(selections ? { selectionSet: { kind: Kind.SELECTION_SET, selections } } : {}),
});

/** The keys of an order_by value (a list of objects, variables read) on a table; the key's columns are added by the caller. */
export function orderKeys(model: BundleModel, t: TableModel, items: readonly unknown[]): CursorKey[] {
  const keys: CursorKey[] = [];
  for (const item of items) keys.push(...itemKeys(model, t, (item ?? {}) as { readonly [k: string]: unknown }));
  return keys;
}

function itemKeys(model: BundleModel, t: TableModel, item: { readonly [k: string]: unknown }): CursorKey[] {
  const out: CursorKey[] = [];
  for (const [name, value] of Object.entries(item)) {
    if (value === null || value === undefined) continue;
    const column = t.columns.find((c) => c.field === name);
    if (column && typeof value === 'string') {
      out.push({ path: [column.name], dir: value, nullable: column.nullable, field: name, select: (alias) => field(name, alias, null), read: [] });
      continue;
    }
    const rel = t.relationships.find((r) => r.name === name && r.kind === 'object');
    const target = rel ? model.tables[rel.target] : undefined;
    if (rel && target && typeof value === 'object') {
      for (const k of itemKeys(model, target, value as { readonly [k: string]: unknown })) {
        out.push({ ...k, path: [rel.name, ...k.path], nullable: true, field: null, select: (alias) => field(rel.name, alias, [k.select(nameNode('v').value)]), read: ['v', ...k.read] });
      }
      continue;
    }
    const agg = t.relationships.find((r) => r.kind === 'array' && `${r.name}_aggregate` === name);
    const of = agg ? model.tables[agg.target] : undefined;
    if (agg && of && typeof value === 'object') out.push(...aggregateKeys(agg.name, of, value as { readonly [k: string]: unknown }));
  }
  return out;
}

// `{count: dir}` and `{<op>: {<column>: dir}}` on an array relationship's rows.
function aggregateKeys(rel: string, target: TableModel, value: { readonly [k: string]: unknown }): CursorKey[] {
  const out: CursorKey[] = [];
  const aggregate = (inner: SelectionNode) => (alias: string) => field(`${rel}_aggregate`, alias, [field('aggregate', null, [inner])]);
  for (const [op, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    if (op === 'count' && typeof v === 'string') {
      out.push({ path: [`${rel}_aggregate`, 'count'], dir: v, nullable: false, field: null, select: aggregate(field('count', null, null)), read: ['aggregate', 'count'] });
      continue;
    }
    if (typeof v !== 'object') continue;
    for (const [name, dir] of Object.entries(v as { readonly [k: string]: unknown })) {
      const column = target.columns.find((c) => c.field === name);
      if (!column || typeof dir !== 'string') continue;
      out.push({ path: [`${rel}_aggregate`, op, column.name], dir, nullable: true, field: null, select: aggregate(field(op, null, [field(name, null, null)])),
        read: ['aggregate', op, name] });
    }
  }
  return out;
}

/** A key's value in a row of the answer (read under `alias`). */
export function keyValue(row: { readonly [k: string]: unknown }, alias: string, k: CursorKey): unknown {
  let v: unknown = row[alias];
  for (const p of k.read) v = v !== null && typeof v === 'object' ? (v as { readonly [k: string]: unknown })[p] : null;
  return v ?? null;
}

/** A cursor's value of a key (undefined: the cursor lacks it). */
export function cursorValue(cursor: { readonly [k: string]: unknown }, k: CursorKey): unknown {
  let v: unknown = cursor;
  for (const p of k.path) {
    if (v === null || typeof v !== 'object' || !(p in v)) return undefined;
    v = (v as { readonly [k: string]: unknown })[p];
  }
  return v;
}

/** The cursor object of a row's key values, nested as the keys' paths are. */
export function cursorObject(keys: readonly CursorKey[], values: readonly unknown[]): { [k: string]: unknown } {
  const out: { [k: string]: unknown } = {};
  keys.forEach((k, i) => {
    let at = out;
    for (const p of k.path.slice(0, -1)) at = (at[p] ??= {}) as { [k: string]: unknown };
    at[k.path[k.path.length - 1]!] = values[i];
  });
  return out;
}

// PostgreSQL's order of two non-null values of one column: numbers as numbers, text by code point
// (the C collation's order), booleans false first.
function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = typeof a === 'string' ? a : JSON.stringify(a);
  const y = typeof b === 'string' ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** How two rows' key values compare in the connection's order (nulls last ascending, first descending, unless told). */
export function compareKeys(keys: readonly CursorKey[], a: readonly unknown[], b: readonly unknown[]): number {
  for (const [i, k] of keys.entries()) {
    const x = a[i] ?? null, y = b[i] ?? null;
    if (x === null && y === null) continue;
    const nullsFirst = k.dir === 'desc' || k.dir.endsWith('nulls_first');
    if (x === null) return nullsFirst ? -1 : 1;
    if (y === null) return nullsFirst ? 1 : -1;
    const c = compareValues(x, y);
    if (c !== 0) return k.dir.startsWith('desc') ? -c : c;
  }
  return 0;
}
