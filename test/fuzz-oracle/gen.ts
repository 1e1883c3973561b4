// fast-check arbitraries for random read operations of one role over the oracle fixture: where
// (nested _and/_or/_not, relationships, every operator of the column's type), order_by (columns,
// object relationships, aggregates of array relationships), distinct_on, limit/offset, nested
// relationships, aggregates, by-primary-key; each argument inline or through a variable.
// Lists are ordered totally (the primary key last) whenever an order, page or distinct_on is
// asked for, so the oracle's answer is the one right answer.
import fc from 'fast-check';
import { type ColumnDef, type RoleDef, STATUSES, TABLES, visibleColumns, visibleRelationships, WORDS } from './fixture.js';

export type Bool =
  | { readonly kind: 'and' | 'or'; readonly items: readonly Bool[]; /** rendered as one object of several keys */ readonly implicit: boolean }
  | { readonly kind: 'not'; readonly item: Bool }
  | { readonly kind: 'cmp'; readonly column: string; readonly ops: readonly (readonly [string, unknown])[] }
  | { readonly kind: 'rel'; readonly rel: string; readonly where: Bool };

export type Dir = 'asc' | 'desc' | 'asc_nulls_first' | 'asc_nulls_last' | 'desc_nulls_first' | 'desc_nulls_last';

export type Order =
  | { readonly kind: 'col'; readonly column: string; readonly dir: Dir }
  | { readonly kind: 'obj'; readonly rel: string; readonly item: Order }
  | { readonly kind: 'agg'; readonly rel: string; readonly fn: 'count' | 'max' | 'min' | 'sum' | 'avg'; readonly column: string | null; readonly dir: Dir };

export interface Args {
  readonly where?: Bool;
  readonly orderBy?: readonly Order[];
  readonly distinctOn?: readonly string[];
  readonly limit?: number;
  readonly offset?: number;
  /** Which arguments travel as variables. */
  readonly asVariables: boolean;
}

export type Field =
  | { readonly kind: 'col'; readonly column: string }
  | { readonly kind: 'typename' }
  | { readonly kind: 'obj'; readonly rel: string; readonly fields: readonly Field[] }
  | { readonly kind: 'arr'; readonly rel: string; readonly args: Args; readonly fields: readonly Field[] }
  | { readonly kind: 'agg'; readonly rel: string; readonly args: Args; readonly agg: AggSel };

export interface AggSel {
  readonly count: { readonly column: string | null; readonly distinct: boolean } | null;
  readonly fns: readonly { readonly fn: 'sum' | 'avg' | 'max' | 'min'; readonly columns: readonly string[] }[];
  readonly nodes: readonly Field[] | null;
}

export type Root =
  | { readonly kind: 'list'; readonly table: string; readonly args: Args; readonly fields: readonly Field[] }
  | { readonly kind: 'agg'; readonly table: string; readonly args: Args; readonly agg: AggSel }
  | { readonly kind: 'pk'; readonly table: string; readonly id: number; readonly fields: readonly Field[] };

export interface Case {
  readonly roots: readonly Root[];
  /** Picks the session (user or organisation) of the request. */
  readonly session: number;
}

const DIRS: readonly Dir[] = ['asc', 'desc', 'asc_nulls_first', 'asc_nulls_last', 'desc_nulls_first', 'desc_nulls_last'];
const LIKE = ['%a%', 'A%', '_d_', '%\\%%', '%', '', 'a\\_b', '%ë%', '%"%', "O'%", '__'];
const REGEX = ['^A', 'a.a', '[Zz]', 'ë', '^$', 'ri'];
const SIMILAR = ['A%', '%(a|b)%', '_', '%'];

/** A value of a column's kind, drawn near the fixture's data. */
function valueArb(c: ColumnDef): fc.Arbitrary<unknown> {
  switch (c.kind) {
    case 'int': return fc.oneof(fc.integer({ min: -3, max: 60 }), fc.constantFrom(0, 2147483647, -2147483648));
    case 'numeric': return fc.integer({ min: -600, max: 600 }).map((n) => n / 100);
    case 'bool': return fc.boolean();
    case 'text': return fc.oneof(fc.constantFrom(...WORDS, ...STATUSES), fc.string({ maxLength: 4 }));
  }
}

function opArb(c: ColumnDef): fc.Arbitrary<readonly [string, unknown]> {
  const v = valueArb(c);
  const ops: fc.Arbitrary<readonly [string, unknown]>[] = [
    fc.tuple(fc.constantFrom('_eq', '_neq'), v),
    fc.tuple(fc.constantFrom('_in', '_nin'), fc.array(v, { maxLength: 4 })),
    fc.tuple(fc.constant('_is_null'), fc.boolean()),
  ];
  if (c.kind !== 'bool') ops.push(fc.tuple(fc.constantFrom('_gt', '_lt', '_gte', '_lte'), v));
  if (c.kind === 'text') {
    ops.push(fc.tuple(fc.constantFrom('_like', '_nlike', '_ilike', '_nilike'), fc.oneof(fc.constantFrom(...LIKE), fc.string({ maxLength: 3 }))));
    ops.push(fc.tuple(fc.constantFrom('_regex', '_iregex', '_nregex', '_niregex'), fc.constantFrom(...REGEX)));
    ops.push(fc.tuple(fc.constantFrom('_similar', '_nsimilar'), fc.constantFrom(...SIMILAR)));
  }
  return fc.oneof(...ops);
}

function cmpArb(cols: readonly ColumnDef[]): fc.Arbitrary<Bool> {
  return fc.constantFrom(...cols).chain((c) => fc.uniqueArray(opArb(c), { minLength: 1, maxLength: 2, selector: (o) => o[0] })
    .map((ops): Bool => ({ kind: 'cmp', column: c.name, ops })));
}

/** The generators of one role, built lazily and memoized per table and depth. */
export class Generators {
  private readonly memo = new Map<string, fc.Arbitrary<unknown>>();

  constructor(readonly role: RoleDef) {}

  private cached<T>(key: string, make: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
    let a = this.memo.get(key);
    if (!a) { a = make(); this.memo.set(key, a); }
    return a as fc.Arbitrary<T>;
  }

  /** A `where` over `table`, nested at most `depth` levels. */
  bool(table: string, depth: number): fc.Arbitrary<Bool> {
    return this.cached(`bool:${table}:${depth}`, () => {
      const leaf = cmpArb(visibleColumns(this.role, table));
      if (depth <= 0) return leaf;
      const inner = this.bool(table, depth - 1);
      const options: fc.WeightedArbitrary<Bool>[] = [
        { weight: 6, arbitrary: leaf },
        { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), items: fc.array(inner, { maxLength: 3 }), implicit: fc.constant(false) }) },
        { weight: 2, arbitrary: fc.array(inner, { minLength: 2, maxLength: 3 }).map((items): Bool => ({ kind: 'and', items, implicit: true })) },
        { weight: 1, arbitrary: inner.map((item): Bool => ({ kind: 'not', item })) },
      ];
      const rels = visibleRelationships(this.role, table);
      if (rels.length) {
        options.push({ weight: 3, arbitrary: fc.constantFrom(...rels).chain((r) => this.bool(r.target, depth - 1).map((where): Bool => ({ kind: 'rel', rel: r.name, where }))) });
      }
      return fc.oneof(...options);
    });
  }

  /** One order_by item: a column, through an object relationship, or an aggregate of an array relationship. */
  order(table: string, depth: number): fc.Arbitrary<Order> {
    return this.cached(`order:${table}:${depth}`, () => {
      const cols = visibleColumns(this.role, table);
      const options: fc.WeightedArbitrary<Order>[] = [
        { weight: 5, arbitrary: fc.record({ kind: fc.constant('col' as const), column: fc.constantFrom(...cols.map((c) => c.name)), dir: fc.constantFrom(...DIRS) }) },
      ];
      if (depth > 0) {
        for (const r of visibleRelationships(this.role, table)) {
          if (r.kind === 'object') {
            options.push({ weight: 2, arbitrary: this.order(r.target, depth - 1).map((item): Order => ({ kind: 'obj', rel: r.name, item })) });
          } else if (this.role.tables[r.target]!.aggregations) {
            const numeric = visibleColumns(this.role, r.target).filter((c) => c.kind === 'int' || c.kind === 'numeric').map((c) => c.name);
            const ordered = visibleColumns(this.role, r.target).filter((c) => c.kind !== 'bool').map((c) => c.name);
            options.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('agg' as const), rel: fc.constant(r.name), fn: fc.constant('count' as const), column: fc.constant(null), dir: fc.constantFrom(...DIRS) }) });
            if (ordered.length) {
              options.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('agg' as const), rel: fc.constant(r.name), fn: fc.constantFrom('max' as const, 'min' as const),
                column: fc.constantFrom(...ordered), dir: fc.constantFrom(...DIRS) }) });
            }
            if (numeric.length) {
              options.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('agg' as const), rel: fc.constant(r.name), fn: fc.constantFrom('sum' as const, 'avg' as const),
                column: fc.constantFrom(...numeric), dir: fc.constantFrom(...DIRS) }) });
            }
          }
        }
      }
      return fc.oneof(...options);
    });
  }

  /** The arguments of a list: any subset, ordered totally when ordered, paged or distinct. */
  args(table: string, nested = false): fc.Arbitrary<Args> {
    return this.cached(`args:${table}:${nested}`, () => {
      const cols = visibleColumns(this.role, table).map((c) => c.name);
      return fc.record({
        where: fc.option(this.bool(table, nested ? 1 : 2), { nil: undefined, freq: 3 }),
        order: fc.option(fc.array(this.order(table, nested ? 0 : 1), { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 2 }),
        distinctOn: fc.option(fc.tuple(fc.shuffledSubarray(cols, { minLength: 1, maxLength: 2 }), fc.array(fc.constantFrom(...DIRS), { minLength: 2, maxLength: 2 })),
          { nil: undefined, freq: 5 }),
        limit: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined, freq: 2 }),
        offset: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined, freq: 4 }),
        asVariables: fc.boolean(),
      }).map((a): Args => {
        const lead: Order[] = a.distinctOn ? a.distinctOn[0].map((column, i) => ({ kind: 'col', column, dir: a.distinctOn![1][i]! })) : [];
        const wantsOrder = a.order !== undefined || lead.length > 0 || a.limit !== undefined || a.offset !== undefined;
        const orderBy = wantsOrder ? [...lead, ...(a.order ?? []), { kind: 'col', column: 'id', dir: 'asc' } as Order] : undefined;
        return { where: a.where, orderBy, distinctOn: a.distinctOn?.[0], limit: a.limit, offset: a.offset, asVariables: a.asVariables };
      });
    });
  }

  /** A selection set of `table`: some columns (at least one), relationships while `depth` lasts. */
  fields(table: string, depth: number): fc.Arbitrary<readonly Field[]> {
    return this.cached(`fields:${table}:${depth}`, () => {
      const cols = visibleColumns(this.role, table).map((c) => c.name);
      const columns = fc.shuffledSubarray(cols, { minLength: 1 }).map((cs) => cs.map((column): Field => ({ kind: 'col', column })));
      const extra: fc.Arbitrary<Field>[] = [fc.constant<Field>({ kind: 'typename' })];
      if (depth > 0) {
        for (const r of visibleRelationships(this.role, table)) {
          if (r.kind === 'object') extra.push(this.fields(r.target, depth - 1).map((fields): Field => ({ kind: 'obj', rel: r.name, fields })));
          else {
            extra.push(fc.tuple(this.args(r.target, true), this.fields(r.target, depth - 1)).map(([args, fields]): Field => ({ kind: 'arr', rel: r.name, args, fields })));
            if (this.role.tables[r.target]!.aggregations) {
              extra.push(fc.tuple(this.args(r.target, true), this.agg(r.target, 0)).map(([args, agg]): Field => ({ kind: 'agg', rel: `${r.name}`, args, agg })));
            }
          }
        }
      }
      return fc.tuple(columns, fc.array(fc.oneof(...extra), { maxLength: depth > 0 ? 2 : 1 })).map(([a, b]) => [...a, ...b]);
    });
  }

  /** An aggregate selection: count, statistics over columns of the right type, and maybe nodes. */
  agg(table: string, depth: number): fc.Arbitrary<AggSel> {
    return this.cached(`agg:${table}:${depth}`, () => {
      const cols = visibleColumns(this.role, table);
      const numeric = cols.filter((c) => c.kind === 'int' || c.kind === 'numeric').map((c) => c.name);
      const ordered = cols.filter((c) => c.kind !== 'bool').map((c) => c.name);
      const fns: fc.Arbitrary<AggSel['fns'][number]>[] = [];
      if (numeric.length) fns.push(fc.record({ fn: fc.constantFrom('sum' as const, 'avg' as const), columns: fc.shuffledSubarray(numeric, { minLength: 1 }) }));
      if (ordered.length) fns.push(fc.record({ fn: fc.constantFrom('max' as const, 'min' as const), columns: fc.shuffledSubarray(ordered, { minLength: 1 }) }));
      return fc.record({
        count: fc.option(fc.record({ column: fc.option(fc.constantFrom(...cols.map((c) => c.name)), { nil: null }), distinct: fc.boolean() }), { nil: null }),
        fns: fns.length ? fc.uniqueArray(fc.oneof(...fns), { maxLength: 2, selector: (f) => f.fn }) : fc.constant([]),
        nodes: fc.option(this.fields(table, depth), { nil: null }),
      });
    });
  }

  /** A root field of a table the role may select. */
  root(): fc.Arbitrary<Root> {
    return this.cached('root', () => {
      const tables = Object.keys(TABLES).filter((t) => this.role.tables[t]);
      return fc.constantFrom(...tables).chain((table): fc.Arbitrary<Root> => {
        const options: fc.WeightedArbitrary<Root>[] = [
          { weight: 6, arbitrary: fc.tuple(this.args(table), this.fields(table, 2)).map(([args, fields]): Root => ({ kind: 'list', table, args, fields })) },
          { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 0, max: 45 }), this.fields(table, 2)).map(([id, fields]): Root => ({ kind: 'pk', table, id, fields })) },
        ];
        if (this.role.tables[table]!.aggregations) {
          options.push({ weight: 2, arbitrary: fc.tuple(this.args(table), this.agg(table, 1)).map(([args, agg]): Root => ({ kind: 'agg', table, args, agg })) });
        }
        return fc.oneof(...options);
      });
    });
  }

  /** One request: one to three root fields and a session. */
  request(): fc.Arbitrary<Case> {
    return fc.record({ roots: fc.array(this.root(), { minLength: 1, maxLength: 2 }), session: fc.nat(1000) });
  }
}

/** The table a relationship of `table` leads to. */
export function targetOf(table: string, rel: string): string {
  const r = TABLES[table]!.relationships.find((x) => x.name === rel);
  if (!r) throw new Error(`no relationship ${table}.${rel}`);
  return r.target;
}
