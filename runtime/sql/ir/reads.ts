// Every read of rows in an IR value, with what guards it: what a proof that each role's access
// carries its permission reads (`kiln check` on the IR, for any dialect), with no SQL parsing.

import type { Alias } from '../fragment.js';
import type { LiveQuery, Stream } from './live.js';
import type { MutationJson, MutationStatement, WriteExpr } from './mutation.js';
import type { Cond, Expr, QualifiedName, Source } from './scalar.js';
import type { JsonValue, Permission, RowSet } from './select.js';

/** One read of rows: what is read at which alias, and what guards it. */
export interface TableRead {
  readonly from: Source;
  readonly row: Alias;
  /** The role's filter and row limit on the rows read (the filter alone for EXISTS and scalar subqueries); null: none. */
  readonly permission: Permission | null;
  /** False for rows only aggregated (Hasura applies the role's row limit to `nodes` only). */
  readonly limited: boolean;
  /** True for reads inside a permission filter: they read what the filter names, with no permission of their own. */
  readonly inPermission: boolean;
  /** The conditions that tie the rows to their parent row (relationship keys), for lists, aggregates and single rows. */
  readonly join?: readonly Cond[];
}

// What a walk collects: the reads of rows, and the functions called in scalar expressions.
interface Collected {
  readonly reads: TableRead[];
  readonly calls: QualifiedName[];
}

function collect(v: JsonValue | LiveQuery | Stream): Collected {
  const out: Collected = { reads: [], calls: [] };
  const live = v.kind === 'stream' ? v.live : v.kind === 'live' ? v : null;
  if (live) for (const f of live.fields) json(f.value, out);
  else json(v as JsonValue, out);
  return out;
}

/** Every read of rows in a JSON value of a plan (or in a live query's or stream's select), outermost first. */
export function readsOf(v: JsonValue | LiveQuery | Stream): TableRead[] {
  return collect(v).reads;
}

/**
 * The relations whose rows a live query's or stream's statement depends on: every table it reads
 * (its permission filters' tables too), each once. `opaque` when it also depends on what the IR
 * cannot name: a function's rows or a function called on a value (its body may read any table).
 */
export interface RelationsRead {
  readonly tables: readonly QualifiedName[];
  readonly opaque: boolean;
}

/** The relations `v` reads, for refetching it when one of them changes. */
export function relationsRead(v: JsonValue | LiveQuery | Stream): RelationsRead {
  const { reads, calls } = collect(v);
  const tables = new Map<string, QualifiedName>();
  let opaque = calls.length > 0;
  for (const r of reads) {
    // A root field's precompiled source reads what it was made from.
    const from = r.from.kind === 'template' ? r.from.of : r.from;
    switch (from.kind) {
      case 'table': tables.set(JSON.stringify([from.table.schema, from.table.name]), from.table); break;
      case 'function': opaque = true; break;
      case 'read_through': tables.set(JSON.stringify([from.table.schema, from.table.name]), from.table); break;
      case 'written': break;
      default: unreachable(from);
    }
  }
  return { tables: [...tables.values()], opaque };
}

/**
 * Every read of rows in a mutation statement: in its writes' values and row selectors, its
 * response, and (as reads of a permission) in the role's write filters and checks.
 */
export function readsOfMutation(m: MutationStatement): TableRead[] {
  const out: Collected = { reads: [], calls: [] };
  const value = (e: WriteExpr): void => {
    if (e.kind === 'update_op') { value(e.current); expr(e.value, out, false); return; }
    if (e.kind !== 'written_value' && e.kind !== 'excluded' && e.kind !== 'default') expr(e, out, false);
  };
  for (const { body } of m.writes) {
    switch (body.kind) {
      case 'insert':
        for (const r of body.rows) for (const e of r) value(e);
        if (body.conflict?.update) {
          for (const a of body.conflict.update.set) value(a.value);
          if (body.conflict.update.permission) cond(body.conflict.update.permission, out, true);
          if (body.conflict.update.where) cond(body.conflict.update.where, out, false);
        }
        break;
      case 'update': for (const a of body.set) value(a.value); cond(body.permission, out, true); cond(body.selector, out, false); break;
      case 'delete': cond(body.permission, out, true); cond(body.selector, out, false); break;
      case 'none': case 'union': case 'restored': break;
      default: unreachable(body);
    }
  }
  for (const g of m.guards) if (g.kind === 'all_rows') cond(g.check, out, true);
  mutationJson(m.result, out);
  return out.reads;
}

function mutationJson(v: MutationJson, out: Collected): void {
  switch (v.kind) {
    case 'affected': case 'kept_rows': return;
    case 'returning': json(v.shape, out); return;
    case 'response': for (const f of v.fields) mutationJson(f.value, out); return;
    default: json(v, out);
  }
}

function json(v: JsonValue, out: Collected): void {
  switch (v.kind) {
    case 'scalar': expr(v.expr, out, false); return;
    case 'name': case 'json_text': return;
    case 'object': for (const f of v.fields) json(f.value, out); return;
    case 'one':
      out.reads.push({ from: v.from, row: v.row, permission: v.permission, limited: true, inPermission: false, join: v.join });
      source(v.from, out, false);
      for (const c of v.join) cond(c, out, false);
      cond(v.permission.filter, out, true);
      json(v.shape, out);
      return;
    case 'list': rows(v.rows, out); json(v.shape, out); return;
    case 'aggregate':
      rows(v.rows, out);
      for (const part of v.fields) {
        const p = part.value;
        if (p.kind === 'nodes') json(p.shape, out);
        else if (p.kind === 'list') json(p, out);
      }
      return;
    default: unreachable(v);
  }
}

function rows(r: RowSet, out: Collected): void {
  out.reads.push({ from: r.from, row: r.row, permission: r.permission, limited: !r.countsAllRows, inPermission: false, join: r.join });
  source(r.from, out, false);
  for (const c of r.join) cond(c, out, false);
  cond(r.permission.filter, out, true);
  if (r.where) cond(r.where, out, false);
  for (const o of r.order) expr(o.expr, out, false);
  for (const e of r.distinctOn ?? []) expr(e, out, false);
  if (r.offset) expr(r.offset, out, false);
}

function source(s: Source, out: Collected, inPermission: boolean): void {
  if (s.kind === 'function') for (const a of s.call.args) expr(a.value, out, inPermission);
}

function cond(c: Cond, out: Collected, inPermission: boolean): void {
  switch (c.kind) {
    case 'true': case 'no_condition': case 'row_present': return;
    case 'and': case 'or': for (const i of c.items) cond(i, out, inPermission); return;
    case 'not': cond(c.item, out, inPermission); return;
    case 'equals': case 'compare': expr(c.left, out, inPermission); expr(c.right, out, inPermission); return;
    case 'is_null': expr(c.expr, out, inPermission); return;
    case 'is_null_is': expr(c.expr, out, inPermission); expr(c.value, out, inPermission); return;
    case 'in': case 'in_arrays': expr(c.left, out, inPermission); expr(c.list, out, inPermission); return;
    case 'in_list': expr(c.left, out, inPermission); for (const i of c.items) expr(i, out, inPermission); return;
    case 'has_key': expr(c.left, out, inPermission); expr(c.value, out, inPermission); return;
    case 'spatial': for (const e of [c.left, c.operand, c.distance, c.spheroid]) if (e) expr(e, out, inPermission); return;
    case 'raster_intersects': for (const e of [c.left, ...c.args]) expr(e, out, inPermission); return;
    case 'exists':
      out.reads.push({ from: c.from, row: c.row, permission: c.permission && { filter: c.permission, limit: null }, limited: false, inPermission });
      source(c.from, out, inPermission);
      for (const j of c.join) cond(j, out, inPermission);
      if (c.permission) cond(c.permission, out, true);
      if (c.where) cond(c.where, out, inPermission);
      return;
    // A precompiled permission predicate: what it reads is what the filter names (exempt, as inPermission reads).
    case 'template': return;
    default: unreachable(c);
  }
}

function expr(e: Expr, out: Collected, inPermission: boolean): void {
  switch (e.kind) {
    case 'column': case 'row': case 'param': case 'session_json': return;
    case 'call': out.calls.push(e.fn); for (const a of e.args) expr(a.value, out, inPermission); return;
    case 'text': case 'cast': expr(e.expr, out, inPermission); return;
    case 'json_path': expr(e.expr, out, inPermission); expr(e.path, out, inPermission); return;
    case 'aggregate': expr(e.arg, out, inPermission); return;
    case 'count': for (const a of e.args) expr(a, out, inPermission); return;
    case 'from_geojson': expr(e.geojson, out, inPermission); return;
    case 'when': cond(e.cond, out, true); expr(e.expr, out, inPermission); return;
    case 'distinct_count': case 'subquery':
      out.reads.push({ from: e.from, row: e.row, permission: e.permission && { filter: e.permission, limit: null }, limited: false, inPermission });
      source(e.from, out, inPermission);
      for (const w of e.where) cond(w, out, inPermission);
      if (e.permission) cond(e.permission, out, true);
      if (e.kind === 'subquery') expr(e.value, out, inPermission);
      else for (const c of e.columns) expr(c, out, inPermission);
      return;
    default: unreachable(e);
  }
}

function unreachable(x: never): never {
  throw new Error(`assertion failed: unknown IR node ${JSON.stringify(x)}`);
}
