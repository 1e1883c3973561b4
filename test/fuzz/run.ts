// Runs one generated query against a fixture's server and judges the answer: the invariants of
// check.ts, a direct count for argument-less aggregates, and the literal twin (the same query with
// every value inline) answering the same as the query with variables.
import type { TableModel } from '../../runtime/bundle/index.js';
import type { TestDatabase } from '../helpers/database.js';
import type { TestKiln } from '../helpers/kiln.js';
import { judge, plainCounts, type CheckContext } from './check.js';
import type { Facts, FixtureCase, RoleCase } from './fixtures.js';
import { generateQuery, type GenConfig } from './gen.js';
import { Rng } from './prng.js';

/** One fixture's database and servers (plain, and with stringified numbers), and what was read from it. */
export interface Env {
  readonly db: TestDatabase;
  readonly kiln: TestKiln;
  readonly stringified: TestKiln;
  readonly facts: Facts;
  readonly samples: ReadonlyMap<string, unknown[]>;
  readonly tables: ReadonlyMap<string, TableModel>;
}

/** Outcome counts of one role's run, printed as the generator's coverage. */
export interface Stats {
  data: number; errors: Record<string, number>; checkedRows: number; whereRows: number; orderedLists: number; counts: number;
  twins: number; slowest: { ms: number; seed: number }; features: Record<string, number>;
}

/** Empty stats. */
export function newStats(): Stats {
  return { data: 0, errors: {}, checkedRows: 0, whereRows: 0, orderedLists: 0, counts: 0, twins: 0, slowest: { ms: 0, seed: 0 }, features: {} };
}

/** A request with no answer in this time fails (a runaway query); normal ones take milliseconds. */
const REQUEST_TIMEOUT = 30_000;

const FEATURES: Record<string, RegExp> = {
  where: /where:/, order_by: /order_by:/, distinct_on: /distinct_on:/, limit: /limit:/, offset: /offset:/,
  aggregate: /_aggregate/, nodes: /nodes/, variables: /\$v\d/, fragment: /\.\.\./, alias: /\bk\d+:/, '_and/_or/_not': /_(and|or|not):/,
  directive: /@(skip|include)/, __typename: /__typename/, path: /path:/, _in: /_n?in:/, _like: /_n?i?like:/, jsonb: /_has_key|_contain/, 'variable default': /\$v\d+: [^,)]+ = /,
};

/** What the generator needs to know about the fixture and role. */
export function genConfig(fixture: FixtureCase, role: string, env: Env): GenConfig {
  const limits = env.kiln.bundle.model.select[role] ?? {};
  return {
    schema: env.kiln.bundle.schemas[role]!,
    samples: (table, field) => env.samples.get(`${table}.${field}`) ?? [],
    permLimit: (typeName) => limits[env.tables.get(typeName)?.id ?? '']?.limit ?? null,
    mustSelect: (typeName) => fixture.rule(role, typeName, { 'x-svc-user-id': '1', 'x-svc-customer-id': '1' }, env.facts)?.needs ?? [],
    limitChance: fixture.limitChance,
    nestedAggregateOrder: fixture.nestedAggregateOrder,
  };
}

/** Generates, sends and judges the query of `seed`; a failure report with everything to reproduce it, or null. */
export async function runOne(fixture: FixtureCase, rc: RoleCase, env: Env, seed: number, stats: Stats, verbose: boolean): Promise<string | null> {
  const g = generateQuery(seed, genConfig(fixture, rc.role, env));
  const headers = rc.headers(new Rng(seed ^ 0x5bd1e995));
  const server = rc.stringify ? env.stringified : env.kiln;
  const ctx = (): CheckContext => ({ rule: (t) => fixture.rule(rc.role, t, headers, env.facts), strictObjects: rc.role === 'admin',
    stringifyNumeric: rc.stringify ?? false, checkedRows: 0, whereRows: 0, orderedLists: 0 });
  for (const [name, re] of Object.entries(FEATURES)) if (re.test(g.query)) stats.features[name] = (stats.features[name] ?? 0) + 1;
  if (verbose) console.log(`${g.query}\n${JSON.stringify(g.variables)}`);
  const where = `seed ${seed} (${fixture.name}/${rc.role}${rc.stringify ? ', stringified numbers' : ''}; run alone with KILN_FUZZ_ONLY=${seed})`;
  const started = performance.now();
  const res = await post(server, { query: g.query, variables: g.variables }, headers);
  const ms = Math.round(performance.now() - started);
  if (res === null) return `${where}: no answer in ${REQUEST_TIMEOUT} ms\nquery:\n${g.query}\nvariables: ${JSON.stringify(g.variables)}`;
  if (ms > stats.slowest.ms) stats.slowest = { ms, seed };
  if (verbose) console.log(res.text);
  const c = ctx();
  const problems = judge(g, res.status, res.text, c);
  stats.checkedRows += c.checkedRows;
  stats.whereRows += c.whereRows;
  stats.orderedLists += c.orderedLists;
  if (problems.length === 0) {
    const body = JSON.parse(res.text) as { data?: Record<string, unknown>; errors?: { message: string; extensions: { code: string } }[] };
    if (body.data) {
      stats.data++;
      for (const count of plainCounts(g, body.data)) {
        stats.counts++;
        const want = await directCount(fixture, rc, env, count.typeName, headers);
        if (count.count !== want) problems.push(`${count.typeName}_aggregate count ${JSON.stringify(count.count)}, the database says ${want}`);
      }
    }
    for (const e of body.errors ?? []) {
      const what = `${e.extensions.code}: ${e.message.replace(/"[^"]*"/g, '"…"').slice(0, 60)}`;
      stats.errors[what] = (stats.errors[what] ?? 0) + 1;
    }
  }
  if (problems.length === 0 && Object.keys(g.variables).length) {
    // The literal twin: the same query with every value inline must answer the same.
    const twin = generateQuery(seed, genConfig(fixture, rc.role, env), false);
    if (JSON.stringify(twin.sels) !== JSON.stringify(g.sels)) return `${where}: the literal twin is another query (a generator bug)\n${g.query}\n${twin.query}`;
    const twinRes = await post(server, { query: twin.query }, headers);
    if (twinRes === null) return `${where}: the literal twin had no answer in ${REQUEST_TIMEOUT} ms\n${twin.query}`;
    stats.twins++;
    const twinProblems = judge(twin, twinRes.status, twinRes.text, ctx());
    const diff = twinProblems.length ? twinProblems.join('; ') : sameAnswer(res.text, twinRes.text, g.deterministic, g.risks);
    if (diff) problems.push(`literal twin: ${diff}\ntwin query:\n${twin.query}\ntwin response: ${twinRes.text.slice(0, 800)}`);
  }
  if (problems.length === 0) return null;
  return [where, `problems: ${problems.slice(0, 5).join('; ')}`, `headers: ${JSON.stringify(headers)}`, `query:\n${g.query}`,
    `variables: ${JSON.stringify(g.variables)}`, `response (${res.status}): ${res.text.slice(0, 1500)}`].join('\n');
}

// POST /v1/graphql through the socket; null when there is no answer in time (a runaway query).
async function post(kiln: TestKiln, body: unknown, headers: Record<string, string>): Promise<{ status: number; text: string } | null> {
  try {
    const res = await fetch(`${kiln.url}/v1/graphql`, { method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers }, signal: AbortSignal.timeout(REQUEST_TIMEOUT) });
    return { status: res.status, text: await res.text() };
  } catch (e) {
    if ((e as Error).name === 'TimeoutError') return null;
    throw e;
  }
}

// The rows of the table the role may see, counted from the database and the role's rule.
async function directCount(fixture: FixtureCase, rc: RoleCase, env: Env, typeName: string, headers: Record<string, string>): Promise<number> {
  const t = env.tables.get(typeName)!;
  const q = (s: string): string => `"${s.replace(/"/g, '""')}"`;
  const rule = fixture.rule(rc.role, typeName, headers, env.facts);
  const columns = (rule?.needs ?? []).map((f) => t.columns.find((c) => c.field === f)!);
  const select = columns.length ? columns.map((c) => `${q(c.name)} AS ${q(c.field)}`).join(', ') : '1';
  const rows = await env.db.query<Record<string, unknown>>(`SELECT ${select} FROM ${q(t.schema)}.${q(t.name)}`);
  const n = rule ? rows.filter((r) => rule.ok(r)).length : rows.length;
  const limit = env.kiln.bundle.model.select[rc.role]?.[t.id]?.limit ?? null;
  return limit === null ? n : Math.min(n, limit);
}

// Same outcome: the same error codes, or data that is equal up to row order (when deterministic).
// A value the database may reject (a malformed regex in an OR branch) is only evaluated when a row
// reaches it, and a literal may be checked at plan time; a distinct_on lead that depends on the key
// order of one order_by object differs between a literal and a variable: there data against that
// error is fine.
function sameAnswer(a: string, b: string, deterministic: boolean, risks: ReadonlySet<string>): string | null {
  const x = JSON.parse(a) as { data?: unknown; errors?: { extensions: { code: string } }[] };
  const y = JSON.parse(b) as typeof x;
  const codes = (e: typeof x['errors']): string => [...new Set((e ?? []).map((i) => i.extensions.code))].sort().join(',');
  if (codes(x.errors) !== codes(y.errors)) {
    const either = [...(x.errors ?? []), ...(y.errors ?? [])].map((e) => e.extensions.code);
    return either.every((c) => risks.has(c)) ? null : `errors [${codes(x.errors)}] vs [${codes(y.errors)}]`;
  }
  if (!deterministic || x.data === undefined) return null;
  return canonical(x.data) === canonical(y.data) ? null : 'different data';
}

// JSON with object keys in order and list items sorted, so row order does not matter.
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).sort().join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  return JSON.stringify(v);
}
