// Argument values for generated queries, by walking the role's input types: boolean expressions
// (columns, _and/_or/_not, relationships, jsonb and array operators), order_by objects and any
// other input object, as literals or (sometimes) through variables declared with the exact type.
import { astFromValue, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType,
  print, type GraphQLInputObjectType, type GraphQLInputType, type GraphQLScalarType } from 'graphql';
import type { Rng } from './prng.js';
import { jsonLiteral, scalarValue, type Val } from './values.js';

/** Where a value goes: the table type and field it compares, the operator, the nesting depth. */
export interface Hint {
  readonly table?: string;
  readonly field?: string;
  readonly op?: string;
  readonly depth?: number;
  readonly nullChance?: number;
}

/** Sampled column values, by table type name and GraphQL field name. */
export type Samples = (table: string, field: string) => readonly unknown[];

const VAR_CHANCE = 0.12;
const ORDER_DIRS = ['asc', 'desc', 'asc_nulls_first', 'asc_nulls_last', 'desc_nulls_first', 'desc_nulls_last'] as const;

/** One ORDER BY term: the column of a plain column term (null for relationships, aggregates) and its direction. */
export interface OrderTerm {
  readonly column: string | null;
  readonly dir: string;
}

/** One order_by item and its ORDER BY terms. */
export interface OrderItemVal {
  readonly val: Val;
  readonly terms: readonly OrderTerm[];
}

/** The terms an order_by object makes, in order: a null direction makes none (Hasura skips it). */
export function orderTerms(json: unknown, t: GraphQLInputObjectType): OrderTerm[] {
  if (json === null || typeof json !== 'object') return [];
  const out: OrderTerm[] = [];
  for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
    const f = t.getFields()[k];
    if (v === null || !f) continue;
    const named = getNamedType(f.type);
    if (isEnumType(named)) out.push({ column: k, dir: String(v) });
    else if (isInputObjectType(named)) out.push(...orderTerms(v, named).map((x) => ({ column: null, dir: x.dir })));
  }
  return out;
}

/** Builds input values; collects the variables it declares and how a value may be rejected. */
export class InputGen {
  readonly declarations: string[] = [];
  readonly values: Record<string, unknown> = {};
  /** Error codes the values may draw (a malformed date: data-exception; a bad JSON path: validation-failed). */
  readonly risks = new Set<string>();

  /**
   * `varRng` decides where variables go, apart from `rng`, so the same seed without it writes
   * the same query with every value inline (the literal twin the test compares answers with).
   */
  constructor(readonly rng: Rng, private readonly samples: Samples, private readonly varRng: Rng | null,
    private readonly nestedAggregateOrder = true) {}

  /** Whether to pass a value through a variable here (never in the literal twin). */
  useVar(p: number): boolean {
    return this.varRng !== null && this.varRng.chance(p);
  }

  /**
   * A new variable `$vN` of exactly `type` holding `json`; now and then the value is the
   * variable's default instead (left out of the request), or a null left out.
   */
  variable(type: GraphQLInputType, json: unknown): Val {
    const name = `v${this.declarations.length}`;
    const r = this.varRng?.next() ?? 1;
    let decl = `$${name}: ${String(type)}`;
    let omit = r < 0.04 && json === null && !isNonNullType(type);
    const ast = r >= 0.04 && r < 0.12 ? defaultLiteral(json, type) : null;
    if (ast !== null) { decl += ` = ${ast}`; omit = true; }
    this.declarations.push(decl);
    if (!omit) this.values[name] = json;
    return { lit: `$${name}`, json };
  }

  /** A value of `type`; `inVar` when it is already inside a variable (no nested variables then). */
  value(type: GraphQLInputType, h: Hint = {}, inVar = false, varHere = !inVar): Val {
    if (varHere && this.useVar(VAR_CHANCE)) return this.variable(type, this.value(type, h, true).json);
    const nonNull = isNonNullType(type);
    const t = nonNull ? type.ofType : type;
    if (!nonNull && this.rng.chance(h.nullChance ?? 0.04)) return { lit: 'null', json: null };
    if (isListType(t)) {
      const n = this.rng.int(0, 3);
      // GraphQL input coercion: a single value stands for a list of one (a variable of the item
      // type may not stand there, so none is made at this level). Not for scalars whose values
      // are lists themselves (`_text`, jsonb): `_in: ["a"]` is then a list of one "a".
      const named = getNamedType(t.ofType).name;
      const listLike = named.startsWith('_') || named === 'jsonb' || named === 'json';
      if (n === 1 && this.rng.chance(0.2) && !listLike) return this.value(t.ofType, { ...h, nullChance: 0 }, inVar, false);
      const items = Array.from({ length: n }, () => this.value(t.ofType, h, inVar));
      return { lit: `[${items.map((i) => i.lit).join(', ')}]`, json: items.map((i) => i.json) };
    }
    if (isEnumType(t)) {
      const v = this.rng.pick(t.getValues()).name;
      return { lit: v, json: v };
    }
    if (isScalarType(t)) return this.scalar(t, h);
    return this.object(t, h, inVar);
  }

  private scalar(t: GraphQLScalarType, h: Hint): Val {
    const samples = h.table && h.field ? this.samples(h.table, h.field) : [];
    let pick = scalarValue(this.rng, t.name, samples, h.op ?? null);
    let lit = jsonLiteral(pick.value);
    // A sampled JSON value whose keys are not GraphQL names is replaced (in both twins alike).
    while (lit === null) {
      pick = scalarValue(this.rng, t.name, [], h.op ?? null);
      lit = jsonLiteral(pick.value);
    }
    if (pick.risky) this.risks.add(pick.risky);
    return { lit, json: pick.value };
  }

  private object(t: GraphQLInputObjectType, h: Hint, inVar: boolean): Val {
    if (t.name.endsWith('_bool_exp')) return this.boolExp(t, h.depth ?? 0, inVar);
    if (t.name.endsWith('_comparison_exp')) return this.comparison(t, h, inVar);
    if (t.name.endsWith('_order_by')) return this.orderBy(t, h.depth ?? 0, inVar);
    const fields = Object.values(t.getFields());
    const chosen = fields.filter((f) => isNonNullType(f.type) || this.rng.chance(0.5));
    if (chosen.length === 0 && fields.length) chosen.push(this.rng.pick(fields));
    return this.objectOf(chosen.map((f) => [f.name, this.value(f.type, { ...h, field: f.name, op: f.name }, inVar)]));
  }

  private objectOf(entries: readonly (readonly [string, Val])[]): Val {
    return {
      lit: `{${entries.map(([k, v]) => `${k}: ${v.lit}`).join(', ')}}`,
      json: Object.fromEntries(entries.map(([k, v]) => [k, v.json])),
    };
  }

  /** `<t>_bool_exp`: a few keys among columns, relationships and _and/_or/_not, three levels deep at most. */
  boolExp(t: GraphQLInputObjectType, depth: number, inVar: boolean): Val {
    const table = t.name.slice(0, -'_bool_exp'.length);
    const all = Object.values(t.getFields());
    const leafOnly = depth >= 3;
    const usable = all.filter((f) => !leafOnly || getNamedType(f.type).name.endsWith('_comparison_exp'));
    const n = this.rng.chance(0.06) ? 0 : this.rng.chance(0.65) ? 1 : this.rng.int(2, 3);
    const entries = this.rng.some(usable, n).map((f): [string, Val] => {
      const named = getNamedType(f.type).name;
      // Never null: Hasura v2 refuses a null for a boolean expression's fields (validate-words.ts refusesNull).
      if (named.endsWith('_comparison_exp')) return [f.name, this.value(f.type, { table, field: f.name, nullChance: 0 }, inVar)];
      return [f.name, this.value(f.type, { depth: depth + 1, nullChance: 0 }, inVar)];
    });
    return this.objectOf(entries);
  }

  /** `<scalar>_comparison_exp`: one or two operators with values of the column's type. */
  private comparison(t: GraphQLInputObjectType, h: Hint, inVar: boolean): Val {
    const ops = Object.values(t.getFields());
    const chosen = this.rng.some(ops, this.rng.chance(0.75) ? 1 : 2);
    return this.objectOf(chosen.map((f) => {
      // Column samples fit operators of the column's own type (not `_is_null`, `_has_key`, `_cast`).
      const own = getNamedType(f.type).name === t.name.slice(0, -'_comparison_exp'.length);
      // An operand is never null but for `_has_key`, whose parser takes one (Hasura v2).
      const nullChance = f.name === '_has_key' ? 0.05 : 0;
      const hint: Hint = own ? { table: h.table, field: h.field, op: f.name, nullChance } : { op: f.name, nullChance };
      return [f.name, this.value(f.type, hint, inVar)];
    }));
  }

  /** `<t>_order_by` (and aggregate order_by objects): usually one key, a direction or a nested object. */
  private orderBy(t: GraphQLInputObjectType, depth: number, inVar: boolean): Val {
    // Ordering by an aggregate across an object relationship (track by genre.tracks_aggregate.count)
    // costs rows x siblings on a big fixture: seconds per query on chinook, so it can be turned off.
    const fields = Object.values(t.getFields()).filter((f) => (depth < 2 || isEnumType(getNamedType(f.type)))
      && (this.nestedAggregateOrder || depth === 0 || !getNamedType(f.type).name.endsWith('_aggregate_order_by')));
    if (fields.length === 0) return { lit: '{}', json: {} };
    const chosen = this.rng.some(fields, this.rng.chance(0.85) ? 1 : 2);
    // An aggregate order_by's operators (`max`, `sum`, ...) take no explicit null, its `count` does
    // (Hasura's orderByAggregation; validate-words.ts refusesNull).
    const aggregate = t.name.endsWith('_aggregate_order_by');
    return this.objectOf(chosen.map((f) => [f.name, this.value(f.type,
      { depth: depth + 1, nullChance: aggregate && isInputObjectType(getNamedType(f.type)) ? 0 : 0.05 }, inVar)]));
  }

  /** A direction literal, never null. */
  direction(): Val {
    const d = this.rng.pick(ORDER_DIRS);
    return { lit: d, json: d };
  }

  /** One order_by item of `type` (the list's item type), random, with the ORDER BY terms it makes. */
  orderItem(type: GraphQLInputType): OrderItemVal {
    // No variables inside: the caller may put the whole list in one.
    const val = this.value(type, { depth: 0, nullChance: 0 }, true);
    return { val, terms: orderTerms(val.json, getNamedType(type) as GraphQLInputObjectType) };
  }

  /** An order_by item on one column, with a direction. */
  columnOrderItem(column: string): OrderItemVal {
    const d = this.direction();
    return { val: { lit: `{${column}: ${d.lit}}`, json: { [column]: d.json } }, terms: [{ column, dir: d.lit }] };
  }
}

// `value` as a GraphQL literal of `type` for a default value; null when it has none (a jsonb
// object or an array scalar cannot be written as a literal of a custom scalar by graphql-js).
function defaultLiteral(value: unknown, type: GraphQLInputType): string | null {
  try {
    const ast = astFromValue(value, type);
    return ast ? print(ast) : null;
  } catch {
    return null;
  }
}

/** The named input object type of an argument. */
export function inputObjectOf(type: GraphQLInputType): GraphQLInputObjectType | null {
  const named = getNamedType(type);
  return isInputObjectType(named) ? named : null;
}
