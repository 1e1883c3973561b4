// The query generator: walks a role's GraphQL schema and writes one random query (root fields,
// arguments, nested relationships, aggregates, aliases, fragments, directives), together with the
// selection tree the response must follow and what outcome is acceptable.
import { GraphQLBoolean, GraphQLNonNull, getNamedType, isLeafType, isListType, isNonNullType, isObjectType, type GraphQLEnumType,
  type GraphQLField, type GraphQLInputObjectType, type GraphQLInputType, type GraphQLList, type GraphQLObjectType,
  type GraphQLSchema } from 'graphql';
import { InputGen, inputObjectOf, orderTerms, type OrderItemVal, type OrderTerm, type Samples } from './gen-input.js';
import { Rng } from './prng.js';

/** What a list's arguments promise about its rows. */
export interface ListFacts {
  /** At most this many items (the `limit` argument and the permission's limit). */
  readonly maxItems: number | null;
  /** The `where` value (variables resolved), when given. */
  readonly where: unknown;
  /** The first ORDER BY term, when there is one. */
  readonly order: OrderTerm | null;
}

/** One selected field, as the response must show it under `key`. */
export interface Sel {
  readonly key: string;
  readonly field: string;
  readonly nonNull: boolean;
  readonly list: boolean;
  /** For lists: what the arguments (of this field, or of the aggregate above `nodes`) promise. */
  readonly facts: ListFacts | null;
  /** The object type of the value (of its items, for lists); null for leaves. */
  readonly typeName: string | null;
  /** The scalar or enum type of a leaf. */
  readonly scalar: string | null;
  readonly hasArgs: boolean;
  readonly children: readonly Sel[] | null;
}

export interface GenConfig {
  readonly schema: GraphQLSchema;
  readonly samples: Samples;
  /** The role's row limit on a table type. */
  readonly permLimit: (typeName: string) => number | null;
  /** Fields the permission check reads on a table type; always selected at the root. */
  readonly mustSelect: (typeName: string) => readonly string[];
  /** Chance of a `limit` on a root list, and on a nested one (high on big fixtures). */
  readonly limitChance: { readonly root: number; readonly nested: number };
  /** Order by aggregates of a relationship's relationship (slow on big fixtures). */
  readonly nestedAggregateOrder: boolean;
}

export interface GeneratedQuery {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly sels: readonly Sel[];
  /** Set when the query breaks a rule on purpose (distinct_on not leading order_by). */
  readonly expectError: 'validation-failed' | null;
  /** Error codes a value in the query may draw (malformed date or regex, bad JSON path). */
  readonly risks: ReadonlySet<string>;
  /** No limit, offset or distinct_on: the rows are the same whatever plan runs (up to order). */
  readonly deterministic: boolean;
}

const MAX_DEPTH = 3;
const LIMITS = [0, 1, 2, 3, 5, 10, 25] as const;
const NO_FACTS: ListFacts = { maxItems: null, where: undefined, order: null };

interface Text { readonly text: string; readonly sel: Sel | null }
type Field = GraphQLField<unknown, unknown>;

/** Writes random queries for one schema; one instance per query. */
class QueryGen {
  private readonly input: InputGen;
  private readonly fragments: string[] = [];
  private expectError: 'validation-failed' | null = null;
  private deterministic = true;
  private aliasN = 0;

  constructor(private readonly rng: Rng, private readonly cfg: GenConfig, varRng: Rng | null) {
    this.input = new InputGen(rng, cfg.samples, varRng, cfg.nestedAggregateOrder);
  }

  run(): GeneratedQuery {
    const root = this.cfg.schema.getQueryType()!;
    const fields = Object.values(root.getFields()).filter((f) => !f.name.startsWith('__'));
    const chosen = this.rng.some(fields, this.rng.int(1, 3));
    const parts = chosen.flatMap((f) => this.fieldTexts(f, 0, NO_FACTS, true));
    if (this.rng.chance(0.05)) parts.push(this.typename(root.name));
    const set = this.wrapFragments(root, parts);
    const vars = this.input.declarations.length ? `(${this.input.declarations.join(', ')})` : '';
    const name = this.rng.chance(0.5) ? ` Q${this.rng.int(1, 99)}` : '';
    const query = [`query${name}${vars} ${set}`, ...this.fragments].join('\n');
    return { query, variables: this.input.values, sels: parts.flatMap((p) => (p.sel ? [p.sel] : [])),
      expectError: this.expectError, risks: this.input.risks, deterministic: this.deterministic };
  }

  private alias(): string {
    return `k${this.aliasN++}`;
  }

  private typename(typeName: string): Text {
    const key = this.rng.chance(0.3) ? this.alias() : '__typename';
    const text = key === '__typename' ? key : `${key}: __typename`;
    return { text, sel: { key, field: '__typename', nonNull: true, list: false, facts: null, typeName, scalar: 'String', hasArgs: false, children: null } };
  }

  /**
   * `{ ... }` of an object type; `nodes` are the facts of the aggregate field above `nodes`;
   * `root` when its rows are a root field's (the permission check's fields are always selected).
   */
  private selectionSet(type: GraphQLObjectType, depth: number, nodes: ListFacts, root: boolean): { text: string; sels: Sel[] } {
    const fields = Object.values(type.getFields());
    const isAgg = type.name.endsWith('_aggregate') && 'nodes' in type.getFields();
    const isAggFields = type.name.endsWith('_fields');
    const leaves = fields.filter((f) => isLeafType(getNamedType(f.type)));
    const objects = fields.filter((f) => isObjectType(getNamedType(f.type)));
    const chosen = new Set<Field>();
    for (const name of this.cfg.mustSelect(type.name)) {
      const f = type.getFields()[name];
      if (f && (root || this.rng.chance(0.7))) chosen.add(f);
    }
    for (const f of this.rng.some(leaves, this.rng.int(1, Math.min(4, leaves.length)))) chosen.add(f);
    const objChance = isAgg ? 0.7 : isAggFields ? 0.45 : depth < MAX_DEPTH ? 0.25 : 0;
    for (const f of objects) if (this.rng.chance(objChance)) chosen.add(f);
    if (chosen.size === 0) chosen.add(this.rng.pick(fields));
    const next = isAgg || isAggFields ? depth : depth + 1;
    // Only an aggregate passes the root flag on (to `nodes`); relationships are not root rows.
    const parts = [...chosen].flatMap((f) => this.fieldTexts(f, next, f.name === 'nodes' ? nodes : NO_FACTS, root && isAgg));
    if (this.rng.chance(0.12)) parts.push(this.typename(type.name));
    return { text: this.wrapFragments(type, parts), sels: parts.flatMap((p) => (p.sel ? [p.sel] : [])) };
  }

  /** The field once, sometimes twice under another alias with other arguments, maybe with directives. */
  private fieldTexts(f: Field, depth: number, inherited: ListFacts, root: boolean): Text[] {
    const out = [this.fieldText(f, depth, inherited, root)];
    if (f.args.length && this.rng.chance(0.08)) out.push(this.fieldText(f, depth, inherited, root, true));
    return out;
  }

  private fieldText(f: Field, depth: number, inherited: ListFacts, root: boolean, forceAlias = false): Text {
    const key = forceAlias || this.rng.chance(0.2) ? this.alias() : f.name;
    const expected = this.expectError;
    const args = this.args(f, root);
    const named = getNamedType(f.type);
    const nullable = isNonNullType(f.type) ? f.type.ofType : f.type;
    const list = isListType(nullable);
    let sub: { text: string; sels: Sel[] } | null = null;
    if (isObjectType(named)) sub = this.selectionSet(named, depth, args.facts, root);
    const sel: Sel = { key, field: f.name, nonNull: isNonNullType(f.type), list, facts: list ? (args.text ? args.facts : inherited) : null,
      typeName: isObjectType(named) ? named.name : null, scalar: isObjectType(named) ? null : named.name, hasArgs: args.text !== '', children: sub?.sels ?? null };
    const head = `${key === f.name ? '' : `${key}: `}${f.name}${args.text}`;
    const { directives, kept } = this.directives();
    // A skipped field is not planned: what it breaks on purpose is not reported.
    if (!kept) this.expectError = expected;
    return { text: `${head}${directives}${sub ? ` ${sub.text}` : ''}`, sel: kept ? sel : null };
  }

  // @include/@skip now and then; a skipped field is not expected in the response.
  private directives(): { directives: string; kept: boolean } {
    const r = this.rng.next();
    if (r < 0.03) return { directives: ' @include(if: true)', kept: true };
    if (r < 0.05) return { directives: ' @skip(if: false)', kept: true };
    if (r < 0.07) {
      const v = this.rng.chance(0.5);
      const lit = this.input.useVar(1) ? this.input.variable(new GraphQLNonNull(GraphQLBoolean), v).lit : String(v);
      return { directives: ` @include(if: ${lit})`, kept: v };
    }
    return { directives: '', kept: true };
  }

  /** Groups some of the parts into a named or inline fragment; never leaves a set without a kept field. */
  private wrapFragments(type: GraphQLObjectType, parts: Text[]): string {
    if (!parts.some((p) => p.sel)) parts.push(this.typename(type.name));
    let texts = parts.map((p) => p.text);
    const r = this.rng.next();
    if (texts.length >= 2 && r < 0.16) {
      const moved = this.rng.some(texts, this.rng.int(1, texts.length - 1));
      const rest = texts.filter((t) => !moved.includes(t));
      if (r < 0.1) {
        const name = `F${this.fragments.length}`;
        this.fragments.push(`fragment ${name} on ${type.name} { ${moved.join(' ')} }`);
        texts = [...rest, `...${name}`];
      } else {
        texts = [...rest, `... ${r < 0.13 ? `on ${type.name} ` : ''}{ ${moved.join(' ')} }`];
      }
    }
    return `{ ${texts.join(' ')} }`;
  }

  /** A field's arguments: list arguments for table fields, required and some optional ones otherwise. */
  private args(f: Field, root: boolean): { text: string; facts: ListFacts } {
    if (f.args.some((a) => a.name === 'where')) return this.listArgs(f, root);
    const table = getNamedType(f.type).name;
    // `count`'s columns and distinct and a json column's path take no explicit null (Hasura reads
    // them with fieldOptional over parsers that refuse one: runtime/graphql/validate-words.ts).
    const noNull = (a: { readonly name: string }) => (f.name === 'count' && (a.name === 'columns' || a.name === 'distinct')) || a.name === 'path';
    const parts = f.args.filter((a) => isNonNullType(a.type) || this.rng.chance(0.3))
      .map((a) => `${a.name}: ${this.input.value(a.type, { table, field: a.name, op: a.name, ...(noNull(a) ? { nullChance: 0 } : {}) }).lit}`);
    return { text: parts.length ? `(${parts.join(', ')})` : '', facts: NO_FACTS };
  }

  private listArgs(f: Field, root: boolean): { text: string; facts: ListFacts } {
    const argOf = (name: string) => f.args.find((a) => a.name === name);
    const whereArg = argOf('where')!;
    const table = inputObjectOf(whereArg.type)!.name.slice(0, -'_bool_exp'.length);
    const parts: string[] = [];
    for (const a of f.args) {
      if (isNonNullType(a.type)) parts.push(`${a.name}: ${this.input.value(a.type, { table, field: a.name }).lit}`);
    }
    const distinctArg = argOf('distinct_on');
    const orderArg = argOf('order_by');
    let terms: OrderTerm[] = [];
    if (distinctArg && orderArg && this.rng.chance(0.15)) {
      this.deterministic = false;
      const cols = this.rng.some((getNamedType(distinctArg.type) as GraphQLEnumType).getValues().map((v) => v.name), this.rng.int(1, 2));
      const itemType = (isNonNullType(orderArg.type) ? orderArg.type.ofType : orderArg.type) as GraphQLList<GraphQLInputType>;
      const mode = this.rng.next();
      let order: OrderItemVal[];
      if (mode < 0.55) order = cols.map((c) => this.input.columnOrderItem(c));
      else if (mode < 0.65) order = this.rng.shuffle(cols).map((c) => this.input.columnOrderItem(c));
      else if (mode < 0.8) order = [];
      else order = Array.from({ length: this.rng.int(1, 2) }, () => this.input.orderItem(itemType.ofType));
      if (order.length && mode < 0.65 && this.rng.chance(0.3)) order.push(this.input.orderItem(itemType.ofType));
      // Hasura: the distinct_on columns must be the leading order_by columns, in any order.
      terms = leadingTerms(order.map((o) => o.terms));
      const all = order.flatMap((o) => o.terms);
      const lead = terms.slice(0, cols.length).map((t) => t.column);
      const valid = all.length === 0 || (lead.length === cols.length && cols.every((c) => lead.includes(c)));
      // Keys of one order_by object have no order once they pass through a variable (graphql-js
      // coerces an input object in the type's field order; Hasura's JSON objects are unordered
      // too), so a lead that depends on it may or may not fit.
      if (all.length > 0 && terms.length < cols.length && all.length > terms.length) this.input.risks.add('validation-failed');
      else if (!valid) this.expectError = 'validation-failed';
      const distinct = cols.length === 1 && this.rng.chance(0.3) ? cols[0]! : `[${cols.join(', ')}]`;
      parts.push(`distinct_on: ${this.input.useVar(0.1) ? this.input.variable(distinctArg.type, cols).lit : distinct}`);
      if (order.length) parts.push(`order_by: ${this.orderList(orderArg.type, order)}`);
    } else if (orderArg && this.rng.chance(0.4)) {
      const v = this.input.value(orderArg.type, { depth: 0, nullChance: 0.03 });
      const item = inputObjectOf(orderArg.type) as GraphQLInputObjectType;
      terms = leadingTerms((Array.isArray(v.json) ? v.json : [v.json]).map((j) => orderTerms(j, item)));
      parts.push(`order_by: ${v.lit}`);
    }
    let where: unknown;
    if (this.rng.chance(root ? 0.5 : 0.3)) {
      const v = this.input.value(whereArg.type, { depth: 0, nullChance: 0.04 });
      where = v.json;
      parts.push(`where: ${v.lit}`);
    }
    let limit: number | null = null;
    const limitArg = argOf('limit');
    const chance = root ? this.cfg.limitChance.root : this.cfg.limitChance.nested;
    if (limitArg && this.rng.chance(chance)) {
      // `limit: null` is no limit: not where a limit is always wanted (chinook's root lists).
      const unlimited = this.rng.chance(0.05) && chance < 1;
      limit = unlimited ? null : this.rng.pick(LIMITS);
      if (limit !== null) this.deterministic = false;
      parts.push(`limit: ${this.input.useVar(0.15) ? this.input.variable(limitArg.type, limit).lit : String(limit)}`);
    }
    const offsetArg = argOf('offset');
    if (offsetArg && this.rng.chance(0.15)) {
      const n = this.rng.int(0, 4);
      if (n) this.deterministic = false;
      parts.push(`offset: ${this.input.useVar(0.15) ? this.input.variable(offsetArg.type, n).lit : String(n)}`);
    }
    const shuffled = this.rng.shuffle(parts);
    // A permission's row limit picks some of the rows, as a limit argument does.
    if (this.cfg.permLimit(table) !== null) this.deterministic = false;
    const facts: ListFacts = { maxItems: minOf(limit, this.cfg.permLimit(table)), where, order: terms[0] ?? null };
    return { text: shuffled.length ? `(${shuffled.join(', ')})` : '', facts };
  }

  private orderList(type: GraphQLInputType, items: readonly OrderItemVal[]): string {
    // Draw from `rng` before asking about a variable, so the literal twin draws the same.
    const single = items.length === 1 && this.rng.chance(0.2);
    if (this.input.useVar(0.1)) return this.input.variable(type, items.map((i) => i.val.json)).lit;
    if (single) return items[0]!.val.lit;
    return `[${items.map((i) => i.val.lit).join(', ')}]`;
  }
}

/**
 * The ORDER BY terms of order_by items as far as their order is certain: items in list order,
 * but the keys of one object in no certain order, so the terms stop before an item with several.
 */
function leadingTerms(items: readonly (readonly OrderTerm[])[]): OrderTerm[] {
  const out: OrderTerm[] = [];
  for (const terms of items) {
    if (terms.length > 1) break;
    out.push(...terms);
  }
  return out;
}

function minOf(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

/**
 * One random query for the schema from `seed`. With `variables: false` it is the literal twin:
 * the same query with every value written inline.
 */
export function generateQuery(seed: number, cfg: GenConfig, variables = true): GeneratedQuery {
  return new QueryGen(new Rng(seed), cfg, variables ? new Rng(seed ^ 0x243f6a88) : null).run();
}
