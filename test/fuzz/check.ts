// Invariants of a response to a generated query: every requested key and nothing else, lists as
// arrays within their limits, __typename naming the type, non-null values present, rows that pass
// their `where` and follow their first ORDER BY term (when the fields to judge were selected), and
// each row of a permission-filtered table inside the role's filter.
import { checkOrder, evalWhere } from './eval.js';
import type { GeneratedQuery, Sel } from './gen.js';

/** A row filter to check: the GraphQL fields it reads and the predicate on them. */
export interface RowRule {
  readonly needs: readonly string[];
  readonly ok: (row: Readonly<Record<string, unknown>>) => boolean;
}

export interface CheckContext {
  /** The role's filter on rows of a table type, for this request's session. */
  readonly rule: (typeName: string) => RowRule | null;
  /** Object relationships declared non-null may be null when the target's permission hides the row (Hasura does the same). */
  readonly strictObjects: boolean;
  /** Rows checked against a rule (coverage of the differential check). */
  checkedRows: number;
  /** The server prints bigint, numeric and float8 as strings (SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES). */
  readonly stringifyNumeric: boolean;
  /** Rows whose `where` could be judged, and lists whose order could. */
  whereRows: number;
  orderedLists: number;
}

const ALLOWED_CODES = new Set(['validation-failed', 'data-exception']);

interface Body {
  readonly data?: Record<string, unknown>;
  readonly errors?: readonly { readonly message?: string; readonly extensions?: { readonly code?: string } }[];
}

/** Problems with one HTTP answer to a generated query; empty when it is acceptable. */
export function judge(g: GeneratedQuery, status: number, text: string, ctx: CheckContext): string[] {
  if (status !== 200) return [`HTTP ${status}`];
  let body: Body;
  try {
    body = JSON.parse(text) as Body;
  } catch {
    return ['the body is not JSON'];
  }
  if (body === null || typeof body !== 'object') return ['the body is not a JSON object'];
  if (body.errors !== undefined) {
    const problems: string[] = [];
    if (!Array.isArray(body.errors) || body.errors.length === 0) return ['`errors` is not a non-empty array'];
    if (body.data !== undefined) problems.push('both `data` and `errors`');
    const codes = body.errors.map((e) => e.extensions?.code ?? '(no code)');
    const bad = codes.filter((c) => !ALLOWED_CODES.has(c));
    if (bad.length) problems.push(`error codes ${bad.join(', ')}`);
    else if (g.expectError && codes.some((c) => c !== g.expectError)) problems.push(`expected only ${g.expectError}, got ${codes.join(', ')}`);
    else if (!g.expectError && codes.some((c) => !g.risks.has(c))) problems.push(`a valid query failed: ${codes.join(', ')}`);
    return problems;
  }
  if (g.expectError) return [`expected ${g.expectError}, got data`];
  if (body.data === null || typeof body.data !== 'object') return ['no `data` object'];
  const problems: string[] = [];
  checkObject(body.data, g.sels, 'query_root', 'data', ctx, problems);
  return problems;
}

function checkObject(v: unknown, sels: readonly Sel[], typeName: string, path: string, ctx: CheckContext, out: string[]): void {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    out.push(`${path}: expected an object, got ${JSON.stringify(v)}`);
    return;
  }
  const obj = v as Record<string, unknown>;
  const keys = new Set(sels.map((s) => s.key));
  for (const k of Object.keys(obj)) if (!keys.has(k)) out.push(`${path}: key "${k}" was not requested`);
  for (const sel of sels) {
    if (!(sel.key in obj)) out.push(`${path}: missing key "${sel.key}"`);
    else checkValue(obj[sel.key], sel, typeName, `${path}.${sel.key}`, ctx, out);
  }
  const rule = ctx.rule(typeName);
  if (!rule) return;
  const row: Record<string, unknown> = {};
  for (const need of rule.needs) {
    const sel = sels.find((s) => s.field === need && !s.hasArgs);
    if (!sel) return;
    row[need] = obj[sel.key];
  }
  ctx.checkedRows++;
  if (!rule.ok(row)) out.push(`${path}: row ${JSON.stringify(row)} of ${typeName} breaks the role's filter`);
}

function checkValue(v: unknown, sel: Sel, parentType: string, path: string, ctx: CheckContext, out: string[]): void {
  if (sel.field === '__typename') {
    if (v !== parentType) out.push(`${path}: __typename ${JSON.stringify(v)}, expected "${parentType}"`);
    return;
  }
  if (v === null) {
    const strict = ctx.strictObjects || sel.list || sel.typeName === null || /_(aggregate|fields)$/.test(sel.typeName);
    if (sel.nonNull && strict && !sel.hasArgs) out.push(`${path}: null for a non-null field`);
    return;
  }
  if (sel.list) {
    if (!Array.isArray(v)) { out.push(`${path}: expected a list, got ${JSON.stringify(v).slice(0, 80)}`); return; }
    const facts = sel.facts;
    if (facts?.maxItems != null && v.length > facts.maxItems) out.push(`${path}: ${v.length} items, limit ${facts.maxItems}`);
    if (!sel.typeName || !sel.children) return;
    v.forEach((item, i) => checkObject(item, sel.children!, sel.typeName!, `${path}[${i}]`, ctx, out));
    if (facts?.where !== undefined) {
      v.forEach((item, i) => {
        const truth = evalWhere(facts.where, lookup(item, sel.children!));
        if (truth !== undefined) ctx.whereRows++;
        if (truth === false || truth === null) out.push(`${path}[${i}]: the row fails its where (${JSON.stringify(facts.where)})`);
      });
    }
    const by = facts?.order?.column ? sel.children.find((s) => s.field === facts.order!.column && !s.hasArgs && s.scalar) : undefined;
    if (by && v.length > 1) {
      ctx.orderedLists++;
      const problem = checkOrder(v.map((item) => (item as Record<string, unknown>)?.[by.key] ?? null), by.scalar!, facts!.order!.dir);
      if (problem) out.push(`${path}: order by ${by.field}: ${problem}`);
    }
    return;
  }
  if (sel.typeName && sel.children) checkObject(v, sel.children, sel.typeName, path, ctx, out);
  else if (sel.scalar && !sel.hasArgs) {
    const want = wireType(sel.scalar, ctx.stringifyNumeric);
    const got = Array.isArray(v) ? 'array' : typeof v;
    // A statistic (Float in the schema) follows its column's type, as Hasura prints it: a string
    // over a bigint or numeric column when numbers are stringified, which the schema cannot tell.
    const statistic = ctx.stringifyNumeric && sel.scalar === 'Float' && /_(avg|stddev|stddev_pop|stddev_samp|var_pop|var_samp|variance)_fields$/.test(parentType);
    if (want && got !== want && !(statistic && got === 'string' && !Number.isNaN(Number(v)))) out.push(`${path}: a ${sel.scalar} printed as ${got} ${JSON.stringify(v).slice(0, 40)}, expected ${want}`);
  }
}

// The JSON type a leaf of a GraphQL scalar has on the wire (reference/schema.md §8); null: any.
function wireType(scalar: string, stringify: boolean): string | null {
  if (scalar === 'Int' || scalar === 'Float') return 'number';
  if (scalar === 'bigint' || scalar === 'numeric' || scalar === 'float8') return stringify ? 'string' : 'number';
  if (scalar === 'Boolean') return 'boolean';
  if (['String', 'date', 'timestamptz', 'timestamp', 'time', 'uuid'].includes(scalar) || scalar.endsWith('_enum')) return 'string';
  if (scalar.startsWith('_')) return 'array';
  return null;
}

// A row's selected leaf values by field name (unaliased, argument-less selections only).
function lookup(item: unknown, sels: readonly Sel[]): (field: string) => { value: unknown; scalar: string } | undefined {
  return (field) => {
    const sel = sels.find((s) => s.field === field && !s.hasArgs && s.scalar !== null);
    if (!sel || item === null || typeof item !== 'object') return undefined;
    return { value: (item as Record<string, unknown>)[sel.key], scalar: sel.scalar! };
  };
}

/** The `count` of a root `<t>_aggregate { aggregate { count } }` without arguments, with the table type; else null. */
export function plainCounts(g: GeneratedQuery, data: Record<string, unknown>): { typeName: string; count: unknown }[] {
  const out: { typeName: string; count: unknown }[] = [];
  for (const root of g.sels) {
    if (root.hasArgs || !root.typeName?.endsWith('_aggregate') || !root.children) continue;
    const agg = root.children.find((s) => s.field === 'aggregate');
    const count = agg?.children?.find((s) => s.field === 'count' && !s.hasArgs);
    const aggValue = (data[root.key] as Record<string, unknown> | null)?.[agg?.key ?? ''] as Record<string, unknown> | null | undefined;
    if (!agg || !count || !aggValue) continue;
    out.push({ typeName: root.typeName.slice(0, -'_aggregate'.length), count: aggValue[count.key] });
  }
  return out;
}
