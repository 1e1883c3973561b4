// A generated case as GraphQL text and variables. Every field gets an alias (`f0`, `f1`, ...) so
// that the same field may be asked twice with other arguments; arguments travel inline or as
// variables as the case says.
import type { AggSel, Args, Bool, Case, Field, Order, Root } from './gen.js';
import { targetOf } from './gen.js';

/** The request body of a case. */
export interface Rendered {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

/** The JSON form of a `where` (as a variable carries it). */
export function whereJson(b: Bool): Record<string, unknown> {
  switch (b.kind) {
    case 'cmp': return { [b.column]: Object.fromEntries(b.ops) };
    case 'rel': return { [b.rel]: whereJson(b.where) };
    case 'not': return { _not: whereJson(b.item) };
    case 'and':
    case 'or': {
      const items = b.items.map(whereJson);
      if (b.kind === 'and' && b.implicit) {
        const keys = items.flatMap((i) => Object.keys(i));
        if (new Set(keys).size === keys.length) return Object.assign({}, ...items);
      }
      return { [`_${b.kind}`]: items };
    }
  }
}

/** The JSON form of an order_by item. */
export function orderJson(o: Order): Record<string, unknown> {
  switch (o.kind) {
    case 'col': return { [o.column]: o.dir };
    case 'obj': return { [o.rel]: orderJson(o.item) };
    case 'agg': return { [`${o.rel}_aggregate`]: o.fn === 'count' ? { count: o.dir } : { [o.fn]: { [o.column!]: o.dir } } };
  }
}

// A GraphQL literal; with `enums`, strings are enum values (order_by directions, column names).
function literal(v: unknown, enums = false): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map((x) => literal(x, enums)).join(', ')}]`;
  if (typeof v === 'object') return `{${Object.entries(v as object).map(([k, x]) => `${k}: ${literal(x, enums)}`).join(', ')}}`;
  if (typeof v === 'string') return enums ? v : JSON.stringify(v);
  return String(v);
}

class Writer {
  readonly declarations: string[] = [];
  readonly variables: Record<string, unknown> = {};

  arg(name: string, value: unknown, type: string, asVariable: boolean, enums = false): string {
    if (!asVariable) return `${name}: ${literal(value, enums)}`;
    const v = `v${this.declarations.length}`;
    this.declarations.push(`$${v}: ${type}`);
    this.variables[v] = value;
    return `${name}: $${v}`;
  }

  args(table: string, a: Args): string {
    const out: string[] = [];
    if (a.where) out.push(this.arg('where', whereJson(a.where), `${table}_bool_exp`, a.asVariables));
    if (a.orderBy) out.push(this.arg('order_by', a.orderBy.map(orderJson), `[${table}_order_by!]`, a.asVariables, true));
    if (a.distinctOn) out.push(this.arg('distinct_on', a.distinctOn, `[${table}_select_column!]`, a.asVariables, true));
    if (a.limit !== undefined) out.push(this.arg('limit', a.limit, 'Int', a.asVariables));
    if (a.offset !== undefined) out.push(this.arg('offset', a.offset, 'Int', a.asVariables));
    return out.length ? `(${out.join(', ')})` : '';
  }

  fields(table: string, fields: readonly Field[]): string {
    return `{ ${fields.map((f, i) => `f${i}: ${this.field(table, f)}`).join(' ')} }`;
  }

  field(table: string, f: Field): string {
    switch (f.kind) {
      case 'col': return f.column;
      case 'typename': return '__typename';
      case 'obj': return `${f.rel} ${this.fields(targetOf(table, f.rel), f.fields)}`;
      case 'arr': return `${f.rel}${this.args(targetOf(table, f.rel), f.args)} ${this.fields(targetOf(table, f.rel), f.fields)}`;
      case 'agg': return `${f.rel}_aggregate${this.args(targetOf(table, f.rel), f.args)} ${this.agg(targetOf(table, f.rel), f.agg)}`;
    }
  }

  agg(table: string, a: AggSel): string {
    const inner: string[] = [];
    if (a.count) {
      const cargs = [a.count.column ? `columns: [${a.count.column}]` : '', a.count.distinct && a.count.column ? 'distinct: true' : ''].filter(Boolean);
      inner.push(`count${cargs.length ? `(${cargs.join(', ')})` : ''}`);
    }
    for (const s of a.fns) inner.push(`${s.fn} { ${s.columns.join(' ')} }`);
    const parts = [`aggregate { __typename ${inner.join(' ')} }`];
    if (a.nodes) parts.push(`nodes ${this.fields(table, a.nodes)}`);
    return `{ ${parts.join(' ')} }`;
  }

  root(r: Root): string {
    switch (r.kind) {
      case 'list': return `${r.table}${this.args(r.table, r.args)} ${this.fields(r.table, r.fields)}`;
      case 'agg': return `${r.table}_aggregate${this.args(r.table, r.args)} ${this.agg(r.table, r.agg)}`;
      case 'pk': return `${r.table}_by_pk(${this.arg('id', r.id, 'Int!', false)}) ${this.fields(r.table, r.fields)}`;
    }
  }
}

/** The GraphQL request of a case. */
export function render(c: Case): Rendered {
  const w = new Writer();
  const body = c.roots.map((r, i) => `f${i}: ${w.root(r)}`).join('\n  ');
  const head = w.declarations.length ? `query Q(${w.declarations.join(', ')})` : 'query Q';
  return { query: `${head} {\n  ${body}\n}`, variables: w.variables };
}
