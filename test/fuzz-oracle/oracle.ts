// The oracle: a generated case written as one plain SQL statement by this test, with the role's
// filter restated by hand (fixture.ts) on every table the case reads, relationships as correlated
// subqueries and values as parameters. It shares nothing with Kiln's planner or renderer, so an
// answer that differs is a bug on one side. Also the comparison of two answers: lists without an
// order compared as multisets, decimals to 12 significant digits.
import type { RoleDef } from './fixture.js';
import { TABLES } from './fixture.js';
import type { AggSel, Args, Bool, Case, Dir, Field, Order, Root } from './gen.js';

/** A statement returning one row with one text column `r`: the expected `data` as JSON. */
export interface OracleSql {
  readonly text: string;
  readonly params: unknown[];
}

const DIR_SQL: Record<Dir, string> = {
  asc: 'ASC NULLS LAST', desc: 'DESC NULLS FIRST', asc_nulls_first: 'ASC NULLS FIRST', asc_nulls_last: 'ASC NULLS LAST',
  desc_nulls_first: 'DESC NULLS FIRST', desc_nulls_last: 'DESC NULLS LAST',
};
const CAST: Record<string, string> = { int: 'int', numeric: 'numeric', text: 'text', bool: 'boolean' };
const BINARY: Record<string, string> = {
  _eq: '=', _neq: '<>', _gt: '>', _lt: '<', _gte: '>=', _lte: '<=', _like: 'LIKE', _nlike: 'NOT LIKE', _ilike: 'ILIKE', _nilike: 'NOT ILIKE',
  _similar: 'SIMILAR TO', _nsimilar: 'NOT SIMILAR TO', _regex: '~', _iregex: '~*', _nregex: '!~', _niregex: '!~*',
};

class Builder {
  readonly params: unknown[] = [];
  private n = 0;

  constructor(readonly role: RoleDef, readonly session: Record<string, string>) {}

  param = (v: unknown, cast?: string): string => {
    this.params.push(v);
    return cast ? `$${this.params.length}::${cast}` : `$${this.params.length}`;
  };

  alias(): string {
    return `t${++this.n}`;
  }

  perm(table: string, a: string): string {
    return `(${this.role.tables[table]!.sql(a, this.session, this.param)})`;
  }

  rel(table: string, name: string): { target: string; join: (outer: string, inner: string) => string } {
    const r = TABLES[table]!.relationships.find((x) => x.name === name)!;
    return { target: r.target, join: (outer, inner) => `${inner}.${r.on[1]} = ${outer}.${r.on[0]}` };
  }

  where(b: Bool, table: string, a: string): string {
    switch (b.kind) {
      case 'and': return b.items.length ? `(${b.items.map((i) => this.where(i, table, a)).join(' AND ')})` : 'true';
      case 'or': return b.items.length ? `(${b.items.map((i) => this.where(i, table, a)).join(' OR ')})` : 'false';
      case 'not': return `NOT ${this.where(b.item, table, a)}`;
      case 'rel': {
        const r = this.rel(table, b.rel);
        const x = this.alias();
        return `EXISTS (SELECT 1 FROM public.${r.target} ${x} WHERE ${r.join(a, x)} AND ${this.perm(r.target, x)} AND ${this.where(b.where, r.target, x)})`;
      }
      case 'cmp': {
        const kind = TABLES[table]!.columns.find((c) => c.name === b.column)!.kind;
        const c = `${a}.${b.column}`;
        return `(${b.ops.map(([op, v]) => {
          if (op === '_is_null') return v ? `${c} IS NULL` : `${c} IS NOT NULL`;
          if (op === '_in') return `${c} = ANY(${this.param(v, `${CAST[kind]}[]`)})`;
          if (op === '_nin') return `NOT (${c} = ANY(${this.param(v, `${CAST[kind]}[]`)}))`;
          return `${c} ${BINARY[op]} ${this.param(v, CAST[kind])}`;
        }).join(' AND ')})`;
      }
    }
  }

  // The value an order_by item sorts by, and its direction.
  orderTerm(o: Order, table: string, a: string): [string, Dir] {
    switch (o.kind) {
      case 'col': return [`${a}.${o.column}`, o.dir];
      case 'obj': {
        const r = this.rel(table, o.rel);
        const x = this.alias();
        const [inner, dir] = this.orderTerm(o.item, r.target, x);
        return [`(SELECT ${inner} FROM public.${r.target} ${x} WHERE ${r.join(a, x)} AND ${this.perm(r.target, x)})`, dir];
      }
      case 'agg': {
        const r = this.rel(table, o.rel);
        const x = this.alias();
        const fn = o.fn === 'count' ? 'count(*)' : `${o.fn}(${x}.${o.column})`;
        return [`(SELECT ${fn} FROM public.${r.target} ${x} WHERE ${r.join(a, x)} AND ${this.perm(r.target, x)})`, o.dir];
      }
    }
  }

  // SELECT [DISTINCT ON] <select> FROM table WHERE perm AND link AND where ORDER BY .. LIMIT .. OFFSET ..
  rows(table: string, args: Args, select: (a: string) => string, link?: (a: string) => string): string {
    const a = this.alias();
    const conds = [this.perm(table, a)];
    if (link) conds.push(link(a));
    if (args.where) conds.push(this.where(args.where, table, a));
    const distinct = args.distinctOn ? `DISTINCT ON (${args.distinctOn.map((c) => `${a}.${c}`).join(', ')}) ` : '';
    const order = args.orderBy ? ` ORDER BY ${args.orderBy.map((o) => { const [e, d] = this.orderTerm(o, table, a); return `${e} ${DIR_SQL[d]}`; }).join(', ')}` : '';
    const limit = args.limit !== undefined ? ` LIMIT ${this.param(args.limit, 'int')}` : '';
    const offset = args.offset !== undefined ? ` OFFSET ${this.param(args.offset, 'int')}` : '';
    return `SELECT ${distinct}${select(a)} FROM public.${table} ${a} WHERE ${conds.join(' AND ')}${order}${limit}${offset}`;
  }

  object(table: string, fields: readonly Field[], a: string): string {
    const pairs = fields.map((f, i) => `'f${i}', ${this.field(table, f, a)}`);
    return `json_build_object(${pairs.join(', ')})`;
  }

  field(table: string, f: Field, a: string): string {
    switch (f.kind) {
      case 'col': return `${a}.${f.column}`;
      case 'typename': return `'${table}'`;
      case 'obj': {
        const r = this.rel(table, f.rel);
        const x = this.alias();
        return `(SELECT ${this.object(r.target, f.fields, x)} FROM public.${r.target} ${x} WHERE ${r.join(a, x)} AND ${this.perm(r.target, x)})`;
      }
      case 'arr': {
        const r = this.rel(table, f.rel);
        return this.list(r.target, f.args, f.fields, (x) => r.join(a, x));
      }
      case 'agg': {
        const r = this.rel(table, f.rel);
        return this.aggregate(r.target, f.args, f.agg, (x) => r.join(a, x));
      }
    }
  }

  list(table: string, args: Args, fields: readonly Field[], link?: (a: string) => string): string {
    return `(SELECT coalesce(json_agg(s.j), '[]'::json) FROM (${this.rows(table, args, (a) => `${this.object(table, fields, a)} AS j`, link)}) s)`;
  }

  aggregate(table: string, args: Args, agg: AggSel, link?: (a: string) => string): string {
    const s = this.alias();
    const stats = [`'__typename', '${table}_aggregate_fields'`];
    if (agg.count) stats.push(`'count', count(${agg.count.column ? `${agg.count.distinct ? 'DISTINCT ' : ''}${s}.${agg.count.column}` : '*'})`);
    for (const f of agg.fns) stats.push(`'${f.fn}', json_build_object(${f.columns.map((c) => `'${c}', ${f.fn}(${s}.${c})`).join(', ')})`);
    const parts = [`'aggregate', json_build_object(${stats.join(', ')})`];
    if (agg.nodes) parts.push(`'nodes', coalesce(json_agg(${s}.j), '[]'::json)`);
    const nodes = agg.nodes;
    const select = (a: string): string => `${a}.*${nodes ? `, ${this.object(table, nodes, a)} AS j` : ''}`;
    // GROUP BY (): one row even when no aggregate function is asked for (only __typename).
    return `(SELECT json_build_object(${parts.join(', ')}) FROM (${this.rows(table, args, select, link)}) ${s} GROUP BY ())`;
  }

  root(r: Root): string {
    switch (r.kind) {
      case 'list': return this.list(r.table, r.args, r.fields);
      case 'agg': return this.aggregate(r.table, r.args, r.agg);
      case 'pk': {
        const a = this.alias();
        return `(SELECT ${this.object(r.table, r.fields, a)} FROM public.${r.table} ${a} WHERE ${a}.id = ${this.param(r.id, 'int')} AND ${this.perm(r.table, a)})`;
      }
    }
  }
}

/** The oracle statement of a case for a role and session. */
export function oracleSql(c: Case, role: RoleDef, session: Record<string, string>): OracleSql {
  const b = new Builder(role, session);
  const pairs = c.roots.map((r, i) => `'f${i}', ${b.root(r)}`);
  return { text: `SELECT json_build_object(${pairs.join(', ')})::text AS r`, params: b.params };
}

/**
 * A canonical text of an answer: object keys sorted, decimals to 12 significant digits, and the
 * rows of lists that have no order_by sorted (their order is the database's choice).
 */
export function canonical(data: unknown, c: Case): string {
  return `{${c.roots.map((r, i) => `"f${i}":${canonRoot((data as Record<string, unknown>)[`f${i}`], r)}`).join(',')}}`;
}

function canonRoot(v: unknown, r: Root): string {
  switch (r.kind) {
    case 'list': return canonList(v, r.args, r.fields, r.table);
    case 'agg': return canonAgg(v, r.args, r.agg, r.table);
    case 'pk': return canonObject(v, r.fields, r.table);
  }
}

function canonList(v: unknown, args: Args, fields: readonly Field[], table: string): string {
  if (!Array.isArray(v)) return plain(v);
  const items = v.map((x) => canonObject(x, fields, table));
  return `[${(args.orderBy ? items : items.sort()).join(',')}]`;
}

function canonAgg(v: unknown, args: Args, agg: AggSel, table: string): string {
  if (v === null || typeof v !== 'object') return plain(v);
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  return `{${keys.map((k) => `"${k}":${k === 'nodes' && agg.nodes ? canonList(o[k], args, agg.nodes, table) : plain(o[k])}`).join(',')}}`;
}

function canonObject(v: unknown, fields: readonly Field[], table: string): string {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return plain(v);
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  return `{${keys.map((k) => {
    const f = /^f(\d+)$/.test(k) ? fields[Number(k.slice(1))] : undefined;
    const rel = f && 'rel' in f ? TABLES[table]!.relationships.find((r) => r.name === f.rel)!.target : table;
    const x = o[k];
    if (f?.kind === 'obj') return `"${k}":${canonObject(x, f.fields, rel)}`;
    if (f?.kind === 'arr') return `"${k}":${canonList(x, f.args, f.fields, rel)}`;
    if (f?.kind === 'agg') return `"${k}":${canonAgg(x, f.args, f.agg, rel)}`;
    return `"${k}":${plain(x)}`;
  }).join(',')}}`;
}

function plain(v: unknown): string {
  if (typeof v === 'number') return JSON.stringify(Number.isInteger(v) ? v : Number(v.toPrecision(12)));
  if (Array.isArray(v)) return `[${v.map(plain).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${plain((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
